"""PL302 attempt-numbering: attempt files not exactly 1..n_attempt."""
import re

from penguin_lint.core.layout import ATTEMPT_RE
from penguin_lint.loaders.numbers import as_float, attempts_mean, is_number, summary_states
from penguin_lint.rules.base import Rule

# Files that are meant as attempts, whatever their spelling (attempt-01.yaml,
# attempt_2.yml, Attempt-3.yaml, attempt-x.yaml): the rule judges their names.
ATTEMPT_LIKE = re.compile(r"attempt[^/]*\.(?:ya?ml|json)\Z", re.I)
_NUMBERED = re.compile(r"attempt[-_ ]*0*([0-9]+)\.(?:ya?ml|json)\Z", re.I)
# A summary may claim any n_attempt; past this many, missing files are
# reported as one finding rather than one each.
MAX_MISSING_LISTED = 20


def phase_of(changed, ctx):
    """The phase folder a path lies in (or is), else None."""
    root = ctx.layout.roots["experiments"] + "/"
    if not changed.startswith(root):
        return None
    parts = changed[len(root):].split("/")
    if len(parts) < 3:
        return None
    phase = root + "/".join(parts[:3])
    if len(parts) == 3 and not ctx.repo.is_dir(phase):
        return None  # meta_info.yaml, or a phase that is gone: no phase to check
    return phase


def n_attempt_of(ctx, summary_path):
    """(n_attempt, summary document) when summary.yaml parses and n_attempt is
    a positive integer; (None, document or None) otherwise."""
    doc = ctx.valid_doc(summary_path)
    if doc is None:
        return None, None
    n = doc.data.get("n_attempt")
    if isinstance(n, int) and not isinstance(n, bool) and n >= 1:
        return n, doc
    return None, doc


class AttemptNumbering(Rule):
    """
    A phase folder holds one file per attempt, ``attempt-1.yaml`` to
    ``attempt-<n>.yaml`` where ``n`` is the ``n_attempt`` of its
    ``summary.yaml``: no gaps, no extras, no other spellings. The summary's
    mean and standard deviation are computed over exactly these files, so a
    missing attempt, a leftover ``attempt-4.yaml`` of a 3-attempt run, or an
    ``attempt-01.yaml`` that no tool reads makes the numbers unverifiable.
    When the summary is missing or its ``n_attempt`` is unusable, only badly
    named files are reported. When ``score_mean`` is the mean of the attempt
    files present (to the precision written), the finding says so: then
    ``n_attempt`` probably counts runs that were never recorded.
    """

    code = "PL302"
    name = "attempt-numbering"
    summary = "attempt files not exactly 1..`n_attempt`"
    kinds = ("phase",)
    bad = ("experiments/lb/exp-1/test/", "summary.yaml      # n_attempt: 3\nattempt-1.yaml\nattempt-3.yaml\nattempt-4.yaml\n")
    good = ("experiments/lb/exp-1/test/", "summary.yaml      # n_attempt: 3\nattempt-1.yaml\nattempt-2.yaml\nattempt-3.yaml\n")

    def check(self, subject, ctx):
        if any(v.startswith(".") for v in subject.groups.values()):
            return
        present = set()
        for fname in ctx.repo.files(subject.path):
            m = ATTEMPT_RE.match(fname)
            if m:
                present.add(int(m.group(1)))
            elif ATTEMPT_LIKE.match(fname):
                yield self._badly_named(subject, fname)

        summary_path = f"{subject.path}/summary.yaml"
        n, doc = n_attempt_of(ctx, summary_path)
        if n is None:
            return

        def pos():  # only for a finding: a clean phase looks up no position
            return doc.value_pos(("n_attempt",))

        def where() -> str:
            return f"summary.yaml line {pos().line} says n_attempt: {n}"

        for i in sorted(present):
            if i > n:
                yield self.finding(
                    subject, f"attempt-{i}.yaml is beyond the {n} attempt{'s' if n != 1 else ''} of this phase ({where()})",
                    path=f"{subject.path}/attempt-{i}.yaml",
                    hint="remove it, or set n_attempt to the number of attempts run and update the summary")

        # Walk 1..n lazily: n may be huge, and only the first gaps are listed.
        missing_total = n - sum(1 for i in present if i <= n)
        fewer = self._mean_of_present(ctx, subject.path, doc, sorted(i for i in present if i <= n)) \
            if missing_total else None
        listed = 0
        i = 0
        while listed < min(missing_total, MAX_MISSING_LISTED):
            i += 1
            if i in present:
                continue
            listed += 1
            message = f"attempt-{i}.yaml is missing ({where()}, so attempt-1.yaml..attempt-{n}.yaml must exist)"
            hint = f"add attempt-{i}.yaml, or correct n_attempt in summary.yaml"
            if fewer is not None:
                message += (f"; score_mean is the mean of the {fewer} attempt file{'s' if fewer != 1 else ''} "
                            f"present, not of {n}")
                hint = (f"if {fewer} attempt{'s' if fewer != 1 else ''} ran, set n_attempt: {fewer} "
                        f"(and score_std to match); otherwise add attempt-{i}.yaml and recompute the summary")
            yield self.finding(subject, message, path=f"{subject.path}/attempt-{i}.yaml", hint=hint)
        if missing_total > listed:
            yield self.finding(
                subject, f"{missing_total - listed} more attempt "
                         f"{'file' if missing_total - listed == 1 else 'files'} up to attempt-{n}.yaml "
                         f"{'is' if missing_total - listed == 1 else 'are'} missing "
                         f"(n_attempt is {n})",
                path=summary_path, pos=pos(),
                hint="set n_attempt to the number of attempts run")

    @staticmethod
    def _mean_of_present(ctx, phase, doc, numbers):
        """How many attempt files are present when the summary's score_mean
        is their mean (the usual slip: n_attempt counts runs that left no
        file, or a file was not added), else None."""
        if not numbers:
            return None
        scores = []
        for i in numbers:
            adoc = ctx.valid_doc(f"{phase}/attempt-{i}.yaml")
            score = adoc.data.get("score") if adoc is not None else None
            if not is_number(score) or as_float(score) is None:
                return None
            scores.append(as_float(score))
        mean = attempts_mean(scores)
        if mean is None or not summary_states(doc, "score_mean", mean):
            return None
        return len(scores)

    def _badly_named(self, subject, fname):
        m = _NUMBERED.match(fname)
        hint = "attempt files are named attempt-<n>.yaml with n = 1, 2, ... (no leading zeros)"
        if m:
            k = int(m.group(1))
            if k >= 1:
                hint = f"rename it to attempt-{k}.yaml"
            else:
                hint = "attempts are numbered from 1: rename it to attempt-1.yaml (and shift the others)"
        return self.finding(subject, f"'{fname}' is not a valid attempt file name (attempt-<n>.yaml, n from 1)",
                            path=f"{subject.path}/{fname}", hint=hint)

    affects = (("under", "experiments", 4, 4, None),)

    def affected_by(self, changed, ctx):
        # A change to summary.yaml (n_attempt) or to any attempt file can make
        # another attempt file of the same phase missing or extra.
        phase = phase_of(changed, ctx)
        if phase is not None and changed.count("/") == phase.count("/") + 1:
            yield phase
