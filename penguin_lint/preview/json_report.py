"""Boards and changes as JSON: every row, every number."""
from __future__ import annotations

import json
from typing import Sequence

from penguin_lint.preview.model import Board


def render_json(boards: Sequence[Board], harbor=()) -> str:
    out = {"version": 1, "leaderboards": [b.to_dict() for b in boards]}
    if harbor:
        out["harbor_leaderboards"] = [h.to_dict() for h in harbor]
    return json.dumps(out, indent=2, ensure_ascii=True, allow_nan=False) + "\n"


def render_changes_json(results, harbor_results=()) -> str:
    out = {"version": 1, "leaderboards": [
        {"leaderboard": a.leaderboard, "before": b.to_dict(), "after": a.to_dict(),
         "changes": [c.to_dict() for c in changes if c.kind != "unchanged"]}
        for b, a, changes in results]}
    if harbor_results:
        from penguin_lint.preview.harbor_views import json_changes

        out["harbor_leaderboards"] = [json_changes(b, a, changes) for b, a, changes in harbor_results]
    return json.dumps(out, indent=2, ensure_ascii=True, allow_nan=False) + "\n"
