"""A path run (the pre-commit hook): the files or folders given, as the
working tree holds them, compared with ``HEAD`` inside a git work tree (so
that only what the commit changes is blamed on it)."""
from __future__ import annotations

import functools
from typing import List

from penguin_lint.core.config import Config
from penguin_lint.pr.git import gitlinks_below
from penguin_lint.run.base import compared, head_base
from penguin_lint.run.cache import cache_rel, is_stray_cache
from penguin_lint.run.config import config_at
from penguin_lint.run.kind import RunKind


class PathsRun(RunKind):
    #: renames new -> old among the paths (the index knows them, --staged)
    renames: dict = {}
    #: HEAD's tree, once the first pass opened it (--fix's second pass reuses it)
    _head_tree = None

    def open(self) -> Config:
        if self.req.config_base is not None:  # the base's settings; PL502 is for --all
            return config_at(self.root, self.req.config_base, self.warn, status_cache=self.status_cache)[1]
        return super().open()

    def consent(self, config: Config):
        # the hook: the author's own commit; it says what the pull request will need
        from penguin_lint.run.consent import own_consent

        return own_consent(config)

    def prepare(self, engine, rel_paths: List[str]) -> None:
        engine.ctx.gitlinks = gitlinks_below(self.root, engine.repo, rel_paths)  # its folders' submodules

    def lint(self, engine, rel_paths: List[str]):
        from penguin_lint.pr.blame import Change, Scope

        repo, config = engine.repo, self.config
        renames = {new: old for new, old in self.renames.items() if new in rel_paths}
        change = Change.of(repo, rel_paths, renames=renames)
        folders = [p for p in rel_paths if p == "" or repo.is_dir(p)]
        if folders:  # walked: the cache folder is left out as by --all
            repo.cache_rel = cache_rel(self.root, self.req.cache_dir, None, True, config)
            repo.stray_cache = functools.partial(is_stray_cache, self.root)
        # Paths in a work tree are what is about to be committed (the
        # pre-commit hook): they are compared with HEAD.
        base_engine = self.head_engine(repo, config)
        if base_engine is not None:
            # judged as the paths are: --kind, --no-suppress and --definition alike
            base_engine.ctx.options.update(engine.ctx.options)
            engine.ctx.base = base_engine.repo
            self._head_tree = base_engine.repo.tree
            engine.ctx.renames = dict(change.renames)
        # a data folder given file by file, every one of its files, is judged
        # as a whole, as --all judges it (`pre-commit run --all-files`)
        scope = Scope(change, base_engine, new_only=self.req.new_only,
                      folders=folders + complete_folders(repo, rel_paths))
        result = engine.run_change(change, scope)
        if base_engine is not None:
            result.compared_with = compared(base_engine.repo)
        # old debt the baseline records does not block the hook either
        from penguin_lint.run import baseline

        raw = self.baseline_bytes(config.baseline)
        if raw is not None:
            baseline.apply(result, baseline.parse(raw, config.baseline), repo)
        return result

    def head_engine(self, repo, config):
        """The engine over ``HEAD`` the paths are compared with, or None."""
        return head_base(self.resources, self.root, repo, config, self.rules, tree=self._head_tree,
                         forced_kinds=self.forced, suppress=self.req.suppress)

    def baseline_bytes(self, rel: str):
        """The baseline as the run's configuration is read: from the working tree."""
        from penguin_lint.run.baseline import read_worktree

        return read_worktree(self.root, rel)


def complete_folders(repo, rel_paths: List[str]) -> List[str]:
    """The data folders (a package, a task, an experiment...) whose every
    file is among ``rel_paths``: what they lack is then the change's too."""
    given = set(rel_paths)
    candidates = set()
    for p in rel_paths:
        parent = p.rpartition("/")[0]
        while parent and parent not in candidates:
            if repo.is_dir(parent) and repo.layout.classify_dir(parent) is not None:
                candidates.add(parent)
            parent = parent.rpartition("/")[0]
    out = []
    for folder in sorted(candidates):
        # the first file not given settles it: no folder is walked twice over
        if all(e.is_dir or sub in given for sub, e in repo.walk(folder)):
            out.append(folder)
    return out
