"""The command line: ``penguin-lint [--all | PATH... | --diff-base REF] [--fix]``,
``penguin-lint rules [CODE]`` and ``penguin-lint preview [LEADERBOARD...]``.

Exit status: 0 no errors, 1 errors (or warnings with --strict), 2 usage error
or failure of the tool itself (one line on stderr, never a traceback).
"""
from __future__ import annotations

import gc
import os
import sys
from pathlib import Path
from typing import List, Optional

import click

from penguin_lint import __version__
from penguin_lint.console import say, show
from penguin_lint.reporters import LogGuard, guarded_std, safe_line

EXIT_OK, EXIT_FINDINGS, EXIT_FAILURE = 0, 1, 2


def _split_codes(values) -> List[str]:
    out: List[str] = []
    for v in values or ():
        out.extend(c.strip().upper() for c in v.split(",") if c.strip())
    return out


def _layout_folders(d: Path) -> List[str]:
    """The folders the layout of a repository rooted at ``d`` would have: the
    default names, or those its own .penguin-lint.toml names in [layout]
    (an unreadable or invalid file counts as the defaults here; the run
    says what is wrong with it)."""
    from penguin_lint.config import CONFIG_FILE, Config

    layout = dict(Config().layout)
    path = d / CONFIG_FILE
    if path.is_file() and not path.is_symlink():
        try:
            with open(path, "rb") as fh:
                raw = fh.read(256 * 1024 + 1)
            if b"layout" in raw:  # the common file has no [layout]: not parsed here
                from penguin_lint.config import ConfigError, parse_config
                from penguin_lint.layout import FILE_KINDS

                layout = parse_config(raw, FILE_KINDS).layout
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


def fail(message: str) -> "click.exceptions.Exit":
    # Messages quote configuration and file names from the pull request:
    # say() escapes them, so they cannot drive a terminal or forge a CI log line.
    say(f"penguin-lint: error: {message}")
    return click.exceptions.Exit(EXIT_FAILURE)


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("paths", nargs=-1, type=click.Path(path_type=str))
@click.option("--all", "all_", is_flag=True, help="Lint the whole repository.")
@click.option("--root", type=click.Path(file_okay=False, path_type=Path),
              help="Repository root (default: the nearest folder with .penguin-lint.toml, "
                   "else with the layout's folders, else with .git).")
@click.option("--diff-base", metavar="REF",
              help="Lint what changed since the merge base of REF and HEAD, with staged, unstaged and untracked files.")
@click.option("--format", "fmt", type=click.Choice(["text", "json", "github", "sarif"]), default="text",
              show_default=True, help="Output format.")
@click.option("--select", multiple=True, metavar="CODES", help="Only these rule codes or prefixes (comma-separated).")
@click.option("--ignore", multiple=True, metavar="CODES", help="Skip these rule codes or prefixes (comma-separated).")
@click.option("--strict", is_flag=True, help="Exit 1 on warnings too.")
@click.option("--kind", metavar="KIND", help="Treat the files given on the command line as this kind.")
@click.option("--definition", type=click.Path(dir_okay=False, path_type=str), metavar="FILE",
              help="Harbor leaderboard definition to check rows files against.")
@click.option("--color", type=click.Choice(["auto", "always", "never"]), default="auto", show_default=True)
@click.option("--output", "-o", type=click.Path(dir_okay=False, writable=True, path_type=str),
              help="Write the report to this file instead of standard output.")
@click.option("--jobs", "-j", type=click.IntRange(min=1), metavar="N",
              help="Worker processes for --all (default: one per core on large repositories).")
@click.option("--new-only", is_flag=True,
              help="In a pull-request or path run, report only findings the change introduced, "
                   "in touched files too (for repositories with old debt).")
@click.option("--config-from-worktree", is_flag=True,
              help="In diff mode, use the working tree's .penguin-lint.toml instead of the base's.")
@click.option("--config-base", metavar="REF",
              help="With --all or paths: use .penguin-lint.toml as it is at the merge base of REF and "
                   "HEAD, not the working tree's (a pull request's own run; default on a GitHub "
                   "pull_request event for --all: origin/$GITHUB_BASE_REF).")
@click.option("--fix", is_flag=True,
              help="Repair in place what has exactly one right answer (`penguin-lint rules` says which rules).")
@click.option("--unsafe-fixes", is_flag=True,
              help="With --fix or --diff: also make repairs that change meaning (status published -> draft).")
@click.option("--diff", "show_diff", is_flag=True,
              help="Print the fixes as a unified diff and change nothing (exit 1 when there is something to fix).")
@click.option("--no-suppress", is_flag=True,
              help="Ignore inline '# penguin-lint: disable' comments: show every finding.")
@click.option("--cache-dir", metavar="DIR", type=click.Path(file_okay=False, path_type=str),
              help="Where runs keep their cache: --all its verdicts, a diff run git's list of "
                   "untracked files (default: $PENGUIN_LINT_CACHE_DIR, else "
                   ".penguin-lint-cache/ at the repository root).")
@click.option("--no-cache", is_flag=True, help="Neither read nor write the cache.")
@click.option("--shard", metavar="K/N",
              help="With --all, lint only part K of N (a CI matrix); every finding is in exactly one part.")
@click.version_option(__version__, "--version", prog_name="penguin-lint")
def lint(paths, all_, root, diff_base, fmt, select, ignore, strict, kind, definition, color, output, jobs,
         new_only, config_from_worktree, config_base, fix, unsafe_fixes, show_diff, no_suppress, cache_dir,
         no_cache, shard):
    """Lint a PenguinHarness benchmark repository.

    With --all, the whole repository; with PATHs, those files or folders (the
    rest of the repository is still read as context); with neither, what
    changed against the default branch. `penguin-lint rules` lists the rules;
    `penguin-lint preview` shows the leaderboards as they will be rendered.
    """
    from penguin_lint.config import CONFIG_FILE, ConfigError, load_config
    from penguin_lint.engine import Engine, ToolError, enabled_rules
    from penguin_lint.layout import FILE_KINDS
    from penguin_lint.repo import Repository
    from penguin_lint.reporters import get_reporter

    # Documents are plain trees that die with their unit: the cyclic
    # collector finds nothing in them, yet its passes over everything alive
    # (listings of tens of thousands of files) made big runs superlinear.
    gc.disable()
    cwd = Path.cwd()
    root = (root if root is not None else root_for(cwd, paths)).resolve()
    if not root.is_dir():
        raise fail(f"root is not a folder: {root}")
    if all_ and (paths or diff_base):
        raise fail("--all cannot be combined with paths or --diff-base")
    if output and not os.path.isdir(os.path.dirname(os.path.abspath(output))):
        # Said before the run, not after it.
        raise fail(f"cannot write --output {output}: No such file or directory")
    if unsafe_fixes and not (fix or show_diff):
        raise fail("--unsafe-fixes works with --fix or --diff")
    if shard is not None and not all_:
        raise fail("--shard needs --all")
    shard_part = None
    if shard is not None:
        from penguin_lint.shard import parse_shard

        try:
            shard_part = parse_shard(shard)
        except ValueError as e:
            raise fail(str(e))
    if kind is not None and kind not in FILE_KINDS:
        raise fail(f"unknown kind '{kind}' (known: {', '.join(sorted(FILE_KINDS))})")
    if all_ and new_only:
        raise fail("--new-only needs a change to compare with: give paths or --diff-base, not --all")
    diff_mode = not all_ and (diff_base is not None or not paths)
    if config_base is not None and diff_mode:
        raise fail("--config-base is for --all and path runs (a diff run reads the base's configuration)")
    if config_base is not None and config_from_worktree:
        raise fail("--config-base and --config-from-worktree cannot be combined")
    if config_base is None and all_ and not config_from_worktree:
        # --all (or a shard of it) in a pull request's own workflow: the
        # pull request must not choose what it is judged by.
        config_base = pull_request_base(root, os.environ)
    select_codes, ignore_codes = _split_codes(select), _split_codes(ignore)
    from penguin_lint.rules import all_rules

    known = [r.code for r in all_rules()]
    for code in select_codes + ignore_codes:
        if not any(k.startswith(code) for k in known):
            raise fail(f"unknown rule code or prefix '{code}' (see `penguin-lint rules`)")

    from penguin_lint.gitscope import GitError

    git_change = base_tree = based_on = added_index = None
    try:
        if diff_mode:
            # The base decides the configuration: nothing in the pull
            # request can switch the gate off (PL502 says what it changed).
            from penguin_lint.cache import cache_folder

            status_cache = None if no_cache else cache_folder(root, cache_dir)[0]
            git_change, base_tree, config = _open_diff(root, diff_base, config_from_worktree, status_cache)
        elif config_base is not None:
            status_cache = None
            if not no_cache:
                from penguin_lint.cache import cache_folder

                status_cache = cache_folder(root, cache_dir)[0]
            based_on, config, added_index = _config_at(root, config_base, review=all_ and not no_suppress,
                                                       status_cache=status_cache)
        else:
            config = load_config(root, FILE_KINDS)
    except ConfigError as e:
        raise fail(str(e))
    except GitError as e:
        raise fail(str(e))
    rules = enabled_rules(config, select_codes or None, ignore_codes)
    if not rules:  # not a silent pass: nothing would be checked
        raise fail("--select and --ignore leave no rule enabled")
    repo = Repository(root, config)

    rel_paths = []
    for p in paths:
        rel = _relative(p, cwd, root)
        if (rel is None or not os.path.lexists(root / rel)) and not os.path.isabs(p) \
                and os.path.lexists(root / p):
            # a path written relative to --root rather than to where we stand
            rel = _relative(p, root, root)
        if rel is None:
            raise fail(f"path is outside the repository {root}: {p}")
        if rel and repo.entry(rel) is None and not os.path.lexists(root / rel):
            raise fail(f"no such file or folder: {p}")
        rel_paths.append(rel)
    forced = {p: kind for p in rel_paths} if kind else {}
    for p, rel in zip(paths, rel_paths):
        if not kind:
            what = _unjudged(repo, rel)
            if what is not None:
                # not a green check on nothing: a path no check would read
                raise fail(f"{p}: {what}: nothing to lint (give --kind KIND, or a [kinds] glob in "
                           f"{CONFIG_FILE})")
    engine = Engine(repo, config, rules, forced_kinds=forced, suppress=not no_suppress)
    if definition is not None:
        drel = _relative(definition, cwd, root)
        if drel is None or repo.entry(drel) is None:
            raise fail(f"definition file not found in the repository: {definition}")
        engine.ctx.options["definition"] = drel

    from penguin_lint.scope import Change, Scope

    def new_engine() -> "Engine":
        e = Engine(Repository(root, config), config, rules, forced_kinds=forced, suppress=not no_suppress)
        e.ctx.options.update(engine.ctx.options)
        return e

    def run(engine) -> "Result":
        """One run of the kind asked for (--fix runs it again after repairing)."""
        nonlocal base_tree
        repo = engine.repo
        if all_:
            cache = None if no_cache else _open_cache(root, cache_dir, config, rules, engine)
            repo.cache_rel = _cache_rel(root, cache_dir, cache, no_cache)
            result = engine.run_all(jobs=jobs, cache=cache, shard=shard_part, review=added_index)
            if cache is not None:
                _save_cache(cache, keep_others=shard_part is not None)
            if based_on is not None and (shard_part is None or shard_part.takes_top):
                # the pull request's own .penguin-lint.toml: said, not used
                # (in one shard only: every finding is in exactly one part)
                _config_findings(result, repo, config, based_on, rules)
            return result
        if not diff_mode:
            change = Change.of(repo, rel_paths)
            folders = [p for p in rel_paths if p == "" or repo.is_dir(p)]
            if folders:  # walked: the cache folder is left out as by --all
                repo.cache_rel = _cache_rel(root, cache_dir, None, True)
            # Paths in a work tree are what is about to be committed (the
            # pre-commit hook): they are compared with HEAD.
            base_engine = _head_base(root, repo, config, rules, tree=base_tree)
            if base_engine is not None:
                engine.ctx.base = base_engine.repo
                base_tree = base_engine.repo.tree
            scope = Scope(change, base_engine, new_only=new_only, folders=folders)
            result = engine.run_change(change, scope)
            if base_engine is not None:
                result.compared_with = _compared(base_engine.repo)
            return result
        from penguin_lint.basetree import BaseRepository

        changed = git_change.paths
        if rel_paths:
            changed = [c for c in changed if any(c == p or c.startswith(p + "/") or p == "" for p in rel_paths)]
        change = Change.of(repo, changed, renames=git_change.renames)
        base_repo = BaseRepository(base_tree, root, config, label=git_change.label)
        base_engine = Engine(base_repo, config, rules, forced_kinds=forced, suppress=not no_suppress)
        base_engine.ctx.options.update(engine.ctx.options)
        engine.ctx.base = base_repo
        engine.ctx.renames = dict(change.renames)
        engine.ctx.gitlinks = set(git_change.gitlinks)
        engine.ctx.config_from_base = not config_from_worktree
        scope = Scope(change, base_engine, new_only=new_only, focus=True)
        result = engine.run_change(change, scope)
        result.compared_with = _compared(base_repo)
        result.no_changes = len(change) == 0
        return result

    try:
        if (all_ or diff_mode or "" in rel_paths) and not config.kinds \
                and not _layout_present(root, repo, base_tree if diff_mode else None):
            # Not a green check on nothing: say that there was nothing to lint.
            raise fail(f"no {', '.join(r + '/' for r in repo.walk_roots() if r)} folder under "
                       f"{root}: nothing to lint (is --root right?)")
        result = run(engine)
        if fix or show_diff:
            def relint():
                try:
                    return run(new_engine())
                except (ToolError, GitError) as err:
                    raise fail(str(err))

            result = _fix(result, show_diff, unsafe_fixes, root, config, output, relint)
    except ToolError as e:
        raise fail(str(e))
    except GitError as e:
        raise fail(str(e))
    finally:
        if base_tree is not None:
            base_tree.close()

    reporter = get_reporter(fmt)
    options = {"rules": {r.code: r for r in all_rules()}}
    if fmt in ("github", "sarif"):
        from penguin_lint.github_run import blob_base, relocate, repository_prefix, summary_path

        # GitHub names files from the repository root, not from a subfolder.
        prefix = repository_prefix(root, dict(os.environ))
        if fmt == "github":
            options.update(exists=lambda p: repo.entry(p[len(prefix):]) is not None,
                           summary_path=summary_path(os.environ), blob_base=blob_base(os.environ))
        result = relocate(result, prefix)
    stream = LogGuard(_open_output(output, root)) if output else sys.stdout
    try:
        options["color"] = use_color(color, stream if not output else None)
        reporter(result, stream, **options)
    finally:
        if output:
            stream.close()
    failed = result.errors > 0 or (strict and result.warnings > 0)
    raise click.exceptions.Exit(EXIT_FINDINGS if failed else EXIT_OK)


def _open_diff(root: Path, diff_base: Optional[str], config_from_worktree: bool,
               status_cache: Optional[Path] = None):
    """The change against the base, the base tree and the configuration to
    run with (the base's, unless ``config_from_worktree``). ``status_cache``:
    the cache folder, where git may keep what it knows of untracked files."""
    from penguin_lint.basetree import GitTree
    from penguin_lint.config import CONFIG_FILE, ConfigError, load_config, parse_config
    from penguin_lint.gitscope import GitRepo
    from penguin_lint.layout import FILE_KINDS
    from penguin_lint.repo import Repository

    g = GitRepo(root)

    def base_branch_at(commit: str) -> Optional[str]:
        raw = _tree_file(GitTree(g.top, commit, g.prefix, objects=g.objects), CONFIG_FILE)
        try:
            return parse_config(raw, FILE_KINDS).base_branch if raw is not None else None
        except ConfigError:
            return None  # the defaults; the merge base's file is said below when it is the same

    try:
        # The default branch's own configuration may name another base branch.
        label, mb = g.diff_base(diff_base, default_base=base_branch_at)
        base_tree = GitTree(g.top, mb, g.prefix, objects=g.take_objects(), owns=True)
    finally:
        g.close()
    try:
        config = load_config(root, FILE_KINDS) if config_from_worktree else base_config(base_tree)
        scope = Repository(root, config).walk_roots() + [CONFIG_FILE]
        change = g.change(label, mb, scope=scope, cache_root=status_cache)
    except BaseException:
        base_tree.close()
        raise
    finally:
        g.close()
    return change, base_tree, config


def base_config(tree) -> "Config":
    """The configuration in a base tree. An invalid one there does not block
    the pull request that repairs it: the defaults apply (every rule), and
    one warning line says so."""
    from penguin_lint.config import CONFIG_FILE, Config, ConfigError, parse_config
    from penguin_lint.layout import FILE_KINDS

    raw = _tree_file(tree, CONFIG_FILE)
    if raw is None:
        return Config()
    try:
        return parse_config(raw, FILE_KINDS)
    except ConfigError as e:
        _warn(f"the base's {e}; this run uses the defaults (every rule)")
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


def _config_at(root: Path, ref: str, review: bool = False, status_cache: Optional[Path] = None):
    """(the base's .penguin-lint.toml for PL502, configuration, the
    suppressions the change adds or None) at the merge base of ``ref`` and
    HEAD, for --config-base; those suppressions only with ``review`` (--all).
    ``status_cache``: as for ``_open_diff``."""
    from penguin_lint.basetree import GitTree
    from penguin_lint.config import CONFIG_FILE
    from penguin_lint.gitscope import GitError, GitRepo

    g = GitRepo(root)
    try:
        try:
            label, mb = g.diff_base(ref)
            tree = GitTree(g.top, mb, g.prefix, objects=g.objects)
            based_on, config = _BaseConfigFile(_tree_file(tree, CONFIG_FILE)), base_config(tree)
        except GitError as e:
            raise GitError(f"cannot read {CONFIG_FILE} at the merge base of {ref} "
                           f"(a pull request is judged by its base's settings): {e}") from None
        if not review:
            return based_on, config, None
        try:
            return based_on, config, _added_index(g, label, mb, tree, root, config, status_cache)
        except GitError as e:
            raise GitError(f"cannot list what changed since the merge base of {ref} "
                           f"(the suppressions a pull request adds hide nothing in its run): {e}") from None
    finally:
        g.close()


def _added_index(g, label: str, mb: Optional[str], tree, root: Path, config, status_cache=None):
    """The suppressions that the work tree adds to the base ``tree``
    (suppressions.AddedIndex), found once before an --all run starts: only
    the changed YAML and TOML files that mention ``penguin-lint:`` are read."""
    from penguin_lint.basetree import BaseRepository
    from penguin_lint.config import CONFIG_FILE
    from penguin_lint.loaders import format_of
    from penguin_lint.repo import Repository
    from penguin_lint.suppressions import MARK, AddedIndex, added_codes

    repo = Repository(root, config)  # its own: its documents are not the run's
    change = g.change(label, mb, scope=repo.walk_roots() + [CONFIG_FILE], cache_root=status_cache)
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
    from penguin_lint.config import CONFIG_FILE
    from penguin_lint.context import Context
    from penguin_lint.rules.base import Subject

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
        from penguin_lint.basetree import BaseRepository

        base = BaseRepository(base_tree, root, repo.config)
        return any(base.is_dir(t) for t in tops)
    return False


def _unjudged(repo, rel: str) -> Optional[str]:
    """Why no check would read the command-line path ``rel``, or None when
    some would."""
    from penguin_lint.config import CONFIG_FILE

    entry = repo.entry(rel) if rel else None
    if entry is None or rel == CONFIG_FILE:
        return None  # the root, a deleted path (the change is judged) or the configuration
    tops = repo.walk_roots()
    if any(t == "" or rel == t or rel.startswith(t + "/") for t in tops):
        return None  # in the layout
    folders = ", ".join(t + "/" for t in tops)
    if entry.is_dir:
        if any(t.startswith(rel + "/") for t in tops):
            return None  # holds the layout
        if any(e.is_file and repo.layout.classify_file(sub) is not None for sub, e in repo.walk(rel)):
            return None
        return f"no file of a known kind in this folder (outside {folders})"
    if repo.layout.classify_file(rel) is not None:
        return None
    return f"of no known kind (outside {folders})"


def _tree_file(tree, rel: str) -> Optional[bytes]:
    from penguin_lint.config import Config
    from penguin_lint.basetree import BaseRepository

    return BaseRepository(tree, Path("."), Config()).read_bytes(rel)


def _head_base(root: Path, repo, config, rules, tree=None):
    """An engine over ``HEAD`` for a path run inside a git work tree, or
    None (outside git, no commit yet, or git trouble: the run then compares
    with nothing, as outside git)."""
    from penguin_lint.basetree import BaseRepository, GitTree
    from penguin_lint.engine import Engine
    from penguin_lint.gitscope import GitError, GitRepo, in_work_tree

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


def _compared(base_repo) -> str:
    commit = base_repo.commit
    return f"{base_repo.label} ({commit[:7]})" if commit else f"{base_repo.label} (no commit yet)"


def use_color(choice: str, stream) -> bool:
    """--color always/never wins; auto colours a terminal, and follows
    NO_COLOR (non-empty: never) before FORCE_COLOR (non-empty: always, as
    CI logs that render colour ask). A file given with --output (stream
    None) is never coloured by auto."""
    if choice != "auto":
        return choice == "always"
    if stream is None or os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("FORCE_COLOR"):
        return True
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def _fix(result, show_diff, unsafe, root, config, output, relint):
    """--fix: repair, re-lint (``relint``: the same run again), and return
    the result to report; --diff: print the repairs as a diff and exit
    (nothing is written)."""
    from penguin_lint.context import Context
    from penguin_lint.fixes import fix_run
    from penguin_lint.repo import Repository
    from penguin_lint.rules import all_rules

    result, outcome = fix_run(
        result, relint, str(root), lambda: Context(Repository(root, config), config),
        {r.code: r for r in all_rules()}, unsafe, show_diff, config.size_limit)
    for line in outcome.refused:
        say(f"penguin-lint: warning: {line}")
    if show_diff:
        stream = LogGuard(_open_output(output, root)) if output else sys.stdout
        try:
            for line in outcome.diff:
                stream.write(safe_line(line) + "\n")
        finally:
            if output:
                stream.close()
        n, files = outcome.fixed, len(outcome.files)
        say(f"Would fix {n} finding{'s' if n != 1 else ''} in {files} file{'s' if files != 1 else ''}."
            if n else "Nothing to fix.")
        raise click.exceptions.Exit(EXIT_FINDINGS if n else EXIT_OK)
    result.fixed = outcome.fixed
    return result


def _open_output(output: str, root: Path):
    """--output, opened as a new file: never through a link, never into a
    .git folder of the repository (or of the git work tree around it)."""
    from penguin_lint.outfile import OutputRefused, open_report

    roots = [str(root)]
    for d in (root, *root.parents):
        if os.path.lexists(d / ".git"):
            roots.append(str(d))
            break
    try:
        return open_report(output, roots)
    except OutputRefused as e:
        raise fail(f"cannot write --output {e}")


def _warn(message: str) -> None:
    say(f"penguin-lint: warning: {message}")


def _open_cache(root: Path, cache_dir, config, rules, engine):
    """The cache for an --all run, or None (with a warning) when it cannot be used."""
    from penguin_lint.cache import CacheWarning, UnitCache, cache_folder, settings_key
    from penguin_lint.contentid import ContentIds

    folder, in_repo = cache_folder(root, cache_dir)
    # --no-suppress changes what a unit reports
    key = settings_key(config, [r.code for r in rules],
                       dict(engine.ctx.options, suppress=engine.ledger is not None))
    try:
        return UnitCache(folder, key, engine.repo, ContentIds(str(root), config.size_limit), in_repo=in_repo)
    except CacheWarning as e:
        _warn(str(e))
        return None


def _cache_rel(root: Path, cache_dir, cache, no_cache: bool) -> Optional[str]:
    """The cache folder as a path the walk leaves out: only where this run
    keeps its cache, and never a folder git tracks anything in (a data folder
    that bears the name, or records a pull request committed, are linted)."""
    from penguin_lint.cache import CacheWarning, cache_folder, refuse_tracked, skipped_folder
    from penguin_lint.contentid import ContentIds

    if cache is not None:  # open: already found untracked
        return skipped_folder(root, cache.folder)
    if not no_cache:
        return None  # refused (tracked, a link) or unusable
    rel = skipped_folder(root, cache_folder(root, cache_dir)[0])
    if rel is None:
        return None
    try:
        refuse_tracked(root, root / rel, ContentIds(str(root), 0))
    except CacheWarning:
        return None
    return rel


def _save_cache(cache, keep_others: bool) -> None:
    from penguin_lint.cache import CacheWarning

    damage = cache.damage_warning()
    if damage:
        _warn(damage)
    try:
        cache.save(keep_others=keep_others)
    except CacheWarning as e:
        _warn(str(e))


def _relative(p: str, cwd: Path, root: Path) -> Optional[str]:
    ap = Path(os.path.abspath(cwd / p))
    try:
        rel = ap.relative_to(root)
    except ValueError:
        return None
    s = rel.as_posix()
    return "" if s == "." else s


@click.command("rules", context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("code", required=False)
@click.option("--format", "fmt", type=click.Choice(["text", "json", "markdown"]), default="text", show_default=True)
def rules_cmd(code, fmt):
    """List the rules, or explain one with a bad and a good example.

    CODE is a rule code (PL303) to explain, or a prefix (PL3) to list.
    """
    from penguin_lint.rules import all_rules, get_rule
    from penguin_lint.rules.docs import explain, rules_json, rules_table

    rules = all_rules()
    if code:
        try:
            rule = get_rule(code.strip())
        except KeyError:
            rule = None
        if rule is not None and fmt == "text":
            show(explain(rule))
            return
        prefix = code.strip().upper()
        rules = [rule] if rule is not None else [r for r in rules if r.code.startswith(prefix)]
        if not rules:
            raise fail(f"unknown rule code or prefix '{code}' (see `penguin-lint rules`)")
    if fmt == "json":
        show(rules_json(rules))
    else:
        show(rules_table(rules, markdown=fmt == "markdown"))


@click.command("preview", context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("leaderboard_ids", nargs=-1, metavar="[LEADERBOARD]...")
@click.option("--root", type=click.Path(file_okay=False, path_type=Path),
              help="Repository root (found as for linting).")
@click.option("--format", "fmt", type=click.Choice(["text", "markdown", "json"]), default="text", show_default=True)
@click.option("--before", "before_root", type=click.Path(file_okay=False, path_type=Path), metavar="DIR",
              help="Another checkout of the repository (the base of a pull request): show what changed "
                   "from it, row by row, before -> after.")
@click.option("--diff-base", metavar="REF",
              help="Compare with the merge base of REF and HEAD (read from git, nothing checked out): "
                   "the leaderboards the change affects, before -> after.")
@click.option("--all-rows", is_flag=True, help="With --before or --diff-base: list unchanged rows too.")
def preview_cmd(leaderboard_ids, root, fmt, before_root, diff_base, all_rows):
    """Show leaderboards as they will be rendered: every entry's mean,
    standard deviation (RFC-0005's formulas), label, rank and Pareto axes."""
    from penguin_lint import preview
    from penguin_lint.config import ConfigError, load_config
    from penguin_lint.layout import FILE_KINDS
    from penguin_lint.repo import Repository

    def open_repo(folder: Path):
        folder = folder.resolve()
        if not folder.is_dir():
            raise fail(f"not a folder: {folder}")
        try:
            return Repository(folder, load_config(folder, FILE_KINDS))
        except ConfigError as e:
            raise fail(str(e))

    if before_root is not None and diff_base is not None:
        raise fail("--before and --diff-base cannot be combined")
    root = (root if root is not None else find_root(Path.cwd())).resolve()
    ids = list(leaderboard_ids) or None
    base_tree = None
    if diff_base is not None:
        from penguin_lint.basetree import BaseRepository
        from penguin_lint.gitscope import GitError

        try:
            change, base_tree, config = _open_diff(root, diff_base, False)
        except (GitError, ConfigError) as e:
            raise fail(str(e))
        repo = Repository(root, config)
        before = BaseRepository(base_tree, root, config, label=change.label)
        if ids is None:
            ids = preview.affected_leaderboards(change.paths, repo.layout)
            if not ids:
                base_tree.close()
                say(f"No leaderboard is affected by the change against {_compared(before)}.", err=False)
                return
    else:
        repo = open_repo(root)
        before = open_repo(before_root) if before_root is not None else None
    try:
        text = _preview_text(preview, repo, ids, before, fmt, all_rows)
    except RecursionError:
        raise fail("internal error: preview recursed too deep") from None
    except (ArithmeticError, ValueError, TypeError, KeyError, IndexError, AttributeError) as e:
        raise fail(f"internal error: preview failed: {type(e).__name__}: {e}") from None
    finally:
        if base_tree is not None:
            base_tree.close()
    show(text.rstrip("\n"))


def _preview_text(preview, repo, ids, before, fmt, all_rows) -> str:
    """The preview of ``ids`` (default: every leaderboard) in ``fmt``; with
    ``before`` (a repository), what changed from it."""
    if ids:
        before_ids = preview.leaderboards(before) if before is not None else []
        for lb in ids:
            if lb not in preview.leaderboards(repo) and lb not in before_ids:
                raise fail(f"no leaderboard '{lb}' (known: {', '.join(preview.leaderboards(repo)) or 'none'})")
    if before is not None:
        results = preview.compare_repos(before, repo, ids)
        return (preview.render_changes_json(results) if fmt == "json" else
                preview.render_changes_markdown(results, all_rows) if fmt == "markdown" else
                preview.render_changes_text(results, all_rows))
    else:
        boards = []
        for lb in ids or preview.leaderboards(repo):
            boards.append(preview.board(repo, lb))
            repo.forget("")  # one board's documents at a time
        if not boards:
            raise fail(f"no leaderboards under {repo.root / repo.layout.roots['leaderboards']}")
        return (preview.render_json(boards) if fmt == "json" else
                preview.render_markdown(boards) if fmt == "markdown" else preview.render_text(boards))


SUBCOMMANDS = {"rules": rules_cmd, "preview": preview_cmd}


def main(argv: Optional[List[str]] = None) -> None:
    args = list(sys.argv[1:] if argv is None else argv)
    command = SUBCOMMANDS.get(args[0], lint) if args else lint
    name = "penguin-lint"
    if command is not lint:
        name += " " + args[0]
        args = args[1:]
    try:
        # Every line written, by any format or library, is checked on its
        # way out: none can act as a workflow command in a CI log.
        with guarded_std():
            try:
                command.main(args=args, prog_name=name, standalone_mode=True)
            except KeyboardInterrupt:  # pragma: no cover
                say("penguin-lint: interrupted")
                sys.exit(EXIT_FAILURE)
    finally:
        gc.enable()  # lint() turns it off for the run; callers in-process get it back
