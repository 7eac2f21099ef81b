"""PL303 summary-mismatch: score_mean, score_std or totals disagree with the attempts."""
import math

from penguin_lint.loaders.numbers import (MIN_DECIMALS, agrees_rounded, as_float, is_number, is_plain_decimal,
                                          exact_sum, mean_std, number_text, proposal, rounding_applies, states,
                                          written_decimals)
from penguin_lint.rules.base import Rule
from penguin_lint.rules.pl302_attempt_numbering import n_attempt_of

TOTALS = ("cost", "duration_ms", "token")


def _fmt(x):
    if isinstance(x, int) and x.bit_length() >= 200:
        # Sixty-odd digits say nothing more, and str() of a very long int
        # raises ValueError past Python's digit limit; Decimal has no limit.
        from decimal import Decimal  # rare: most runs never print such a number

        return format(Decimal(x), ".9e")
    return repr(x)


def _fmt_pair(a, b):
    """Both numbers at the fewest significant digits (from 6) that tell them apart."""
    if isinstance(a, int) and isinstance(b, int):
        return _fmt(a), _fmt(b)
    fa, fb = as_float(a), as_float(b)
    if fa is None or fb is None:
        return _fmt(a), _fmt(b)
    for p in range(6, 18):
        sa, sb = format(fa, f".{p}g"), format(fb, f".{p}g")
        if sa != sb:
            return sa, sb
    return repr(fa), repr(fb)


class SummaryMismatch(Rule):
    """
    A phase's ``summary.yaml`` restates what its attempt files say, and
    leaderboards read only the summary, so the two must agree (RFC-0005's
    formulas):

    - ``score_mean`` is the mean of the attempts' ``score``;
    - ``score_std`` is their sample standard deviation (n - 1 in the
      denominator); a ``score_std`` that is the population standard
      deviation (n in the denominator) is reported as such; with one
      attempt it is 0 (one score has no spread) or left out;
    - the totals ``cost``, ``duration_ms`` and ``token``, where every
      attempt carries them, are the sums over the attempts; where only some
      do, a total below what those add up to is reported (none is negative).

    "Agree" follows the precision written, as result scripts round
    (``round(mean, 2)``): a value written with d >= 2 decimals agrees when
    it is within half a unit of its d-th decimal of the exact value. For
    attempts scoring 69.5, 70.0 and 68.0 (mean 69.1667, sample standard
    deviation 1.0408), ``score_mean: 69.17`` and ``score_std: 1.04`` agree,
    and so does ``score_mean: 69.167``; ``score_mean: 69.18`` does not.
    Every value also agrees within a relative 1e-6 (absolute 1e-9),
    whichever is looser, so a full-precision ``69.1666666667`` agrees too.
    With fewer than 2 decimals (``69.2``, ``70``) or in exponent form
    (``6.9e+1``: YAML 1.1 reads ``6.9e1``, without the sign, as a string)
    only that tolerance applies: write at least 2 decimals.
    Integer totals (``duration_ms``, ``token``) add up exactly. A hint
    proposes the value at the precision the summary uses (every digit when
    it was written with more than 6 decimals), the text ``--fix`` writes.

    The check runs only when all ``n_attempt`` attempt files exist, parse
    and hold a numeric ``score`` (PL302 and the schema rules report the
    rest).
    """

    code = "PL303"
    name = "summary-mismatch"
    summary = "`score_mean`, `score_std` or totals disagree with the attempts"
    kinds = ("summary",)
    fixable = "safe"  # recomputed from the attempts (fixes/summary.py)
    bad = ("experiments/lb/exp-1/test/summary.yaml",
           "# attempts score 69.5, 70.0 and 68.0: mean 69.1667, sample std 1.0408\n"
           "n_attempt: 3\nscore_mean: 69.18   # not 69.1667 rounded to 2 decimals\n"
           "score_std: 0.85    # the population std (n in the denominator)\n")
    good = ("experiments/lb/exp-1/test/summary.yaml",
            "# attempts score 69.5, 70.0 and 68.0: mean 69.1667, sample std 1.0408\n"
            "n_attempt: 3\nscore_mean: 69.17\nscore_std: 1.04\n")

    def check(self, subject, ctx):
        n, doc = n_attempt_of(ctx, subject.path)
        if n is None:
            return
        phase = subject.path.rpartition("/")[0]
        # Cheap bound before touching n files: they cannot all be there.
        if n > len(ctx.repo.files(phase)):
            return
        attempts, docs = [], []
        for i in range(1, n + 1):
            adoc = ctx.valid_doc(f"{phase}/attempt-{i}.yaml")
            if adoc is None or not is_number(adoc.data.get("score")):
                return
            attempts.append(adoc.data)
            docs.append(adoc)

        scores = [as_float(a["score"]) for a in attempts]
        stats = None if any(s is None for s in scores) else mean_std(scores)
        if stats is not None:
            mean, std, pop = stats
            if n == 1:
                says, noun = "the one attempt scores", "the one attempt's score"
            else:
                says, noun = f"the {n} attempts average", f"the {n} attempts' mean"
            yield from self._compare(subject, doc, "score_mean", mean, says, noun)
            if std is not None:
                yield from self._compare(
                    subject, doc, "score_std", std,
                    f"the sample standard deviation of the {n} attempts' scores is",
                    f"the sample standard deviation of the {n} attempts' scores", population=pop)
            elif n == 1:
                # one score has no spread: a score_std there is made up, and a
                # board that mixes attempt counts reads it (RFC-0005's formula)
                yield from self._compare(subject, doc, "score_std", 0.0,
                                         "one attempt has no spread: its standard deviation is",
                                         "the standard deviation of one score, which is")

        for key in TOTALS:
            values = [a.get(key) for a in attempts]
            if not all(is_number(v) for v in values):
                yield from self._below_parts(subject, doc, key, values)
                continue
            if all(isinstance(v, int) for v in values):
                total = sum(values)
            else:
                floats = [as_float(v) for v in values]
                if any(f is None for f in floats):
                    continue
                try:
                    total = math.fsum(floats)  # finite floats: a finite sum, or OverflowError
                except (OverflowError, ValueError):
                    continue
            if n == 1:
                says, noun = f"the one attempt's {key} is", f"the one attempt's {key}"
            else:
                says, noun = f"the {n} attempts' {key} add up to", f"the {n} attempts' total {key}"
            # the exact sum of the texts, for a proposal only: computed when one is made
            exact = None if isinstance(total, int) else (
                lambda docs=docs, key=key: exact_sum([number_text(d, (key,)) for d in docs]))
            yield from self._compare(subject, doc, key, total, says, noun, exact=exact)

    def _below_parts(self, subject, doc, key, values):
        """A total that some attempts leave out is not checked, but it can
        never be below what the attempts that carry it add up to (none is
        negative): such a total is provably wrong."""
        known = [as_float(v) for v in values if is_number(v)]
        have = as_float(doc.data.get(key)) if is_number(doc.data.get(key)) else None
        if not known or have is None or any(k is None or k < 0 for k in known):
            return
        try:
            part = math.fsum(known)
        except (OverflowError, ValueError):
            return
        if not math.isfinite(part) or have >= part * (1 - 1e-9) - 1e-9:
            return
        missing = [i + 1 for i, v in enumerate(values) if not is_number(v)]
        carry = "attempt that carries it" if len(known) == 1 else f"{len(known)} attempts that carry it"
        src = number_text(doc, (key,)) or str(doc.data.get(key))
        names = ", ".join(f"attempt-{i}.yaml" for i in missing[:3]) + (", ..." if len(missing) > 3 else "")
        yield self.finding(
            subject, f"{key} is {src} but the {carry} already "
                     f"{'says' if len(known) == 1 else 'add up to'} {_fmt_pair(part, part)[0]}",
            pos=doc.value_pos((key,)),
            hint=f"every attempt carries {key}, or none does: add it to {names}, then the total is checked")

    def _compare(self, subject, doc, key, want, says, noun, population=None, exact=None):
        """A finding when the summary's ``key`` does not state ``want``.
        ``says`` and ``noun`` name ``want`` in a message ("the 3 attempts
        average", "the 3 attempts' mean"); ``exact``, called, gives the
        exact sum the proposal is made of."""
        have = doc.data.get(key)
        if not is_number(have):
            return  # absent or mistyped: the schema rules' business
        src = number_text(doc, (key,))
        decimals = written_decimals(src)
        ok = states(have, want, decimals)
        if ok is None or ok:
            return
        if exact is not None:
            exact = exact()
        pos = doc.value_pos((key,))
        shown_have, shown_want = _fmt_pair(have, want)
        if src:
            shown_have = src  # the value as the file writes it (60.0, not 60)
        # The same text --fix writes (fixes/summary.py).
        value = proposal(want, src, exact)
        rounded = proposal(want, src)  # what the author's rounding makes of it
        if not isinstance(want, float):
            if value is not None:
                hint = f"set {key} to {value}, or fix the attempt files"
            else:
                hint = f"recompute {key} from the attempt files"
            yield self.finding(subject, f"{key} is {shown_have} but {says} {shown_want}", pos=pos, hint=hint)
            return
        fh = as_float(have)  # None for an int beyond any float
        if population is not None and states(have, population, decimals):
            yield self.finding(
                subject,
                f"{key} {shown_have} is the population standard deviation (n in the denominator); "
                f"RFC-0005's score_std is {noun}, with n - 1: {shown_want}",
                pos=pos, hint=f"set {key} to {value} (the sample standard deviation)")
            return
        if rounding_applies(want, decimals):
            message = f"{key} {shown_have} is not {noun} {shown_want} rounded to {decimals} decimals ({rounded})"
            hint = f"set {key} to {value}, or fix the attempt files"
        elif decimals >= MIN_DECIMALS:
            message = f"{key} is {shown_have} but {says} {shown_want}"
            hint = f"set {key} to {value}, or fix the attempt files"
        elif fh is not None and is_plain_decimal(src) and agrees_rounded(fh, want, decimals):
            # Right, but rounded too far to tell a slip from rounding.
            places = "a whole number" if decimals == 0 else "1 decimal"
            message = (f"{key} {src} is {noun} {shown_want} rounded to {places}, too few decimals to compare "
                       f"(at least {MIN_DECIMALS} are compared to the precision written, fewer within a relative 1e-6)")
            hint = f"write {key} with at least {MIN_DECIMALS} decimals: {value}"
        else:
            message = f"{key} is {shown_have} but {says} {shown_want}"
            hint = (f"set {key} to {value} (written with at least {MIN_DECIMALS} decimals, it is compared "
                    "to the precision written), or fix the attempt files")
        yield self.finding(subject, message, pos=pos, hint=hint)

    affects = (("kind", "attempt"),)

    def affected_by(self, changed, ctx):
        # The summary of a phase is judged against its attempt files.
        kind = ctx.layout.classify_file(changed)
        if kind is not None and kind[0] == "attempt":
            yield changed.rpartition("/")[0] + "/summary.yaml"
