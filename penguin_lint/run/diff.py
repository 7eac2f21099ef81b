"""A diff run (a pull request's, or what changed against the default
branch): the files the change touches, against the merge base of
``--diff-base`` and ``HEAD``, judged by the base's configuration (nothing in
the pull request can switch the gate off; PL502 says what it changed).
Only what the change introduced is reported where it can be told apart."""
from __future__ import annotations

from typing import List

from penguin_lint.core.config import Config
from penguin_lint.run.base import compared, open_diff
from penguin_lint.run.kind import RunKind


class DiffRun(RunKind):
    _change = None
    _base_tree = None

    def open(self) -> Config:
        req = self.req
        self._change, self._base_tree, config = open_diff(
            self.resources, self.root, req.diff_base, req.config_from_worktree, self.warn, self.status_cache,
            committed=req.committed)
        return config

    def consent(self, config: Config):
        if self.req.config_from_worktree:
            return None  # the change's own settings consent to nothing
        from penguin_lint.run.consent import review_consent

        return review_consent(config, self.root, self.env, self.warn)

    def walks(self, rel_paths: List[str]) -> bool:
        return True

    def base_tree(self):
        return self._base_tree

    def lint(self, engine, rel_paths: List[str]):
        from penguin_lint.engine.runner import Engine
        from penguin_lint.pr.basetree import BaseRepository
        from penguin_lint.pr.blame import Change, Scope

        git_change, config = self._change, self.config
        changed = git_change.paths
        if rel_paths:  # paths given too: only the changes under them
            changed = [c for c in changed if any(c == p or c.startswith(p + "/") or p == "" for p in rel_paths)]
        change = Change.of(engine.repo, changed, renames=git_change.renames)
        base_repo = BaseRepository(self._base_tree, self.root, config, label=git_change.label)
        base_engine = Engine(base_repo, config, self.rules, forced_kinds=self.forced, suppress=self.req.suppress)
        base_engine.ctx.options.update(engine.ctx.options)
        engine.ctx.base = base_repo
        engine.ctx.renames = dict(change.renames)
        engine.ctx.gitlinks = set(git_change.gitlinks)
        engine.ctx.config_from_base = not self.req.config_from_worktree
        scope = Scope(change, base_engine, new_only=self.req.new_only, focus=True)
        part = self.options.shard
        result = engine.run_change(change, scope, shard=part)
        result.compared_with = compared(base_repo)
        result.no_changes = len(change) == 0
        self._baseline(result, engine.repo, part is None or part.takes_top)
        if part is not None:
            from penguin_lint.run.shard import shard_stamp

            result.shard = shard_stamp(part, self.root, engine.repo, config, self.rules, engine, self.env, result)
            # what merge needs to report the parts as one pull-request run
            result.shard["touched"] = sorted(result.touched)
            if result.baseline_entries is not None:
                result.shard["baseline"] = result.baseline_entries
                # merge tells stale entries from every part's matches in touched files
                result.shard["baseline_within"] = list(result.baseline_within)
        return result

    def _baseline(self, result, repo, says: bool) -> None:
        """The base's baseline applied (the working tree's with
        --config-from-worktree); PL502 when the change edits it (``says``:
        in one part of a sharded run only)."""
        from penguin_lint.run import baseline

        rel = self.config.baseline
        own = self.req.config_from_worktree
        raw = baseline.read_worktree(self.root, rel) if own else baseline.read_tree(self._base_tree, rel)
        # every finding is reported only in the files the change touches:
        # only their entries can be told stale
        touched = result.touched or frozenset()
        changed = baseline.judge(result, repo, self.root, rel, raw, own, within=touched.__contains__)
        finding = baseline.changed_finding(changed, self.rules) if changed and says else None
        if finding is not None:
            result.findings = sorted(result.findings + [finding], key=lambda f: f.sort_key())
