"""Which kind a path is, decided by where it sits in the repository.

File kinds have a schema and a loader; folder kinds are the units that
structural rules look at (a task folder must hold its three files, ...).
"""
from __future__ import annotations

import re
from typing import Callable, Dict, Optional, Tuple

from penguin_lint.core.config import Config, glob_match

# kind -> schema file (without .json); these are the loadable file kinds.
FILE_KINDS = {
    "benchmark_config": "benchmark_config",
    "task_config": "task_config",
    "leaderboard": "leaderboard",
    "meta_info": "meta_info",
    "summary": "summary",
    "attempt": "attempt",
    "harbor_leaderboard": "harbor_leaderboard",
    "harbor_rows": "harbor_rows",
}
DIR_KINDS = ("packages_root", "package", "task", "data_root", "data", "leaderboards_root",
             "leaderboard_dir", "experiments_root", "experiment_group", "experiment", "phase")
ATTEMPT_RE = re.compile(r"attempt-([1-9][0-9]*)\.yaml\Z")
# (an extension in any case: Harbor reads the file it is given, `.YAML` too)
_HARBOR_DEF = re.compile(r"(?:.*/)?leaderboard/leaderboard\.(?i:ya?ml|json)\Z")
_HARBOR_ROWS = re.compile(r"(?:.*/)?leaderboard/rows[^/]*\.(?i:ya?ml|json)\Z")
# any YAML or JSON file under a leaderboard/ folder, subfolders too: it is a
# rows file of that board when its content says so (Repository.board_kind)
HARBOR_BOARD_FILE = re.compile(r"(?:.*/)?leaderboard/.+\.(?i:ya?ml|json)\Z")
HARBOR_DEFINITION_NAMES = ("leaderboard.yaml", "leaderboard.yml", "leaderboard.json")

Kind = Tuple[str, Dict[str, str]]
# The files the harness reads by name in each folder kind (and attempt-<n>.yaml
# in a phase): a data file of another name there is read by nothing.
READ_NAMES = {
    "package": ("benchmark_config.toml",),
    "task": ("task_config.toml",),
    "leaderboard_dir": ("leaderboard.yaml",),
    "experiment": ("meta_info.yaml",),
    "phase": ("summary.yaml",),
}
DATA_EXTENSIONS = (".yaml", ".yml", ".toml", ".json")


class Layout:
    def __init__(self, config: Config):
        self.config = config
        lay = config.layout
        self.roots = {name: lay[name] for name in ("packages", "data", "leaderboards", "experiments")}
        self._split = {name: tuple(p.split("/")) for name, p in self.roots.items()}
        #: set by the repository: for a file under a Harbor board's
        #: leaderboard/ folder, "harbor_rows" when its top level is a rows
        #: mapping, "" when it is some other file; None outside a board
        self.board_kind: Optional[Callable[[str], Optional[str]]] = None

    def _under(self, parts, name):
        base = self._split[name]
        n = len(base)
        if tuple(parts[:n]) == base:
            return parts[n:]
        return None

    def classify_file(self, path: str) -> Optional[Kind]:
        for glob, kind in self.config.kinds:
            if glob_match(path, glob):
                return kind, {}
        parts = path.split("/")
        rest = self._under(parts, "packages")
        if rest is not None:
            if len(rest) == 2 and rest[1] == "benchmark_config.toml":
                return "benchmark_config", {"benchmark": rest[0]}
            if len(rest) == 3 and rest[2] == "task_config.toml":
                return "task_config", {"benchmark": rest[0], "task": rest[1]}
            return None
        rest = self._under(parts, "leaderboards")
        if rest is not None:
            if len(rest) == 2 and rest[1] == "leaderboard.yaml":
                return "leaderboard", {"leaderboard": rest[0]}
            return None
        rest = self._under(parts, "experiments")
        if rest is not None:
            if len(rest) == 3 and rest[2] == "meta_info.yaml":
                return "meta_info", {"leaderboard": rest[0], "experiment": rest[1]}
            if len(rest) == 4:
                g = {"leaderboard": rest[0], "experiment": rest[1], "phase": rest[2]}
                if rest[3] == "summary.yaml":
                    return "summary", g
                m = ATTEMPT_RE.match(rest[3])
                if m:
                    g["n"] = m.group(1)
                    return "attempt", g
            return None
        if _HARBOR_DEF.match(path):
            return "harbor_leaderboard", {}
        if _HARBOR_ROWS.match(path):
            return "harbor_rows", {}
        if self.board_kind is not None and HARBOR_BOARD_FILE.match(path) and self.board_kind(path):
            return "harbor_rows", {}
        return None

    def unread_data_file(self, path: str) -> bool:
        """Whether ``path`` is a data file (YAML, TOML, JSON) of no known kind
        that nothing parses: right inside a folder whose files the harness
        reads by name (``summary.yml``, ``meta-info.yaml``, ``attempt_1.yaml``),
        anywhere under the leaderboards or experiments folders (the harness
        reads only the files it names there: ``notes.yaml``, ``logs/run.yaml``),
        or a YAML or JSON file under a Harbor board's ``leaderboard/`` folder
        that is neither its definition nor rows. (A package's other files are
        the package's: judged with their folder.)"""
        folder, _, name = path.rpartition("/")
        if not folder or not name.lower().endswith(DATA_EXTENSIONS) or self.classify_file(path) is not None:
            return False
        if self.board_kind is not None and HARBOR_BOARD_FILE.match(path) and self._outside_harness(path) \
                and not self.board_kind(path):
            return True  # not rows of a board, or of a board without a definition: nothing reads it
        k = self.classify_dir(folder)
        if k is not None and k[0] in READ_NAMES:
            return True
        parts = path.split("/")
        return any(self._under(parts, root) for root in ("leaderboards", "experiments"))

    def _outside_harness(self, path: str) -> bool:
        """Not under the packages, leaderboards or experiments folders (a
        PenguinHarness leaderboard may be named ``leaderboard``)."""
        parts = path.split("/")
        return all(self._under(parts, name) is None for name in ("packages", "leaderboards", "experiments"))

    def classify_dir(self, path: str) -> Optional[Kind]:
        parts = path.split("/") if path else []
        for name, root_kind, kinds in (
            ("packages", "packages_root", ("package", "task")),
            ("data", "data_root", ("data",)),
            ("leaderboards", "leaderboards_root", ("leaderboard_dir",)),
            ("experiments", "experiments_root", ("experiment_group", "experiment", "phase")),
        ):
            rest = self._under(parts, name)
            if rest is None:
                continue
            if not rest:
                return root_kind, {}
            if len(rest) > len(kinds):
                return None
            kind = kinds[len(rest) - 1]
            keys = {
                "package": ("benchmark",), "task": ("benchmark", "task"), "data": ("benchmark",),
                "leaderboard_dir": ("leaderboard",), "experiment_group": ("leaderboard",),
                "experiment": ("leaderboard", "experiment"),
                "phase": ("leaderboard", "experiment", "phase"),
            }[kind]
            return kind, dict(zip(keys, rest))
        return None

    # Paths where companion files belong.
    def package_dir(self, benchmark: str) -> str:
        return f"{self.roots['packages']}/{benchmark}"

    def data_dir(self, benchmark: str) -> str:
        return f"{self.roots['data']}/{benchmark}"

    def leaderboard_file(self, lb: str) -> str:
        return f"{self.roots['leaderboards']}/{lb}/leaderboard.yaml"

    def experiment_dir(self, lb: str, exp: str) -> str:
        return f"{self.roots['experiments']}/{lb}/{exp}"

    def experiments_group(self, lb: str) -> str:
        return f"{self.roots['experiments']}/{lb}"


_UNSAFE = re.compile(r"[/\\\x00-\x1f\x7f]")


def safe_segment(value) -> bool:
    """A value that may be used as one folder name inside the repository."""
    return (
        isinstance(value, str)
        and value not in ("", ".", "..")
        and not value.startswith(".")
        and _UNSAFE.search(value) is None
        and len(value) <= 255
    )
