"""PL401 unresolved-reference: a leaf names an experiment, phase or summary that does not exist."""

from penguin_lint.engine.finding_cap import MAX_PER_FILE_AND_CODE
from penguin_lint.loaders.scalars import did_you_mean
from penguin_lint.rules._expressions import Leaf, LeaderboardRule, expressions


class UnresolvedReference(LeaderboardRule):
    """Each leaf ``{experiment_id, phase, metric}`` of a leaderboard reads
    ``experiments/<leaderboard-id>/<experiment_id>/<phase>/summary.yaml``, and
    the renderer takes the row's harness, model and algorithm from the
    experiment's ``meta_info.yaml``. The experiment folder, its
    ``meta_info.yaml`` and the phase's ``summary.yaml`` must all exist; the
    finding says which one is missing. An ``experiment_id`` that is not a
    plain folder name is reported by PL202 and never looked up.
    """

    code = "PL401"
    name = "unresolved-reference"
    summary = "a leaf names an experiment, phase or summary that does not exist"
    bad = ("leaderboards/code-eval/leaderboard.yaml",
           "values:\n  - { experiment_id: sql-puzzles-baseline-qwen-14b, phase: tset }\n"
           "# experiments/code-eval/sql-puzzles-baseline-qwen-14b/ has test/, not tset/\n")
    good = ("leaderboards/code-eval/leaderboard.yaml",
            "values:\n  - { experiment_id: sql-puzzles-baseline-qwen-14b, phase: test }\n")

    def check(self, subject, ctx):
        ex = expressions(subject, ctx)
        if ex is None or ex.leaderboard is None:
            return
        group = ctx.layout.experiments_group(ex.leaderboard)
        # Every leaf counts for the hint, in focus too (one listing of the
        # experiments folder); only the leaves in view are judged, each from
        # its own experiment's folders (focus.py).
        referenced = set()
        for leaf in ex.all_nodes():
            if isinstance(leaf, Leaf) and ex.find(leaf).exp_exists:
                referenced.add(leaf.experiment_id)
        leaves = [ex.locate(n) for n in ex.nodes_in_view() if isinstance(n, Leaf)]
        missing_ids = 0
        for leaf in leaves:
            if leaf.exp_dir is None:
                continue  # unsafe or not a string: PL202/PL102 report it
            exp = leaf.experiment_id
            if not leaf.exp_exists:
                missing_ids += 1
                # past the findings a report lists, no search for a near id: a
                # board of 40,000 broken leaves costs each of them a lookup only
                hint = (self._did_you_mean(ctx, group, exp, referenced) if missing_ids <= MAX_PER_FILE_AND_CODE
                        else f"experiment ids are the folder names under {group}/")
                yield self.finding(
                    subject, f"experiment '{exp}' does not exist: there is no folder {leaf.exp_dir}/",
                    pos=ex.pos(leaf, "experiment_id"), hint=hint)
                continue
            missing = []
            if not leaf.meta_exists:
                missing.append(leaf.meta_path)
            if leaf.summary_path is not None and not leaf.summary_exists:
                missing.append(leaf.summary_path)
            if not missing:
                continue
            if leaf.meta_exists:
                # Only the phase's summary is missing: point at the phase.
                if leaf.phase_exists:
                    msg = f"phase '{leaf.phase}' of experiment '{exp}' has no summary.yaml ({leaf.summary_path})"
                    hint = "add the phase's summary.yaml, or fix the phase name"
                else:
                    msg = f"experiment '{exp}' has no phase '{leaf.phase}' ({leaf.summary_path} does not exist)"
                    hint = self._phases_hint(ctx, leaf)
                yield self.finding(subject, msg, pos=ex.pos(leaf, "phase"), hint=hint)
            else:
                what = " and ".join(missing)
                yield self.finding(
                    subject, f"experiment '{exp}' is incomplete: {what} "
                             f"{'do' if len(missing) > 1 else 'does'} not exist",
                    pos=ex.pos(leaf, "experiment_id"),
                    hint="meta_info.yaml names the harness, model and algorithm the row is shown under")

    @staticmethod
    def _did_you_mean(ctx, group, exp, referenced):
        folders = ctx.repo.subdirs(group)
        if not folders:
            return f"{group}/ holds no experiments; add the experiment folder or fix the id"
        # Prefer an experiment no other leaf uses: that is the likely typo target.
        for pool in ([f for f in folders if f not in referenced], folders):
            import difflib  # only when a finding is worded

            close = difflib.get_close_matches(exp, pool, n=1, cutoff=0.8)
            hint = did_you_mean(close[0]) if close else None
            if hint is not None:
                return hint
        return f"experiment ids are the folder names under {group}/"

    @staticmethod
    def _phases_hint(ctx, leaf):
        phases = [p for p in ctx.repo.subdirs(leaf.exp_dir) if ctx.repo.is_file(f"{leaf.exp_dir}/{p}/summary.yaml")]
        if not phases:
            return "the experiment has no phase with a summary.yaml yet"
        import difflib  # only when a finding is worded

        close = difflib.get_close_matches(leaf.phase, phases, n=1, cutoff=0.6)
        hint = did_you_mean(close[0]) if close else None
        if hint is not None:
            return f"{hint} (phases: {', '.join(phases)})"
        return f"phases of this experiment: {', '.join(phases)}"
