"""A run put together: from what was asked (a :class:`Request`) to a result.

The command line, the Action and the Python API all come through here. This
is where a run decides its root and its configuration (the base's, in a
pull request's run: nothing in the change picks what it is judged by), opens
the change and its base tree, the cache, runs the engine, and repairs with
``--fix``. It prints nothing: warnings go to the ``warn`` callback, and a run
that cannot be made raises :class:`PenguinLintError` with one line.
"""
from __future__ import annotations

import gc
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, List, Mapping, Optional, Sequence

from penguin_lint.core.config import CONFIG_FILE, Config, ConfigError, load_config, parse_config, rule_list
from penguin_lint.core.layout import FILE_KINDS
from penguin_lint.core.repo import Repository, unjudged
from penguin_lint.engine.result import Result
from penguin_lint.pr.git import GitError, gitlinks_below
from penguin_lint.pr.worktree_gitlinks import WorkTreeGitlinks
from penguin_lint.rules import all_rules, rule_codes


class PenguinLintError(Exception):
    """penguin-lint itself could not do what was asked (a bad option, git
    trouble, an unreadable configuration, nothing to lint). ``str()`` is
    the one line the command line prints after ``penguin-lint: error:``."""


@dataclass
class Request:
    """What a run is asked to do; the command line's options, by name."""

    #: files or folders to lint (relative to ``cwd``); with neither these nor
    #: ``all``, what changed against ``diff_base`` (default: the default branch)
    paths: Sequence[str] = ()
    all: bool = False
    diff_base: Optional[str] = None
    #: the repository root; None: found from ``cwd`` and ``paths`` (find_root)
    root: Optional[Path] = None
    cwd: Optional[Path] = None
    #: rule codes or prefixes, each maybe a comma-separated list
    select: Sequence[str] = ()
    ignore: Sequence[str] = ()
    kind: Optional[str] = None
    definition: Optional[str] = None
    jobs: Optional[int] = None
    new_only: bool = False
    config_from_worktree: bool = False
    config_base: Optional[str] = None
    suppress: bool = True
    cache: bool = True
    cache_dir: Optional[str] = None
    shard: Optional[str] = None
    fix: bool = False
    unsafe_fixes: bool = False
    #: with ``fix``: only plan the repairs (``Outcome.diff``), write nothing
    diff: bool = False
    #: the environment GitHub describes the run in (default: os.environ)
    env: Optional[Mapping[str, str]] = None
    #: judge what the next commit records (the pre-commit hook): the
    #: index against ``HEAD``; ``paths`` (default: everything staged) are
    #: read from the index, untracked files and unstaged edits are not seen
    staged: bool = False
    #: lint standard input as this file (``paths`` is then ``["-"]``): an
    #: editor's unsaved buffer, with the rest of the repository from disk
    stdin_filename: Optional[str] = None
    #: what ``stdin_filename`` holds: bytes or a binary stream (default: standard input)
    stdin: object = None


@dataclass
class Outcome:
    result: Result
    root: Path
    repo: Repository
    #: --diff: the repairs as unified-diff lines, how many findings they fix, in which files
    diff: Optional[List[str]] = None
    would_fix: int = 0
    would_fix_files: int = 0
    warnings: List[str] = field(default_factory=list)


# -- the root ---------------------------------------------------------------

def _layout_folders(d: Path) -> List[str]:
    """The folders the layout of a repository rooted at ``d`` would have: the
    default names, or those its own .penguin-lint.toml names in [layout]
    (an unreadable or invalid file counts as the defaults here; the run
    says what is wrong with it)."""
    layout = dict(Config().layout)
    path = d / CONFIG_FILE
    if path.is_file() and not path.is_symlink():
        try:
            with open(path, "rb") as fh:
                raw = fh.read(256 * 1024 + 1)
            if b"layout" in raw:  # the common file has no [layout]: not parsed here
                layout = parse_config(raw, FILE_KINDS, rule_codes()).layout
        except (OSError, ConfigError):
            pass
    # a data/ folder alone is too common to mark a benchmark repository
    return [v for k, v in layout.items() if k != "data"] + ["leaderboard"]


def holds_layout(d: Path, memo: Optional[dict] = None) -> bool:
    """Whether ``d`` holds a benchmark repository's layout folders (``memo``:
    answers already known, for the many paths of one hook call)."""
    if memo is not None and d in memo:
        return memo[d]
    found = any(os.path.isdir(d / f) for f in _layout_folders(d))
    if memo is not None:
        memo[d] = found
    return found


def find_root(start: Path, memo: Optional[dict] = None) -> Path:
    """The repository root for a run started in ``start``: the nearest folder
    that holds the layout's folders (packages/, leaderboards/, experiments/,
    a Harbor leaderboard/, or those its own .penguin-lint.toml names); else
    the nearest holding .git; else ``start``. A .penguin-lint.toml in a
    folder above the layout never moves the root there: a pull request could
    add one to move the run away from what it changed."""
    chain = [start, *start.parents]
    for d in chain:
        if holds_layout(d, memo):
            return d
    for d in chain:
        if (d / ".git").exists():
            return d
    return start


def root_for(cwd: Path, paths) -> Path:
    """find_root(cwd); but when that holds no layout and the paths all lie
    in one benchmark repository inside it (the pre-commit hook runs at the
    top of a repository that keeps its benchmarks in a folder), that one."""
    memo: dict = {}
    root = find_root(cwd, memo)
    if not paths or holds_layout(root, memo):
        return root
    starts = [Path(os.path.abspath(cwd / p)) for p in paths]
    found = {find_root(d, memo) for d in {p if p.is_dir() else p.parent for p in starts}}
    if len(found) == 1:
        inner = found.pop()
        if holds_layout(inner, memo) and root in inner.parents:
            return inner
    return root


# -- a run ------------------------------------------------------------------

def run(request: Request, warn: Optional[Callable[[str], None]] = None) -> Outcome:
    """Run what ``request`` asks; ``warn`` receives each warning line (the
    command line prints them as they come)."""
    warnings: List[str] = []

    def say(message: str) -> None:
        warnings.append(message)
        if warn is not None:
            warn(message)

    was_enabled = gc.isenabled()
    # Documents are plain trees that die with their unit: the cyclic
    # collector finds nothing in them, yet its passes over everything alive
    # (listings of tens of thousands of files) made big runs superlinear.
    gc.disable()
    try:
        outcome = _run(request, say)
    finally:
        if was_enabled:
            gc.enable()
    outcome.warnings = warnings
    return outcome


def _run(req: Request, warn: Callable[[str], None]) -> Outcome:
    from penguin_lint.engine.runner import Engine, ToolError, enabled_rules

    paths = list(req.paths)
    all_ = req.all
    cwd = req.cwd if req.cwd is not None else Path.cwd()
    env = os.environ if req.env is None else req.env
    if req.root is not None:
        root = Path(req.root).resolve()
    elif req.stdin_filename is not None:
        # found from the file the text stands for: an editor may run the
        # command anywhere
        root = find_root(Path(os.path.abspath(cwd / req.stdin_filename)).parent).resolve()
    else:
        root = root_for(cwd, paths).resolve()
    if not root.is_dir():
        raise PenguinLintError(f"root is not a folder: {root}")
    if all_ and (paths or req.diff_base):
        raise PenguinLintError("--all cannot be combined with paths or --diff-base")
    if req.unsafe_fixes and not (req.fix or req.diff):
        raise PenguinLintError("--unsafe-fixes works with --fix or --diff")
    if req.shard is not None and not all_:
        raise PenguinLintError("--shard needs --all")
    shard_part = None
    if req.shard is not None:
        from penguin_lint.engine.shard import parse_shard

        try:
            shard_part = parse_shard(req.shard)
        except ValueError as e:
            raise PenguinLintError(str(e))
    kind = req.kind
    if kind is not None and kind not in FILE_KINDS:
        raise PenguinLintError(f"unknown kind '{kind}' (known: {', '.join(sorted(FILE_KINDS))})")
    if all_ and req.new_only:
        raise PenguinLintError("--new-only needs a change to compare with: give paths or --diff-base, not --all")
    if req.staged:
        if all_ or req.diff_base is not None:
            raise PenguinLintError("--staged cannot be combined with --all or --diff-base")
        if req.fix or req.diff:
            raise PenguinLintError("--fix and --diff work on the working tree: run them without --staged, "
                                   "then stage the result")
        if req.config_base is not None or req.config_from_worktree:
            raise PenguinLintError("--staged reads the configuration from the index: it cannot be combined "
                                   "with --config-base or --config-from-worktree")
    if req.stdin_filename is not None:
        if paths != ["-"]:
            raise PenguinLintError("--stdin-filename lints standard input: give '-' as the only path")
        if all_ or req.diff_base is not None or req.staged or req.fix or req.diff:
            raise PenguinLintError("--stdin-filename cannot be combined with --all, --diff-base, --staged, "
                                   "--fix or --diff")
    elif "-" in paths and not os.path.lexists(cwd / "-"):
        raise PenguinLintError("'-' (standard input) needs --stdin-filename PATH: the file it stands for")
    diff_mode = not all_ and not req.staged and (req.diff_base is not None or not paths)
    config_base = req.config_base
    if config_base is not None and diff_mode:
        raise PenguinLintError("--config-base is for --all and path runs (a diff run reads the base's "
                               "configuration)")
    if config_base is not None and req.config_from_worktree:
        raise PenguinLintError("--config-base and --config-from-worktree cannot be combined")
    if config_base is None and all_ and not req.config_from_worktree:
        # --all (or a shard of it) in a pull request's own workflow: the
        # pull request must not choose what it is judged by.
        config_base = pull_request_base(root, env)
    known = rule_codes()
    try:  # the forms .penguin-lint.toml accepts (config.rule_list)
        select_codes = rule_list(list(req.select or ()), known, "--select") if req.select else []
        ignore_codes = rule_list(list(req.ignore or ()), known, "--ignore") if req.ignore else []
    except ValueError as e:
        raise PenguinLintError(str(e)) from None
    no_cache, cache_dir, suppress = not req.cache, req.cache_dir, req.suppress

    git_change = base_tree = based_on = added_index = index_tree = None
    staged_renames: dict = {}
    try:
        def status_cache(config):
            # where git may keep what it knows of untracked files: the cache
            # folder, once the configuration that may name it is known
            from penguin_lint.cache import cache_folder

            return None if no_cache else cache_folder(root, cache_dir, config.cache_dir)[0]

        if req.staged:
            index_tree, config = open_staged(root)
        elif diff_mode:
            # The base decides the configuration: nothing in the pull
            # request can switch the gate off (PL502 says what it changed).
            git_change, base_tree, config = open_diff(root, req.diff_base, req.config_from_worktree, warn,
                                                      status_cache)
        elif config_base is not None:
            based_on, config, added_index = config_at(root, config_base, warn, review=all_ and suppress,
                                                      status_cache=status_cache)
        else:
            config = load_config(root, FILE_KINDS, known)
    except (ConfigError, GitError) as e:
        raise PenguinLintError(str(e))
    rules = enabled_rules(config, select_codes or None, ignore_codes)
    if not rules:  # not a silent pass: nothing would be checked
        if index_tree is not None:
            index_tree.close()
        raise PenguinLintError("--select and --ignore leave no rule enabled")
    if index_tree is not None:
        from penguin_lint.pr.basetree import BaseRepository

        repo = BaseRepository(index_tree, root, config, label="the index")
        try:
            staged, staged_renames = _staged_paths(index_tree, repo, paths)
        except GitError as e:
            index_tree.close()
            raise PenguinLintError(str(e))
    elif req.stdin_filename is not None:
        repo, paths = _unsaved(req, cwd, root, config)
    else:
        repo = Repository(root, config)

    try:
        # a path the index deletes is judged, as the commit deletes it
        rel_paths, forced = _checked_paths(paths, cwd, root, repo, kind,
                                           frozenset(staged) if index_tree is not None else frozenset())
    except PenguinLintError:
        if index_tree is not None:
            index_tree.close()
        raise
    if index_tree is not None and not paths:
        rel_paths = staged  # root-relative already
    engine = Engine(repo, config, rules, forced_kinds=forced, suppress=suppress)
    if index_tree is not None:
        engine.ctx.gitlinks = set(index_tree.gitlinks)
    elif not (all_ or diff_mode or req.stdin_filename):  # a path run: its folders' submodules
        engine.ctx.gitlinks = gitlinks_below(root, repo, rel_paths)
    if req.definition is not None:
        drel = _relative(req.definition, cwd, root)
        if drel is None or repo.entry(drel) is None:
            if index_tree is not None:
                index_tree.close()
            raise PenguinLintError(f"definition file not found in the repository: {req.definition}")
        engine.ctx.options["definition"] = drel

    from penguin_lint.pr.blame import Change, Scope

    def new_engine() -> "Engine":
        e = Engine(Repository(root, config), config, rules, forced_kinds=forced, suppress=suppress)
        e.ctx.options.update(engine.ctx.options)
        return e

    def run_once(engine) -> Result:
        """One run of the kind asked for (--fix runs it again after repairing)."""
        nonlocal base_tree
        repo = engine.repo
        if all_:
            cache = None if no_cache else _open_cache(root, cache_dir, config, rules, engine, warn)
            repo.cache_rel = _cache_rel(root, cache_dir, cache, no_cache, config)
            result = engine.run_all(jobs=req.jobs, cache=cache, shard=shard_part, review=added_index, gitlinks=WorkTreeGitlinks(root))
            if cache is not None:
                _save_cache(cache, shard_part is not None, warn)
            if based_on is not None and (shard_part is None or shard_part.takes_top):
                # the pull request's own .penguin-lint.toml: said, not used
                # (in one shard only: every finding is in exactly one part)
                _config_findings(result, repo, config, based_on, rules)
            if shard_part is not None:
                result.shard = _shard_stamp(shard_part, root, repo, config, rules, engine, env, result)
            return result
        if not diff_mode:
            renames = {new: old for new, old in staged_renames.items() if new in rel_paths}
            change = Change.of(repo, rel_paths, renames=renames)
            folders = [p for p in rel_paths if p == "" or repo.is_dir(p)]
            if folders:  # walked: the cache folder is left out as by --all
                repo.cache_rel = _cache_rel(root, cache_dir, None, True, config)
            # Paths in a work tree are what is about to be committed (the
            # pre-commit hook): they are compared with HEAD.
            base_engine = _head_base(root, repo, config, rules, tree=base_tree)
            if base_engine is not None:
                engine.ctx.base = base_engine.repo
                base_tree = base_engine.repo.tree
                engine.ctx.renames = dict(change.renames)
            scope = Scope(change, base_engine, new_only=req.new_only, folders=folders)
            result = engine.run_change(change, scope)
            if base_engine is not None:
                result.compared_with = compared(base_engine.repo)
            return result
        from penguin_lint.pr.basetree import BaseRepository

        changed = git_change.paths
        if rel_paths:
            changed = [c for c in changed if any(c == p or c.startswith(p + "/") or p == "" for p in rel_paths)]
        change = Change.of(repo, changed, renames=git_change.renames)
        base_repo = BaseRepository(base_tree, root, config, label=git_change.label)
        base_engine = Engine(base_repo, config, rules, forced_kinds=forced, suppress=suppress)
        base_engine.ctx.options.update(engine.ctx.options)
        engine.ctx.base = base_repo
        engine.ctx.renames = dict(change.renames)
        engine.ctx.gitlinks = set(git_change.gitlinks)
        engine.ctx.config_from_base = not req.config_from_worktree
        scope = Scope(change, base_engine, new_only=req.new_only, focus=True)
        result = engine.run_change(change, scope)
        result.compared_with = compared(base_repo)
        result.no_changes = len(change) == 0
        return result

    try:
        if (all_ or diff_mode or "" in rel_paths) and not config.kinds \
                and not _layout_present(root, repo, base_tree if diff_mode else None):
            # Not a green check on nothing: say that there was nothing to lint.
            raise PenguinLintError(f"no {', '.join(r + '/' for r in repo.walk_roots() if r)} folder under "
                                   f"{root}: nothing to lint (is --root right?)")
        result = run_once(engine)
        result.staged = index_tree is not None
        if result.staged and not paths and not rel_paths:
            result.no_changes = True  # nothing staged: said so, not "All checks passed"
        if result.staged and os.path.realpath(cwd) != str(root):
            result.root_arg = os.path.relpath(root, os.path.realpath(cwd))
        outcome = Outcome(result, root, repo)
        if not (req.fix or req.diff):
            _mark_fixable(result, repo, config)
            if result.shard is not None:
                # what merge needs to mark them as --all does
                result.shard["fixable"] = [[f.path, f.line, f.column, f.code, f.fix]
                                           for f in result.findings if f.fix]
        if req.fix or req.diff:
            def relint():
                return run_once(new_engine())

            _fix(outcome, req.diff, req.unsafe_fixes, root, config, relint, warn)
        if index_tree is not None:
            _untracked_notice(index_tree, repo, rel_paths, warn)
    except (ToolError, GitError) as e:
        raise PenguinLintError(str(e))
    finally:
        if base_tree is not None:
            base_tree.close()
        if index_tree is not None:
            index_tree.close()
    return outcome


def _checked_paths(paths, cwd: Path, root: Path, repo, kind, deleted=frozenset()):
    """(the command-line paths relative to the root, their forced kinds);
    a path outside the repository, missing (and not among the ``deleted``
    paths of the change), or that no check would read is an error."""
    rel_paths = []
    for p in paths:
        rel = _relative(p, cwd, root)
        if (rel is None or not os.path.lexists(root / rel)) and not os.path.isabs(p) \
                and os.path.lexists(root / p):
            # a path written relative to --root rather than to where we stand
            rel = _relative(p, root, root)
        if rel is None:
            raise PenguinLintError(f"path is outside the repository {root}: {p}")
        if rel and repo.entry(rel) is None and not os.path.lexists(root / rel) and rel not in deleted \
                and rel not in gitlinks_below(root, repo, [rel]):  # a submodule not in the work tree: PL007
            raise PenguinLintError(f"no such file or folder: {p}")
        rel_paths.append(rel)
    forced = {p: kind for p in rel_paths} if kind else {}
    for p, rel in zip(paths, rel_paths):
        if not kind:
            what = unjudged(repo, rel)
            if what is not None:
                # not a green check on nothing: a path no check would read
                raise PenguinLintError(f"{p}: {what}: nothing to lint (give --kind KIND, or a [kinds] glob in "
                                       f"{CONFIG_FILE})")
    return rel_paths, forced


# -- standard input (--stdin-filename) ------------------------------------

def _unsaved(req: Request, cwd: Path, root: Path, config):
    """(the repository with standard input as ``req.stdin_filename``, the
    paths to lint): read up to the size limit, the rest only counted."""
    import sys

    from penguin_lint.core.unsaved import UnsavedRepository, read_bounded

    name = req.stdin_filename
    rel = _relative(name, cwd, root)
    if not os.path.isabs(name) and (rel is None or not os.path.lexists(root / rel)):
        alt = _relative(name, root, root)  # written relative to --root rather than to where we stand
        if alt is not None and (rel is None or os.path.lexists(root / alt)):
            rel = alt
    if not rel:
        raise PenguinLintError(f"--stdin-filename is outside the repository {root}: {name}")
    source = req.stdin if req.stdin is not None else sys.stdin.buffer
    if isinstance(source, (bytes, bytearray)):
        import io

        source = io.BytesIO(bytes(source))
    try:
        data, size = read_bounded(source, config.size_limit)
    except (OSError, ValueError) as e:
        raise PenguinLintError(f"cannot read standard input: {e}")
    repo = UnsavedRepository(root, config, {rel: (data, size)})
    if repo.entry(rel) is None:  # a name no listing can hold (a '..' in it)
        raise PenguinLintError(f"--stdin-filename is not a file path in the repository: {name}")
    return repo, [str(root / rel)]


# -- the index (--staged) --------------------------------------------------

def open_staged(root: Path):
    """(the index below ``root`` as a tree, the configuration it holds):
    what the next commit records judges it, not the working tree's file."""
    from penguin_lint.pr.staged import IndexTree
    from penguin_lint.pr.git import GitRepo

    def scope(config: Config) -> List[str]:
        return Repository(root, config).walk_roots() + [CONFIG_FILE]

    def opened(config: Config):
        packages = config.layout["packages"] if "packages" in config.layout else Config().layout["packages"]
        g = GitRepo(root)
        try:
            return IndexTree(g, scope(config), sized=lambda rel: rel == packages or rel.startswith(packages + "/"))
        finally:
            g.close()

    tree = opened(Config())
    try:
        probe = _index_probe(tree, root)
        entry = probe.entry(CONFIG_FILE)
        if entry is not None and entry.is_symlink:
            raise ConfigError(f"{CONFIG_FILE}: is a symbolic link; write the configuration in the file itself")
        raw = probe.read_bytes(CONFIG_FILE)
        config = parse_config(raw, FILE_KINDS, rule_codes()) if raw is not None else Config()
    except BaseException:
        tree.close()
        raise
    if scope(config) != scope(Config()):  # another layout: list its folders
        tree.close()
        tree = opened(config)
    return tree, config


def _index_probe(tree, root: Path):
    from penguin_lint.pr.basetree import BaseRepository

    return BaseRepository(tree, root, Config())


def _staged_paths(index_tree, repo, paths):
    """(the paths the index changes against HEAD in the layout, renames new
    -> old among them)."""
    changed = set()
    renames = {}
    for status, path, old in index_tree.changes(repo.walk_roots() + [CONFIG_FILE]):
        changed.add(path)
        if old is not None:
            if not paths:
                changed.add(old)
            renames[path] = old
    return sorted(changed), renames


def _untracked_notice(index_tree, repo, rel_paths, warn: Callable[[str], None]) -> None:
    """One line naming untracked files next to what is committed: the
    commit does not contain them, so the run did not read them."""
    folders = {p.rpartition("/")[0] for p in rel_paths if p and not repo.is_dir(p)}
    folders |= {p for p in rel_paths if p and repo.is_dir(p)}
    names, n = index_tree.untracked(sorted(folders))
    if n:
        more = f" and {n - len(names)} more" if n > len(names) else ""
        warn(f"not part of this commit, so not read (untracked): {', '.join(names)}{more}")


def _shard_stamp(part, root: Path, repo, config, rules, engine, env, result) -> dict:
    """What ``penguin-lint merge`` needs of a shard's report: the part, the
    commit and settings it was run with (parts join only when they agree),
    where the root is in the repository and which findings' files are
    missing (as ``--format github`` tells them, from the listing)."""
    from penguin_lint.cache.contentid import git_output
    from penguin_lint.engine.merge import settings_key, shard_stamp
    from penguin_lint.github.environment import repository_prefix
    from penguin_lint.version import __version__

    head = git_output(str(root), ["rev-parse", "-q", "--verify", "HEAD^{commit}"])
    commit = head.decode("ascii", "replace").strip() if head else None
    settings = settings_key(__version__, config, [r.code for r in rules],
                            dict(engine.ctx.options, suppress=engine.ledger is not None))
    missing = {f.path for f in result.findings if f.path and repo.entry(f.path) is None}
    plan = (result.shard or {}).get("plan", "")
    return shard_stamp(part.index, part.count, commit or None, settings, plan,
                       repository_prefix(root, dict(env)), missing)


# -- preview ---------------------------------------------------------------

def open_repository(folder: Path) -> Repository:
    """The repository at ``folder`` with its own configuration."""
    folder = folder.resolve()
    if not folder.is_dir():
        raise PenguinLintError(f"not a folder: {folder}")
    try:
        return Repository(folder, load_config(folder, FILE_KINDS, rule_codes()))
    except ConfigError as e:
        raise PenguinLintError(str(e))


def open_preview(root: Path, diff_base: Optional[str] = None, before_root: Optional[Path] = None,
                 warn: Callable[[str], None] = lambda message: None):
    """What ``preview`` compares: (the repository at ``root``, the one
    before or None, the paths the change touched or None, the base tree to
    close or None). ``diff_base``: before is the merge base of it and HEAD,
    read from git with the base's configuration; ``before_root``: another
    checkout."""
    if diff_base is None:
        repo = open_repository(root)
        before = open_repository(before_root) if before_root is not None else None
        if before is not None:
            from penguin_lint.preview import leaderboards

            if not leaderboards(before):
                # most likely the wrong folder: every row would show as added
                warn(f"--before {before_root}: no leaderboards under "
                     f"{before.root / before.layout.roots['leaderboards']}; every row shows as added")
        return repo, before, None, None
    from penguin_lint.pr.basetree import BaseRepository

    try:
        change, base_tree, config = open_diff(root, diff_base, False, warn)
    except (GitError, ConfigError) as e:
        raise PenguinLintError(str(e))
    before = BaseRepository(base_tree, root, config, label=change.label)
    return Repository(root, config), before, change.paths, base_tree


# -- the base ---------------------------------------------------------------

def open_diff(root: Path, diff_base: Optional[str], config_from_worktree: bool,
              warn: Callable[[str], None], status_cache=None):
    """The change against the base, the base tree and the configuration to
    run with (the base's, unless ``config_from_worktree``). ``status_cache``:
    the cache folder, where git may keep what it knows of untracked files
    (or a function of the configuration that returns it)."""
    from penguin_lint.pr.basetree import GitTree
    from penguin_lint.pr.git import GitRepo

    g = GitRepo(root)

    def base_branch_at(commit: str) -> Optional[str]:
        raw = tree_file(GitTree(g.top, commit, g.prefix, objects=g.objects), CONFIG_FILE)
        try:
            return parse_config(raw, FILE_KINDS, rule_codes()).base_branch if raw is not None else None
        except ConfigError:
            return None  # the defaults; the merge base's file is said below when it is the same

    try:
        # The default branch's own configuration may name another base branch.
        label, mb = g.diff_base(diff_base, default_base=base_branch_at)
        base_tree = GitTree(g.top, mb, g.prefix, objects=g.take_objects(), owns=True)
    finally:
        g.close()
    try:
        config = load_config(root, FILE_KINDS, rule_codes()) if config_from_worktree \
            else base_config(base_tree, warn)
        scope = Repository(root, config).walk_roots() + [CONFIG_FILE]
        change = g.change(label, mb, scope=scope, cache_root=_status_folder(status_cache, config), warn=warn)
    except BaseException:
        base_tree.close()
        raise
    finally:
        g.close()
    return change, base_tree, config


def _status_folder(status_cache, config) -> Optional[Path]:
    """``status_cache`` as a folder: given, or decided by the configuration."""
    return status_cache(config) if callable(status_cache) else status_cache


def base_config(tree, warn: Callable[[str], None]) -> Config:
    """The configuration in a base tree. An invalid one there does not block
    the pull request that repairs it: the defaults apply (every rule), and
    one warning line says so."""
    raw = tree_file(tree, CONFIG_FILE)
    if raw is None:
        return Config()
    try:
        return parse_config(raw, FILE_KINDS, rule_codes())
    except ConfigError as e:
        warn(f"the base's {e}; this run uses the defaults (every rule)")
        return Config()


def pull_request_base(root: Path, env) -> Optional[str]:
    """``origin/<base branch>`` when GitHub says this run is a pull request's
    (GITHUB_EVENT_NAME pull_request or pull_request_target, with
    GITHUB_BASE_REF) and ``root`` lies in its checkout (GITHUB_WORKSPACE);
    else None."""
    if env.get("GITHUB_EVENT_NAME") not in ("pull_request", "pull_request_target"):
        return None
    base, workspace = env.get("GITHUB_BASE_REF", "").strip(), env.get("GITHUB_WORKSPACE", "")
    if not base or not workspace:
        return None
    try:
        Path(os.path.realpath(root)).relative_to(os.path.realpath(workspace))
    except ValueError:
        return None  # a folder outside the checkout is not what the event describes
    return f"origin/{base}"


class _BaseConfigFile:
    """The base as PL502 reads it: its .penguin-lint.toml's bytes (None: none)."""

    def __init__(self, raw: Optional[bytes]):
        self.raw = raw

    def read_bytes(self, rel: str) -> Optional[bytes]:
        return self.raw


def config_at(root: Path, ref: str, warn: Callable[[str], None], review: bool = False,
              status_cache=None):
    """(the base's .penguin-lint.toml for PL502, configuration, the
    suppressions the change adds or None) at the merge base of ``ref`` and
    HEAD, for --config-base; those suppressions only with ``review`` (--all).
    ``status_cache``: as for ``open_diff``."""
    from penguin_lint.pr.basetree import GitTree
    from penguin_lint.pr.git import GitRepo

    g = GitRepo(root)
    try:
        try:
            label, mb = g.diff_base(ref)
            tree = GitTree(g.top, mb, g.prefix, objects=g.objects)
            based_on, config = _BaseConfigFile(tree_file(tree, CONFIG_FILE)), base_config(tree, warn)
        except GitError as e:
            raise GitError(f"cannot read {CONFIG_FILE} at the merge base of {ref} "
                           f"(a pull request is judged by its base's settings): {e}") from None
        if not review:
            return based_on, config, None
        try:
            return based_on, config, _added_index(g, label, mb, tree, root, config,
                                                  _status_folder(status_cache, config), warn)
        except GitError as e:
            raise GitError(f"cannot list what changed since the merge base of {ref} "
                           f"(the suppressions a pull request adds hide nothing in its run): {e}") from None
    finally:
        g.close()


def _added_index(g, label: str, mb: Optional[str], tree, root: Path, config, status_cache=None, warn=None):
    """The suppressions that the work tree adds to the base ``tree``
    (suppressions.AddedIndex), found once before an --all run starts: only
    the changed YAML and TOML files that mention ``penguin-lint:`` are read."""
    from penguin_lint.loaders import format_of
    from penguin_lint.pr.basetree import BaseRepository
    from penguin_lint.suppressions import MARK, AddedIndex, added_codes

    repo = Repository(root, config)  # its own: its documents are not the run's
    change = g.change(label, mb, scope=repo.walk_roots() + [CONFIG_FILE], cache_root=status_cache, warn=warn)
    renames = change.renames
    base = None
    added = {}
    mark = MARK.encode("ascii")
    for p in change.paths:
        if format_of(p) not in ("yaml", "toml") or not repo.is_file(p):
            continue  # deleted, renamed away, or of a format without comments
        raw = repo.read_bytes(p)
        if raw is None or mark not in raw:
            continue
        doc = repo.load(p)
        if doc is None or not doc.directives:
            continue
        if base is None:
            base = BaseRepository(tree, root, config)
        old = renames.get(p, p)
        base_doc = base.load(old) if base.is_file(old) else None
        codes = added_codes(doc.directives, base_doc.directives if base_doc is not None else ())
        if codes:
            added[p] = codes
        repo.forget(p)
    return AddedIndex(added)


def _config_findings(result, repo, config, base, rules) -> None:
    """PL502 on the working tree's .penguin-lint.toml when it differs from
    the base's, which the run used (--config-base): an invalid one is an
    error of the pull request, a changed one a warning per setting."""
    from penguin_lint.engine.context import Context
    from penguin_lint.engine.subject import Subject

    rule = next((r for r in rules if r.code == "PL502"), None)
    if rule is None:
        return
    ctx = Context(repo, config)
    ctx.base = base
    ctx.config_from_base = True
    found = list(rule.check(Subject(CONFIG_FILE, "config", {}, False), ctx))
    if found:
        result.findings = sorted(result.findings + found, key=lambda f: f.sort_key())


def _layout_present(root: Path, repo, base_tree=None) -> bool:
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


def tree_file(tree, rel: str) -> Optional[bytes]:
    from penguin_lint.pr.basetree import BaseRepository

    return BaseRepository(tree, Path("."), Config()).read_bytes(rel)


def _head_base(root: Path, repo, config, rules, tree=None):
    """An engine over ``HEAD`` for a path run inside a git work tree, or
    None (outside git, no commit yet, or git trouble: the run then compares
    with nothing, as outside git)."""
    from penguin_lint.engine.runner import Engine
    from penguin_lint.pr.basetree import BaseRepository, GitTree
    from penguin_lint.pr.git import GitRepo, in_work_tree

    if not in_work_tree(root):
        return None
    try:
        g = GitRepo(root)
        head = g.rev("HEAD^{commit}")
    except GitError:
        return None
    if head is None:
        g.close()
        return None
    if tree is None or tree.commit != head:
        tree = GitTree(g.top, head, g.prefix, objects=g.take_objects(), owns=True)
    g.close()
    base_repo = BaseRepository(tree, root, config, label="HEAD")
    return Engine(base_repo, config, rules)


def compared(base_repo) -> str:
    commit = base_repo.commit
    return f"{base_repo.label} ({commit[:7]})" if commit else f"{base_repo.label} (no commit yet)"


# -- --fix ------------------------------------------------------------------

def _fix(outcome: Outcome, show_diff: bool, unsafe: bool, root: Path, config, relint,
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


def _mark_fixable(result, repo, config) -> None:
    """Each finding --fix would repair marked (``Finding.fix``), on the
    bytes this run read."""
    if not result.findings:
        return
    from penguin_lint.engine.context import Context
    from penguin_lint.fixes import FIXERS
    from penguin_lint.fixes.available import mark_fixable

    if not any(f.code in FIXERS for f in result.findings):
        return  # the common case: nothing imported, nothing read
    mark_fixable(result.findings, repo, Context(repo, config), {r.code: r for r in all_rules()})


# -- the cache --------------------------------------------------------------

def _open_cache(root: Path, cache_dir, config, rules, engine, warn: Callable[[str], None]):
    """The cache for an --all run, or None (with a warning) when it cannot be used."""
    from penguin_lint.cache.contentid import ContentIds
    from penguin_lint.cache import CacheWarning, UnitCache, cache_folder, settings_key

    folder, in_repo = cache_folder(root, cache_dir, config.cache_dir)
    # --no-suppress changes what a unit reports
    key = settings_key(config, [r.code for r in rules],
                       dict(engine.ctx.options, suppress=engine.ledger is not None))
    try:
        return UnitCache(folder, key, engine.repo, ContentIds(str(root), config.size_limit), in_repo=in_repo)
    except CacheWarning as e:
        warn(str(e))
        return None


def _cache_rel(root: Path, cache_dir, cache, no_cache: bool, config=None) -> Optional[str]:
    """The cache folder as a path the walk leaves out: only where this run
    keeps its cache, and never a folder git tracks anything in (a data folder
    that bears the name, or records a pull request committed, are linted)."""
    from penguin_lint.cache.contentid import ContentIds
    from penguin_lint.cache import CacheWarning, cache_folder, refuse_tracked, skipped_folder

    if cache is not None:  # open: already found untracked
        return skipped_folder(root, cache.folder)
    if not no_cache:
        return None  # refused (tracked, a link) or unusable
    rel = skipped_folder(root, cache_folder(root, cache_dir, config.cache_dir if config else None)[0])
    if rel is None:
        return None
    try:
        refuse_tracked(root, root / rel, ContentIds(str(root), 0))
    except CacheWarning:
        return None
    return rel


def _save_cache(cache, keep_others: bool, warn: Callable[[str], None]) -> None:
    from penguin_lint.cache import CacheWarning

    damage = cache.damage_warning()
    if damage:
        warn(damage)
    try:
        cache.save(keep_others=keep_others)
    except CacheWarning as e:
        warn(str(e))


def _relative(p: str, cwd: Path, root: Path) -> Optional[str]:
    ap = Path(os.path.abspath(cwd / p))
    try:
        rel = ap.relative_to(root)
    except ValueError:
        return None
    s = rel.as_posix()
    return "" if s == "." else s
