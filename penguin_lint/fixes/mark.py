"""PL005: the byte-order mark at the start of a TOML file removed (tomllib
refuses it; nothing else of the file changes). Invalid UTF-8 and NUL bytes
are left to the author: what the bytes meant is unknown."""
from __future__ import annotations

from typing import List

from penguin_lint.fixes.source import Edit, Source
from penguin_lint.loaders import MARK_MESSAGE


def fix(finding, source: Source, ctx) -> List[Edit]:
    if finding.message != MARK_MESSAGE or source.fmt != "toml" or not source.bom:
        return []
    return [Edit("PL005", None, 0, 0, "", None, 1, mark=True)]
