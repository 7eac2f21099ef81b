"""The base a change is compared with, read from git: the merge base of a
diff run, or ``HEAD`` for a path run. Every tree opened here is entered in
the run's ``ExitStack``, which closes it (and its git process) once."""
from __future__ import annotations

from contextlib import ExitStack, closing
from pathlib import Path
from typing import Callable, Optional

from penguin_lint.core.config import CONFIG_FILE, ConfigError, load_config, parse_config
from penguin_lint.core.layout import FILE_KINDS
from penguin_lint.core.repo import Repository
from penguin_lint.pr.git import GitError
from penguin_lint.rules import rule_codes
from penguin_lint.run.config import base_config, status_folder, tree_file


def open_diff(resources: ExitStack, root: Path, diff_base: Optional[str], config_from_worktree: bool,
              warn: Callable[[str], None], status_cache=None, committed: bool = False):
    """(the change against the base, the base tree, the configuration to run
    with: the base's, unless ``config_from_worktree``); the base tree is
    closed with ``resources``. ``status_cache``: the cache folder, where git
    may keep what it knows of untracked files (or a function of the
    configuration that returns it). ``committed``: the change is what
    ``HEAD`` commits, the work tree is not searched (``GitRepo.change``)."""
    from penguin_lint.pr.basetree import GitTree
    from penguin_lint.pr.git import GitRepo

    with closing(GitRepo(root)) as g:
        def base_branch_at(commit: str) -> Optional[str]:
            raw = tree_file(GitTree(g.top, commit, g.prefix, objects=g.objects), CONFIG_FILE)
            try:
                return parse_config(raw, FILE_KINDS, rule_codes()).base_branch if raw is not None else None
            except ConfigError:
                return None  # the defaults; the merge base's file is said below when it is the same

        # The default branch's own configuration may name another base branch.
        label, mb = g.diff_base(diff_base, default_base=base_branch_at)
        base_tree = resources.enter_context(
            closing(GitTree(g.top, mb, g.prefix, objects=g.take_objects(), owns=True)))
        config = load_config(root, FILE_KINDS, rule_codes()) if config_from_worktree \
            else base_config(base_tree, warn)
        scope = Repository(root, config).walk_roots() + [CONFIG_FILE]
        change = g.change(label, mb, scope=scope, cache_root=status_folder(status_cache, config), warn=warn,
                          worktree=not committed)
    return change, base_tree, config


def head_base(resources: ExitStack, root: Path, repo, config, rules, tree=None, forced_kinds=None,
              suppress: bool = True):
    """An engine over ``HEAD`` for a path run inside a git work tree, or
    None (outside git, no commit yet, or git trouble: the run then compares
    with nothing, as outside git). ``tree``: the one a first pass opened;
    ``forced_kinds`` and ``suppress``: the working tree's engine's."""
    from penguin_lint.engine.runner import Engine
    from penguin_lint.pr.basetree import BaseRepository, GitTree
    from penguin_lint.pr.git import GitRepo, in_work_tree

    if not in_work_tree(root):
        return None
    try:
        g = GitRepo(root)
    except GitError:
        return None
    with closing(g):
        try:
            head = g.rev("HEAD^{commit}")
        except GitError:
            return None
        if head is None:
            return None
        if tree is None or tree.commit != head:
            tree = resources.enter_context(
                closing(GitTree(g.top, head, g.prefix, objects=g.take_objects(), owns=True)))
    base_repo = BaseRepository(tree, root, config, label="HEAD")
    return Engine(base_repo, config, rules, forced_kinds=forced_kinds, suppress=suppress)


def compared(base_repo) -> str:
    commit = base_repo.commit
    return f"{base_repo.label} ({commit[:7]})" if commit else f"{base_repo.label} (no commit yet)"
