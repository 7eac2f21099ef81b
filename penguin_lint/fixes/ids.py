"""PL201: an ``id`` / ``leaderboard_id`` / ``experiment_id`` set to its
folder name, in the quoting style it was written in. The folder is the
truth here: every other file finds this one through the folder, and
renaming the folder would break them."""
from __future__ import annotations

from typing import List

from penguin_lint.fixes.source import Edit, Source, read_scalar, string_like
from penguin_lint.fixes.summary import key_at
from penguin_lint.rules.pl201_id_mismatch import ID_KEYS, id_pattern


def fix(finding, source: Source, ctx) -> List[Edit]:
    kind = ctx.layout.classify_file(finding.path)
    if kind is None or kind[0] not in ID_KEYS:
        return []
    key_name, group = ID_KEYS[kind[0]]
    folder = kind[1].get(group)
    if not isinstance(folder, str):
        return []
    # the folder becomes an id only if it is a valid one (the hint agrees)
    if not id_pattern(kind[0]).match(folder):
        return []
    key = key_at(source, finding, [(key_name,)])
    if key is None or not isinstance(source.doc.get(*key), str):
        return []
    found = source.scalar(key)
    if found is None:
        return []
    start, end, token = found
    text = string_like(folder, source.fmt, token)
    if read_scalar(text, source.fmt) != folder:
        return []
    return [Edit("PL201", key, start, end, text, folder, finding.line or 0)]
