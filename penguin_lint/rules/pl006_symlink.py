"""PL006 symlink: a symbolic link where data files live."""
from penguin_lint.core.layout import DIR_KINDS
from penguin_lint.rules.base import Rule


class Symlink(Rule):
    """A link in a benchmark repository can point anywhere: at another
    package, at ``/etc/passwd``, at a file that exists only on the author's
    machine. penguin-lint reports the link and never follows or opens it.
    """

    code = "PL006"
    name = "symlink"
    summary = "a symbolic link where data files live"
    kinds = DIR_KINDS + ("folder", "repo")
    bad = ("packages/my-bench/CASE-001-x/statement/README.md", "-> ../../../shared/statement.md  (a link)")
    good = ("packages/my-bench/CASE-001-x/statement/README.md", "(a regular file with the statement)")

    def check(self, subject, ctx):
        repo = ctx.repo
        if subject.kind == "repo":
            # The layout's top folders themselves.
            for top in repo.walk_roots():
                e = repo.entry(top) if top else None
                if e is not None and e.is_symlink:
                    yield self._found(subject, top)
            return
        ents = repo.entries(subject.path)
        for name in sorted(ents or ()):
            if ents[name].is_symlink:
                yield self._found(subject, f"{subject.path}/{name}")

    affects = (("walk_root",),)

    def affected_by(self, changed, ctx):
        # a layout's top folder swapped for a link: its old files are gone
        # from the change and nothing below it is walked, so the repository
        # subject (which looks at the top folders) says it, as in --all
        if changed in ctx.repo.walk_roots():
            yield ""

    def _found(self, subject, path):
        return self.finding(subject, "symbolic link where data files live (not followed)", path=path,
                            hint="replace the link with the file or folder itself")
