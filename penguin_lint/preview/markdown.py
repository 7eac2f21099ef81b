"""Boards and changes as Markdown, for a job summary: repository text made
inert (``md``), and the output capped as GitHub reads it.
"""
from __future__ import annotations

from typing import Sequence

from penguin_lint.output.log_guard import sanitize
from penguin_lint.output.markdown import md, md_text  # inert Markdown: no link, HTML or mention
from penguin_lint.preview.cells import HEADERS, arrow, cells, entry, num, ordered, rank_move, std_cell
from penguin_lint.preview.model import AXES, Board


# A Markdown table is read in a job summary (GitHub keeps 1 MiB of it): a
# board lists its first MARKDOWN_ROWS rows, and the whole output stops at
# MARKDOWN_LIMIT characters, each with a note; text and JSON list every row.
MARKDOWN_ROWS = 500
MARKDOWN_LIMIT = 500_000


def _rows_note(n: int) -> str:
    return (f"*{n:,} more {'row' if n == 1 else 'rows'} not listed here "
            "(`penguin-lint preview --format json` lists every row).*")


def cap_markdown(text: str) -> str:
    if len(text) <= MARKDOWN_LIMIT:
        return text
    cut = text[:MARKDOWN_LIMIT]
    cut = cut[:cut.rfind("\n") + 1]
    return (cut + f"\n*The preview stops here, at {MARKDOWN_LIMIT:,} characters "
            "(`penguin-lint preview --format json` has all of it).*\n")



def render_markdown(boards: Sequence[Board]) -> str:
    out = []
    for b in boards:
        out.append(f"### {md(b.leaderboard, False)}" + (f": {md(b.title, False)}" if b.title else ""))
        out.append("")
        if b.problem:
            out += [md_text(b.problem, False), ""]
            continue
        if b.note:  # the tool's own words (numbers only from the file): no code span
            out += [f"*{sanitize(b.note)}*", ""]
        out.append("| " + " | ".join(HEADERS) + " |")
        out.append("|" + "|".join("---:" if i in (0, 5, 6, 7, 8, 9) else "---" for i in range(len(HEADERS))) + "|")
        rows = ordered(b.rows)
        for r in rows[:MARKDOWN_ROWS]:
            out.append("| " + " | ".join(md(c) for c in cells(r)) + " |")
        if len(rows) > MARKDOWN_ROWS:
            out += ["", _rows_note(len(rows) - MARKDOWN_ROWS)]
        out.append("")
    return cap_markdown("\n".join(out))



def render_changes_markdown(results, all_rows: bool = False) -> str:
    """The job-summary section: for each leaderboard with a change, its rows
    added, removed or changed, before → after, with rank moves."""
    out = []
    for b, a, changes in results:
        shown = [c for c in changes if all_rows or c.kind != "unchanged"]
        if not shown and not (b.problem != a.problem):
            continue
        title = a.title or b.title
        out.append(f"### {md(a.leaderboard, False)}" + (f": {md(title, False)}" if title else ""))
        out.append("")
        if a.problem or b.problem:
            out.append(f"before: {md_text(b.problem or 'ok', False)}; after: {md_text(a.problem or 'ok', False)}")
            out.append("")
        for note in dict.fromkeys(n for n in (b.note, a.note) if n):
            out += [f"*{sanitize(note)}*", ""]
        if not shown:
            continue
        out.append("| change | entry | rank | mean | std | cost | duration_ms | token | note |")
        out.append("|---|---|---:|---:|---:|---:|---:|---:|---|")
        for c in shown[:MARKDOWN_ROWS]:
            br, ar = c.before, c.after

            def val(r, f):
                if r is None:
                    return None
                return r.axes.get(f) if f in AXES else getattr(r, f)
            mean = arrow(val(br, "mean") if not (br and br.problem) else "n/a",
                          val(ar, "mean") if not (ar and ar.problem) else "n/a",
                          lambda x: x if isinstance(x, str) else num(x))
            std = arrow(br, ar, lambda r: std_cell(r) if r is not None else "-")
            axes = [arrow(val(br, f), val(ar, f)) for f in AXES]
            problem = (ar.problem if ar and ar.problem else br.problem if br and br.problem and not ar else "") or ""
            note = "; ".join(n for n in (c.note, problem, *(ar.summary_problems if ar else ())) if n)
            out.append("| " + " | ".join([c.kind, md(entry(c)), rank_move(c), md(mean), md(std), *map(md, axes), md(note)]) + " |")
        if len(shown) > MARKDOWN_ROWS:
            out += ["", _rows_note(len(shown) - MARKDOWN_ROWS)]
        out.append("")
    return cap_markdown("\n".join(out)) if out else "No leaderboard changes.\n"
