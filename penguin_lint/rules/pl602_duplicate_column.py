"""PL602 duplicate-column: two columns with the same `id`."""
from penguin_lint.rules.base import Rule


class DuplicateColumn(Rule):
    """A column's ``id`` is its key in Harbor Hub's table (sorting, links to a
    column, clients rendering ``leaderboard.columns``): two columns with one id
    collide. A copy-pasted column whose id was not changed is the usual cause.
    """

    code = "PL602"
    name = "duplicate-column"
    summary = "two columns with the same `id`"
    kinds = ("harbor_leaderboard",)
    bad = ("leaderboard/leaderboard.yaml",
           "columns:\n  - id: accuracy\n    header: Accuracy\n    accessor: metrics.accuracy\n    type: number\n"
           "  - id: accuracy\n    header: Std. error\n    accessor: metrics.accuracy_stderr\n    type: number\n")
    good = ("leaderboard/leaderboard.yaml",
            "columns:\n  - id: accuracy\n    header: Accuracy\n    accessor: metrics.accuracy\n    type: number\n"
            "  - id: accuracy_stderr\n    header: Std. error\n    accessor: metrics.accuracy_stderr\n"
            "    type: number\n")

    def check(self, subject, ctx):
        doc = ctx.valid_doc(subject.path)
        columns = doc.data.get("columns") if doc is not None else None
        if not isinstance(columns, list):
            return
        seen = {}
        for i, col in enumerate(columns):
            cid = col.get("id") if isinstance(col, dict) else None
            if not isinstance(cid, str):
                continue
            pos = doc.value_pos(("columns", i, "id"))
            if cid in seen:
                yield self.finding(subject, f"column id '{cid}' is used twice (first on line {seen[cid].line})",
                                   pos=pos, hint="give each column its own id")
            else:
                seen[cid] = pos
