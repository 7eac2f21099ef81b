"""Boards and changes as aligned text tables, for a terminal."""
from __future__ import annotations

from typing import Sequence

from penguin_lint.output.log_guard import sanitize
from penguin_lint.preview.cells import HEADERS, arrow, cells, entry, num, ordered, rank_move
from penguin_lint.preview.model import Board


def render_text(boards: Sequence[Board]) -> str:
    out = []
    for b in boards:
        # every line starts with text of ours: a name from the files can
        # never open a line (and so never pass for a CI log command)
        out.append("leaderboard " + sanitize(f"{b.leaderboard}: {b.title or ''}".rstrip(": "))
                   + f" ({sanitize(b.path)})")
        if b.problem:
            out += ["  " + sanitize(b.problem), ""]
            continue
        if b.note:
            out.append("  " + sanitize(b.note))
        rows = [[sanitize(c) for c in cells(r)] for r in ordered(b.rows)]
        widths = [max(len(h), *(len(row[i]) for row in rows)) if rows else len(h) for i, h in enumerate(HEADERS)]
        right = {0, 5, 6, 7, 8, 9}

        def line(cells):
            return "  ".join(c.rjust(w) if i in right else c.ljust(w)
                             for i, (c, w) in enumerate(zip(cells, widths))).rstrip()
        out.append(line(HEADERS))
        out.extend(line(r) for r in rows)
        out.append("")
    return "\n".join(out)



def render_changes_text(results, all_rows: bool = False) -> str:
    out = []
    for b, a, changes in results:
        shown = [c for c in changes if all_rows or c.kind != "unchanged"]
        if not shown:
            continue
        out.append("leaderboard " + sanitize(a.leaderboard) + f" ({sanitize(a.path)})")
        for c in shown:
            def m(r):
                return "-" if r is None else ("n/a" if r.problem else num(r.mean))
            line = f"  {c.kind:<9} {sanitize(entry(c))}  rank {rank_move(c)}  mean {arrow(m(c.before), m(c.after), str)}"
            if c.kind == "changed":
                line += "  (" + ", ".join(c.fields) + ")"
            problem = (c.after or c.before).problem
            for note in (c.note, problem, *(c.after.summary_problems if c.after else ())):
                if note:
                    line += f"  [{sanitize(note)}]"
            out.append(line)
        out.append("")
    return "\n".join(out) if out else "No leaderboard changes.\n"
