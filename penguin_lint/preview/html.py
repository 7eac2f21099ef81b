"""Boards as one self-contained HTML page, the three views of RFC-0005:
the Table (entries by score, bars with std whiskers), the Pareto front
(score against cost, duration or tokens, switched without script) and the
Waffle (tasks by entries, coloured by score, the value on hover).

The page runs nothing and loads nothing: inline CSS and SVG only, under a
Content-Security-Policy that allows no script, font, frame or fetch, and
every text from the repository (titles, ids, model names, tasks) escaped
(``output.html.esc``). The axis switch is three radio inputs whose
``:checked`` state CSS follows.
"""
from __future__ import annotations

from typing import Dict, List, Optional, Sequence

from penguin_lint.output.html import esc
from penguin_lint.preview import svg
from penguin_lint.preview.cells import num, ordered, rank_move
from penguin_lint.preview.model import AXES, Board, Change, Row

CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'"
# The Table lists this many rows of a board (a note says how many more).
HTML_ROWS = 2000

_STYLE = """
:root{--ink:#1f2933;--muted:#66768a;--line:#e3e8ee;--accent:#2f6fde;--front:#e8590c;--bg:#f6f8fb}
*{box-sizing:border-box}
body{margin:0;font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;
 color:var(--ink);background:var(--bg)}
header.top{background:#14213d;color:#fff;padding:20px 32px}
header.top h1{margin:0;font-size:22px;font-weight:650}
header.top p{margin:4px 0 0;color:#c9d3e3}
main{max-width:1180px;margin:0 auto;padding:16px 24px 48px}
section.board{margin:24px 0}
section.board>h2{font-size:20px;margin:0 0 2px}
.lbid{color:var(--muted);font:13px ui-monospace,SFMono-Regular,Menlo,monospace}
.card{background:#fff;border:1px solid var(--line);border-radius:10px;padding:16px 20px;margin:14px 0;
 box-shadow:0 1px 2px rgba(20,33,61,.05);overflow-x:auto}
.card h3{margin:0 0 10px;font-size:15px;text-transform:uppercase;letter-spacing:.06em;color:var(--muted)}
table{border-collapse:collapse;width:100%}
th{text-align:left;font-weight:600;color:var(--muted);font-size:12px;text-transform:uppercase;
 letter-spacing:.04em;border-bottom:2px solid var(--line);padding:6px 8px}
td{border-bottom:1px solid var(--line);padding:7px 8px;vertical-align:middle}
td.n,th.n{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
td.rank{font-weight:700;width:3.5em}
.model{font-weight:600}.sub{color:var(--muted);font-size:12px}
svg.bar .fill{fill:var(--accent)}svg .whisker{stroke:#14213d;stroke-width:1.4;fill:none}
tr.added td{background:#ebfbee}tr.removed td{background:#fff0f0;color:var(--muted);text-decoration:line-through}
.changed{background:#fff4d6;border-radius:4px;padding:1px 4px}
.up{color:#2b8a3e;font-weight:700}.down{color:#c92a2a;font-weight:700}
.badge{display:inline-block;font-size:11px;border-radius:8px;padding:0 6px;margin-left:6px;background:#e7f5ff;
 color:#1864ab}
.problem{color:#c92a2a}.note{color:var(--muted);font-style:italic}
.ax{position:absolute;opacity:0;pointer-events:none}
.switch{display:flex;gap:6px;margin-bottom:8px}
.switch label{border:1px solid var(--line);border-radius:16px;padding:3px 12px;cursor:pointer;color:var(--muted)}
.plot{display:none}
.ax-cost:checked~.card .p-cost,.ax-duration_ms:checked~.card .p-duration_ms,
.ax-token:checked~.card .p-token{display:block}
.ax-cost:checked~.card .sw-cost,.ax-duration_ms:checked~.card .sw-duration_ms,
.ax-token:checked~.card .sw-token{background:var(--accent);border-color:var(--accent);color:#fff}
.ax:focus-visible~.card .switch{outline:2px solid var(--accent)}
svg text{font:12px system-ui,-apple-system,"Segoe UI",Roboto,Arial,sans-serif;fill:var(--ink)}
svg .grid{stroke:var(--line)}svg .tick{fill:var(--muted)}svg .axis{fill:var(--muted);font-weight:600}
svg .pt{fill:#9fb3c8;stroke:#fff;stroke-width:1.5}svg .pt.front{fill:var(--front)}
svg .frontier{fill:none;stroke:var(--front);stroke-width:2;stroke-dasharray:6 4}
svg .ghost{fill:none;stroke:#9fb3c8;stroke-dasharray:2 2}svg .moved{stroke:#9fb3c8}
svg .pt-label{font-weight:600}svg .pt-label.off{font-weight:400;fill:var(--muted)}
svg .cell{stroke:#fff}svg .cell.none,svg rect.none{fill:#edf0f3}
svg .task,svg .entry{font-size:11.5px}
.legend{color:var(--muted);font-size:12px}.swatch{display:inline-flex;gap:4px;align-items:center;margin:0 8px}
.empty{color:var(--muted)}
td.c,th.c{text-align:center}.missing{color:var(--muted)}.link{text-decoration:underline dotted}
section.harbor th{text-transform:none}
"""


def render_html(boards: Sequence[Board], harbor=()) -> str:
    """The page of ``boards`` (and of the Harbor boards ``harbor``)."""
    from penguin_lint.preview.harbor_views import html_board

    n = len(boards) + len(harbor)
    return _page([_board(i, b) for i, b in enumerate(boards)] + [html_board(i, h) for i, h in enumerate(harbor)],
                 f"{n} leaderboard" + ("s" if n != 1 else ""))


def render_changes_html(results, harbor_results=()) -> str:
    """The page of a change: each board after it, with what moved before → after."""
    from penguin_lint.preview.harbor_views import html_board

    sections = [_board(i, a, b, changes) for i, (b, a, changes) in enumerate(results)]
    sections += [html_board(i, a, b, changes) for i, (b, a, changes) in enumerate(harbor_results)]
    return _page(sections, "before → after")


def _page(sections: List[str], what: str) -> str:
    return "".join([
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n",
        f'<meta http-equiv="Content-Security-Policy" content="{CSP}">\n',
        '<meta name="referrer" content="no-referrer">\n',
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n',
        f"<title>Leaderboard preview ({esc(what)})</title>\n<style>{_STYLE}</style></head>\n<body>\n",
        '<header class="top"><h1>Leaderboard preview</h1>',
        f"<p>{esc(what)} · Table, Pareto front and Waffle, as RFC-0005 renders them · "
        "written by penguin-lint preview</p></header>\n<main>\n",
        "\n".join(sections) if sections else '<p class="empty">No leaderboard.</p>',
        "\n</main></body></html>\n"])


def _board(i: int, b: Board, before: Optional[Board] = None, changes: Sequence[Change] = ()) -> str:
    """One board's section. Ids and classes are the tool's own (``b<i>``):
    no text from the files names anything on the page."""
    out = [f'<section class="board" id="board-{i}"><h2>{esc(b.title or b.leaderboard)}</h2>'
           f'<div class="lbid">{esc(b.leaderboard)} · {esc(b.path)}</div>']
    problem = b.problem or (before.problem if before is not None and before.problem != b.problem else None)
    if before is not None and before.problem != b.problem:
        out.append(f'<p class="problem">before: {esc(before.problem or "ok")}; after: {esc(b.problem or "ok")}</p>')
    elif problem:
        out.append(f'<p class="problem">{esc(problem)}</p>')
    if b.problem:
        return "".join(out) + "</section>"
    if b.note:
        out.append(f'<p class="note">{esc(b.note)}</p>')
    for axis in AXES:
        out.append(f'<input type="radio" class="ax ax-{axis}" name="axis-{i}" id="b{i}-{axis}"'
                   f'{" checked" if axis == "cost" else ""}>')
    by_after = {id(c.after): c for c in changes if c.after is not None}
    out.append(_table(b.rows, by_after, [c for c in changes if c.kind == "removed"], before is not None))
    olds = {id(c.after): c.before for c in changes if c.after is not None and c.before is not None}
    out.append('<div class="card pareto"><h3>Pareto front</h3><div class="switch">'
               + "".join(f'<label class="sw-{a}" for="b{i}-{a}">{esc(svg.AXIS_NAMES[a])}</label>' for a in AXES)
               + "</div>"
               + "".join(f'<div class="plot p-{a}">{svg.pareto(b.rows, a, olds if before is not None else None)}'
                         "</div>" for a in AXES) + "</div>")
    out.append(_waffle(b.rows))
    return "".join(out) + "</section>"


def _table(rows: List[Row], changes: Dict[int, Change], removed: Sequence[Change], compared: bool) -> str:
    lo, hi = svg.score_range(rows + [c.before for c in removed if c.before])
    head = ["Rank", "Entry", "Score", "Mean ± std", "Cost", "Duration", "Tokens", "Note"]
    out = ['<div class="card table"><h3>Table</h3><table><thead><tr>'
           + "".join(f'<th{" class=n" if h in ("Rank", "Mean ± std", "Cost", "Duration", "Tokens") else ""}>'
                     f"{h}</th>" for h in head) + "</tr></thead><tbody>"]
    shown = ordered(rows)
    for r in shown[:HTML_ROWS]:
        out.append(_tr(r, changes.get(id(r)) if compared else None, lo, hi))
    for c in removed[:HTML_ROWS]:
        out.append(_tr(c.before, c, lo, hi))
    out.append("</tbody></table>")
    if len(shown) > HTML_ROWS:
        out.append(f'<p class="note">{len(shown) - HTML_ROWS:,} more rows not listed here '
                   "(penguin-lint preview --format json lists every row).</p>")
    return "".join(out) + "</div>"


def _tr(r: Row, c: Optional[Change], lo: float, hi: float) -> str:
    kind = c.kind if c is not None else ""
    rank = esc(str(r.rank) if r.rank is not None else "-")
    if c is not None and kind in ("changed", "added", "removed"):
        move = rank_move(c)
        cls = "up" if "▲" in move else "down" if "▼" in move else ""
        rank = f'<span class="{cls}">{esc(move)}</span>' if cls else esc(move)
    meta = " · ".join(str(r.label.get(f)) for f in ("harness_name", "algorithm", "phase") if r.label.get(f))
    badge = {"added": "new", "removed": "removed", "changed": "changed"}.get(kind)
    entry = (f'<div class="model">{esc(svg.label(r))}'
             + (f'<span class="badge">{badge}</span>' if badge else "")
             + f'</div><div class="sub">{esc(meta)}</div>')
    mean = "n/a" if r.problem else num(r.mean) + (f" ± {num(r.std)}" if r.std is not None else "")
    cells = [mean] + [svg.short(float(r.axes[a]), a) if r.axes.get(a) is not None else "-" for a in AXES]
    if c is not None and kind == "changed" and c.before is not None:
        b = c.before
        olds = ["n/a" if b.problem else num(b.mean) + (f" ± {num(b.std)}" if b.std is not None else "")]
        olds += [svg.short(float(b.axes[a]), a) if b.axes.get(a) is not None else "-" for a in AXES]
        cells = [f'<span class="changed">{esc(o)} → {esc(n)}</span>' if o != n else esc(n)
                 for o, n in zip(olds, cells)]
    else:
        cells = [esc(x) for x in cells]
    note = "; ".join(n for n in (c.note if c else None, r.problem, r.warning, r.std_note, *r.summary_problems) if n)
    tds = "".join(f'<td class="n">{x}</td>' for x in cells)
    return (f'<tr class="{kind}"><td class="n rank">{rank}</td><td>{entry}</td>'
            f"<td>{svg.bar(r, lo, hi) if not r.problem else ''}</td>{tds}"
            f'<td class="{"problem" if r.problem else "sub"}">{esc(note)}</td></tr>')


def _waffle(rows: List[Row]) -> str:
    entries = [r for r in rows if r.mean is not None]
    ntasks = len({(t.get("benchmark"), t["source"]) for r in entries for t in r.tasks})
    note = ""
    if len(entries) > svg.WAFFLE_ENTRIES or ntasks > svg.WAFFLE_TASKS:
        note = (f'<p class="note">The Waffle shows the first {svg.WAFFLE_ENTRIES} entries and '
                f"{svg.WAFFLE_TASKS} tasks ({len(entries):,} entries, {ntasks:,} tasks in all).</p>")
    return ('<div class="card waffle"><h3>Waffle: each task\'s score</h3>' + note
            + svg.waffle(ordered(entries)) + "</div>")
