"""PL305 orphan-experiments: experiments/<id>/ without a leaderboard."""
from penguin_lint.rules.base import Rule
from penguin_lint.rules.pl307_unknown_benchmark import closest


def group_of(changed, ctx):
    """The leaderboard id of a path under ``experiments/<id>/`` or ``leaderboards/<id>/``."""
    for root in (ctx.layout.roots["experiments"], ctx.layout.roots["leaderboards"]):
        root += "/"
        if changed.startswith(root):
            lb = changed[len(root):].split("/", 1)[0]
            return lb or None
    return None


class OrphanExperiments(Rule):
    """
    Experiments are filed by the leaderboard that shows them:
    ``experiments/<leaderboard-id>/`` belongs to
    ``leaderboards/<leaderboard-id>/leaderboard.yaml``. Without that file
    nothing publishes the experiments (a typo in the folder name, or a
    leaderboard that was renamed or removed).
    """

    code = "PL305"
    name = "orphan-experiments"
    summary = "`experiments/<id>/` without a leaderboard"
    kinds = ("experiment_group",)
    bad = ("experiments/code-evals/", "(leaderboards/code-evals/leaderboard.yaml does not exist)")
    good = ("experiments/code-eval/", "(leaderboards/code-eval/leaderboard.yaml exists)")

    def check(self, subject, ctx):
        lb = subject.groups.get("leaderboard", "")
        # (a dot-named group too: no leaderboard id starts with a dot, so
        # nothing publishes what it holds)
        lb_file = ctx.layout.leaderboard_file(lb)
        if ctx.repo.is_file(lb_file):
            return
        lbs = [d for d in ctx.repo.subdirs(ctx.layout.roots["leaderboards"])
               if not d.startswith(".") and ctx.repo.is_file(ctx.layout.leaderboard_file(d))]
        near = closest(lb, lbs)
        hint = self.misnamed(ctx, lb_file) or (
            f"did you mean '{near}'? move the experiments to {ctx.layout.experiments_group(near)}/"
            if near else "no leaderboard id starts with a dot: move the experiments under the leaderboard "
                         "that shows them" if lb.startswith(".")
            else f"add {lb_file}, or move the experiments under the leaderboard that shows them")
        yield self.finding(subject, f"experiments folder '{subject.path}' has no leaderboard ({lb_file} does not exist)",
                           hint=hint)

    affects = (("under", "leaderboards", 1, None, None),)

    def affected_by(self, changed, ctx):
        # A leaderboard file that vanishes orphans its experiments folder (a
        # change inside the folder re-checks it anyway: it holds the change).
        lb_root = ctx.layout.roots["leaderboards"] + "/"
        lb = group_of(changed, ctx)
        if lb is not None and changed.startswith(lb_root) and not ctx.repo.is_file(ctx.layout.leaderboard_file(lb)):
            group = ctx.layout.experiments_group(lb)
            if ctx.repo.is_dir(group):
                yield group
