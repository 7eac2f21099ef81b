"""What a preview is made of: a leaderboard's rows, the board, and a row's change."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional

from penguin_lint.rules._expressions import LABEL_FIELDS


LABEL = LABEL_FIELDS + ("phase",)
AXES = ("cost", "duration_ms", "token")
PER_ATTEMPT, INDEPENDENT = "per-attempt", "independent"


@dataclass
class Row:
    """One entry of a leaderboard: its label, the experiments it reads and what they compute."""

    index: int                                  # position in ``values`` (0-based)
    line: Optional[int]
    label: Dict[str, Any]                       # harness_name, model_name, algorithm, phase
    experiments: List[str]
    mean: Optional[float] = None
    std: Optional[float] = None
    std_formula: Optional[str] = None           # PER_ATTEMPT, INDEPENDENT, or None
    std_note: Optional[str] = None              # why there is no std, if there is none
    n_attempt: Optional[int] = None
    axes: Dict[str, Any] = field(default_factory=dict)
    problem: Optional[str] = None               # why there is no number
    warning: Optional[str] = None               # a number, but a doubtful one (mixed label)
    #: the summaries it reads that disagree with their attempts (PL303)
    summary_problems: List[str] = field(default_factory=list)
    rank: Optional[int] = None
    key: str = ""
    #: on the Pareto front of its board, per axis (``figures.pareto``)
    pareto: Dict[str, bool] = field(default_factory=dict)
    #: each task's scores over the attempts and their mean (``figures.tasks``)
    tasks: List[dict] = field(default_factory=list)

    def to_dict(self) -> dict:
        return {
            "key": self.key, "index": self.index, "line": self.line, "rank": self.rank,
            **{f: self.label.get(f) for f in LABEL},
            "mean": self.mean, "std": self.std, "std_formula": self.std_formula,
            "std_note": self.std_note, "n_attempt": self.n_attempt,
            **{a: self.axes.get(a) for a in AXES},
            "experiments": self.experiments, "problem": self.problem, "warning": self.warning,
            "summary_problems": self.summary_problems,
            "pareto": {a: bool(self.pareto.get(a)) for a in AXES},
            "tasks": self.tasks,
        }


@dataclass
class Board:
    """A leaderboard as the preview draws it."""

    leaderboard: str
    path: str
    title: Optional[str] = None
    rows: List[Row] = field(default_factory=list)
    problem: Optional[str] = None               # the file itself is missing or broken
    note: Optional[str] = None                  # values past the limits, not shown

    def to_dict(self) -> dict:
        return {"leaderboard": self.leaderboard, "path": self.path, "title": self.title,
                "problem": self.problem, "note": self.note, "rows": [r.to_dict() for r in self.rows]}


@dataclass
class Change:
    """How one entry differs between the base and the change."""

    kind: str                                    # "added", "removed", "changed", "unchanged"
    key: str
    before: Optional[Row]
    after: Optional[Row]
    fields: List[str] = field(default_factory=list)   # what differs, for "changed"
    note: Optional[str] = None                   # "relabelled from ..."

    def to_dict(self) -> dict:
        return {"kind": self.kind, "key": self.key, "fields": self.fields, "note": self.note,
                "before": self.before.to_dict() if self.before else None,
                "after": self.after.to_dict() if self.after else None}
