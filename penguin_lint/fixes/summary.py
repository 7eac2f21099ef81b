"""PL303: a summary's ``score_mean``, ``score_std`` and totals recomputed
from its attempt files (RFC-0005's formulas: mean, sample standard deviation
with n - 1, sums), written at the precision the author used."""
from __future__ import annotations

from typing import List, Optional

from penguin_lint.fixes.source import Edit, Source, read_scalar
from penguin_lint.loaders.numbers import proposal
from penguin_lint.rules._summary import exact_total, is_num as _num, recomputed

KEYS = ("score_mean", "score_std", "cost", "duration_ms", "token")


def fix(finding, source: Source, ctx) -> List[Edit]:
    key = key_at(source, finding, [(k,) for k in KEYS])
    if key is None:
        return []
    found = source.scalar(key)
    if found is None:
        return []
    start, end, token = found
    if not _num(source.doc.get(*key)):
        return []
    want = recomputed(ctx, finding.path, key[0])
    if want is None:
        return []
    if isinstance(want, float) and isinstance(source.doc.get(*key), int) and key[0] in ("duration_ms", "token"):
        return []  # an integer total from float attempts: not one right answer
    # The text PL303's hint proposes: one function decides both.
    text = proposal(want, token, exact_total(ctx, finding.path, key[0]) if isinstance(want, float) else None)
    if text is None:
        return []
    return [Edit("PL303", key, start, end, text, read_scalar(text, source.fmt), finding.line or 0)]


def key_at(source: Source, finding, keys) -> Optional[tuple]:
    """The key among ``keys`` whose value sits where the finding points."""
    if finding.line is None:
        return None
    for key in keys:
        if source.doc.get(*key, default=None) is None:
            continue
        pos = source.doc.value_pos(key)
        if (pos.line, pos.column) == (finding.line, finding.column):
            return key
    return None
