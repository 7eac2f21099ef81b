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


# A word of prose that is inert as it stands: the plain characters, "?" and
# "!" (a link needs "[", which is not among them), and colons at its end
# (an emoji shortcode or an autolink needs one inside a word).
_PLAIN_WORD = re.compile(r"[A-Za-z0-9,;'\"=()/+\-.%?!\u2192\u25b2\u25bc]*:*\Z")
# a value a message quotes: 'x', not the apostrophe of "board's"
_QUOTED = re.compile(r"(?<![\w'])'([^'\n]*)'(?![\w'])")


def md_text(text, cell: bool = True) -> str:
    """A message or hint as inert Markdown that reads as prose: each value
    it quotes ('x') a code span without its quotes, each other word as it
    is when it is plain, else a code span of its own. Every message reads
    the same way, whatever characters its values hold."""
    s = sanitize(text)
    out, at = [], 0
    for m in _QUOTED.finditer(s):
        out.append(_words(s[at:m.start()], cell))
        out.append(code_span(m.group(1) or "''", cell))
        at = m.end()
    out.append(_words(s[at:], cell))
    return "".join(out)


# the punctuation around a word that stays prose: "(last_update)," keeps its
# parenthesis and comma outside the code span
_AROUND = re.compile(r"([(\"]*)(.*?)([)\".,;:?!]*)\Z", re.S)


def _words(s: str, cell: bool) -> str:
    out = []
    for p in re.split(r"(\s+)", s):
        if not p or p.isspace() or (_PLAIN_WORD.match(p) and not _REFERENCE.search(p)):
            out.append(p)
        else:
            lead, core, tail = _AROUND.match(p).groups()
            out.append(lead + code_span(core, cell) + tail)
    return "".join(out)
