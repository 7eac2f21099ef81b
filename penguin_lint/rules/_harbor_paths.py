"""Which paths are Harbor definitions and rows files, judged by the path and
the folder listing alone: what a change to a definition affects is asked on
every run, and must not import the schema machinery of _harbor.py."""
from __future__ import annotations

from typing import Iterator

from penguin_lint.core.layout import HARBOR_DEFINITION_NAMES as DEFINITION_NAMES

DEFINITION_KIND = "harbor_leaderboard"
ROWS_KIND = "harbor_rows"


def folder_of(path: str) -> str:
    return path.rpartition("/")[0]


def join(folder: str, name: str) -> str:
    return f"{folder}/{name}" if folder else name


def is_definition_path(path: str, ctx) -> bool:
    """Judged by the path alone, so that a deleted definition counts too."""
    if path == ctx.options.get("definition"):
        return True
    kind = ctx.layout.classify_file(path)
    if kind is not None:
        return kind[0] == DEFINITION_KIND
    return path.rpartition("/")[2] in DEFINITION_NAMES


def rows_files_beside(path: str, ctx) -> Iterator[str]:
    """The rows files a definition is checked with: those beside it, and
    when it is a board's (``leaderboard/leaderboard.yaml``) those in the
    board's subfolders too (``leaderboard/entries/<run>.yaml``)."""
    folder = folder_of(path)
    repo = ctx.repo
    if folder.rpartition("/")[2] == "leaderboard":
        # a nested board (leaderboard/x/leaderboard/) has rows of its own
        paths = (p for p, e in repo.walk(folder) if e.is_file and repo.harbor_board(p) == folder)
    else:
        paths = (join(folder, name) for name in repo.files(folder))
    for p in paths:
        kind = ctx.layout.classify_file(p)
        if kind is not None and kind[0] == ROWS_KIND:
            yield p
