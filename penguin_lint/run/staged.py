"""A staged run (``--staged``, the pre-commit hook): what the next commit
records. The paths (default: every staged change) are read from the index,
with the index's configuration, against ``HEAD``; untracked files and
unstaged edits are not read, and a line says which untracked files lie
beside what was linted."""
from __future__ import annotations

import os
from contextlib import ExitStack, closing
from pathlib import Path
from typing import Callable, List

from penguin_lint.core.config import CONFIG_FILE, Config, ConfigError, parse_config
from penguin_lint.core.layout import FILE_KINDS
from penguin_lint.core.repo import Repository
from penguin_lint.pr.git import GitError
from penguin_lint.rules import rule_codes
from penguin_lint.run.paths import PathsRun
from penguin_lint.run.request import PenguinLintError


class StagedRun(PathsRun):
    _index = None
    _staged: List[str] = []
    _gone: List[str] = []

    def open(self) -> Config:
        self._index, config = open_staged(self.resources, self.root)
        return config

    def repository(self, config: Config):
        from penguin_lint.pr.basetree import BaseRepository

        repo = BaseRepository(self._index, self.root, config, label="the index")
        try:
            self._staged, self.renames, self._gone = staged_paths(self._index, repo)
        except GitError as e:
            raise PenguinLintError(str(e))
        return repo

    def head_engine(self, repo, config):
        # HEAD's tree as the index read it: no second git process
        if self._head_tree is None:
            self._head_tree = self._index.head_tree()
        if self._head_tree is None:
            return None  # no commit yet
        from penguin_lint.engine.runner import Engine
        from penguin_lint.pr.basetree import BaseRepository

        return Engine(BaseRepository(self._head_tree, self.root, config, label="HEAD"), config, self.rules,
                      forced_kinds=self.forced, suppress=self.req.suppress)

    def baseline_bytes(self, rel: str):
        """The baseline as the commit records it: the index's."""
        from penguin_lint.run.baseline import read_tree

        return read_tree(self._index, rel, self.root)

    def deleted(self) -> frozenset:
        # a path the index deletes is judged, as the commit deletes it
        return frozenset(self._staged)

    def targets(self, rel_paths: List[str]) -> List[str]:
        if not self.paths:
            return self._staged  # root-relative already
        # pre-commit passes no path the commit deletes, nor a rename's old
        # name: what their going breaks (attempts naming a moved task) is
        # the commit's all the same
        given = set(rel_paths)
        return rel_paths + [p for p in self._gone if p not in given]

    def prepare(self, engine, rel_paths: List[str]) -> None:
        engine.ctx.gitlinks = self._index.gitlinks  # looked up as the index's folders are read

    def finish(self, result, rel_paths: List[str]) -> None:
        result.staged = True
        result.pre_commit = os.environ.get("PRE_COMMIT") == "1"
        if result.pre_commit:
            result.pre_commit_fix = _configures_fix(self.cwd)
        if not self.paths and not rel_paths:
            result.no_changes = True  # nothing staged: said so, not "All checks passed"
        if os.path.realpath(self.cwd) != str(self.root):
            result.root_arg = os.path.relpath(self.root, os.path.realpath(self.cwd))

    def after(self, outcome, rel_paths: List[str]) -> None:
        untracked_notice(self._index, outcome.repo, rel_paths, self.warn)


def _configures_fix(cwd) -> bool:
    """Whether the .pre-commit-config.yaml pre-commit runs from (the top of
    the repository: the hook's folder) names the penguin-lint-fix hook: only
    then can the advice be to run it. (Words only: nothing else reads it.)"""
    try:
        fd = os.open(os.path.join(cwd, ".pre-commit-config.yaml"), os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0)
                     | getattr(os, "O_NONBLOCK", 0))
    except OSError:
        return False
    try:
        return b"penguin-lint-fix" in os.read(fd, 1 << 20)
    except OSError:
        return False
    finally:
        os.close(fd)


def open_staged(resources: ExitStack, root: Path):
    """(the index below ``root`` as a tree, closed with ``resources``; the
    configuration it holds): what the next commit records judges it, not
    the working tree's file."""
    from penguin_lint.pr.git import GitRepo
    from penguin_lint.pr.staged import IndexTree

    def scope(config: Config) -> List[str]:
        # the baseline too: old debt it records does not block the commit
        return Repository(root, config).walk_roots() + [CONFIG_FILE, config.baseline]

    def opened(config: Config):
        packages = config.layout["packages"] if "packages" in config.layout else Config().layout["packages"]
        with closing(GitRepo(root)) as g:
            return IndexTree(g, scope(config), sized=lambda rel: rel == packages or rel.startswith(packages + "/"))

    with ExitStack() as first:
        tree = first.enter_context(closing(opened(Config())))
        config = _index_config(tree, root)
        if scope(config) == scope(Config()):
            resources.enter_context(first.pop_all())  # the run's to close now
            return tree, config
    # another layout: list its folders (the first listing is closed)
    return resources.enter_context(closing(opened(config))), config


def _index_config(tree, root: Path) -> Config:
    from penguin_lint.pr.basetree import BaseRepository

    probe = BaseRepository(tree, root, Config())
    entry = probe.entry(CONFIG_FILE)
    if entry is not None and entry.is_symlink:
        raise ConfigError(f"{CONFIG_FILE}: is a symbolic link; write the configuration in the file itself")
    raw = probe.read_bytes(CONFIG_FILE)
    return parse_config(raw, FILE_KINDS, rule_codes()) if raw is not None else Config()


def staged_paths(index_tree, repo):
    """(the paths the index changes against HEAD in the layout, renames new
    -> old among them, the paths it deletes or renames away)."""
    changed = set()
    renames = {}
    gone = set()
    for status, path, old in index_tree.changes(repo.walk_roots() + [CONFIG_FILE]):
        changed.add(path)
        if status == "D":
            gone.add(path)
        if old is not None:
            changed.add(old)
            gone.add(old)
            renames[path] = old
    return sorted(changed), renames, sorted(gone)


def untracked_notice(index_tree, repo, rel_paths, warn: Callable[[str], None]) -> None:
    """One line naming untracked files next to what is committed: the
    commit does not contain them, so the run did not read them."""
    folders = {p.rpartition("/")[0] for p in rel_paths if p and not repo.is_dir(p)}
    folders |= {p for p in rel_paths if p and repo.is_dir(p)}
    names, n = index_tree.untracked(sorted(folders))
    if n:
        more = f" and {n - len(names)} more" if n > len(names) else ""
        warn(f"not part of this commit, so not read (untracked): {', '.join(names)}{more}")
