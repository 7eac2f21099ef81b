"""Completion of the names only the repository knows.

In a leaderboard, ``experiment_id`` offers the experiments of the board's
``experiments/`` folder, ``phase`` the phases that experiment has,
``metric`` the numbers its phase's summary holds, ``op`` the operations;
in a ``meta_info.yaml``, ``benchmark_id`` offers the packages' benchmarks,
and ``model_name``, ``harness_name`` and ``algorithm`` the values the
board's other experiments use (the most used first);
in an attempt, ``source`` the tasks of the experiment's benchmark.
"""
from __future__ import annotations

from typing import List, Optional

from lsprotocol import types

from penguin_lint.lsp.cursor import Spot
from penguin_lint.lsp.knowledge import Knowledge
from penguin_lint.rules._expressions import DEFAULT_METRIC, OPS, show

# the names of a meta_info.yaml that a board's experiments share (PL403
# compares them): offered from the values its other experiments use
SHARED_NAMES = ("model_name", "harness_name", "algorithm")
# no list longer than this is sent (a board of many experiments): the
# editor filters what it gets by what is typed, so the server filters first
MAX_ITEMS = 500


def candidates(know: Knowledge, kind: str, groups: dict, spot: Spot) -> List[types.CompletionItem]:
    """What can be written at ``spot`` (a value being typed) in a file of ``kind``."""
    board = groups.get("leaderboard")
    sib = spot.siblings
    kind_ = types.CompletionItemKind.Value
    items: List[types.CompletionItem] = []
    if kind == "leaderboard" and spot.key == "experiment_id":
        for e in know.experiments(board):
            meta = know.top_level(know.meta_path(board, e))
            detail = " / ".join(str(meta[f]) for f in ("model_name", "algorithm", "benchmark_id")
                                if isinstance(meta.get(f), str))
            items.append(types.CompletionItem(label=e, kind=kind_, detail=detail or None))
    elif kind == "leaderboard" and spot.key == "phase":
        items = [types.CompletionItem(label=p, kind=kind_) for p in know.phases(board, sib.get("experiment_id"))]
    elif kind == "leaderboard" and spot.key == "metric":
        metrics = know.metrics(board, sib.get("experiment_id"), sib.get("phase"))
        items = [types.CompletionItem(label=m, kind=kind_, detail=show(v),
                                      preselect=m == DEFAULT_METRIC or None) for m, v in metrics.items()]
    elif kind == "leaderboard" and spot.key == "op":
        items = [types.CompletionItem(label=op, kind=types.CompletionItemKind.Operator) for op in OPS]
    elif kind == "meta_info" and spot.key == "benchmark_id":
        items = [types.CompletionItem(label=b, kind=kind_) for b in know.benchmarks()]
    elif kind == "meta_info" and spot.key in SHARED_NAMES:
        used = know.meta_values(board, spot.key, besides=groups.get("experiment"))
        items = [types.CompletionItem(label=v, kind=kind_, detail=f"{n} experiment{'s' if n != 1 else ''}",
                                      sort_text=f"{i:06d}")
                 for i, (v, n) in enumerate(sorted(used.items(), key=lambda vn: (-vn[1], vn[0])))]
    elif kind == "attempt" and spot.key == "source":
        benchmark = know.benchmark_of(board, groups.get("experiment"))
        items = [types.CompletionItem(label=t, kind=kind_, detail=benchmark) for t in know.tasks(benchmark)]
    return _narrow(items, spot)


def _narrow(items: List[types.CompletionItem], spot: Spot) -> List[types.CompletionItem]:
    typed = spot.typed.lower()
    out = [i for i in items if typed in i.label.lower()][:MAX_ITEMS]
    return out


def edit_range(line: int, spot: Spot, to_units) -> types.Range:
    """The value's range (what a chosen item replaces), in LSP columns."""
    return types.Range(start=types.Position(line=line, character=to_units(spot.start)),
                       end=types.Position(line=line, character=to_units(spot.end)))


def complete(know: Knowledge, kind: str, groups: dict, spot: Optional[Spot], line: int,
             to_units) -> Optional[types.CompletionList]:
    if spot is None:
        return None
    items = candidates(know, kind, groups, spot)
    where = edit_range(line, spot, to_units)
    for item in items:
        # the whole value is replaced, its quotes kept: ids hold dashes,
        # which editors do not count as part of a word
        item.text_edit = types.TextEdit(range=where, new_text=item.label)
        item.filter_text = item.label
    return types.CompletionList(is_incomplete=False, items=items)
