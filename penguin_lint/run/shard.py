"""What a shard of an ``--all`` run stamps on its report, for ``merge``."""
from __future__ import annotations

from pathlib import Path


def shard_stamp(part, root: Path, repo, config, rules, engine, env, result) -> dict:
    """What ``penguin-lint merge`` needs of a shard's report: the part, the
    commit and settings it was run with (parts join only when they agree),
    where the root is in the repository and which findings' files are
    missing (as ``--format github`` tells them, from the listing)."""
    from penguin_lint.cache.contentid import git_output
    from penguin_lint.engine.merge import settings_key, shard_stamp as stamp
    from penguin_lint.github.environment import repository_prefix
    from penguin_lint.version import __version__

    head = git_output(str(root), ["rev-parse", "-q", "--verify", "HEAD^{commit}"])
    commit = head.decode("ascii", "replace").strip() if head else None
    settings = settings_key(__version__, config, [r.code for r in rules],
                            dict(engine.ctx.options, suppress=engine.ledger is not None))
    missing = {f.path for f in result.findings if f.path and repo.entry(f.path) is None}
    plan = (result.shard or {}).get("plan", "")
    out = stamp(part.index, part.count, commit or None, settings, plan, repository_prefix(root, dict(env)), missing)
    if result.shard_of and not result.files:
        out["holds_none_of"] = result.shard_of  # the files of the run, all in other parts
    return out


def fixable(result) -> None:
    """What merge needs to mark the fixable findings as --all does."""
    result.shard["fixable"] = [[f.path, f.line, f.column, f.code, f.fix] for f in result.findings if f.fix]
