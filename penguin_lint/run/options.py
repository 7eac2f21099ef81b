"""Which options go together: checked here, once, before anything is opened.

Every other step trusts what :func:`check_options` returns: the kind of run
and the options parsed (the shard, the rule codes)."""
from __future__ import annotations

import os
from pathlib import Path
from typing import List, Optional

from penguin_lint.core.config import rule_list
from penguin_lint.core.layout import FILE_KINDS
from penguin_lint.rules import rule_codes
from penguin_lint.run.request import PenguinLintError, Request

#: the kinds of run, as :func:`check_options` names them
WHOLE, PATHS, DIFF, STAGED, STDIN = "whole", "paths", "diff", "staged", "stdin"


class Options:
    """What a kind of run takes from the request. (A plain class: nothing
    compares or prints it, and a dataclass costs every hook its making.)"""

    __slots__ = ("mode", "shard", "select", "ignore")

    def __init__(self, mode: str, shard: object = None, select: Optional[List[str]] = None,
                 ignore: Optional[List[str]] = None) -> None:
        #: which kind of run the request is (WHOLE, PATHS, DIFF, STAGED, STDIN)
        self.mode = mode
        self.shard, self.select, self.ignore = shard, select, ignore


def check_options(req: Request, cwd: Path) -> Options:
    """The options of ``req`` checked together; a combination that cannot
    run raises :class:`PenguinLintError` with its one line."""
    paths = list(req.paths)
    all_ = req.all
    if all_ and (paths or req.diff_base):
        raise PenguinLintError("--all cannot be combined with paths or --diff-base")
    if req.unsafe_fixes and not (req.fix or req.diff):
        raise PenguinLintError("--unsafe-fixes works with --fix or --diff")
    if req.write_baseline and (not all_ or req.shard is not None or req.fix or req.diff):
        raise PenguinLintError("--write-baseline records the findings of a whole --all run: give --all, "
                               "without --shard, --fix or --diff")
    if req.shard is not None and not (all_ or (req.diff_base is not None and not paths)):
        raise PenguinLintError("--shard needs --all or --diff-base")
    if req.shard is not None and not all_ and (req.fix or req.diff):
        raise PenguinLintError("--shard with --diff-base cannot be combined with --fix or --diff: each part "
                               "would repair only its own files")
    shard_part = None
    if req.shard is not None:
        from penguin_lint.engine.shard import parse_shard

        try:
            shard_part = parse_shard(req.shard)
        except ValueError as e:
            raise PenguinLintError(str(e))
    if req.kind is not None and req.kind not in FILE_KINDS:
        raise PenguinLintError(f"unknown kind '{req.kind}' (known: {', '.join(sorted(FILE_KINDS))})")
    if req.kind is not None and (not paths or all_):
        raise PenguinLintError("--kind is the kind of the files given on the command line: give their paths "
                               "(a kind for files the walk finds is a [kinds] glob in .penguin-lint.toml)")
    if all_ and req.new_only:
        raise PenguinLintError("--new-only needs a change to compare with: give paths or --diff-base, not --all")
    if req.staged:
        _check_staged(req)
    if req.stdin_filename is not None:
        if paths != ["-"]:
            raise PenguinLintError("--stdin-filename lints standard input: give '-' as the only path")
        if all_ or req.diff_base is not None or req.staged or req.fix or req.diff:
            raise PenguinLintError("--stdin-filename cannot be combined with --all, --diff-base, --staged, "
                                   "--fix or --diff")
    elif "-" in paths and not os.path.lexists(cwd / "-"):
        raise PenguinLintError("'-' (standard input) needs --stdin-filename PATH: the file it stands for")
    mode = _mode(req)
    if req.committed and mode != DIFF:
        raise PenguinLintError("--committed is for a diff run (--diff-base, or no paths): the change "
                               "is what HEAD commits")
    if req.config_base is not None and mode == DIFF:
        raise PenguinLintError("--config-base is for --all and path runs (a diff run reads the base's "
                               "configuration)")
    if req.config_base is not None and req.config_from_worktree:
        raise PenguinLintError("--config-base and --config-from-worktree cannot be combined")
    known = rule_codes()
    try:  # the forms .penguin-lint.toml accepts (config.rule_list)
        select_codes = rule_list(list(req.select or ()), known, "--select") if req.select else []
        ignore_codes = rule_list(list(req.ignore or ()), known, "--ignore") if req.ignore else []
    except ValueError as e:
        raise PenguinLintError(str(e)) from None
    return Options(mode, shard_part, select_codes, ignore_codes)


def _check_staged(req: Request) -> None:
    if req.all or req.diff_base is not None:
        raise PenguinLintError("--staged cannot be combined with --all or --diff-base")
    if req.fix or req.diff:
        raise PenguinLintError("--fix and --diff work on the working tree: run them without --staged, "
                               "then stage the result")
    if req.config_base is not None or req.config_from_worktree:
        raise PenguinLintError("--staged reads the configuration from the index: it cannot be combined "
                               "with --config-base or --config-from-worktree")


def _mode(req: Request) -> str:
    if req.staged:
        return STAGED
    if req.stdin_filename is not None:
        return STDIN
    if req.all:
        return WHOLE
    # neither paths nor --all: what changed against the default branch
    return DIFF if req.diff_base is not None or not req.paths else PATHS
