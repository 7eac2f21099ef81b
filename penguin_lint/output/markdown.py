"""Repository text as inert Markdown, for GitHub's step summary and the
preview: plain words as they are, anything else in a code span, where
neither cmark-gfm (links, autolinks, HTML, emphasis) nor GitHub
(``@mentions``, ``#12`` references) reads it.
"""
from __future__ import annotations

import re

from penguin_lint.output.log_guard import sanitize

# Text made of these is inert in GitHub's Markdown: no emphasis, HTML, entity,
# link, emoji (``:x:``), mention (``@``), reference (``#1``) or autolink (those
# need ``:``, ``@`` or ``www.``; ``GH-1`` is checked apart).
_PLAIN = re.compile(r"[A-Za-z0-9 ,;'\"=()/+\-.%\u2192\u25b2\u25bc]*\Z")
_REFERENCE = re.compile(r"(?i)www\.|gh-[0-9]")


def md(text, cell: bool = True) -> str:
    """Repository text as inert Markdown: visible control characters, and
    unless it is plain words and numbers, a code span. ``cell``: the text
    is in a table row, where a ``|`` must be escaped even in code."""
    s = sanitize(text)
    if _PLAIN.match(s) and not _REFERENCE.search(s):
        return s
    return code_span(s, cell)


def code_span(s: str, cell: bool = True) -> str:
    """``s`` as one code span: a fence longer than any run of backticks in
    it, and a space inside the fence where the text would otherwise lose or
    merge an edge (CommonMark strips one space from each side)."""
    if cell:
        s = s.replace("|", "\\|")  # GFM splits cells before it reads code spans
    if not s:
        return ""
    fence = "`" * (max((len(run) for run in re.findall(r"`+", s)), default=0) + 1)
    pad = " " if s[0] == "`" or s[-1] == "`" or (s[0] == " " and s[-1] == " " and s.strip()) else ""
    return f"{fence}{pad}{s}{pad}{fence}"
