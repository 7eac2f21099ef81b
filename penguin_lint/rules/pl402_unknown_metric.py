"""PL402 unknown-metric: the metric is absent or not a number."""
import math

from penguin_lint.loaders.scalars import did_you_mean
from penguin_lint.rules._expressions import Leaf, LeaderboardRule, expressions, show


class UnknownMetric(LeaderboardRule):
    """A leaf's ``metric`` (``score_mean`` when omitted) names a key of the
    phase's ``summary.yaml`` whose value is a finite number: the score the
    leaderboard shows. A missing key, a string, a boolean, NaN or infinity
    cannot be ranked. (A summary that is missing altogether is PL401.)
    """

    code = "PL402"
    name = "unknown-metric"
    summary = "the metric is absent or not a number"
    bad = ("leaderboards/code-eval/leaderboard.yaml",
           "values:\n  - { experiment_id: sql-puzzles-baseline, phase: test, metric: score_avg }\n")
    good = ("leaderboards/code-eval/leaderboard.yaml",
            "values:\n  - { experiment_id: sql-puzzles-baseline, phase: test, metric: score_mean }\n")

    def check(self, subject, ctx):
        ex = expressions(subject, ctx)
        if ex is None:
            return
        # A leaf is judged by its own summary: in focus, only the values in view (focus.py).
        for leaf in ex.nodes_in_view():
            if not isinstance(leaf, Leaf):
                continue
            ex.resolve(leaf)
            # An unparsable summary is PL001's; a metric that is not a string, PL102's.
            if leaf.summary is None or not isinstance(leaf.metric, str):
                continue
            metric, summary = leaf.metric, leaf.summary
            pos = ex.pos(leaf, "metric")  # the leaf itself when metric is omitted
            where = f"{leaf.experiment_id}/{leaf.phase}/summary.yaml"
            if metric not in summary:
                numeric = [k for k, v in summary.items()
                           if isinstance(k, str) and isinstance(v, (int, float)) and not isinstance(v, bool)]
                # a strict cutoff: "cost" is not a typo of "score_std"
                import difflib  # only when a finding is worded

                close = difflib.get_close_matches(metric, numeric, n=1, cutoff=0.8)
                hint = did_you_mean(close[0]) if close else None
                if hint is None and numeric:
                    hint = f"numeric keys of the summary: {', '.join(numeric)}"
                default = " (the default metric)" if not leaf.metric_given else ""
                yield self.finding(subject, f"metric '{metric}'{default} is not in {where}", pos=pos, hint=hint)
                continue
            value = summary[metric]
            if isinstance(value, bool):
                problem = "a boolean"
            elif isinstance(value, float) and not math.isfinite(value):
                problem = f"{value}, not a finite number"
            elif isinstance(value, (int, float)):
                continue
            elif isinstance(value, str):
                problem = f"a string ({show(value)})"
            elif value is None:
                problem = "null"
            else:
                problem = f"a {'list' if isinstance(value, list) else 'mapping' if isinstance(value, dict) else type(value).__name__}"
            if not problem.endswith("number"):
                problem += ", not a number"
            yield self.finding(subject, f"metric '{metric}' in {where} is {problem}", pos=pos,
                               hint="a leaderboard metric must be a numeric key of the summary")
