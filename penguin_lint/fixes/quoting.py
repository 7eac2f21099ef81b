"""PL102: a value that YAML (or TOML) typed on its own where the schema
wants a string (``status: yes``, ``model_name: 1.5``, a bare date) quoted,
exactly as it was written: ``"yes"``, ``"1.5"``."""
from __future__ import annotations

import re
from typing import List

from penguin_lint.fixes.source import Edit, Source, quoted, read_scalar

_WANTS_STRING = re.compile(r"must be (?:[^,]* or )?a string(?: or [^,]*)?, not ")


def _paths(data, path=()):
    if isinstance(data, dict):
        for k, v in data.items():
            yield from _paths(v, path + (k,))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            yield from _paths(v, path + (i,))
    else:
        yield path


def fix(finding, source: Source, ctx) -> List[Edit]:
    if finding.line is None or not _WANTS_STRING.search(finding.message):
        return []
    for key in _paths(source.doc.data):
        value = source.doc.get(*key)
        if isinstance(value, str) and source.doc.implicit.get(key, ("str",))[0] != "timestamp":
            continue  # already text (a bare date is text the loader kept)
        if value is None:
            continue  # '~' or nothing: which string was meant is unknown
        pos = source.doc.value_pos(key)
        if (pos.line, pos.column) != (finding.line, finding.column):
            continue
        found = source.scalar(key)
        if found is None:
            return []
        start, end, token = found
        if token[:1] in "\"'":
            return []
        text = quoted(token, source.fmt)
        if read_scalar(text, source.fmt) != token or text not in (finding.hint or ""):
            return []  # the fix writes only what the hint proposes
        return [Edit("PL102", key, start, end, text, token, finding.line)]
    return []
