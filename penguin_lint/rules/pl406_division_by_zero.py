"""PL406 division-by-zero: a `div` denominator is 0, or an operation's value is past any float."""
import math

from penguin_lint.rules._expressions import LeaderboardRule, Operation, expressions


class DivisionByZero(LeaderboardRule):
    """``div`` divides its first arg by its second; the expression is
    evaluated with the metric values of the referenced summaries, and a
    denominator that comes out as 0 leaves the row without a score. The
    finding is on the denominator. Denominators that cannot be evaluated (a
    missing summary or metric) are left to PL401/PL402. So does an operation
    of finite parts whose value is not a finite number (a denominator near
    0, values or weights too large to add): the finding is on the operation.
    """

    code = "PL406"
    name = "division-by-zero"
    summary = "a `div` denominator is 0, or an operation's value is past any float"
    bad = ("leaderboards/code-eval/leaderboard.yaml",
           "values:\n"
           "  - op: div\n"
           "    args:\n"
           "      - { experiment_id: sql-puzzles-skillopt, phase: test }\n"
           "      - { experiment_id: sql-puzzles-skillopt, phase: test, metric: cost }  # cost: 0\n")
    good = ("leaderboards/code-eval/leaderboard.yaml",
            "values:\n"
            "  - op: div\n"
            "    args:\n"
            "      - { experiment_id: sql-puzzles-skillopt, phase: test }\n"
            "      - { experiment_id: sql-puzzles-skillopt, phase: test, metric: token }  # token: 802496\n")

    def check(self, subject, ctx):
        ex = expressions(subject, ctx)
        if ex is None:
            return
        # A denominator is evaluated from its own value's summaries: in
        # focus, only the values in view (focus.py).
        for node in ex.nodes_in_view():
            if isinstance(node, Operation) and node.args:
                # finite parts, a result past any float (a tiny denominator,
                # a sum of huge values): the board would show inf or nothing
                value = ex.value(node)
                parts = [ex.value(a) for a in node.args]
                if value is not None and not math.isfinite(value) \
                        and all(v is not None and math.isfinite(v) for v in parts):
                    shown = "no number (NaN)" if math.isnan(value) else f"{value}, past any float"
                    yield self.finding(
                        subject, f"'{node.op}' (line {ex.line(node)}) evaluates to {shown}",
                        pos=ex.pos(node), hint="check what it combines: a denominator near 0, values or "
                                               "weights too large to add")
                    continue
            if not (isinstance(node, Operation) and node.op == "div"
                    and node.args is not None and len(node.args) == 2):
                continue  # other arities are PL405's
            den = node.args[1]
            if den is None:
                continue
            value = ex.value(den)
            if value is not None and value == 0:
                yield self.finding(
                    subject, f"the denominator of 'div' (line {ex.line(node)}) evaluates to 0",
                    pos=ex.pos(den),
                    hint="divide by a metric that is never 0, or drop the division")
