"""PL206 orphan-data: data/<id>/ without packages/<id>/."""
from penguin_lint.rules.base import Rule


class OrphanData(Rule):
    """``data/<id>/`` holds large raw data for the benchmark ``packages/<id>/``;
    without that package it belongs to nothing (a renamed or deleted benchmark,
    or a typo in the folder name).
    """

    code = "PL206"
    name = "orphan-data"
    summary = "`data/<id>/` without `packages/<id>/`"
    kinds = ("data",)
    bad = ("data/sql-puzzle/README.md", "(packages/sql-puzzle/ does not exist)")
    good = ("data/sql-puzzles/README.md", "(packages/sql-puzzles/ exists)")

    def check(self, subject, ctx):
        b = subject.groups.get("benchmark", "")
        if b.startswith("."):
            return
        if not ctx.repo.is_dir(ctx.layout.package_dir(b)):
            yield self.finding(subject, f"data folder '{subject.path}' has no package '{ctx.layout.package_dir(b)}'",
                               hint="rename the folder to its benchmark's id, or remove it")

    affects = (("under", "packages", 1, None, None),)

    def affected_by(self, changed, ctx):
        root = ctx.layout.roots["packages"] + "/"
        if changed.startswith(root):
            # only a package that vanishes can orphan its data folder
            b = changed[len(root):].split("/", 1)[0]
            if b and not ctx.repo.is_dir(ctx.layout.package_dir(b)):
                yield ctx.layout.data_dir(b)
