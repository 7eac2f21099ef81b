"""A Harbor Hub board as the Hub will show it: the rows of its rows files
(hidden rows left out) ranked by the definition's ``rank_by``, under the
definition's columns, each cell the ``display_accessor``'s value where one
is given, else the ``accessor``'s, formatted by the column's type.

Ranking follows the rules in order: each rule's ``direction``, missing
values ``first`` or ``last`` (last when ``nulls`` is not given), ties broken
by the next rule, then by file and place in the file. Values of different
kinds compare booleans, then numbers, then text.
"""
from __future__ import annotations

import functools
import json
import math
from dataclasses import dataclass, field
from typing import Any, List, Optional, Sequence

from penguin_lint.core.layout import HARBOR_DEFINITION_NAMES
from penguin_lint.core.config import glob_roots
from penguin_lint.preview.model import Change

DEFINITION_KIND, ROWS_KIND = "harbor_leaderboard", "harbor_rows"
# a board shows at most this many rows (a note says how many more); a cell
# at most this many characters
MAX_ROWS = 10_000
MAX_CELL = 200
COLUMN_TYPES = ("text", "number", "boolean", "date", "markdown", "link")


@dataclass
class Cell:
    text: Optional[str]                 # None: the value is missing
    url: Optional[str] = None           # a link column's target, shown as text

    def to_dict(self) -> Optional[dict]:
        return None if self.text is None else {"text": self.text, "url": self.url}

    def plain(self) -> str:
        if self.text is None:
            return "-"
        return f"{self.text} ({self.url})" if self.url and self.url != self.text else self.text


@dataclass
class Column:
    id: str
    header: str
    type: str
    align: str                          # left, center, right

    def to_dict(self) -> dict:
        return {"id": self.id, "header": self.header, "type": self.type, "align": self.align}


@dataclass
class HarborRow:
    key: str                            # the file, and the row's place when the file holds several
    path: str
    index: int
    line: Optional[int]
    cells: List[Cell]
    rank: Optional[int] = None
    sort: List[Any] = field(default_factory=list)
    #: a row of the board before a change: its cells under the columns after it
    aligned: Optional[List[Cell]] = None

    def cells_after(self) -> List[Cell]:
        return self.aligned if self.aligned is not None else self.cells

    def to_dict(self, columns: Sequence[Column]) -> dict:
        return {"key": self.key, "path": self.path, "index": self.index, "line": self.line, "rank": self.rank,
                "cells": {c.id: cell.to_dict() for c, cell in zip(columns, self.cells)}}


@dataclass
class HarborBoard:
    path: str                           # the definition
    name: Optional[str] = None
    title: Optional[str] = None
    columns: List[Column] = field(default_factory=list)
    rows: List[HarborRow] = field(default_factory=list)
    hidden: int = 0
    files: List[str] = field(default_factory=list)
    problem: Optional[str] = None
    note: Optional[str] = None

    def to_dict(self) -> dict:
        return {"definition": self.path, "name": self.name, "title": self.title, "problem": self.problem,
                "note": self.note, "hidden": self.hidden, "files": self.files,
                "columns": [c.to_dict() for c in self.columns],
                "rows": [r.to_dict(self.columns) for r in self.rows]}


# -- where boards are ---------------------------------------------------------
def _kind(repo, path: str) -> str:
    return (repo.layout.classify_file(path) or ("",))[0]


def harbor_boards(repo) -> List[str]:
    """The definitions of a repository's Harbor boards, by path."""
    roots = ["leaderboard"] + [glob_roots(g) for g, kind in repo.config.kinds if kind == DEFINITION_KIND]
    out: List[str] = []
    for top in dict.fromkeys(roots):
        if top and not repo.is_dir(top):
            continue
        for path, entry in repo.walk(top):
            if entry.is_file and path not in out and _kind(repo, path) == DEFINITION_KIND:
                out.append(path)
    return sorted(out)


def rows_files(repo, definition: str) -> List[str]:
    """The rows files of a board: beside its definition, and under its
    ``leaderboard/`` folder (subfolders too) when it is a board's."""
    folder = definition.rpartition("/")[0]
    if folder.rpartition("/")[2] == "leaderboard":
        paths = [p for p, e in repo.walk(folder) if e.is_file
                 and (p.rpartition("/")[0] == folder or repo.harbor_board(p) == folder)]
    else:
        paths = [f"{folder}/{n}" if folder else n for n in repo.files(folder)]
    return sorted(p for p in paths if _kind(repo, p) == ROWS_KIND)


def affected_boards(changed, repo) -> List[str]:
    """The boards a change can move: a changed path is their definition or
    one of their rows files (or was, for a deleted one: under the board's folder)."""
    out = []
    for definition in harbor_boards(repo):
        folder = definition.rpartition("/")[0]
        prefix = folder + "/" if folder else ""
        if any(p == definition or (p.startswith(prefix) and p.endswith((".yaml", ".yml", ".json"))
                                   and (p.rpartition("/")[0] == folder or folder.endswith("leaderboard")))
               for p in changed):
            out.append(definition)
    return out


# -- values -------------------------------------------------------------------
def _value(row: dict, accessor) -> Any:
    """What an accessor reads from a row (``metrics.x``: one property, never
    deeper); None when missing."""
    from penguin_lint.rules._harbor import parse_accessor

    parsed = parse_accessor(accessor)
    if parsed is None:
        return None
    section = row.get(parsed[0])
    return section.get(parsed[1]) if isinstance(section, dict) else None


def _dump(v) -> str:
    """A list or mapping as compact JSON; one nested past what JSON writes is named, not written."""
    try:
        return json.dumps(v, ensure_ascii=False, sort_keys=True, default=str)
    except (RecursionError, ValueError, TypeError):
        return "(a value nested too deep to show)"


def _short(s: str) -> str:
    return s if len(s) <= MAX_CELL else s[:MAX_CELL - 1] + "…"


def _number(x) -> str:
    """As the Hub's JavaScript writes a number: ``0.0`` is ``0``, ``32.9`` is ``32.9``."""
    if isinstance(x, float) and math.isfinite(x) and x == int(x) and abs(x) < 1e21:
        return str(int(x))
    return repr(x) if isinstance(x, float) else str(x)


def format_cell(value, kind: str) -> Cell:
    """A value as the column's type shows it; markdown is shown as its text."""
    if value is None:
        return Cell(None)
    if kind == "link" and isinstance(value, dict):
        url, label = value.get("url"), value.get("label")
        url = url if isinstance(url, str) else None
        text = label if isinstance(label, str) and label else url
        return Cell(_short(text) if text is not None else None, _short(url) if url else None)
    if kind == "link" and isinstance(value, str):
        return Cell(_short(value), _short(value))
    if isinstance(value, bool):
        return Cell("yes" if value else "no") if kind == "boolean" else Cell(str(value).lower())
    if isinstance(value, (int, float)):
        return Cell(_number(value))
    if isinstance(value, str):
        return Cell(_short(value))
    return Cell(_short(_dump(value)))


# -- ranking ------------------------------------------------------------------
def _group(v) -> int:
    return 0 if isinstance(v, bool) else 1 if isinstance(v, (int, float)) else 2 if isinstance(v, str) else 3


def _cmp_values(a, b) -> int:
    ga, gb = _group(a), _group(b)
    if ga != gb:
        return -1 if ga < gb else 1
    if ga == 3:
        a, b = _dump(a), _dump(b)
    return -1 if a < b else 1 if a > b else 0


def rank(rows: List[HarborRow], rules: Sequence[dict]) -> List[HarborRow]:
    """``rows`` in the order ``rules`` give (``HarborRow.sort`` holds each
    rule's value), numbered from 1."""
    def cmp(x: HarborRow, y: HarborRow) -> int:
        for rule, a, b in zip(rules, x.sort, y.sort):
            if a is None and b is None:
                continue
            if a is None or b is None:
                first = rule.get("nulls") == "first"
                return (-1 if first else 1) if a is None else (1 if first else -1)
            c = _cmp_values(a, b)
            if c:
                return -c if rule.get("direction") == "desc" else c
        return (x.path > y.path) - (x.path < y.path) or x.index - y.index

    out = sorted(rows, key=functools.cmp_to_key(cmp))
    for i, r in enumerate(out):
        r.rank = i + 1
    return out


# -- the board ----------------------------------------------------------------
def _columns(definition: dict) -> List[Column]:
    out = []
    cols = definition.get("columns")
    for i, col in enumerate(cols if isinstance(cols, list) else ()):
        if not isinstance(col, dict):
            continue
        cid = col.get("id") if isinstance(col.get("id"), str) else f"columns[{i}]"
        header = col.get("header") if isinstance(col.get("header"), str) else cid
        # the display value has its own type where one is given, else the column's
        shown = (col.get("display_type") if col.get("display_accessor") is not None else None) or col.get("type")
        kind = shown if shown in COLUMN_TYPES else "text"
        align = col.get("align") if col.get("align") in ("left", "center", "right") else (
            "right" if kind == "number" else "left")
        out.append(Column(cid, header, kind, align))
    return out


def _accessors(definition: dict) -> List[Any]:
    cols = definition.get("columns")
    return [col.get("display_accessor") if col.get("display_accessor") is not None else col.get("accessor")
            for col in (cols if isinstance(cols, list) else ()) if isinstance(col, dict)]


def board(repo, definition: str) -> HarborBoard:
    """The board of the definition at ``definition`` as the Hub shows it."""
    out = HarborBoard(definition)
    doc = repo.load(definition)
    if doc is None or not doc.parsed or not isinstance(doc.data, dict):
        out.problem = f"{definition} does not load (see `penguin-lint {definition}`)"
        return out
    data = doc.data
    out.name = data.get("name") if isinstance(data.get("name"), str) else None
    out.title = data.get("title") if isinstance(data.get("title"), str) else None
    out.columns = _columns(data)
    accessors = _accessors(data)
    rank_by = data.get("rank_by")
    rules = [r for r in rank_by if isinstance(r, dict)] if isinstance(rank_by, list) else []
    rows: List[HarborRow] = []
    visible = 0
    for path in rows_files(repo, definition):
        out.files.append(path)
        rdoc = repo.load(path)
        items = rdoc.data.get("rows") if rdoc is not None and rdoc.parsed and isinstance(rdoc.data, dict) else None
        if not isinstance(items, list):
            out.note = _add(out.note, f"{path} does not load (see `penguin-lint {path}`): its rows are not shown")
            continue
        repo.forget(path)  # out of the repository's documents: one rows file held at a time
        for i, item in enumerate(items):
            if not isinstance(item, dict):
                continue
            if item.get("status") == "hide":
                out.hidden += 1
                continue
            visible += 1
            if len(rows) >= MAX_ROWS:
                continue
            key = path if len(items) == 1 else f"{path} rows[{i}]"
            cells = [format_cell(_value(item, a), c.type) for a, c in zip(accessors, out.columns)]
            line = rdoc.value_pos(("rows", i)).line
            sort = [_value(item, r.get("accessor")) for r in rules]
            # NaN, which no JSON the Hub stores can hold, ranks as missing
            sort = [None if isinstance(v, float) and v != v else v for v in sort]
            rows.append(HarborRow(key, path, i, line, cells, sort=sort))
    out.rows = rank(rows, rules)
    if visible > MAX_ROWS:
        out.note = _add(out.note, f"{visible - MAX_ROWS:,} more rows not shown (the first {MAX_ROWS:,} "
                                  "rows of the files are ranked)")
    return out


def _add(note: Optional[str], more: str) -> str:
    return f"{note}; {more}" if note else more


def compare(before: HarborBoard, after: HarborBoard) -> List[Change]:
    """Rows added, removed, changed (a cell or the rank) and unchanged, matched by key."""
    old = {r.key: r for r in before.rows}
    new = {r.key: r for r in after.rows}
    ids = [c.id for c in before.columns]
    for r in before.rows:
        by_id = dict(zip(ids, r.cells))
        r.aligned = [by_id.get(c.id, Cell(None)) for c in after.columns]
    out: List[Change] = []
    for r in after.rows:
        b = old.get(r.key)
        if b is None:
            out.append(Change("added", r.key, None, r))
            continue
        fields = [c.header for c, was, cell in zip(after.columns, b.cells_after(), r.cells) if was != cell]
        if b.rank != r.rank:
            fields.insert(0, "rank")
        out.append(Change("changed" if fields else "unchanged", r.key, b, r, fields))
    out += [Change("removed", r.key, r, None) for r in before.rows if r.key not in new]
    return out


def board_arg(arg: str, repo, root, cwd) -> Optional[str]:
    """The definition a command-line argument names (its path, or its
    folder's), relative to ``cwd`` or to the root; None when it names none."""
    import os

    for base in (cwd, root):
        full = os.path.abspath(os.path.join(str(base), arg))
        rel = os.path.relpath(full, os.path.abspath(str(root))).replace(os.sep, "/")
        if rel.startswith("../") or rel == "..":
            continue
        rel = "" if rel == "." else rel
        candidates = [rel] + [f"{rel}/{n}" if rel else n for n in HARBOR_DEFINITION_NAMES]
        for path in candidates:
            if repo.is_file(path) and _kind(repo, path) == DEFINITION_KIND:
                return path
    return None


def compare_boards(before_repo, after_repo, definitions: Sequence[str]):
    """(board before, board after, changes) for each definition."""
    out = []
    for d in definitions:
        b = board(before_repo, d) if before_repo.is_file(d) else HarborBoard(d, problem=f"no {d}")
        a = board(after_repo, d) if after_repo.is_file(d) else HarborBoard(d, problem=f"no {d}")
        before_repo.forget("")
        after_repo.forget("")
        out.append((b, a, compare(b, a)))
    return out
