"""PL408 attempt-count-mismatch (w): leaves of one expression differ in `n_attempt`."""
from penguin_lint.findings import WARNING
from penguin_lint.rules._expressions import LeaderboardRule, expressions


class AttemptCountMismatch(LeaderboardRule):
    """RFC-0005 computes an expression's standard deviation from its
    per-attempt composite scores ``Y_j = sum_g w_g * S_g,j``, which needs
    every leaf to have run the same number of attempts. When the leaves'
    ``n_attempt`` differ, the renderer falls back to the independent formula
    ``std(Y) = sqrt(sum_g w_g^2 * s_g^2)`` built from each summary's
    ``score_std``. That is allowed, hence a warning; the finding is on the
    expression and names the first leaf whose count differs.
    """

    code = "PL408"
    name = "attempt-count-mismatch"
    severity = WARNING
    summary = "leaves of one expression differ in `n_attempt`"
    bad = ("leaderboards/code-eval/leaderboard.yaml",
           "values:\n"
           "  - op: mean\n"
           "    args:\n"
           "      - { experiment_id: code-review-baseline, phase: test }  # n_attempt: 3\n"
           "      - { experiment_id: sql-puzzles-baseline, phase: test }  # n_attempt: 2\n")
    good = ("leaderboards/code-eval/leaderboard.yaml",
            "values:\n"
            "  - op: mean\n"
            "    args:\n"
            "      - { experiment_id: code-review-baseline, phase: test }  # n_attempt: 3\n"
            "      - { experiment_id: sql-puzzles-baseline, phase: test }  # n_attempt: 3\n")

    def check(self, subject, ctx):
        ex = expressions(subject, ctx)
        if ex is None:
            return
        # One value's leaves are compared with each other only: in focus,
        # only the values in view (focus.py).
        for _, top in ex.tops_in_view():
            first = None
            for leaf in ex.leaves(top):
                n = ex.n_attempt(leaf)
                if n is None:
                    continue  # unresolved (PL401) or invalid in the summary (PL101/PL102)
                if first is None:
                    first = (leaf, n)
                    continue
                if n != first[1]:
                    a, na = first
                    yield self.finding(
                        subject,
                        f"leaves of one expression differ in n_attempt: {na} ('{a.experiment_id}', "
                        f"line {ex.line(a)}) vs {n} ('{leaf.experiment_id}', line {ex.line(leaf)}); "
                        f"the independent formula will be used for the standard deviation",
                        pos=ex.pos(top),
                        hint="run every experiment of a row with the same number of attempts to get "
                             "the per-attempt standard deviation")
                    break
