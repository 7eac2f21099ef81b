"""PL404 repeated-benchmark: two leaves of one expression share a benchmark or experiment."""
from penguin_lint.rules._expressions import LeaderboardRule, expressions


class RepeatedBenchmark(LeaderboardRule):
    """An expression aggregates one row over several benchmarks, so each
    benchmark (``benchmark_id`` of the experiment's ``meta_info.yaml``) and
    each experiment appears in it at most once; a repeat counts that benchmark
    twice in the mean. The finding is on the repeating leaf.
    """

    code = "PL404"
    name = "repeated-benchmark"
    summary = "two leaves of one expression share a benchmark or experiment"
    bad = ("leaderboards/code-eval/leaderboard.yaml",
           "values:\n"
           "  - op: mean\n"
           "    args:\n"
           "      - { experiment_id: sql-puzzles-baseline-1030, phase: test }\n"
           "      - { experiment_id: sql-puzzles-baseline-1101, phase: test }  # sql-puzzles again\n")
    good = ("leaderboards/code-eval/leaderboard.yaml",
            "values:\n"
            "  - op: mean\n"
            "    args:\n"
            "      - { experiment_id: sql-puzzles-baseline-1101, phase: test }\n"
            "      - { experiment_id: code-review-baseline-1101, phase: test }\n")

    def check(self, subject, ctx):
        ex = expressions(subject, ctx)
        if ex is None:
            return
        # Repeats are looked for inside one value: in focus, only the values in view (focus.py).
        for _, top in ex.tops_in_view():
            experiments, benchmarks = {}, {}
            for leaf in ex.leaves(top):
                exp = leaf.experiment_id
                if not isinstance(exp, str):
                    continue  # PL101/PL102 report it
                if exp in experiments:
                    first = experiments[exp]
                    yield self.finding(
                        subject, f"experiment '{exp}' is used twice in one expression "
                                 f"(also on line {ex.line(first)})",
                        pos=ex.pos(leaf, "experiment_id"),
                        hint="each experiment counts once in a row; remove the repeat")
                    continue
                experiments[exp] = leaf
                bench = ex.benchmark(leaf)
                if bench is None:
                    continue
                if bench in benchmarks:
                    first = benchmarks[bench]
                    yield self.finding(
                        subject, f"benchmark '{bench}' appears twice in one expression: "
                                 f"'{first.experiment_id}' (line {ex.line(first)}) and '{exp}'",
                        pos=ex.pos(leaf, "experiment_id"),
                        hint="keep one experiment per benchmark in a row; a rerun replaces the older one")
                else:
                    benchmarks[bench] = leaf
