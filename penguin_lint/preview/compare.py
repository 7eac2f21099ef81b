"""A board before and after a change: which rows were added, removed or changed."""
from __future__ import annotations

from typing import Dict, List, Optional, Sequence, Tuple

from penguin_lint.core.layout import safe_segment
from penguin_lint.preview.board import board, leaderboards
from penguin_lint.preview.markdown import render_changes_markdown
from penguin_lint.preview.model import AXES, Board, Change, Row


_COMPARED = ("mean", "std", "std_formula", "rank", "problem", "n_attempt")


def compare(before: Sequence[Row], after: Sequence[Row]) -> List[Change]:
    """Rows added, removed, changed (and unchanged), matched by label; a row
    whose label changed but that reads the same experiments is one row
    relabelled ("changed", with a note), not one removed and one added."""
    old = {r.key: r for r in before}
    new = {r.key: r for r in after}
    gone: Dict[Tuple[str, ...], List[Row]] = {}
    for r in before:
        if r.key not in new and r.experiments:
            gone.setdefault(tuple(sorted(r.experiments)), []).append(r)
    relabelled: Dict[str, Row] = {}
    for r in after:
        if r.key not in old and r.experiments:
            candidates = gone.get(tuple(sorted(r.experiments)))
            if candidates:
                relabelled[r.key] = candidates.pop(0)
    matched = {id(b) for b in relabelled.values()}
    out: List[Change] = []
    for r in after:
        b = old.get(r.key) or relabelled.get(r.key)
        if b is None:
            out.append(Change("added", r.key, None, r))
            continue
        diff = [f for f in _COMPARED if getattr(b, f) != getattr(r, f)]
        diff += [a for a in AXES if b.axes.get(a) != r.axes.get(a)]
        if b.key != r.key:
            out.append(Change("changed", r.key, b, r, ["label"] + diff, note=f"relabelled from {b.key}"))
            continue
        out.append(Change("changed" if diff else "unchanged", r.key, b, r, diff))
    for r in before:
        if r.key not in new and id(r) not in matched:
            out.append(Change("removed", r.key, r, None))
    return out


def compare_repos(before_repo, after_repo, ids: Optional[Sequence[str]] = None) -> List[Tuple[Board, Board, List[Change]]]:
    """For each leaderboard (``ids``, or every one on either side): the
    board before, the board after, and what changed."""
    if ids is None:
        names = leaderboards(after_repo)
        names += [n for n in leaderboards(before_repo) if n not in names]
    else:
        names = list(ids)
    out = []
    for lb in names:
        b, a = board(before_repo, lb), board(after_repo, lb)
        before_repo.forget("")  # one board's documents at a time
        after_repo.forget("")
        out.append((b, a, compare(b.rows, a.rows)))
    return out


def affected_leaderboards(changed, layout) -> List[str]:
    """The leaderboards a change can move: those whose leaderboard file or
    whose experiments (``experiments/<id>/...``) a changed path is in."""
    out: List[str] = []
    for path in sorted(changed):
        for top in (layout.roots["leaderboards"], layout.roots["experiments"]):
            if path.startswith(top + "/"):
                lb = path[len(top) + 1:].split("/", 1)[0]
                if safe_segment(lb) and lb not in out:
                    out.append(lb)
    return out


def pull_request_summary(before_repo, after_repo, changed) -> str:
    """Markdown for a pull request's job summary: for every leaderboard the
    change touches, the rows it adds, removes or changes, before -> after."""
    ids = affected_leaderboards(changed, after_repo.layout)
    if not ids:
        return ""
    return "## Leaderboards\n\n" + render_changes_markdown(compare_repos(before_repo, after_repo, ids))
