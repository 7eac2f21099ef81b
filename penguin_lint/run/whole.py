"""A whole-repository run (``--all``, or one shard of it): every file of
the layout, with the cache. In a pull request's own workflow it is judged
by the base's configuration, and the suppressions the pull request adds
hide nothing."""
from __future__ import annotations

import functools
from typing import List

from penguin_lint.core.config import Config
from penguin_lint.run.cache import cache_rel, is_stray_cache, open_cache, save_cache
from penguin_lint.run.config import config_at, config_findings, pull_request_base
from penguin_lint.run.kind import RunKind
from penguin_lint.run.shard import shard_stamp


class WholeRun(RunKind):
    #: --config-base: the base's .penguin-lint.toml, for PL502
    based_on = None
    #: the suppressions the change adds (suppressions.AddedIndex), or None
    added_index = None
    #: the ref whose configuration (and baseline) the run is judged by, or None
    config_ref = None

    def open(self) -> Config:
        req = self.req
        config_base = req.config_base
        if config_base is None and not req.config_from_worktree:
            # --all (or a shard of it) in a pull request's own workflow: the
            # pull request must not choose what it is judged by.
            config_base = pull_request_base(self.root, self.env)
        if config_base is None:
            return super().open()
        self.config_ref = config_base
        self.based_on, config, self.added_index = config_at(
            self.root, config_base, self.warn, review=req.suppress, status_cache=self.status_cache)
        return config

    def consent(self, config: Config):
        if self.added_index is None:
            return None  # not a review: every suppression in the tree applies
        from penguin_lint.run.consent import review_consent

        return review_consent(config, self.root, self.env, self.warn)

    def walks(self, rel_paths: List[str]) -> bool:
        return True

    def lint(self, engine, rel_paths: List[str]):
        req, root, config, rules = self.req, self.root, self.config, self.rules
        part = self.options.shard
        repo = engine.repo
        no_cache = not req.cache
        cache = None if no_cache else open_cache(root, req.cache_dir, config, rules, engine, self.warn)
        repo.cache_rel = cache_rel(root, req.cache_dir, cache, no_cache, config)
        repo.stray_cache = functools.partial(is_stray_cache, root)
        # the engine runs no git: it is told which folders are submodules
        from penguin_lint.pr.worktree_gitlinks import WorkTreeGitlinks

        if req.progress is not None and self._streams(part):
            engine.on_unit = req.progress
        result = engine.run_all(jobs=req.jobs, cache=cache, shard=part, review=self.added_index,
                                gitlinks=WorkTreeGitlinks(root))
        if cache is not None:
            save_cache(cache, part is not None, self.warn)
        changed = self._baseline(result, repo)
        if self.based_on is not None and (part is None or part.takes_top):
            # the pull request's own .penguin-lint.toml and baseline: said, not
            # used (in one shard only: every finding is in exactly one part)
            config_findings(result, repo, config, self.based_on, rules)
            if changed is not None:
                result.findings = sorted(result.findings + [changed], key=lambda f: f.sort_key())
        if part is not None:
            result.shard = shard_stamp(part, root, repo, config, rules, engine, self.env, result)
            if result.baseline_entries is not None:
                result.shard["baseline"] = result.baseline_entries
        return result

    def _streams(self, part) -> bool:
        """Whether the findings can be handed out as they come: not when a
        baseline takes some back at the end, nor in a shard or a pull
        request's run (judged by its base)."""
        from penguin_lint.run import baseline

        return (part is None and self.config_ref is None and not self.req.write_baseline
                and baseline.read_worktree(self.root, self.config.baseline) is None)

    def _baseline(self, result, repo):
        """The baseline written (--write-baseline) or read, and applied; the
        PL502 finding when a pull request changes it (else None)."""
        from penguin_lint.run import baseline

        rel = self.config.baseline
        if self.req.write_baseline:
            raw = baseline.render(result.findings, repo)
            baseline.write(self.root, rel, raw)
            result.baseline_written = rel
            own = True
        elif self.config_ref is not None:
            # a pull request is judged by its base's baseline, never its own
            raw, own = baseline.read_at(self.root, self.config_ref, rel), False
        else:
            raw, own = baseline.read_worktree(self.root, rel), True
        # --all reports every finding: each entry left unmatched is stale
        changed = baseline.judge(result, repo, self.root, rel, raw, own, within=lambda path: True)
        return baseline.changed_finding(changed, self.rules) if changed else None
