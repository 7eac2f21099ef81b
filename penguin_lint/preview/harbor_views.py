"""Harbor boards and their changes in every format of ``preview``: text,
Markdown (every value inert: no link, even from a link column), JSON and
HTML sections (escaped; a link column's target shown as text, never as a link).
"""
from __future__ import annotations

from typing import List, Optional, Sequence

from penguin_lint.output.html import esc
from penguin_lint.output.log_guard import sanitize
from penguin_lint.output.markdown import md
from penguin_lint.preview.cells import rank_move
from penguin_lint.preview.harbor import Cell, Column, HarborBoard, HarborRow
from penguin_lint.preview.model import Change

MARKDOWN_ROWS = 500


def _title(b: HarborBoard) -> str:
    return b.title or b.name or b.path


def _notes(b: HarborBoard, markdown: bool = False) -> List[str]:
    """What the table leaves out; in Markdown, text from the files (paths)
    is made inert and the tool's own words are left as they are."""
    out = [md(b.note, False) if markdown else b.note] if b.note else []
    if b.hidden:
        out.append(f"{b.hidden:,} {'row' if b.hidden == 1 else 'rows'} hidden (status hide), not shown")
    if not b.files:
        out.append("no rows file")
    return out


def _what(c: Change, columns: Sequence[Column]) -> List[str]:
    """A changed row's differences: ``Accuracy 41.4% → 44.3%``."""
    if c.kind != "changed" or c.before is None or c.after is None:
        return []
    return [f"{col.header} {old.plain()} → {new.plain()}"
            for col, old, new in zip(columns, c.before.cells_after(), c.after.cells) if old != new]


# -- text ---------------------------------------------------------------------
def text_board(b: HarborBoard) -> str:
    out = ["harbor leaderboard " + sanitize(_title(b)) + f" ({sanitize(b.path)})"]
    if b.problem:
        return "\n".join(out + ["  " + sanitize(b.problem), ""])
    out += ["  " + sanitize(n) for n in _notes(b)]
    heads = ["rank"] + [sanitize(c.header) for c in b.columns]
    rows = [[str(r.rank)] + [sanitize(cell.plain()) for cell in r.cells] for r in b.rows]
    widths = [max([len(h)] + [len(row[i]) for row in rows]) for i, h in enumerate(heads)]
    right = {0} | {i + 1 for i, c in enumerate(b.columns) if c.align == "right"}

    def line(cells):
        return "  ".join(x.rjust(w) if i in right else x.ljust(w)
                         for i, (x, w) in enumerate(zip(cells, widths))).rstrip()
    out += [line(heads)] + [line(r) for r in rows] + [""]
    return "\n".join(out)


def text_changes(b: HarborBoard, a: HarborBoard, changes: Sequence[Change], all_rows: bool) -> str:
    shown = [c for c in changes if all_rows or c.kind != "unchanged"]
    if not shown and b.problem == a.problem:
        return ""
    out = ["harbor leaderboard " + sanitize(_title(a)) + f" ({sanitize(a.path)})"]
    if a.problem or b.problem:
        out.append(f"  before: {sanitize(b.problem or 'ok')}; after: {sanitize(a.problem or 'ok')}")
    for c in shown:
        line = f"  {c.kind:<9} {sanitize(c.key)}  rank {rank_move(c)}"
        what = _what(c, a.columns)
        if what:
            line += "  (" + sanitize(", ".join(what)) + ")"
        out.append(line)
    return "\n".join(out + [""])


# -- Markdown -----------------------------------------------------------------
def markdown_board(b: HarborBoard) -> str:
    out = [f"### {md(_title(b), False)}", "", f"Harbor leaderboard {md(b.path, False)}", ""]
    if b.problem:
        return "\n".join(out + [md(b.problem, False), ""])
    out += [f"*{n}*\n" for n in _notes(b, markdown=True)]
    out.append("| rank | " + " | ".join(md(c.header) for c in b.columns) + " |")
    out.append("|---:|" + "|".join("---:" if c.align == "right" else ":---:" if c.align == "center" else "---"
                                   for c in b.columns) + "|")
    for r in b.rows[:MARKDOWN_ROWS]:
        out.append(f"| {r.rank} | " + " | ".join(md(cell.plain()) for cell in r.cells) + " |")
    if len(b.rows) > MARKDOWN_ROWS:
        out += ["", f"*{len(b.rows) - MARKDOWN_ROWS:,} more rows not listed here "
                    "(`penguin-lint preview --format json` lists every row).*"]
    return "\n".join(out + [""])


def markdown_changes(b: HarborBoard, a: HarborBoard, changes: Sequence[Change], all_rows: bool) -> str:
    shown = [c for c in changes if all_rows or c.kind != "unchanged"]
    if not shown and b.problem == a.problem:
        return ""
    out = [f"### {md(_title(a), False)}", "", f"Harbor leaderboard {md(a.path, False)}", ""]
    if a.problem or b.problem:
        out += [f"before: {md(b.problem or 'ok', False)}; after: {md(a.problem or 'ok', False)}", ""]
    if shown:
        out += ["| change | entry | rank | what changed |", "|---|---|---:|---|"]
        for c in shown[:MARKDOWN_ROWS]:
            row = c.after or c.before
            entry = "; ".join(x.plain() for x in row.cells[:2]) if row is not None else ""
            out.append(f"| {c.kind} | {md(c.key)} {md(entry)} | {md(rank_move(c))} | "
                       f"{md('; '.join(_what(c, a.columns)))} |")
    return "\n".join(out + [""])


# -- JSON ---------------------------------------------------------------------
def json_changes(b: HarborBoard, a: HarborBoard, changes: Sequence[Change]) -> dict:
    def row(r: Optional[HarborRow], cols) -> Optional[dict]:
        return r.to_dict(cols) if r is not None else None
    return {"definition": a.path, "before": b.to_dict(), "after": a.to_dict(),
            "changes": [{"kind": c.kind, "key": c.key, "fields": c.fields,
                         "before": row(c.before, b.columns), "after": row(c.after, a.columns)}
                        for c in changes if c.kind != "unchanged"]}


# -- HTML ---------------------------------------------------------------------
def _td(cell: Cell, col: Column, old: Optional[Cell] = None) -> str:
    cls = {"right": "n", "center": "c"}.get(col.align, "")
    if cell.text is None:
        body = '<span class="missing">—</span>'
    elif cell.url:
        # the target as text in a tooltip: no value of a row becomes a link
        body = f'<span class="link" title="{esc(cell.url)}">{esc(cell.text)}</span>'
    else:
        body = esc(cell.text)
    if old is not None and old != cell:
        body = f'<span class="changed">{esc(old.plain())} → {body}</span>'
    return f'<td class="{cls}">{body}</td>' if cls else f"<td>{body}</td>"


def html_board(i: int, b: HarborBoard, before: Optional[HarborBoard] = None,
               changes: Sequence[Change] = ()) -> str:
    out = [f'<section class="board harbor" id="harbor-{i}"><h2>{esc(_title(b))}</h2>'
           f'<div class="lbid">Harbor leaderboard · {esc(b.path)}</div>']
    if before is not None and before.problem != b.problem:
        out.append(f'<p class="problem">before: {esc(before.problem or "ok")}; after: {esc(b.problem or "ok")}</p>')
    elif b.problem:
        out.append(f'<p class="problem">{esc(b.problem)}</p>')
    if b.problem:
        return "".join(out) + "</section>"
    out += [f'<p class="note">{esc(n)}</p>' for n in _notes(b)]
    by_after = {id(c.after): c for c in changes if c.after is not None}
    head = "".join(f'<th class="{ {"right": "n", "center": "c"}.get(c.align, "") }">{esc(c.header)}</th>'
                   for c in b.columns)
    out.append('<div class="card table"><h3>Table</h3><table><thead><tr><th class="n">Rank</th>'
               f"{head}</tr></thead><tbody>")
    for r in b.rows[:2000]:
        c = by_after.get(id(r)) if before is not None else None
        out.append(_tr(r, b.columns, c))
    for c in changes:
        if c.kind == "removed" and c.before is not None:
            out.append(_tr(c.before, b.columns, c))
    out.append("</tbody></table></div>")
    return "".join(out) + "</section>"


def _tr(r: HarborRow, columns: Sequence[Column], c: Optional[Change]) -> str:
    kind = c.kind if c is not None else ""
    rank = esc(str(r.rank))
    if c is not None and kind in ("changed", "added", "removed"):
        move = rank_move(c)
        cls = "up" if "▲" in move else "down" if "▼" in move else ""
        rank = f'<span class="{cls}">{esc(move)}</span>' if cls else esc(move)
    olds = c.before.cells_after() if kind == "changed" and c.before is not None else None
    cells = r.cells_after()
    tds = "".join(_td(cell, col, olds[j] if olds is not None and j < len(olds) else None)
                  for j, (cell, col) in enumerate(zip(cells, columns)))
    badge = {"added": "new", "removed": "removed", "changed": "changed"}.get(kind)
    mark = f'<span class="badge">{badge}</span>' if badge else ""
    return (f'<tr class="{kind}" title="{esc(r.key)}"><td class="n rank">{rank}{mark}</td>{tds}</tr>')
