"""PL303 summary-mismatch: score_mean, score_std or totals disagree with the attempts."""
import math
from decimal import Decimal

from penguin_lint.rules.base import Rule
from penguin_lint.rules.pl302_attempt_numbering import n_attempt_of

REL_TOL, ABS_TOL = 1e-6, 1e-9
TOTALS = ("cost", "duration_ms", "token")


def _number(v):
    """A real number, not a bool (YAML's ``true`` is an int to Python)."""
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _as_float(v):
    """``v`` as a finite float, or None (NaN, infinity, an int beyond float)."""
    try:
        f = float(v)
    except (OverflowError, ValueError):
        return None
    return f if math.isfinite(f) else None


def _fmt(x):
    if isinstance(x, int) and x.bit_length() >= 200:
        # Sixty-odd digits say nothing more, and str() of a very long int
        # raises ValueError past Python's digit limit; Decimal has no limit.
        return format(Decimal(x), ".9e")
    return repr(x)


def _fmt_pair(a, b):
    """Both numbers at the fewest significant digits (from 6) that tell them apart."""
    if isinstance(a, int) and isinstance(b, int):
        return _fmt(a), _fmt(b)
    fa, fb = _as_float(a), _as_float(b)
    if fa is None or fb is None:
        return _fmt(a), _fmt(b)
    for p in range(6, 18):
        sa, sb = format(fa, f".{p}g"), format(fb, f".{p}g")
        if sa != sb:
            return sa, sb
    return repr(fa), repr(fb)


def _close(have, want):
    """Whether the summary's ``have`` matches the computed ``want`` (finite);
    None when ``have`` is NaN or infinite, which PL103 reports."""
    if isinstance(have, int) and isinstance(want, int):
        return have == want  # integer totals add up exactly
    fh = _as_float(have)
    if fh is None:
        # An int too large for a float is a real (wrong) number; NaN and
        # infinity are not numbers to compare.
        return False if isinstance(have, int) else None
    fw = _as_float(want)
    if fw is None:
        return False  # a sum of integers beyond any float a summary can hold
    return math.isclose(fh, fw, rel_tol=REL_TOL, abs_tol=ABS_TOL)


def _mean_std(scores):
    """(mean, sample std or None) of finite floats, or None on overflow."""
    n = len(scores)
    try:
        mean = math.fsum(scores) / n
        std = None
        if n > 1:
            std = math.sqrt(math.fsum((x - mean) ** 2 for x in scores) / (n - 1))
    except (OverflowError, ValueError):
        return None
    if not math.isfinite(mean) or (std is not None and not math.isfinite(std)):
        return None
    return mean, std


class SummaryMismatch(Rule):
    """
    A phase's ``summary.yaml`` restates what its attempt files say, and
    leaderboards read only the summary, so the two must agree (RFC-0005's
    formulas):

    - ``score_mean`` is the mean of the attempts' ``score``;
    - ``score_std`` is their sample standard deviation (n - 1 in the
      denominator), checked when ``n_attempt`` > 1;
    - the totals ``cost``, ``duration_ms`` and ``token``, where every
      attempt carries them, are the sums over the attempts.

    Scores are compared with a relative tolerance of 1e-6 (absolute 1e-9),
    so rounding to a few decimals is fine. The check runs only when all
    ``n_attempt`` attempt files exist, parse and hold a numeric ``score``
    (PL302 and the schema rules report the rest).
    """

    code = "PL303"
    name = "summary-mismatch"
    summary = "`score_mean`, `score_std` or totals disagree with the attempts"
    kinds = ("summary",)
    fixable = "safe"  # recomputed from the attempts (fixes/summary.py)
    bad = ("experiments/lb/exp-1/test/summary.yaml",
           "# attempts score 70.0, 70.0 and 67.5\nn_attempt: 3\nscore_mean: 71.6666666667\nscore_std: 1.44337567297\n")
    good = ("experiments/lb/exp-1/test/summary.yaml",
            "# attempts score 70.0, 70.0 and 67.5\nn_attempt: 3\nscore_mean: 69.1666666667\nscore_std: 1.44337567297\n")

    def check(self, subject, ctx):
        n, doc = n_attempt_of(ctx, subject.path)
        if n is None:
            return
        phase = subject.path.rpartition("/")[0]
        # Cheap bound before touching n files: they cannot all be there.
        if n > len(ctx.repo.files(phase)):
            return
        attempts = []
        for i in range(1, n + 1):
            adoc = ctx.valid_doc(f"{phase}/attempt-{i}.yaml")
            if adoc is None or not _number(adoc.data.get("score")):
                return
            attempts.append(adoc.data)

        scores = [_as_float(a["score"]) for a in attempts]
        stats = None if any(s is None for s in scores) else _mean_std(scores)
        if stats is not None:
            mean, std = stats
            yield from self._compare(subject, doc, "score_mean", mean,
                                     lambda want: f"the {n} attempts average {want}")
            if std is not None:
                yield from self._compare(subject, doc, "score_std", std,
                                         lambda want: f"the sample standard deviation of the {n} attempts' scores is {want}")

        for key in TOTALS:
            values = [a.get(key) for a in attempts]
            if not all(_number(v) for v in values):
                continue
            if all(isinstance(v, int) for v in values):
                total = sum(values)
            else:
                floats = [_as_float(v) for v in values]
                if any(f is None for f in floats):
                    continue
                try:
                    total = math.fsum(floats)
                except (OverflowError, ValueError):
                    continue
                if not math.isfinite(total):
                    continue
            yield from self._compare(subject, doc, key, total,
                                     lambda want, key=key: f"the {n} attempts' {key} add up to {want}")

    def _compare(self, subject, doc, key, want, explain):
        have = doc.data.get(key)
        if not _number(have):
            return  # absent or mistyped: the schema rules' business
        ok = _close(have, want)
        if ok is None or ok:
            return
        shown_have, shown_want = _fmt_pair(have, want)
        if isinstance(want, float):
            hint = f"set {key} to {format(want, '.10g')}, or fix the attempt files"
        elif want.bit_length() < 200:
            hint = f"set {key} to {want}, or fix the attempt files"
        else:
            hint = f"recompute {key} from the attempt files"
        yield self.finding(subject, f"{key} is {shown_have} but {explain(shown_want)}",
                           pos=doc.value_pos((key,)), hint=hint)

    def affected_by(self, changed, ctx):
        # The summary of a phase is judged against its attempt files.
        kind = ctx.layout.classify_file(changed)
        if kind is not None and kind[0] == "attempt":
            yield changed.rpartition("/")[0] + "/summary.yaml"
