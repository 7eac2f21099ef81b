"""Repository text as inert HTML: for the text of an element or a quoted
attribute value, never anything else (a tag name, an id, a class, a style
or a URL is always the tool's own).
"""
from __future__ import annotations

import html
import re

# Characters HTML does not allow in a document (controls, surrogates,
# noncharacters): shown as U+FFFD, so the page parses as it is written.
_BAD = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff\ufdd0-\ufdef\ufffe\uffff]")


def esc(text) -> str:
    """``text`` as the content of an element or of a quoted attribute:
    ``& < > " '`` as references, so no tag, comment, CDATA section or
    attribute can open or close, in HTML as in inline SVG."""
    return html.escape(_BAD.sub("\ufffd", str(text)), quote=True)
