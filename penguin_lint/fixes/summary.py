"""PL303: a summary's ``score_mean``, ``score_std`` and totals recomputed
from its attempt files (RFC-0005's formulas: mean, sample standard deviation
with n - 1, sums), written at the precision the author used."""
from __future__ import annotations

import math
from typing import List, Optional

from penguin_lint.fixes.source import Edit, Source, read_scalar
from penguin_lint.loaders.numbers import exact_sum, mean_std, number_text, proposal
from penguin_lint.rules.pl302_attempt_numbering import n_attempt_of

KEYS = ("score_mean", "score_std", "cost", "duration_ms", "token")


def _num(v) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def recomputed(ctx, summary_path: str, key: str):
    """What ``key`` of the summary must be, from the attempt files; None
    when the attempts do not all exist, parse and carry the numbers."""
    n, _ = n_attempt_of(ctx, summary_path)
    if n is None:
        return None
    phase = summary_path.rpartition("/")[0]
    if n > len(ctx.repo.files(phase)):
        return None
    values = []
    field = "score" if key in ("score_mean", "score_std") else key
    for i in range(1, n + 1):
        adoc = ctx.valid_doc(f"{phase}/attempt-{i}.yaml")
        v = adoc.data.get(field) if adoc is not None else None
        if not _num(v):
            return None
        values.append(v)
    if key in ("duration_ms", "token", "cost") and all(isinstance(v, int) for v in values):
        return sum(values)
    try:
        floats = [float(v) for v in values]
        if key in ("score_mean", "score_std"):
            # The rule's own statistics (rules/pl303_summary_mismatch.py).
            stats = mean_std(floats)
            out = None if stats is None else stats[0 if key == "score_mean" else 1]
            if out is None:
                return None
        else:
            out = math.fsum(floats)
    except (OverflowError, ValueError):
        return None
    return out if math.isfinite(out) else None


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


def exact_total(ctx, summary_path: str, key: str) -> Optional[str]:
    """A total as the attempts state it exactly (loaders.numbers.exact_sum),
    as PL303's hint proposes it; None for a mean or deviation, or when unknown."""
    if key in ("score_mean", "score_std"):
        return None
    n, _ = n_attempt_of(ctx, summary_path)
    phase = summary_path.rpartition("/")[0]
    docs = [ctx.valid_doc(f"{phase}/attempt-{i}.yaml") for i in range(1, (n or 0) + 1)]
    if not docs or any(d is None for d in docs):
        return None
    return exact_sum([number_text(d, (key,)) for d in docs])


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
