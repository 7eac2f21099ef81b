"""PL207 unpaired-split (w): <name>-train without <name>-test."""
from penguin_lint.findings import WARNING
from penguin_lint.rules.base import Rule


class UnpairedSplit(Rule):
    """Training data is a benchmark too, evaluated on its test counterpart: a
    ``<name>-train`` package should have a ``<name>-test`` package beside it.
    """

    code = "PL207"
    name = "unpaired-split"
    severity = WARNING
    summary = "`<name>-train` without `<name>-test`"
    kinds = ("package",)
    bad = ("packages/", "court-clerk-train/\n")
    good = ("packages/", "court-clerk-train/\ncourt-clerk-test/\n")

    def check(self, subject, ctx):
        b = subject.groups.get("benchmark", "")
        if not b.endswith("-train") or b.startswith("."):
            return
        test = b[: -len("-train")] + "-test"
        if ctx.repo.is_dir(ctx.layout.package_dir(test)):
            return
        cfg = f"{subject.path}/benchmark_config.toml"
        doc = ctx.valid_doc(cfg)
        pos = doc.value_pos(("id",)) if doc is not None and "id" in doc.data else None
        yield self.finding(subject, f"training benchmark '{b}' has no test counterpart '{test}'",
                           path=cfg if doc is not None else subject.path, pos=pos,
                           hint=f"add packages/{test}/ with the matching test tasks")

    affects = (("under", "packages", 1, None, None),)

    def affected_by(self, changed, ctx):
        root = ctx.layout.roots["packages"] + "/"
        if changed.startswith(root):
            b = changed[len(root):].split("/", 1)[0]
            # only a -test package that vanishes can unpair its -train
            if b.endswith("-test") and not ctx.repo.is_dir(ctx.layout.package_dir(b)):
                yield ctx.layout.package_dir(b[: -len("-test")] + "-train")
