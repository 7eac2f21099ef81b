"""PL301 missing-experiment-file: meta_info.yaml or a phase's summary.yaml is absent."""
from penguin_lint.rules.base import Rule

# folder kind -> (file it must hold, what the file is for)
REQUIRED = {
    "experiment": ("meta_info.yaml", "what the experiment ran: benchmark, harness, model, algorithm"),
    "phase": ("summary.yaml", "the phase's n_attempt, score_mean and score_std"),
}


class MissingExperimentFile(Rule):
    """
    An experiment folder ``experiments/<leaderboard>/<experiment>/`` holds a
    ``meta_info.yaml`` naming its benchmark, harness, model and algorithm;
    every phase folder in it (``test/``, ``train/``, ...) holds a
    ``summary.yaml`` with the phase's ``n_attempt``, ``score_mean`` and
    ``score_std``. Leaderboards read both, so a value that names such an
    experiment cannot be computed without them. Folders whose name starts
    with ``.`` are not experiments or phases and are skipped. The finding
    names the path where the file belongs.
    """

    code = "PL301"
    name = "missing-experiment-file"
    summary = "`meta_info.yaml` or a phase's `summary.yaml` is absent"
    kinds = tuple(REQUIRED)
    bad = ("experiments/lb/exp-1/", "meta_info.yaml\ntest/attempt-1.yaml\n")
    good = ("experiments/lb/exp-1/", "meta_info.yaml\ntest/summary.yaml\ntest/attempt-1.yaml\n")

    def check(self, subject, ctx):
        # A dot-folder anywhere on the way is not part of the experiment tree.
        if any(v.startswith(".") for v in subject.groups.values()):
            return
        fname, purpose = REQUIRED[subject.kind]
        path = f"{subject.path}/{fname}"
        entry = ctx.repo.entry(path)
        if entry is not None and entry.is_file:
            return
        if entry is not None and entry.is_symlink:
            return  # PL006 reports the link; a second finding would only repeat it
        what = "experiment" if subject.kind == "experiment" else "phase"
        if entry is not None and entry.is_dir:
            msg = f"{what} '{subject.path}' has a folder named {fname} where the file belongs"
        else:
            msg = f"{what} '{subject.path}' has no {fname}"
        yield self.finding(subject, msg, path=path, hint=self.misnamed(ctx, path) or f"add {fname} ({purpose})")
