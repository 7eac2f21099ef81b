"""Boards and changes as JSON: every row, every number."""
from __future__ import annotations

import json
from typing import Sequence

from penguin_lint.preview.model import Board


def render_json(boards: Sequence[Board]) -> str:
    return json.dumps({"version": 1, "leaderboards": [b.to_dict() for b in boards]},
                      indent=2, ensure_ascii=True, allow_nan=False) + "\n"


def render_changes_json(results) -> str:
    return json.dumps({"version": 1, "leaderboards": [
        {"leaderboard": a.leaderboard, "before": b.to_dict(), "after": a.to_dict(),
         "changes": [c.to_dict() for c in changes if c.kind != "unchanged"]}
        for b, a, changes in results]}, indent=2, ensure_ascii=True, allow_nan=False) + "\n"
