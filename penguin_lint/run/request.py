"""What a run is asked (:class:`Request`) and what it gives back (:class:`Outcome`)."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Callable, List, Mapping, Optional, Sequence

from penguin_lint.core.repo import Repository
from penguin_lint.engine.result import Result
from penguin_lint.findings import Finding


class PenguinLintError(Exception):
    """penguin-lint itself could not do what was asked (a bad option, git
    trouble, an unreadable configuration, nothing to lint). ``str()`` is
    the one line the command line prints after ``penguin-lint: error:``."""


@dataclass(eq=False, repr=False)  # nothing compares or prints one; every hook makes the class
class Request:
    """What a run is asked to do; the command line's options, by name."""

    #: files or folders to lint (relative to ``cwd``); with neither these nor
    #: ``all``, what changed against ``diff_base`` (default: the default branch)
    paths: Sequence[str] = ()
    all: bool = False
    diff_base: Optional[str] = None
    #: the repository root; None: found from ``cwd`` and ``paths`` (find_root)
    root: Optional[Path] = None
    cwd: Optional[Path] = None
    #: rule codes or prefixes, each maybe a comma-separated list
    select: Sequence[str] = ()
    ignore: Sequence[str] = ()
    kind: Optional[str] = None
    definition: Optional[str] = None
    jobs: Optional[int] = None
    new_only: bool = False
    #: a diff run's change is what ``HEAD`` commits since the merge base:
    #: the work tree is not searched for uncommitted or untracked files (a
    #: CI checkout has none, and git would stat and list every file to say so)
    committed: bool = False
    config_from_worktree: bool = False
    config_base: Optional[str] = None
    suppress: bool = True
    cache: bool = True
    cache_dir: Optional[str] = None
    shard: Optional[str] = None
    #: with ``all``: record every finding in the baseline file (run/baseline.py)
    write_baseline: bool = False
    fix: bool = False
    unsafe_fixes: bool = False
    #: with ``fix``: only plan the repairs (``Outcome.diff``), write nothing
    diff: bool = False
    #: the environment GitHub describes the run in (default: os.environ)
    env: Optional[Mapping[str, str]] = None
    #: judge what the next commit records (the pre-commit hook): the
    #: index against ``HEAD``; ``paths`` (default: everything staged) are
    #: read from the index, untracked files and unstaged edits are not seen
    staged: bool = False
    #: lint standard input as this file (``paths`` is then ``["-"]``): an
    #: editor's unsaved buffer, with the rest of the repository from disk
    stdin_filename: Optional[str] = None
    #: what ``stdin_filename`` holds: bytes or a binary stream (default: standard input)
    stdin: object = None
    #: with ``all``: called with each part of the findings as the run finds
    #: them (``Engine.on_unit``), where nothing at the end of the run takes
    #: findings back (no baseline); the result is still the whole answer
    progress: Optional[Callable[[List[Finding]], None]] = None


class Outcome:
    """What a run produced: its result, the repository it read and the
    repairs it made or would make. (A plain class: nothing compares or
    prints it, and a dataclass costs every hook its making.)"""

    def __init__(self, result: Result, root: Path, repo: Repository) -> None:
        self.result, self.root, self.repo = result, root, repo
        #: --diff: the repairs as unified-diff lines, how many findings they fix, in which files
        self.diff: Optional[List[str]] = None
        self.would_fix = 0
        self.would_fix_files = 0
        self.warnings: List[str] = []
