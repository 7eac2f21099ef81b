"""What the repository says about the names a data file refers to, for
completion, definitions and hover: a leaderboard's experiments, an
experiment's phases and its summary's metrics, the benchmarks of the
packages, a benchmark's tasks.

Read through the server's :class:`OverlayRepository` (listings and parsed
documents are kept between requests, unsaved buffers stand over their
files), one folder listing or one document at a time: a request on the
largest repository reads only the folders its name leads to. Names taken
from a buffer are joined into paths only when they are safe folder names.
"""
from __future__ import annotations

from typing import Dict, List, Optional

from penguin_lint.core.layout import safe_segment
from penguin_lint.core.repo import Repository
from penguin_lint.rules._expressions import number

META, SUMMARY = "meta_info.yaml", "summary.yaml"
BENCHMARK_CONFIG, TASK_CONFIG = "benchmark_config.toml", "task_config.toml"


class Knowledge:
    def __init__(self, repo: Repository):
        self.repo = repo
        self.layout = repo.layout

    # -- paths ----------------------------------------------------------------
    def experiment_dir(self, board: str, experiment) -> Optional[str]:
        exp = Repository.join(board, experiment) and experiment
        return self.layout.experiment_dir(board, exp) if exp else None

    def meta_path(self, board: str, experiment) -> Optional[str]:
        d = self.experiment_dir(board, experiment)
        return f"{d}/{META}" if d and self.repo.is_file(f"{d}/{META}") else None

    def summary_path(self, board: str, experiment, phase) -> Optional[str]:
        d = self.experiment_dir(board, experiment)
        if d is None or not safe_segment(phase):
            return None
        path = f"{d}/{phase}/{SUMMARY}"
        return path if self.repo.is_file(path) else None

    def benchmark_path(self, benchmark) -> Optional[str]:
        if not safe_segment(benchmark):
            return None
        path = f"{self.layout.package_dir(benchmark)}/{BENCHMARK_CONFIG}"
        return path if self.repo.is_file(path) else None

    def task_path(self, benchmark, task) -> Optional[str]:
        if not safe_segment(benchmark) or not safe_segment(task):
            return None
        path = f"{self.layout.package_dir(benchmark)}/{task}/{TASK_CONFIG}"
        return path if self.repo.is_file(path) else None

    # -- names ----------------------------------------------------------------
    def experiments(self, board: str) -> List[str]:
        """The experiment folders of a leaderboard (those with a meta_info.yaml)."""
        if not safe_segment(board):
            return []
        group = self.layout.experiments_group(board)
        return [e for e in self.repo.subdirs(group) if safe_segment(e)
                and self.repo.is_file(f"{group}/{e}/{META}")]

    def phases(self, board: str, experiment) -> List[str]:
        d = self.experiment_dir(board, experiment)
        if d is None:
            return []
        return [p for p in self.repo.subdirs(d) if safe_segment(p) and self.repo.is_file(f"{d}/{p}/{SUMMARY}")]

    def metrics(self, board: str, experiment, phase) -> Dict[str, object]:
        """The numbers a phase's summary holds, by key."""
        data = self.top_level(self.summary_path(board, experiment, phase))
        return {k: v for k, v in data.items() if isinstance(k, str) and number(v) is not None}

    def benchmarks(self) -> List[str]:
        """The package folders (one listing: listings in packages are never
        kept, so each folder's own is not read)."""
        root = self.layout.roots["packages"]
        return [b for b in self.repo.subdirs(root) if safe_segment(b)]

    def tasks(self, benchmark) -> List[str]:
        if not safe_segment(benchmark):
            return []
        d = self.layout.package_dir(benchmark)
        return [t for t in self.repo.subdirs(d) if safe_segment(t) and self.repo.is_file(f"{d}/{t}/{TASK_CONFIG}")]

    def benchmark_of(self, board: str, experiment) -> Optional[str]:
        """The ``benchmark_id`` an experiment's meta_info.yaml names."""
        b = self.top_level(self.meta_path(board, experiment)).get("benchmark_id")
        return b if isinstance(b, str) else None

    def meta_values(self, board: str, key: str, besides=None) -> Dict[str, int]:
        """The values of ``key`` (``model_name``, ...) in the meta_info.yaml of
        a leaderboard's experiments but ``besides``, with how many use each:
        the names the board's expressions compare (PL403)."""
        counts: Dict[str, int] = {}
        for e in self.experiments(board):
            if e == besides:
                continue
            value = self.top_level(self.meta_path(board, e)).get(key)
            if isinstance(value, str) and value:
                counts[value] = counts.get(value, 0) + 1
        return counts

    def top_level(self, path: Optional[str]) -> dict:
        if path is None:
            return {}
        doc = self.repo.load(path)
        return doc.data if doc is not None and isinstance(doc.data, dict) else {}

    def key_line(self, path: str, key: str) -> int:
        """The 0-based line of a top-level key of ``path`` (0 when absent)."""
        doc = self.repo.load(path)
        if doc is None or not isinstance(doc.data, dict) or key not in doc.data:
            return 0
        return max(doc.key_pos((key,)).line - 1, 0)
