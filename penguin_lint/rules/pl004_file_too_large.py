"""PL004 file-too-large: a file over the size limit (default 5 MiB)."""
from penguin_lint.core.config import DEFAULT_SIZE_LIMIT
from penguin_lint.findings import Position
from penguin_lint.loaders import _human
from penguin_lint.rules.base import DATA_FILE_KINDS, ProblemRule


class FileTooLarge(ProblemRule):
    """Data files and package files are small text. The size is read from the
    file system before the file is read, so a huge file costs nothing. Raw
    data belongs under ``data/<benchmark-id>/``. The limit is
    ``max-file-size`` in ``.penguin-lint.toml``.
    """

    code = "PL004"
    name = "file-too-large"
    summary = "a file over the size limit (default 5 MiB)"
    source = "load"
    # Data files, and every other file inside a package ("file" subjects).
    kinds = DATA_FILE_KINDS + ("file",)
    bad = ("packages/my-bench/CASE-001-x/statement/dump.csv", "(a 40 MiB file inside a package)")
    good = ("data/my-bench/README.md", "Large inputs live under data/, outside the package.")

    def alike_on_base(self, kind):
        # a package file's size is read from the file system, which a base tree is not
        return kind != "file"

    def check(self, subject, ctx):
        if subject.kind != "file":
            yield from super().check(subject, ctx)
            return
        root = ctx.layout.roots["packages"] + "/"
        if not subject.path.startswith(root):
            return
        size = ctx.repo.size(subject.path)
        limit = ctx.config.size_limit or DEFAULT_SIZE_LIMIT
        if size > limit:
            yield self.finding(subject, f"file is {_human(size)}, over the limit of {_human(limit)}",
                               pos=Position(1, 1),
                               hint="a package holds text; large raw data belongs under data/<benchmark-id>/")
