"""PL403 inconsistent-expression: harness/model/algorithm/phase differ inside one expression."""
from penguin_lint.rules._expressions import LABEL_FIELDS, LeaderboardRule, expressions, same_key


class InconsistentExpression(LeaderboardRule):
    """One value of a leaderboard is one row: a harness, a model and an
    algorithm evaluated in one phase, aggregated over several benchmarks. The
    renderer takes the row's label from the experiments' ``meta_info.yaml``
    (``harness_name``, ``model_name``, ``algorithm``) and the leaves'
    ``phase``, so every leaf of one top-level expression must agree on all
    four; only the benchmark may differ (RFC-0005). The finding is placed on
    the expression and names the first leaf that disagrees with the first
    leaf, the field and both values, as the files write them (a
    ``model_name: yes`` that YAML reads as true is quoted ``yes``).
    """

    code = "PL403"
    name = "inconsistent-expression"
    summary = "harness/model/algorithm/phase differ inside one expression"
    bad = ("leaderboards/code-eval/leaderboard.yaml",
           "values:\n"
           "  - op: mean\n"
           "    args:\n"
           "      - { experiment_id: code-review-baseline-qwen-32b, phase: test }\n"
           "      - { experiment_id: sql-puzzles-baseline-qwen-14b, phase: test }  # another model\n")
    good = ("leaderboards/code-eval/leaderboard.yaml",
            "values:\n"
            "  - op: mean\n"
            "    args:\n"
            "      - { experiment_id: code-review-baseline-qwen-32b, phase: test }\n"
            "      - { experiment_id: sql-puzzles-baseline-qwen-32b, phase: test }\n")

    def check(self, subject, ctx):
        ex = expressions(subject, ctx)
        if ex is None:
            return
        # One value's leaves are compared with each other only: in focus,
        # only the values in view (focus.py).
        for _, top in ex.tops_in_view():
            leaves = ex.leaves(top)
            if len(leaves) < 2:
                continue  # nothing to differ from, and no meta_info.yaml to read
            # Each field is compared with the first leaf that has it (a leaf
            # whose meta_info.yaml is missing is PL401's and cannot disagree).
            ref = {}
            for leaf in leaves:
                fields = ex.fields(leaf)
                diffs = []
                for f in LABEL_FIELDS + ("phase",):
                    if f not in fields:
                        continue
                    if f not in ref:
                        ref[f] = (fields[f], leaf)
                    elif same_key(ref[f][0]) != same_key(fields[f]):
                        diffs.append((f, ref[f][0], ref[f][1], fields[f]))
                if not diffs:
                    continue
                parts = "; ".join(
                    f"{f} is {ex.shown(r, f, a)} for '{r.experiment_id}' (line {ex.line(r)}) "
                    f"but {ex.shown(leaf, f, b)} "
                    f"for '{leaf.experiment_id}' (line {ex.line(leaf)})"
                    for f, a, r, b in diffs)
                yield self.finding(
                    subject, f"leaves of one expression differ: {parts}",
                    pos=ex.pos(top),
                    hint="one value is one harness, model, algorithm and phase across benchmarks; "
                         "use the matching experiment, or give this one its own value")
                break  # one finding per expression
