"""Which paths are Harbor definitions and rows files, judged by the path and
the folder listing alone: what a change to a definition affects is asked on
every run, and must not import the schema machinery of _harbor.py."""
from __future__ import annotations

from typing import Iterator

DEFINITION_KIND = "harbor_leaderboard"
ROWS_KIND = "harbor_rows"
DEFINITION_NAMES = ("leaderboard.yaml", "leaderboard.yml", "leaderboard.json")


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
    folder = folder_of(path)
    for name in ctx.repo.files(folder):
        p = join(folder, name)
        kind = ctx.layout.classify_file(p)
        if kind is not None and kind[0] == ROWS_KIND:
            yield p
