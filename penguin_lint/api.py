"""The Python API: ``penguin_lint.lint()``.

The command line, the GitHub Action and ``preview`` are built on the same
pipeline (``penguin_lint.pipeline``); this is its front for other programs::

    import penguin_lint

    result = penguin_lint.lint("bench")                          # the whole repository
    result = penguin_lint.lint("bench", diff_base="origin/main")  # a pull request's run
    result = penguin_lint.lint("bench", ["leaderboards/code-eval"])
    if result.errors:
        for f in result.findings:
            print(f"{f.path}:{f.line}: {f.code} {f.message}")

A failure of the tool itself (git trouble, an invalid configuration, nothing
to lint) raises :class:`PenguinLintError`, whose message is the line the
command line prints.
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import Callable, Iterable, List, Optional, Union

from penguin_lint.engine.result import Result
from penguin_lint.findings import Finding
from penguin_lint.pipeline import PenguinLintError, Request, run

#: What ``lint()`` returns: ``findings`` (each a :class:`Finding` with
#: ``code``, ``path``, ``line``, ``column``, ``end_line``, ``end_column``,
#: ``severity``, ``message``, ``hint`` and ``to_dict()``), ``errors`` and
#: ``warnings`` (how many findings of each severity), ``files`` (how many
#: were checked), ``compared_with`` (a pull-request run's base),
#: ``tool_warnings`` (what the command line prints as "penguin-lint:
#: warning: ..."), and ``to_dict()``: the report of ``--format json``.
LintResult = Result

__all__ = ["lint", "LintResult", "Finding", "PenguinLintError"]


def lint(root: Union[str, os.PathLike] = ".", paths: Optional[Iterable[Union[str, os.PathLike]]] = None, *,
         diff_base: Optional[str] = None, select: Optional[Iterable[str]] = None,
         ignore: Optional[Iterable[str]] = None, new_only: bool = False,
         cache: Union[bool, str, os.PathLike] = True, jobs: Optional[int] = None,
         config_base: Optional[str] = None, config_from_worktree: bool = False,
         kind: Optional[str] = None, definition: Optional[Union[str, os.PathLike]] = None,
         suppress: bool = True, shard: Optional[str] = None,
         progress: Optional[Callable[[List[Finding]], None]] = None) -> LintResult:
    """Lint the benchmark repository at ``root``.

    - neither ``paths`` nor ``diff_base``: the whole repository (``--all``);
    - ``paths`` (files or folders, relative to ``root``): those, compared
      with ``HEAD`` when ``root`` is in a git work tree (the pre-commit hook);
    - ``diff_base`` (a git ref): what changed since the merge base of it and
      ``HEAD``, judged by the base's configuration (a pull request's run);
      with ``paths`` too, only the changes under them.

    ``select``/``ignore``: rule codes or prefixes. ``new_only``: with paths
    or ``diff_base``, only findings the change introduced. ``cache``: True
    (the default folder), False (none) or the folder to keep it in.
    ``config_base``: with the whole repository or paths, read
    ``.penguin-lint.toml`` as it is at the merge base of this ref and HEAD.
    ``suppress=False``: ignore inline ``penguin-lint: disable`` comments.
    ``shard``: ``"K/N"``, one part of a whole-repository run.
    ``progress``: with the whole repository, a function called with each
    part of the findings as the run finds them (a folder at a time), for a
    program that shows them as they come; not called where the end of the
    run takes findings back (a baseline). The parts are not the final
    report: unused suppressions (PL008) are found at the end, and a file's
    findings past the cap are dropped then. The result is.

    Raises :class:`PenguinLintError` when the run cannot be made.
    """
    root_path = Path(root)
    path_list: List[str] = [os.fspath(p) for p in paths] if paths is not None else []
    whole = not path_list and diff_base is None
    request = Request(
        paths=path_list, all=whole, diff_base=diff_base, root=root_path, cwd=root_path.resolve(),
        select=_codes(select), ignore=_codes(ignore), new_only=new_only,
        cache=cache is not False, cache_dir=None if isinstance(cache, bool) else os.fspath(cache),
        jobs=jobs, config_base=config_base, config_from_worktree=config_from_worktree, kind=kind,
        definition=os.fspath(definition) if definition is not None else None, suppress=suppress, shard=shard,
        progress=progress)
    outcome = run(request)
    result = outcome.result
    result.tool_warnings = list(outcome.warnings)
    return result


def _codes(codes) -> List[str]:
    if codes is None:
        return []
    if isinstance(codes, str):  # "PL1,PL203" as on the command line
        return [codes]
    return [str(c) for c in codes]
