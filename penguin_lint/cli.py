"""The command line: ``penguin-lint [--all | PATH... | --diff-base REF]`` and
``penguin-lint rules [CODE]``.

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

EXIT_OK, EXIT_FINDINGS, EXIT_FAILURE = 0, 1, 2


def _split_codes(values) -> List[str]:
    out: List[str] = []
    for v in values or ():
        out.extend(c.strip().upper() for c in v.split(",") if c.strip())
    return out


_LAYOUT_MARKS = ("packages", "leaderboards", "experiments")


def find_root(start: Path) -> Path:
    """The repository root for a run started in ``start``: the nearest folder
    holding .penguin-lint.toml; else the nearest holding the layout's top
    folders (a benchmark repository inside a larger git repository); else
    the nearest holding .git; else ``start``."""
    chain = [start, *start.parents]
    for test in (
        lambda d: (d / ".penguin-lint.toml").is_file(),
        lambda d: any((d / m).is_dir() for m in _LAYOUT_MARKS),
        lambda d: (d / ".git").exists(),
    ):
        for d in chain:
            if test(d):
                return d
    return start


def fail(message: str) -> "click.exceptions.Exit":
    from penguin_lint.reporters import sanitize

    # Messages quote configuration and file names from the pull request:
    # escaped, they cannot drive a terminal or forge a CI log line.
    click.echo(f"penguin-lint: error: {sanitize(message)}", err=True)
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
@click.option("--cache-dir", metavar="DIR", type=click.Path(file_okay=False, path_type=str),
              help="Where --all keeps its cache (default: $PENGUIN_LINT_CACHE_DIR, else "
                   ".penguin-lint-cache/ at the repository root).")
@click.option("--no-cache", is_flag=True, help="Neither read nor write the cache.")
@click.option("--shard", metavar="K/N",
              help="With --all, lint only part K of N (a CI matrix); every finding is in exactly one part.")
@click.version_option(__version__, "--version", prog_name="penguin-lint")
def lint(paths, all_, root, diff_base, fmt, select, ignore, strict, kind, definition, color, output, jobs,
         cache_dir, no_cache, shard):
    """Lint a PenguinHarness benchmark repository.

    With --all, the whole repository; with PATHs, those files or folders (the
    rest of the repository is still read as context); with neither, what
    changed against the default branch. `penguin-lint rules` lists the rules.
    """
    from penguin_lint.config import ConfigError, load_config
    from penguin_lint.engine import Engine, ToolError, enabled_rules
    from penguin_lint.layout import FILE_KINDS
    from penguin_lint.repo import Repository
    from penguin_lint.reporters import get_reporter

    # Documents are plain trees that die with their unit: the cyclic
    # collector finds nothing in them, yet its passes over everything alive
    # (listings of tens of thousands of files) made big runs superlinear.
    gc.disable()
    cwd = Path.cwd()
    root = (root if root is not None else find_root(cwd)).resolve()
    if not root.is_dir():
        raise fail(f"root is not a folder: {root}")
    if all_ and (paths or diff_base):
        raise fail("--all cannot be combined with paths or --diff-base")
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
    try:
        config = load_config(root, FILE_KINDS)
    except ConfigError as e:
        raise fail(str(e))
    select_codes, ignore_codes = _split_codes(select), _split_codes(ignore)
    from penguin_lint.rules import all_rules

    known = [r.code for r in all_rules()]
    for code in select_codes + ignore_codes:
        if not any(k.startswith(code) for k in known):
            raise fail(f"unknown rule code or prefix '{code}' (see `penguin-lint rules`)")
    rules = enabled_rules(config, select_codes or None, ignore_codes)
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
    engine = Engine(repo, config, rules, forced_kinds=forced)
    if definition is not None:
        drel = _relative(definition, cwd, root)
        if drel is None or repo.entry(drel) is None:
            raise fail(f"definition file not found in the repository: {definition}")
        engine.ctx.options["definition"] = drel

    try:
        if all_:
            cache = None if no_cache else _open_cache(root, cache_dir, config, rules, engine)
            result = engine.run_all(jobs=jobs, cache=cache, shard=shard_part)
            if cache is not None:
                _save_cache(cache, keep_others=shard_part is not None)
            if not any(repo.is_dir(top) for top in repo.walk_roots() if top):
                # Not a silent pass: say that there was nothing to lint.
                click.echo(f"penguin-lint: warning: no {', '.join(r + '/' for r in repo.walk_roots() if r)} "
                           f"folder under {root}: nothing to lint (is --root right?)", err=True)
        elif rel_paths and not diff_base:
            from penguin_lint.gitscope import in_work_tree

            if in_work_tree(root):
                # Paths in a work tree are what is about to be committed (the
                # pre-commit hook): PL501 compares them with HEAD.
                engine.ctx.options["diff_base"] = "HEAD"
            result = engine.run_paths(rel_paths)
        else:
            from penguin_lint.gitscope import GitError, changed_paths

            try:
                changed, base_label = changed_paths(root, diff_base or config.base_branch,
                                                    scope=repo.walk_roots() + [".penguin-lint.toml"])
            except GitError as e:
                raise fail(str(e))
            if rel_paths:
                changed = [c for c in changed if any(c == p or c.startswith(p + "/") or p == "" for p in rel_paths)]
            engine.ctx.options["diff_base"] = base_label
            engine.ctx.options["changed"] = set(changed)
            result = engine.run_paths(changed)
    except ToolError as e:
        raise fail(str(e))

    reporter = get_reporter(fmt)
    stream = open(output, "w", encoding="utf-8") if output else sys.stdout
    try:
        use_color = color == "always" or (
            color == "auto" and not output and stream.isatty() and "NO_COLOR" not in os.environ)
        reporter(result, stream, color=use_color, rules={r.code: r for r in all_rules()})
    finally:
        if output:
            stream.close()
    failed = result.errors > 0 or (strict and result.warnings > 0)
    raise click.exceptions.Exit(EXIT_FINDINGS if failed else EXIT_OK)


def _warn(message: str) -> None:
    from penguin_lint.reporters import sanitize

    click.echo(f"penguin-lint: warning: {sanitize(message)}", err=True)


def _open_cache(root: Path, cache_dir, config, rules, engine):
    """The cache for an --all run, or None (with a warning) when it cannot be used."""
    from penguin_lint.cache import CacheWarning, UnitCache, cache_folder, settings_key
    from penguin_lint.contentid import ContentIds

    folder, in_repo = cache_folder(root, cache_dir)
    key = settings_key(config, [r.code for r in rules], engine.ctx.options)
    try:
        return UnitCache(folder, key, engine.repo, ContentIds(str(root), config.size_limit), in_repo=in_repo)
    except CacheWarning as e:
        _warn(str(e))
        return None


def _save_cache(cache, keep_others: bool) -> None:
    from penguin_lint.cache import CacheWarning

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


@click.command("rules")
@click.argument("code", required=False)
@click.option("--format", "fmt", type=click.Choice(["text", "json", "markdown"]), default="text", show_default=True)
def rules_cmd(code, fmt):
    """List the rules, or explain one with a bad and a good example."""
    from penguin_lint.rules import all_rules, get_rule
    from penguin_lint.rules.docs import explain, rules_json, rules_table

    if code:
        try:
            rule = get_rule(code)
        except KeyError:
            raise fail(f"unknown rule '{code}' (see `penguin-lint rules`)")
        click.echo(explain(rule))
        return
    rules = all_rules()
    if fmt == "json":
        click.echo(rules_json(rules))
    else:
        click.echo(rules_table(rules, markdown=fmt == "markdown"))


def main(argv: Optional[List[str]] = None) -> None:
    args = list(sys.argv[1:] if argv is None else argv)
    command = rules_cmd if args[:1] == ["rules"] else lint
    if command is rules_cmd:
        args = args[1:]
    try:
        command.main(args=args, prog_name="penguin-lint" + (" rules" if command is rules_cmd else ""),
                     standalone_mode=True)
    except KeyboardInterrupt:  # pragma: no cover
        click.echo("penguin-lint: interrupted", err=True)
        sys.exit(EXIT_FAILURE)
    finally:
        gc.enable()  # lint() turns it off for the run; callers in-process get it back
