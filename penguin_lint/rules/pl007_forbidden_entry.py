"""PL007 forbidden-entry: dot-entries, scoreboard.yaml, .jobs/, archives, executables in a package;
a nested git repository (a submodule) anywhere in the layout."""
from penguin_lint.core.layout import DIR_KINDS
from penguin_lint.rules.base import Rule

ARCHIVES = (".zip", ".tar", ".tgz", ".gz", ".bz2", ".xz", ".zst", ".7z", ".rar", ".tbz2", ".txz", ".lz4", ".whl", ".jar")
NESTED = ("nested git repository (a submodule): git shows a pull request only its commit, "
          "so its files are not part of the reviewed tree")
NESTED_HINT = "commit the files themselves instead of a submodule or repository"
BINARIES = (".exe", ".dll", ".so", ".dylib", ".bin", ".msi", ".apk", ".dmg", ".com", ".bat", ".cmd")


class ForbiddenEntry(Rule):
    """A package is what the importer copies into a Project, and the importer
    refuses these: dot-entries other than ``.gitkeep``, the ``scoreboard.yaml``
    and ``.jobs/`` that belong to a Project's copy (results never travel with
    a package), archives, and executables (files with an executable bit or a
    binary's extension).

    A submodule or another git repository inside the layout's folders is
    refused wherever it sits: git shows the pull request only its commit id,
    never its files, so a diff run could not check them and its content is
    not part of the reviewed tree.
    """

    code = "PL007"
    name = "forbidden-entry"
    summary = ("dot-entries, `scoreboard.yaml`, `.jobs/`, archives, executables in a package; "
               "a nested git repository (submodule)")
    kinds = DIR_KINDS + ("folder",)
    bad = ("packages/my-bench/", "benchmark_config.toml\nscoreboard.yaml\n.jobs/\nCASE-001-x/data.zip\n")
    good = ("packages/my-bench/", "benchmark_config.toml\nCASE-001-x/task_config.toml\nCASE-001-x/.gitkeep\n")

    def check(self, subject, ctx):
        repo = ctx.repo
        if subject.kind != "package":
            if subject.path not in ctx.gitlinks and (
                    subject.kind == "task" or subject.path.startswith(repo.layout.roots["packages"] + "/")):
                return  # the package's own walk below reports its '.git'
            # one look at a listing already read: a '.git' folder (a nested
            # repository) or file (a checked-out submodule) marks the folder
            ents = repo.entries(subject.path)
            if subject.path and ((ents and ".git" in ents) or subject.path in ctx.gitlinks):
                yield self.finding(subject, NESTED, path=subject.path, hint=NESTED_HINT)
            return
        if subject.path in ctx.gitlinks:
            yield self.finding(subject, NESTED, path=subject.path, hint=NESTED_HINT)
        stack = [subject.path]
        while stack:
            folder = stack.pop()
            ents = repo.entries(folder) or {}
            for name in sorted(ents):
                e = ents[name]
                path = f"{folder}/{name}"
                if e.is_symlink:
                    continue  # PL006
                why = self._why(name, e)
                if why:
                    if why is NESTED:
                        yield self.finding(subject, why, path=path, hint=NESTED_HINT)
                    else:
                        yield self.finding(subject, f"{why} in a package", path=path,
                                           hint="remove it from the package; the importer refuses it")
                    continue
                if e.is_dir:
                    stack.append(path)

    @staticmethod
    def _why(name, e):
        low = name.lower()
        if name == ".git":
            return NESTED
        if name == ".jobs" and e.is_dir:
            return "'.jobs/' (a Project's Harbor trials)"
        if name == "scoreboard.yaml":
            return "'scoreboard.yaml' (a Project's results)"
        if name.startswith(".") and name != ".gitkeep":
            return f"dot-entry '{name}{'/' if e.is_dir else ''}'"
        if e.is_file and low.endswith(ARCHIVES):
            return f"archive '{name}'"
        if e.is_file and (e.executable or low.endswith(BINARIES)):
            return f"executable '{name}'"
        return None
