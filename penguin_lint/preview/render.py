"""A preview in the format asked for: the PenguinHarness boards, then the
Harbor boards (what each renderer writes for a repository without Harbor
boards is unchanged)."""
from __future__ import annotations

from typing import Sequence

from penguin_lint.preview import harbor_views as hv
from penguin_lint.preview.html import render_changes_html, render_html
from penguin_lint.preview.json_report import render_changes_json, render_json
from penguin_lint.preview.markdown import cap_markdown, render_changes_markdown, render_markdown
from penguin_lint.preview.text import render_changes_text, render_text

NO_CHANGES = "No leaderboard changes.\n"


def render_boards(fmt: str, boards: Sequence, harbor: Sequence) -> str:
    if fmt == "json":
        return render_json(boards, harbor)
    if fmt == "html":
        return render_html(boards, harbor)
    if fmt == "markdown":
        text = render_markdown(boards) if boards else ""
        if not harbor:
            return text
        return cap_markdown(text + ("\n" if text else "") + "\n".join(hv.markdown_board(h) for h in harbor))
    text = render_text(boards) if boards else ""
    return text + "\n".join(hv.text_board(h) for h in harbor)


def render_changes(fmt: str, results, harbor_results, all_rows: bool = False) -> str:
    if fmt == "json":
        return render_changes_json(results, harbor_results)
    if fmt == "html":
        return render_changes_html(results, harbor_results)
    if fmt == "markdown":
        ours = render_changes_markdown(results, all_rows)
        theirs = "\n".join(x for x in (hv.markdown_changes(b, a, c, all_rows) for b, a, c in harbor_results) if x)
    else:
        ours = render_changes_text(results, all_rows)
        theirs = "\n".join(x for x in (hv.text_changes(b, a, c, all_rows) for b, a, c in harbor_results) if x)
    if not theirs:
        return ours
    text = theirs if ours == NO_CHANGES else ours + "\n" + theirs
    return cap_markdown(text) if fmt == "markdown" else text
