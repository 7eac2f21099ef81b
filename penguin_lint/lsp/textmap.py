"""Positions in a buffer, as penguin-lint counts them and as LSP does.

Findings count lines and columns from 1, columns in characters (code
points), in the text the loader read: a leading byte-order mark dropped,
lines ended by LF (or CR LF). LSP counts both from 0, columns in the code
units of the position encoding client and server agreed on (UTF-16 unless
the client offers another: Neovim prefers UTF-8), in the buffer's text as
the editor holds it.
"""
from __future__ import annotations

import bisect
from typing import Tuple

from penguin_lint.loaders.positions import line_starts


def utf16_len(text: str) -> int:
    # a character beyond U+FFFF is two UTF-16 code units
    n = len(text)
    if text.isascii():
        return n
    return n + sum(1 for ch in text if ord(ch) > 0xFFFF)


def utf8_len(text: str) -> int:
    return len(text) if text.isascii() else len(text.encode("utf-8", "surrogatepass"))


UNITS = {"utf-16": utf16_len, "utf-8": utf8_len, "utf-32": len}


class TextMap:
    def __init__(self, text: str, encoding: str = "utf-16"):
        self._units = UNITS.get(encoding, utf16_len)
        self.bom = text.startswith("\ufeff")
        # the text the loaders read
        self.text = text[1:] if self.bom else text
        self._starts = line_starts(self.text)

    def line(self, index: int) -> str:
        """Line ``index`` (0-based), without its line ending."""
        if not 0 <= index < len(self._starts):
            return ""
        start = self._starts[index]
        end = self._starts[index + 1] - 1 if index + 1 < len(self._starts) else len(self.text)
        out = self.text[start:end]
        return out[:-1] if out.endswith("\r") else out

    @property
    def lines(self) -> int:
        return len(self._starts)

    def _lsp(self, index: int, chars: int) -> Tuple[int, int]:
        """(line, column in code units) of character ``chars`` of line ``index``."""
        col = self._units(self.line(index)[:max(chars, 0)])
        if index == 0 and self.bom:
            col += self._units("\ufeff")  # the mark is in the editor's text, not the loader's
        return index, col

    def position(self, line: int, column: int) -> Tuple[int, int]:
        """A finding's 1-based (line, column) as an LSP (line, character)."""
        index = min(max(line - 1, 0), max(self.lines - 1, 0))
        return self._lsp(index, column - 1)

    def range(self, line, column, end_line, end_column) -> Tuple[Tuple[int, int], Tuple[int, int]]:
        """A finding's span as LSP's; a finding with no column covers its
        line, one with no end runs to the end of its line, one with no line
        the first line."""
        if line is None:
            return self._lsp(0, 0), self._lsp(0, len(self.line(0)))
        start = self.position(line, column if column is not None else 1)
        if column is None or end_line is None or end_column is None \
                or (end_line, end_column) <= (line, column):
            return start, self._lsp(start[0], len(self.line(start[0])))
        return start, self.position(end_line, end_column)

    def offset_position(self, offset: int) -> Tuple[int, int]:
        """The LSP (line, character) of character ``offset`` of the loader's text."""
        index = bisect.bisect_right(self._starts, offset) - 1
        return self._lsp(index, offset - self._starts[index])

