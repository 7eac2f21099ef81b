"""``--fix`` and ``--diff`` after a run: repair, then lint again; and, in
any other run, each finding that ``--fix`` would repair marked."""
from __future__ import annotations

from pathlib import Path
from typing import Callable

from penguin_lint.core.repo import Repository
from penguin_lint.rules import all_rules


def fix(outcome, show_diff: bool, unsafe: bool, root: Path, config, relint,
        warn: Callable[[str], None]) -> None:
    """--fix: repair, re-lint (``relint``: the same run again), and put the
    result to report in ``outcome``; --diff: the repairs as a diff in
    ``outcome`` (nothing is written)."""
    from penguin_lint.engine.context import Context
    from penguin_lint.fixes import fix_run

    result, fixed = fix_run(
        outcome.result, relint, str(root), lambda: Context(Repository(root, config), config),
        {r.code: r for r in all_rules()}, unsafe, show_diff, config.size_limit)
    for line in fixed.refused:
        warn(line)
    if show_diff:
        outcome.diff = list(fixed.diff)
        outcome.would_fix, outcome.would_fix_files = fixed.fixed, len(fixed.files)
        return
    result.fixed = fixed.fixed
    outcome.result = result


def mark_fixable(result, repo, config) -> None:
    """Each finding --fix would repair marked (``Finding.fix``), on the
    bytes this run read."""
    if not result.findings:
        return
    from penguin_lint.engine.context import Context
    from penguin_lint.fixes import FIXERS
    from penguin_lint.fixes.available import mark_fixable as mark

    if not any(f.code in FIXERS for f in result.findings):
        return  # the common case: nothing imported, nothing read
    mark(result.findings, repo, Context(repo, config), {r.code: r for r in all_rules()})
