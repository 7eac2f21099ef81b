"""PL008 unused-suppression: an inline `penguin-lint: disable` comment that suppresses nothing."""
from penguin_lint.findings import WARNING
from penguin_lint.rules.base import Rule

# Harbor files may be YAML too; JSON files have no comments to carry one.
COMMENT_KINDS = ("benchmark_config", "task_config", "leaderboard", "meta_info",
                 "summary", "attempt", "harbor_leaderboard", "harbor_rows")


class UnusedSuppression(Rule):
    """A comment ``# penguin-lint: disable=CODE,...`` at the end of a line
    suppresses those codes for findings on that line; ``# penguin-lint:
    disable-file=CODE,...`` anywhere in a YAML or TOML file suppresses them
    for the whole file (Harbor JSON files have no comments: use
    ``[per-file-ignores]`` in ``.penguin-lint.toml``).

    A suppression that suppresses nothing is reported, so that suppressions
    do not outlive the problem they were written for: the finding is gone,
    the comment is on a line of its own (it applies to that line only), or
    it is malformed (``disable PL104`` without ``=``, a code that is not a
    rule code), or it names a code no comment can suppress (PL001, PL004,
    PL005, PL008, PL502: the file was not checked at all, or the finding
    guards the gate itself). Codes a run does not check (``--select``) are
    not judged.
    ``--no-suppress`` ignores every suppression and shows all findings.
    """

    code = "PL008"
    name = "unused-suppression"
    severity = WARNING
    summary = "an inline `penguin-lint: disable` comment that suppresses nothing"
    kinds = COMMENT_KINDS
    fixable = "safe"  # the unused comment, or its unused codes, removed (fixes/unused_suppression.py)
    bad = ("packages/sql-puzzles/benchmark_config.toml",
           'id = "sql-puzzles"\ntitle = "SQL Puzzles"  # penguin-lint: disable=PL104\n')
    good = ("packages/sql-puzzles/benchmark_config.toml",
            'id = "sql-puzzles"\nruns = 1  # penguin-lint: disable=PL104 (kept for the old importer)\n')

    def check(self, subject, ctx):
        # Malformed comments are known from the file alone; whether a
        # well-formed one suppressed anything is known only at the end of the
        # run, when the engine applies suppressions (suppressions.apply).
        doc = ctx.doc(subject)
        if doc is None or not doc.directives:
            return
        from penguin_lint.rules import all_rules

        from penguin_lint.suppressions import UNSUPPRESSIBLE

        known = {r.code for r in all_rules()}
        for d in doc.directives:
            never = [c for c in d.codes if c in UNSUPPRESSIBLE]
            if never:
                yield self.finding(
                    subject, f"suppression comment names {', '.join(never)}, which no comment can suppress "
                             f"({'; '.join(UNSUPPRESSIBLE[c] for c in never)})",
                    pos=_pos(d), hint="fix the problem itself, or remove the comment")
            unknown = [c for c in d.codes if c not in known]
            if unknown:
                word = "is no rule" if len(unknown) == 1 else "are no rules"
                yield self.finding(
                    subject, f"suppression comment names {', '.join(unknown)}, which {word} of penguin-lint",
                    pos=_pos(d), hint="see `penguin-lint rules` for the codes")
            if d.problem is not None:
                what = "that part suppresses nothing" if d.codes else "it suppresses nothing"
                yield self.finding(
                    subject, f"suppression comment {d.problem}; {what}",
                    pos=_pos(d), hint="write '# penguin-lint: disable=PL104' (or disable-file=...)")


def _pos(d):
    from penguin_lint.findings import Position

    return Position(d.line, d.column, d.line, d.end_column)
