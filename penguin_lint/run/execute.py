"""The one engine every kind of run goes through: configuration, rules,
repository, paths, the rule engine, the result, ``--fix``."""
from __future__ import annotations

import os
from pathlib import Path

from penguin_lint.core.config import ConfigError
from penguin_lint.core.repo import Repository
from penguin_lint.pr.git import GitError
from penguin_lint.pr.history import FolderHistory
from penguin_lint.run.fix import fix, mark_fixable
from penguin_lint.run.kind import RunKind
from penguin_lint.run.request import Outcome, PenguinLintError
from penguin_lint.run.targets import checked_paths, relative


def execute(kind: RunKind) -> Outcome:
    """Run ``kind`` to its outcome. What it opens is closed by its
    ``resources``, not here."""
    from penguin_lint.engine.runner import Engine, ToolError, enabled_rules

    req, root = kind.req, kind.root
    try:
        config = kind.open()
    except (ConfigError, GitError) as e:
        raise PenguinLintError(str(e))
    rules = enabled_rules(config, kind.options.select or None, kind.options.ignore)
    if not rules:  # not a silent pass: nothing would be checked
        raise PenguinLintError("--select and --ignore leave no rule enabled")
    repo = kind.repository(config)
    rel_paths, forced = checked_paths(kind.paths, kind.cwd, root, repo, req.kind, kind.deleted())
    rel_paths = kind.targets(rel_paths)
    kind.config, kind.rules, kind.forced = config, rules, forced
    consent = kind.consent(config)
    engine = Engine(repo, config, rules, forced_kinds=forced, suppress=req.suppress, consent=consent)
    # asked only by a hint that proposes a date (PL101's last_update)
    engine.ctx.history = FolderHistory(root)
    kind.prepare(engine, rel_paths)
    if req.definition is not None:
        drel = relative(req.definition, kind.cwd, root)
        if drel is None or repo.entry(drel) is None:
            raise PenguinLintError(f"definition file not found in the repository: {req.definition}")
        engine.ctx.options["definition"] = drel
    try:
        if kind.walks(rel_paths) and not config.kinds and not layout_present(root, repo, kind.base_tree()):
            # Not a green check on nothing: say that there was nothing to lint.
            raise PenguinLintError(f"no {', '.join(r + '/' for r in repo.walk_roots() if r)} folder under "
                                   f"{root}: nothing to lint (is --root right?)")
        result = kind.lint(engine, rel_paths)
        kind.finish(result, rel_paths)
        outcome = Outcome(result, root, repo)
        if req.fix or req.diff:
            def relint():
                # the same run again, on the repaired working tree
                again = Engine(Repository(root, config), config, rules, forced_kinds=forced, suppress=req.suppress,
                               consent=consent)
                again.ctx.options.update(engine.ctx.options)
                again.ctx.history = engine.ctx.history
                return kind.lint(again, rel_paths)

            fix(outcome, req.diff, req.unsafe_fixes, root, config, relint, kind.warn)
        else:
            mark_fixable(result, repo, config)
            if result.shard is not None:
                from penguin_lint.run.shard import fixable

                fixable(result)
        kind.after(outcome, rel_paths)
    except (ToolError, GitError) as e:
        raise PenguinLintError(str(e))
    return outcome


def layout_present(root: Path, repo, base_tree=None) -> bool:
    """Whether one of the layout's top folders is under ``root``, in the
    working tree or (diff runs) in the base."""
    tops = list(repo.layout.roots.values()) + ["leaderboard"]
    # a listing of its own: the cache may add a folder
    if any(os.path.isdir(root / t) and not os.path.islink(root / t) for t in tops):
        return True
    if base_tree is not None:
        from penguin_lint.pr.basetree import BaseRepository

        base = BaseRepository(base_tree, root, repo.config)
        return any(base.is_dir(t) for t in tops)
    return False
