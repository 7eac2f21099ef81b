"""A summary's numbers as its attempt files make them (RFC-0005's formulas:
the mean, the sample standard deviation with n - 1, the sums): what PL303
compares with, ``--fix`` writes and PL101 proposes for a missing key."""
from __future__ import annotations

import math
from typing import Optional

from penguin_lint.loaders.numbers import exact_sum, mean_std, number_text
from penguin_lint.rules.pl302_attempt_numbering import n_attempt_of


def is_num(v) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def recomputed(ctx, summary_path: str, key: str, n: Optional[int] = None):
    """What ``key`` of the summary must be, from the attempt files (the
    summary's ``n_attempt`` of them, or ``n``); None when the attempts do not
    all exist, parse and carry the numbers."""
    if n is None:
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
        if not is_num(v):
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
            if out is None and stats is not None and n == 1:
                out = 0.0  # one score has no spread (PL303)
            if out is None:
                return None
        else:
            out = math.fsum(floats)
    except (OverflowError, ValueError):
        return None
    return out if math.isfinite(out) else None


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


def attempts_present(ctx, summary_path: str) -> int:
    """How many attempt files the summary's folder holds, ``attempt-1.yaml``
    on without a gap (what an empty summary's ``n_attempt`` would count)."""
    phase = summary_path.rpartition("/")[0]
    names = set(ctx.repo.files(phase))
    n = 0
    while f"attempt-{n + 1}.yaml" in names and n < 100_000:
        n += 1
    return n
