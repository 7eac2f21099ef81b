"""The command line: ``penguin-lint [--all | PATH... | --diff-base REF] [--fix]``,
``penguin-lint rules [CODE]`` and ``penguin-lint preview [LEADERBOARD...]``.

Exit status: 0 no errors, 1 errors (or warnings with --strict), 2 usage error
or failure of the tool itself (one line on stderr, never a traceback).
"""
from __future__ import annotations

import gc
import os
import sys
from contextlib import ExitStack
from pathlib import Path
from typing import List, Optional

import click

from penguin_lint.formats import FORMATS, REPOSITORY_PATHS
from penguin_lint.reporters.console import say, show
from penguin_lint.output.log_guard import LogGuard, guarded_std, safe_line

EXIT_OK, EXIT_FINDINGS, EXIT_FAILURE = 0, 1, 2


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
@click.option("--committed", is_flag=True,
              help="In a diff run, the change is what HEAD commits: uncommitted and untracked files are not "
                   "looked for (a CI checkout has none; git would stat every file to say so).")
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="text",
              show_default=True, help="Output format.")
@click.option("--select", multiple=True, metavar="CODES",
              help="Only these rule codes, prefixes or names (comma-separated).")
@click.option("--ignore", multiple=True, metavar="CODES",
              help="Skip these rule codes, prefixes or names (comma-separated).")
@click.option("--strict", is_flag=True, help="Exit 1 on warnings too.")
@click.option("--exit-zero", is_flag=True,
              help="Exit 0 even when findings remain (the penguin-lint-fix hook: pre-commit fails it when it "
                   "changed a file).")
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
                   "untracked files (default: $PENGUIN_LINT_CACHE_DIR, else cache-dir of "
                   ".penguin-lint.toml, else .penguin-lint-cache/ at the repository root).")
@click.option("--no-cache", is_flag=True, help="Neither read nor write the cache.")
@click.option("--shard", metavar="K/N",
              help="With --all, lint only part K of N (a CI matrix); every finding is in exactly one part.")
@click.option("--write-baseline", is_flag=True,
              help="With --all: record every finding in the baseline file (.penguin-lint-baseline.json, or "
                   "'baseline' in .penguin-lint.toml); findings it records no longer fail --all.")
@click.option("--staged", is_flag=True,
              help="Judge what the next commit records (the pre-commit hook): the PATHs (default: every "
                   "staged change) as the index holds them, against HEAD; untracked files and unstaged "
                   "edits are not read.")
@click.option("--stdin-filename", metavar="PATH",
              help="Lint standard input as the file PATH (give '-' as the path): an editor's unsaved "
                   "buffer, with the rest of the repository read from disk.")
@click.option("--statistics", is_flag=True,
              help="Count the findings per rule instead of listing them (text or json).")
@click.option("--version", is_flag=True, expose_value=False, is_eager=True, callback=lambda ctx, _, on: _version(ctx, on),
              help="Show the version (and the commit it was installed from) and exit.")
def lint(paths, all_, root, diff_base, committed, fmt, select, ignore, strict, exit_zero, kind, definition, color, output, jobs,
         new_only, config_from_worktree, config_base, fix, unsafe_fixes, show_diff, no_suppress, cache_dir,
         no_cache, shard, write_baseline, staged, stdin_filename, statistics):
    """Lint a PenguinHarness benchmark repository.

    With --all, the whole repository; with PATHs, those files or folders (the
    rest of the repository is still read as context); with neither, what
    changed against the default branch. `penguin-lint rules` lists the rules;
    `penguin-lint preview` shows the leaderboards as they will be rendered.
    """
    # The run's documents are plain trees; see pipeline.run (main() turns
    # the collector back on). Off before the run's imports too: the modules
    # they create are cycles no pass can free.
    gc.disable()
    from penguin_lint.pipeline import PenguinLintError, Request, run
    from penguin_lint.formats import get_reporter
    from penguin_lint.rules import all_rules

    if show_diff and fmt != "text":
        raise fail("--diff prints the repairs as a unified diff: give it without --format")
    if statistics and fmt not in ("text", "json"):
        raise fail("--statistics works with --format text or json")
    if output and not os.path.isdir(os.path.dirname(os.path.abspath(output))):
        # Said before the run, not after it.
        raise fail(f"cannot write --output {output}: No such file or directory")
    request = Request(
        paths=list(paths), all=all_, diff_base=diff_base, committed=committed, root=root, cwd=Path.cwd(),
        select=select,
        ignore=ignore, kind=kind, definition=definition, jobs=jobs, new_only=new_only,
        config_from_worktree=config_from_worktree, config_base=config_base, suppress=not no_suppress,
        cache=not no_cache, cache_dir=cache_dir, shard=shard, fix=fix, unsafe_fixes=unsafe_fixes,
        diff=show_diff, staged=staged, stdin_filename=stdin_filename, write_baseline=write_baseline)
    try:
        outcome = run(request, warn=_warn)
    except PenguinLintError as e:
        raise fail(str(e))
    root, result, repo = outcome.root, outcome.result, outcome.repo
    if outcome.diff is not None:  # --diff: the repairs, and nothing written
        stream = LogGuard(_open_output(output, root)) if output else sys.stdout
        try:
            for line in outcome.diff:
                stream.write(safe_line(line) + "\n")
        finally:
            if output:
                stream.close()
            else:  # the diff before the count on stderr, in a terminal too
                stream.flush()
        n, files = outcome.would_fix, outcome.would_fix_files
        say(f"Would fix {n} finding{'s' if n != 1 else ''} in {files} file{'s' if files != 1 else ''}."
            if n else "Nothing to fix.")
        raise click.exceptions.Exit(EXIT_FINDINGS if n else EXIT_OK)

    reporter = get_reporter(fmt)
    options = {"rules": {r.code: r for r in all_rules()}}
    if statistics:
        from penguin_lint.reporters.statistics import report as reporter
        options["json_format"] = fmt == "json"
    if fmt in REPOSITORY_PATHS:
        from penguin_lint.github.environment import blob_base, relocate, repository_prefix, summary_path

        # GitHub names files from the repository root, not from a subfolder.
        prefix = repository_prefix(root, dict(os.environ))
        if fmt == "github":
            options.update(exists=lambda p: repo.entry(p[len(prefix):]) is not None,
                           summary_path=summary_path(os.environ), blob_base=blob_base(os.environ))
        result = relocate(result, prefix)
    if fix and exit_zero and fmt == "text" and os.environ.get("PRE_COMMIT") == "1":
        # the penguin-lint-fix hook: the penguin-lint hook lists what is left,
        # and pre-commit shows both when a commit fails
        options["left_to_list"] = "the penguin-lint hook lists"
    stream = LogGuard(_open_output(output, root)) if output else sys.stdout
    try:
        options["color"] = use_color(color, stream if not output else None)
        reporter(result, stream, **options)
    finally:
        if output:
            stream.close()
    failed = result.nothing_checked or (not exit_zero and (result.errors > 0 or (strict and result.warnings > 0)))
    raise click.exceptions.Exit(EXIT_FINDINGS if failed else EXIT_OK)


def _version(ctx, on: bool) -> None:
    if not on or ctx.resilient_parsing:
        return
    from penguin_lint.version import build_version

    show(f"penguin-lint, version {build_version()}")
    ctx.exit(EXIT_OK)


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


def _open_output(output: str, root: Path):
    """--output, opened as a new file: never through a link, never into a
    .git folder of the repository (or of the git work tree around it)."""
    from penguin_lint.core.outfile import OutputRefused, open_report

    try:
        return open_report(output, _write_roots(root))
    except OutputRefused as e:
        raise fail(f"cannot write --output {e}")


def _write_roots(root: Path) -> List[str]:
    """The folders whose links and .git a written file never passes through:
    ``root`` and the git work tree around it."""
    roots = [str(root)]
    for d in (root, *root.parents):
        if os.path.lexists(d / ".git"):
            roots.append(str(d))
            break
    return roots


def usage_message(e: "click.UsageError") -> str:
    """A usage error as one line: "invalid value for '--jobs' / '-j': 0 is
    not in the range x>=1 (see penguin-lint --help)"."""
    text = " ".join(e.format_message().split())
    if isinstance(e, click.NoSuchOption) and e.option_name:
        # worded here: click's wording of it differs between its releases
        near = sorted(e.possibilities or ())
        text = f"no such option '{e.option_name}'"
        if len(near) == 1:
            text += f"; did you mean '{near[0]}'?"
        elif near:
            text += "; did you mean one of: " + ", ".join(f"'{p}'" for p in near) + "?"
    if text[:1].isupper() and text[1:2].islower():
        text = text[0].lower() + text[1:]
    command = e.ctx.command_path if e.ctx is not None else "penguin-lint"
    return f"{text.rstrip('.')} (see {command} --help)"


def _warn(message: str) -> None:
    say(f"penguin-lint: warning: {message}")




@click.command("rules", context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("code", required=False)
@click.option("--format", "fmt", type=click.Choice(["text", "json", "markdown"]), default="text", show_default=True)
@click.option("--write-docs", "docs_dir", type=click.Path(file_okay=False, path_type=Path),
              help="Write the generated documentation into this docs folder: a page per rule "
                   "(rules/PL303.md) and the table of rules.md.")
def rules_cmd(code, fmt, docs_dir):
    """List the rules, or explain one with a bad and a good example.

    CODE is a rule code (PL303) to explain, or a prefix (PL3) to list.
    """
    from penguin_lint.rules import all_rules, get_rule
    from penguin_lint.rules.docs import explain, rules_json, rules_table, write_docs

    rules = all_rules()
    if docs_dir is not None:
        if code:
            raise fail("--write-docs writes the pages of every rule: give no CODE")
        try:
            changed = write_docs(docs_dir, rules)
        except (OSError, ValueError) as e:
            raise fail(f"--write-docs {docs_dir}: {e}")
        for rel in changed:
            show(f"wrote {(docs_dir / rel).as_posix()}")
        show(f"{len(changed)} generated file(s) changed")
        return
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
            import difflib  # only to word this error

            names = {r.name: r.code for r in all_rules()}
            close = difflib.get_close_matches(code.strip().lower(), list(names), n=1, cutoff=0.6)
            meant = f"; did you mean '{close[0]}' ({names[close[0]]})?" if close else ""
            raise fail(f"unknown rule code or prefix '{code}'{meant} (see `penguin-lint rules`)")
    if fmt == "json":
        show(rules_json(rules))
    else:
        show(rules_table(rules, markdown=fmt == "markdown"))


@click.command("preview", context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("leaderboard_ids", nargs=-1, metavar="[LEADERBOARD]...")
@click.option("--root", type=click.Path(file_okay=False, path_type=Path),
              help="Repository root (found as for linting).")
@click.option("--format", "fmt", type=click.Choice(["text", "markdown", "json", "html"]), default="text",
              show_default=True, help="html: one self-contained page, the Table, Pareto and Waffle views.")
@click.option("--before", "before_root", type=click.Path(file_okay=False, path_type=Path), metavar="DIR",
              help="Another checkout of the repository (the base of a pull request): show what changed "
                   "from it, row by row, before -> after.")
@click.option("--diff-base", metavar="REF",
              help="Compare with the merge base of REF and HEAD (read from git, nothing checked out): "
                   "the leaderboards the change affects, before -> after.")
@click.option("--committed", is_flag=True,
              help="With --diff-base: the change is what HEAD commits (uncommitted and untracked files "
                   "are not looked for).")
@click.option("--all-rows", is_flag=True, help="With --before or --diff-base: list unchanged rows too.")
def preview_cmd(leaderboard_ids, root, fmt, before_root, diff_base, committed, all_rows):
    """Show leaderboards as they will be rendered: every entry's mean,
    standard deviation (RFC-0005's formulas), label, rank and Pareto axes."""
    from penguin_lint import preview
    from penguin_lint.pipeline import PenguinLintError, compared, find_root, open_preview
    from penguin_lint.preview import harbor

    if before_root is not None and diff_base is not None:
        raise fail("--before and --diff-base cannot be combined")
    if committed and diff_base is None:
        raise fail("--committed works with --diff-base")
    root = (root if root is not None else find_root(Path.cwd())).resolve()
    with ExitStack() as resources:  # the base tree of --diff-base, closed on every path
        try:
            repo, before, changed = open_preview(resources, root, diff_base, before_root, warn=_warn,
                                                    committed=committed)
        except PenguinLintError as e:
            raise fail(str(e))
        try:  # an id, or the path of a leaderboard file or folder (or of a Harbor board's)
            ids, boards = _preview_ids(preview, repo, root, leaderboard_ids)
        except ValueError as e:
            raise fail(str(e))
        if changed is not None and ids is None:
            ids = preview.affected_leaderboards(changed, repo.layout)
            boards = harbor.affected_boards(changed, repo)
            if not ids and not boards:
                say(f"No leaderboard is affected by the change against {compared(before)}.", err=False)
                return
        try:
            text = _preview_text(preview, repo, ids, before, fmt, all_rows, boards)
        except RecursionError:
            raise fail("internal error: preview recursed too deep") from None
        except (ArithmeticError, ValueError, TypeError, KeyError, IndexError, AttributeError) as e:
            raise fail(f"internal error: preview failed: {type(e).__name__}: {e}") from None
    show(text.rstrip("\n"))


def _preview_ids(preview, repo, root, args):
    """(leaderboard ids, Harbor definitions) the arguments name; (None,
    None) without arguments: every one."""
    from penguin_lint.preview import harbor

    if not args:
        return None, None
    ids, boards = [], []
    for a in args:
        definition = harbor.board_arg(a, repo, root, Path.cwd())
        if definition is not None:
            boards.append(definition)
        else:
            ids.append(preview.board_id(a, repo.layout, root, Path.cwd()))
    return ids, boards


def _preview_text(preview, repo, ids, before, fmt, all_rows, boards=None) -> str:
    """The preview of ``ids`` and the Harbor ``boards`` (default: every
    one) in ``fmt``; with ``before`` (a repository), what changed from it."""
    from penguin_lint.preview import harbor

    if ids:
        before_ids = preview.leaderboards(before) if before is not None else []
        for lb in ids:
            if lb not in preview.leaderboards(repo) and lb not in before_ids:
                raise fail(f"no leaderboard '{lb}' (known: {', '.join(preview.leaderboards(repo)) or 'none'})")
    if boards is None:
        boards = harbor.harbor_boards(repo)
        if before is not None:
            boards += [d for d in harbor.harbor_boards(before) if d not in boards]
    if ids is None:
        ids = preview.leaderboards(repo)
        if before is not None:
            ids += [n for n in preview.leaderboards(before) if n not in ids]
    if before is not None:
        return preview.render_changes(fmt, preview.compare_repos(before, repo, ids),
                                      harbor.compare_boards(before, repo, boards), all_rows)
    lbs = []
    for lb in ids:
        lbs.append(preview.board(repo, lb))
        repo.forget("")  # one board's documents at a time
    hbs = []
    for d in boards:
        hbs.append(harbor.board(repo, d))
        repo.forget("")
    if not lbs and not hbs:
        raise fail(f"no leaderboards under {repo.root / repo.layout.roots['leaderboards']}, "
                   f"and no Harbor leaderboard under {repo.root / 'leaderboard'}")
    return preview.render_boards(fmt, lbs, hbs)


@click.command("lsp", context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--select", multiple=True, metavar="CODES",
              help="Only these rule codes, prefixes or names (comma-separated), as for a run.")
@click.option("--ignore", multiple=True, metavar="CODES",
              help="Skip these rule codes, prefixes or names (comma-separated), as for a run.")
def lsp_cmd(select, ignore):
    """Run the language server on standard input and output (for editors;
    needs the lsp extra: pip install 'penguin-lint[lsp]')."""
    from penguin_lint.core.config import rule_list
    from penguin_lint.rules import rule_codes

    try:  # said before the editor waits on a server that cannot start
        chosen = {name: rule_list(list(value), rule_codes(), f"--{name}") if value else []
                  for name, value in (("select", select), ("ignore", ignore))}
    except ValueError as e:
        raise fail(str(e))
    try:
        from penguin_lint.lsp.server import serve
    except ImportError as e:
        raise fail(f"the language server needs pygls 2 (pip install 'penguin-lint[lsp]'): {e}")
    serve(**chosen)


@click.command("schemas", context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--write", "dest", metavar="DIR", type=click.Path(path_type=str),
              help="Copy the JSON Schemas into DIR (made if missing), for editor settings that name them "
                   "relative to the repository.")
@click.option("--path", "show_path", is_flag=True, help="Print the folder of the installed schemas.")
def schemas_cmd(dest, show_path):
    """The JSON Schemas of the data files, for editors (yaml-language-server, taplo)."""
    from penguin_lint.validation import schema_files

    if dest is None and not show_path:
        raise fail("give --write DIR or --path")
    if show_path:
        show(schema_files.folder())
    if dest is not None:
        try:
            written = schema_files.write(dest, _write_roots(Path.cwd()))
        except schema_files.SchemaWriteError as e:
            raise fail(str(e))
        say(f"wrote {len(written)} schemas to {dest}", err=False)


@click.command("merge", context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("reports", nargs=-1, metavar="REPORT.json...")
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="text",
              show_default=True, help="Output format.")
@click.option("--strict", is_flag=True, help="Exit 1 on warnings too.")
@click.option("--color", type=click.Choice(["auto", "always", "never"]), default="auto", show_default=True)
@click.option("--output", "-o", type=click.Path(dir_okay=False, writable=True, path_type=str),
              help="Write the report to this file instead of standard output.")
def merge_cmd(reports, fmt, strict, color, output):
    """Join the JSON reports of every `--all --shard K/N` run into the report
    `--all` gives, in any format, with its exit status."""
    from penguin_lint.engine.merge import MergeError, merge_files
    from penguin_lint.formats import get_reporter
    from penguin_lint.rules import all_rules

    try:
        merged = merge_files(list(reports))
    except MergeError as e:
        raise fail(str(e))
    result = merged.result
    options = {"rules": {r.code: r for r in all_rules()}}
    if fmt in REPOSITORY_PATHS:
        from penguin_lint.github.environment import blob_base, relocate, summary_path

        prefix = merged.prefix
        if fmt == "github":
            options.update(exists=lambda p: p[len(prefix):] not in merged.missing,
                           summary_path=summary_path(os.environ), blob_base=blob_base(os.environ))
        result = relocate(result, prefix)
    stream = LogGuard(_open_output(output, Path.cwd())) if output else sys.stdout
    try:
        options["color"] = use_color(color, stream if not output else None)
        get_reporter(fmt)(result, stream, **options)
    finally:
        if output:
            stream.close()
    failed = result.errors > 0 or (strict and result.warnings > 0) or result.nothing_checked
    raise click.exceptions.Exit(EXIT_FINDINGS if failed else EXIT_OK)


SUBCOMMANDS = {"rules": rules_cmd, "preview": preview_cmd, "merge": merge_cmd, "lsp": lsp_cmd,
               "schemas": schemas_cmd}


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
                code = command.main(args=args, prog_name=name, standalone_mode=False)
            except click.UsageError as e:
                # click's own three lines (usage, try --help, error) become
                # one in the tool's style; the message names the option.
                say(f"penguin-lint: error: {usage_message(e)}")
                sys.exit(EXIT_FAILURE)
            except click.ClickException as e:
                say("penguin-lint: error: " + " ".join(e.format_message().split()))
                sys.exit(EXIT_FAILURE)
            except (KeyboardInterrupt, click.Abort):  # pragma: no cover
                say("penguin-lint: interrupted")
                sys.exit(EXIT_FAILURE)
            sys.exit(code if isinstance(code, int) else EXIT_OK)
    finally:
        if argv is None and not gc.isenabled():
            # A lint run (lint() turned the collector off) and the process
            # ends here: what the run left alive dies with it. Frozen, it is
            # skipped by the collector's passes at the interpreter's exit,
            # which otherwise cost a hook a sixth of its own work; its files
            # are closed, atexit still runs.
            gc.freeze()
        gc.enable()  # lint() turns it off for the run; callers in-process get it back
