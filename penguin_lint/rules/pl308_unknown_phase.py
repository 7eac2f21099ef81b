"""PL308 unknown-phase (w): a phase folder other than train/val/test."""
import re

from penguin_lint.findings import WARNING
from penguin_lint.rules.base import Rule
from penguin_lint.rules.pl302_attempt_numbering import phase_of
from penguin_lint.rules.pl307_unknown_benchmark import closest

KNOWN = ("train", "val", "test")
PHASE_NAME = re.compile(r"[a-z][a-z0-9_-]*\Z")
# Spellings people use for the known phases.
ALIASES = {"training": "train", "valid": "val", "validation": "val", "dev": "val", "eval": "test",
           "testing": "test"}


class UnknownPhase(Rule):
    """
    The folders inside an experiment are its phases, named after the split
    they ran on: ``train``, ``val`` or ``test``. Leaderboards name a phase
    in every leaf, and tooling knows these three; another name is allowed
    but warned about, since a leaderboard leaf using ``phase: test`` will not
    find ``Test/`` or ``testing/``. A phase name must also be lowercase
    (``^[a-z][a-z0-9_-]*$``): folder names differ in case only on some file
    systems, so ``Test/`` and ``test/`` can collide on checkout. Folders
    starting with ``.`` are not phases and are skipped.
    """

    code = "PL308"
    name = "unknown-phase"
    severity = WARNING
    summary = "a phase folder other than train/val/test"
    kinds = ("phase",)
    bad = ("experiments/lb/exp-1/", "meta_info.yaml\nTesting/summary.yaml\n")
    good = ("experiments/lb/exp-1/", "meta_info.yaml\ntest/summary.yaml\n")

    def check(self, subject, ctx):
        g = subject.groups
        if any(v.startswith(".") for v in g.values()):
            return
        phase = g["phase"]
        if phase in KNOWN:
            return
        lower = phase.lower()
        near = lower if lower in KNOWN else ALIASES.get(lower) or closest(lower, KNOWN)
        hint = f"rename the folder to '{near}'" if near else "use train, val or test if the phase is one of them"
        if not PHASE_NAME.match(phase):
            msg = f"phase folder '{phase}' is not a lowercase name (letters, digits, '_' and '-', starting with a letter)"
        else:
            msg = f"unknown phase '{phase}' (known phases: {', '.join(KNOWN)})"
        yield self.finding(subject, msg, hint=hint)

    affects = (("under", "experiments", 3, None, None),)

    def affected_by(self, changed, ctx):
        # A file added to a phase folder is how the folder itself arrives.
        phase = phase_of(changed, ctx)
        if phase is not None:
            yield phase
