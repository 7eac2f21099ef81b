"""Go to definition: from a name in a data file to the file it names.

``experiment_id`` in a leaderboard leads to the experiment's
``meta_info.yaml`` and to the phase's ``summary.yaml``; ``phase`` to the
summary, ``metric`` to its key in the summary; ``benchmark_id`` in a
``meta_info.yaml`` to the package's ``benchmark_config.toml``; an attempt's
``source`` to the task's ``task_config.toml``.
"""
from __future__ import annotations

from typing import List, Optional, Tuple

from penguin_lint.lsp.cursor import Spot
from penguin_lint.lsp.knowledge import Knowledge

# (repository path, 0-based line)
Target = Tuple[str, int]


def targets(know: Knowledge, kind: str, groups: dict, spot: Optional[Spot]) -> List[Target]:
    if spot is None:
        return []
    board, sib, value = groups.get("leaderboard"), spot.siblings, spot.value
    found: List[Optional[Target]] = []
    if kind == "leaderboard" and spot.key == "experiment_id":
        meta = know.meta_path(board, value)
        summary = know.summary_path(board, value, sib.get("phase"))
        found = [(meta, 0) if meta else None, (summary, 0) if summary else None]
    elif kind == "leaderboard" and spot.key == "phase":
        summary = know.summary_path(board, sib.get("experiment_id"), value)
        found = [(summary, 0) if summary else None]
    elif kind == "leaderboard" and spot.key == "metric":
        summary = know.summary_path(board, sib.get("experiment_id"), sib.get("phase"))
        found = [(summary, know.key_line(summary, value)) if summary else None]
    elif kind == "meta_info" and spot.key == "benchmark_id":
        path = know.benchmark_path(value)
        found = [(path, 0) if path else None]
    elif kind == "attempt" and spot.key == "source":
        path = know.task_path(know.benchmark_of(board, groups.get("experiment")), value)
        found = [(path, 0) if path else None]
    return [t for t in found if t is not None]
