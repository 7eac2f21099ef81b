"""A file as ``--fix`` edits it: its exact bytes, and where its values are.

A fix is a splice: the text of one scalar value replaced, every other byte
kept (comments, key order, quoting of other values, line endings, a
byte-order mark, unless the edit is PL005's removal of the mark from TOML). Positions come from the loaders (``doc.value_pos``); the
text found there is read back as a scalar and must be the value the loader
gave, or the fix is not made. After all splices of a file, the new text is
loaded again and must hold exactly the old data with the new values in
place (:meth:`Source.verify`): a splice that would change anything else is
never written.
"""
from __future__ import annotations

import codecs
import copy
import re
from dataclasses import dataclass
from typing import Any, List, Optional, Tuple

from penguin_lint.loaders import load_bytes
from penguin_lint.loaders.positions import line_starts
from penguin_lint.loaders.scalars import MISSING, quoted, read_scalar, same, string_like

__all__ = ["Edit", "Source", "quoted", "read_scalar", "string_like"]

# A TOML value that is not a string: a number, boolean or date-time.
_TOML_BARE = re.compile(r"[0-9A-Za-z_:.+\-]+(?: [0-9][0-9:.+\-Zz]*)?")


@dataclass
class Edit:
    """Replace ``text[start:end]`` (the value at ``key``) with ``new``,
    which reads as ``value``; ``key`` None: a comment, no data changes."""

    code: str
    key: Optional[Tuple[Any, ...]]
    start: int
    end: int
    new: str
    value: Any
    line: int = 0
    #: True: the edit removes the file's byte-order mark (before ``text``)
    mark: bool = False


class Source:
    def __init__(self, path: str, raw: bytes):
        self.path = path
        self.raw = raw
        self.bom = raw.startswith(codecs.BOM_UTF8)
        self.text = raw[3:].decode("utf-8") if self.bom else raw.decode("utf-8")
        self.doc = load_bytes(raw, path)
        self.fmt = self.doc.fmt
        # lines as the loaders count them (LF or CR LF): a finding's line,
        # a directive's line and an edit's line are the same line
        self._starts = line_starts(self.text)

    @property
    def ok(self) -> bool:
        return self.doc.parsed and self.fmt in ("yaml", "toml") and isinstance(self.doc.data, dict)

    # -- where a value is ---------------------------------------------------------
    def offset(self, line: int, column: int) -> Optional[int]:
        if not 1 <= line <= len(self._starts):
            return None
        off = self._starts[line - 1] + column - 1
        return off if 0 <= off <= len(self.text) else None

    def scalar(self, key: Tuple[Any, ...]) -> Optional[Tuple[int, int, str]]:
        """(start, end, text) of the scalar at ``key`` when the text found at
        the loader's position reads as the value the loader gave."""
        if self.doc.get(*key, default=_MISSING) is _MISSING:
            return None
        want = self.doc.get(*key)
        if isinstance(want, (dict, list)):
            return None
        pos = self.doc.value_pos(key)
        start = self.offset(pos.line, pos.column)
        if start is None:
            return None
        if self.fmt == "yaml":
            if pos.end_line != pos.line or pos.end_column is None:
                return None  # a scalar over several lines is not spliced
            end = self.offset(pos.end_line, pos.end_column)
        else:
            end = _toml_token_end(self.text, start)
        if end is None or end <= start:
            return None
        token = self.text[start:end]
        if "\n" in token or "\r" in token:
            return None
        if not _same(read_scalar(token, self.fmt), want):
            return None
        return start, end, token

    # -- the new text -------------------------------------------------------------
    def apply(self, edits: List[Edit]) -> Tuple[bytes, List[Edit]]:
        """The file's bytes with ``edits`` spliced in (overlapping ones and
        no-ops dropped), and the edits that were applied."""
        chosen: List[Edit] = []
        bom = self.bom
        for e in sorted(edits, key=lambda e: (e.start, e.end)):
            if e.mark:
                if bom:
                    bom = False
                    chosen.append(e)
                continue
            if self.text[e.start:e.end] == e.new:
                continue
            if chosen and e.start < chosen[-1].end:
                continue
            chosen.append(e)
        text = self.text
        for e in reversed(chosen):
            if not e.mark:
                text = text[:e.start] + e.new + text[e.end:]
        data = text.encode("utf-8")
        return (codecs.BOM_UTF8 + data if bom else data), chosen

    def verify(self, new_raw: bytes, edits: List[Edit]) -> bool:
        """Whether ``new_raw`` holds the old data with the edited values only."""
        after = load_bytes(new_raw, self.path)
        if not after.parsed:
            return False
        want = copy.deepcopy(self.doc.data)
        for e in edits:
            if e.key is None:
                continue
            cur = want
            for part in e.key[:-1]:
                cur = cur[part]
            cur[e.key[-1]] = e.value
        return _same(after.data, want)


_MISSING = MISSING
_same = same


def _toml_token_end(text: str, start: int) -> Optional[int]:
    if text.startswith('"""', start) or text.startswith("'''", start):
        return None  # multi-line strings are not spliced
    c = text[start:start + 1]
    if c == '"':
        i = start + 1
        while i < len(text) and text[i] not in '"\n':
            i += 2 if text[i] == "\\" else 1
        return i + 1 if i < len(text) and text[i] == '"' else None
    if c == "'":
        j = text.find("'", start + 1)
        return j + 1 if j != -1 else None
    m = _TOML_BARE.match(text, start)
    return m.end() if m else None
