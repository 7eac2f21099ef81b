"""PL407 duplicate-entry (w): two values carry the same label."""
from penguin_lint.findings import WARNING
from penguin_lint.rules._expressions import LeaderboardRule, expressions


def _text(key):
    return key if isinstance(key, str) else key[1]


class DuplicateEntry(LeaderboardRule):
    """Each value of a leaderboard is shown as one row labelled
    ``(harness_name, model_name, algorithm, phase)``, taken from its
    experiments' ``meta_info.yaml`` and its leaves. Two values with the same
    label are two rows nobody can tell apart; usually one of them is an older
    run that should have been replaced. Values whose leaves disagree on the
    label are PL403's and are not compared.
    """

    code = "PL407"
    name = "duplicate-entry"
    severity = WARNING
    summary = "two values carry the same label"
    bad = ("leaderboards/code-eval/leaderboard.yaml",
           "values:\n"
           "  - { experiment_id: sql-puzzles-baseline-qwen-20261030, phase: test }\n"
           "  - { experiment_id: sql-puzzles-baseline-qwen-20261101, phase: test }  # same harness/model/algorithm\n")
    good = ("leaderboards/code-eval/leaderboard.yaml",
            "values:\n"
            "  - { experiment_id: sql-puzzles-baseline-qwen-20261101, phase: test }\n"
            "  - { experiment_id: sql-puzzles-skillopt-qwen-20261101, phase: test }\n")

    def check(self, subject, ctx):
        ex = expressions(subject, ctx)
        if ex is None:
            return
        # Any value's label can repeat any other's, so in focus this rule is
        # not narrowed to some values: it runs whole when the change can
        # alter a label (the label fields of a referenced meta_info.yaml),
        # else not at all, its findings being the base's (focus.py).
        if not ex.labels_may_differ():
            return
        seen = {}
        for i, top in enumerate(ex.tops):
            label = ex.label(top)
            if label is None:
                continue
            if label in seen:
                first = seen[label]
                shown = ", ".join(_text(k) for k in label)
                yield self.finding(
                    subject, f"value {i + 1} has the same label ({shown}) as value {first + 1} "
                             f"(line {ex.line(ex.tops[first])})",
                    pos=ex.pos(top),
                    hint="keep one row per harness, model, algorithm and phase: remove this value or the one it repeats")
            else:
                seen[label] = i
