"""PL007 forbidden-entry: dot-entries, scoreboard.yaml, .jobs/, archives, executables in a package."""
from penguin_lint.rules.base import Rule

ARCHIVES = (".zip", ".tar", ".tgz", ".gz", ".bz2", ".xz", ".zst", ".7z", ".rar", ".tbz2", ".txz", ".lz4", ".whl", ".jar")
BINARIES = (".exe", ".dll", ".so", ".dylib", ".bin", ".msi", ".apk", ".dmg", ".com", ".bat", ".cmd")


class ForbiddenEntry(Rule):
    """A package is what the importer copies into a Project, and the importer
    refuses these: dot-entries other than ``.gitkeep``, the ``scoreboard.yaml``
    and ``.jobs/`` that belong to a Project's copy (results never travel with
    a package), archives, and executables (files with an executable bit or a
    binary's extension).
    """

    code = "PL007"
    name = "forbidden-entry"
    summary = "dot-entries, `scoreboard.yaml`, `.jobs/`, archives, executables in a package"
    kinds = ("package",)
    bad = ("packages/my-bench/", "benchmark_config.toml\nscoreboard.yaml\n.jobs/\nCASE-001-x/data.zip\n")
    good = ("packages/my-bench/", "benchmark_config.toml\nCASE-001-x/task_config.toml\nCASE-001-x/.gitkeep\n")

    def check(self, subject, ctx):
        repo = ctx.repo
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
                    yield self.finding(subject, f"{why} in a package", path=path,
                                       hint="remove it from the package; the importer refuses it")
                    continue
                if e.is_dir:
                    stack.append(path)

    @staticmethod
    def _why(name, e):
        low = name.lower()
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
