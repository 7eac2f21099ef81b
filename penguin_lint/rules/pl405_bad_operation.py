"""PL405 bad-operation: wrong arity, bad or missing `weights`."""
from penguin_lint.rules._expressions import OPS, LeaderboardRule, Operation, expressions, number

ARITY_HINT = {
    "sub": "sub computes args[0] - args[1]: give it exactly two args",
    "div": "div computes args[0] / args[1]: give it exactly two args",
}


class BadOperation(LeaderboardRule):
    """An operation ``{op, args}`` combines expressions: ``sub`` and ``div``
    take exactly two args; ``mean`` and ``sum`` at least one;
    ``weighted_mean`` takes ``weights``, one non-negative number per arg,
    with a positive sum (the result is divided by it). ``weights`` on any
    other operation would be ignored, so it is reported too, as is an ``op``
    that is not one of mean, sum, sub, div, weighted_mean, and an operation
    that also has a leaf's ``experiment_id``, ``phase`` or ``metric`` (a
    value is one or the other).
    """

    code = "PL405"
    name = "bad-operation"
    summary = "wrong arity, bad or missing `weights`"
    bad = ("leaderboards/code-eval/leaderboard.yaml",
           "values:\n"
           "  - op: weighted_mean\n"
           "    weights: [2, 1, 1]\n"
           "    args:\n"
           "      - { experiment_id: code-review-baseline, phase: test }\n"
           "      - { experiment_id: sql-puzzles-baseline, phase: test }\n")
    good = ("leaderboards/code-eval/leaderboard.yaml",
            "values:\n"
            "  - op: weighted_mean\n"
            "    weights: [2, 1]\n"
            "    args:\n"
            "      - { experiment_id: code-review-baseline, phase: test }\n"
            "      - { experiment_id: sql-puzzles-baseline, phase: test }\n")

    def check(self, subject, ctx):
        # The schema tags an `op` outside its enum with this rule's code. An op
        # that is not even a string fails the type check too (PL102): once is enough.
        problems = ctx.schema_problems(subject)
        wrong_type = {p.pos for p in problems if p.code == "PL102"}
        for p in problems:
            if p.code == self.code and p.pos not in wrong_type:
                yield self.from_problem(subject, p)
        ex = expressions(subject, ctx)
        if ex is None:
            return
        # Whole even in focus (focus.py): it reads the leaderboard file
        # alone, so it costs no experiment read.
        for node in ex.all_nodes():
            if not isinstance(node, Operation) or node.op not in OPS:
                continue
            for message, hint, where in self._problems(node):
                # Point at what is wrong: `weights`, or the weight concerned.
                yield self.finding(subject, message, pos=ex.pos(node, *where), hint=hint)

    @staticmethod
    def _problems(node):
        """(message, hint, path below the operation to point at)."""
        op = node.op
        if node.leaf_keys:
            # read as an operation, its leaf's keys ignored: a renderer that
            # looks for experiment_id first would show that leaf instead
            keys = " and ".join(f"'{k}'" for k in node.leaf_keys)
            yield (f"'{op}' also has {keys}: a value is a leaf or an operation, not both",
                   "move the leaf into args, or remove its keys", (node.leaf_keys[0],))
        n = len(node.args) if node.args is not None else None  # None: PL101/PL102 report args
        if n is not None:
            if op in ("sub", "div") and n != 2:
                yield f"'{op}' takes exactly 2 args, got {n}", ARITY_HINT[op], ()
            elif op in ("mean", "sum", "weighted_mean") and n == 0:
                yield f"'{op}' needs at least one arg", "add the expressions to combine, or remove the value", ()
        if op != "weighted_mean":
            if node.has_weights:
                yield (f"'weights' is given on '{op}', which ignores it",
                       "use op: weighted_mean, or remove weights", ("weights",))
            return
        if not node.has_weights:
            example = f"[{', '.join(['1'] * n)}]" if n and n <= 20 else "[w1, w2, ...]"
            yield ("'weighted_mean' needs 'weights', one per arg",
                   f"add weights: {example}, one per arg, or use op: mean for equal weights", ())
            return
        ws = node.weights
        if not isinstance(ws, list):
            return  # PL102
        if n is not None and len(ws) != n:
            yield (f"'weighted_mean' has {len(ws)} weight{'s' if len(ws) != 1 else ''} "
                   f"for {n} arg{'s' if n != 1 else ''}", "give exactly one weight per arg, in the same order",
                   ("weights",))
        values = [number(w) for w in ws]
        negative = [i for i, w in enumerate(values) if w is not None and w < 0]
        for i in negative:
            yield (f"weight {i + 1} of 'weighted_mean' is negative ({ws[i]})", "weights are non-negative",
                   ("weights", i))
        # Not numbers or not finite: PL102/PL103. Otherwise the sum must be positive.
        if values and not negative and all(w is not None for w in values) and n != 0:
            total = sum(values)
            if total == 0:
                yield ("the weights of 'weighted_mean' sum to 0",
                       "the result is divided by the sum of the weights: give at least one positive weight",
                       ("weights",))
