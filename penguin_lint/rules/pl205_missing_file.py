"""PL205 missing-file: a required companion file is absent."""
from penguin_lint.rules.base import Rule

REQUIRED = {
    "package": ("benchmark_config.toml",),
    "task": ("task_config.toml", "statement/README.md", "rubric/README.md"),
    "data": ("README.md",),
}


class MissingFile(Rule):
    """A benchmark package holds ``benchmark_config.toml``; each task folder
    holds ``task_config.toml``, ``statement/README.md`` (what the agent
    reads) and ``rubric/README.md`` (how a run is scored); ``data/<id>/``
    holds a ``README.md``. The finding names the path where the file belongs.
    """

    code = "PL205"
    name = "missing-file"
    summary = "a required companion file is absent"
    kinds = tuple(REQUIRED)
    bad = ("packages/my-bench/CASE-001-x/", "task_config.toml\nstatement/README.md\n")
    good = ("packages/my-bench/CASE-001-x/", "task_config.toml\nstatement/README.md\nrubric/README.md\n")

    def check(self, subject, ctx):
        if subject.kind == "task" and subject.groups.get("task", "").startswith("."):
            return  # a dot-folder is PL007's, not a task
        if subject.path in ctx.gitlinks:
            return  # a submodule is PL007's: its files are none of the tree's
        for rel in REQUIRED[subject.kind]:
            path = f"{subject.path}/{rel}"
            if not ctx.repo.is_file(path) and not _behind_link(ctx.repo, subject.path, rel):
                what = {"package": "benchmark package", "task": "task", "data": "data folder"}[subject.kind]
                yield self.finding(subject, f"{what} '{subject.path}' has no {rel}", path=path,
                                   hint=self.misnamed(ctx, path))


def _behind_link(repo, folder, rel):
    """Whether the file, or a folder on its way, is a link (PL006 reports it)."""
    path = folder
    for part in rel.split("/"):
        path = f"{path}/{part}"
        e = repo.entry(path)
        if e is None:
            return False
        if e.is_symlink:
            return True
    return False
