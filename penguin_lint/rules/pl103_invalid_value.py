"""PL103 invalid-value: enum, range, pattern or format violation not covered by a rule below."""
from penguin_lint.rules.base import DATA_FILE_KINDS, ProblemRule


class InvalidValue(ProblemRule):
    """A value of the right type that its schema still refuses: a ``status``
    other than draft/published, a negative cost, an empty title, NaN or
    infinity where a number is expected. Also a leaderboard with more than
    10,000 values or 50,000 leaves and operations in them, on the line where
    the limit is crossed: the leaderboard rules check the values before it
    only. The message quotes the value as the file writes it (``yes``,
    ``0x1A``, not what YAML made of them), and a misspelt option gets the
    one it was likely meant to be (``status: publised``: did you mean
    'published'?).
    """

    code = "PL103"
    name = "invalid-value"
    summary = 'enum, range, pattern or format violation not covered by a rule below'
    source = "schema"
    kinds = DATA_FILE_KINDS
    bad = ('leaderboard.yaml', 'status: public\n')
    good = ('leaderboard.yaml', 'status: draft\n')

    def check(self, subject, ctx):
        yield from super().check(subject, ctx)
        if subject.kind == "leaderboard":
            doc = ctx.repo.load(subject.path)
            if doc is not None and doc.parsed:
                # the leaderboard rules' reading, imported only for leaderboards
                from penguin_lint.rules._expressions import overflow_problems

                for p in overflow_problems(subject, ctx):
                    yield self.from_problem(subject, p)
