"""The GitHub Action's step: ``python -I -m penguin_lint.github.action``.

Inputs arrive as environment variables (``action.yml`` maps each input into
``env:``; none is pasted into a shell script, so a branch name or a select
list can never run as code):

    PENGUIN_LINT_BASE     git ref to compare with (default: the pull
                          request's base branch, the commit before a push,
                          else the default branch)
    PENGUIN_LINT_ALL      "true": lint the whole repository
    PENGUIN_LINT_NEW_ONLY "true": report only findings the change introduced,
                          in touched files too
    PENGUIN_LINT_STRICT   "true": warnings fail the step too
    PENGUIN_LINT_SELECT   rule codes or prefixes, comma or space separated
    PENGUIN_LINT_IGNORE   idem
    PENGUIN_LINT_SARIF    write a SARIF file here (for code-scanning upload)
    PENGUIN_LINT_PATH     folder to run in, and the repository root (default:
                          the workspace); never a folder above it
    PENGUIN_LINT_SHARD    "K/N": lint part K of N of the whole repository (a
                          CI matrix; implies PENGUIN_LINT_ALL). The part is
                          not annotated: its JSON report goes to the job that
                          merges the parts, which annotates once for all
    PENGUIN_LINT_JSON     write the JSON report here (a shard's, for merging)
    PENGUIN_LINT_MERGE    a folder of the shards' JSON reports: merge them
                          (``penguin-lint merge``) instead of linting, and
                          report the whole as an ``all`` run would

The working directory is the pull request's checkout, which may hold a
``penguin_lint/``, ``json.py`` or ``click.py`` of its own: every Python
process is started in isolated mode (``-I``), so only installed code runs.

The linter runs once, in this process, through the pipeline the command
line uses (``penguin_lint.pipeline``); annotations, the step summary and
SARIF are all made from that one result, with paths named from the
repository root. Writes
``errors``, ``warnings``, ``sarif``, ``status`` (and ``json`` when asked for) to ``$GITHUB_OUTPUT``,
and a step summary even when the linter cannot run. Exit status is the
linter's: 0, 1 on errors (or warnings with strict), 2 when it cannot run.
"""
from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Dict, Optional

TRUE = ("1", "true", "yes", "on")

#: What to do about a failure, by what its message says (first match wins).
FIXES = (
    (r"shallow clone",
     "the checkout lacks the history to find the merge base: give `actions/checkout` "
     "`fetch-depth: 0` (or fetch the base branch before this step)."),
    (r"(unknown|invalid) git revision|no merge base|no common history",
     "check the `base` input, and fetch the base branch: `actions/checkout` with `fetch-depth: 0`."),
    (r"no default branch",
     "set the `base` input to the branch to compare with."),
    (r"not a git repository|outside the git work tree|without a work tree",
     "run `actions/checkout` before penguin-lint, or set the `path` input to the checkout "
     "(or `all: true` to lint without git)."),
    (r"nothing to lint",
     "set the `path` input to the folder that holds the benchmarks' packages/, leaderboards/ and "
     "experiments/ (the default is the repository top)."),
    (r"git is not",
     "install git on the runner."),
    (r"\.penguin-lint\.toml",
     "fix `.penguin-lint.toml` (the README's Configuration section lists its settings); "
     "`penguin-lint --all` checks it locally."),
    (r"^path input",
     "set the `path` input to a folder of the checkout."),
    (r"^the shard input needs",
     "add `json: <file>` next to `shard`, and upload that file (`actions/upload-artifact`) for the job "
     "that merges the shards."),
    (r"^the shard and merge inputs",
     "give `shard` to the matrix's jobs and `merge` to the one job that `needs:` them."),
    (r"--shard takes|--shard .*K must be",
     "set the `shard` input to K/N, e.g. `${{ matrix.shard }}/4`."),
    (r"shard|^merge input|merge joins|different (commits|settings|splits)|given twice|split the repository",
     "give `merge` the folder where the JSON reports of every shard of this run were downloaded "
     "(`actions/download-artifact`), each written with the `json` input next to `shard`, all with "
     "the same inputs (see docs/sharding.md)."),
)
DEFAULT_FIX = ("run `penguin-lint` locally with the same options to see the error; an exit status "
               "other than 0, 1 or 2 is a bug in penguin-lint.")


def _flag(env: Dict[str, str], name: str) -> bool:
    return env.get(name, "").strip().lower() in TRUE


def _codes(value: str) -> str:
    return ",".join(c for c in re.split(r"[\s,]+", value or "") if c)


def base_ref(env: Dict[str, str]) -> Optional[str]:
    """The ref to compare with, as GitHub describes the run."""
    from penguin_lint.github.environment import event

    if env.get("PENGUIN_LINT_BASE", "").strip():
        return env["PENGUIN_LINT_BASE"].strip()
    if env.get("GITHUB_BASE_REF"):  # pull_request events
        return f"origin/{env['GITHUB_BASE_REF']}"
    if env.get("GITHUB_EVENT_NAME") == "push":
        before = event(env).get("before") or ""
        if isinstance(before, str) and re.fullmatch(r"[0-9a-f]{40}|[0-9a-f]{64}", before) \
                and set(before) != {"0"}:
            return before
    return None  # the linter picks the default branch


def request(env: Dict[str, str], root: Path):
    """The run the step's inputs ask for (``pipeline.Request``)."""
    from penguin_lint.pipeline import Request

    select, ignore = _codes(env.get("PENGUIN_LINT_SELECT", "")), _codes(env.get("PENGUIN_LINT_IGNORE", ""))
    req = Request(root=root, cwd=root, env=env, cache_dir=env.get("PENGUIN_LINT_CACHE_DIR") or None,
                  select=[select] if select else [], ignore=[ignore] if ignore else [])
    shard = env.get("PENGUIN_LINT_SHARD", "").strip()
    if shard:
        req.shard = shard
    # On a pull request a shard is a part of its diff run (judged as the
    # pull request, not blamed for old debt); elsewhere, or with all, of --all.
    if _flag(env, "PENGUIN_LINT_ALL") or (shard and not env.get("GITHUB_BASE_REF")):
        req.all = True
        if env.get("GITHUB_BASE_REF"):
            # a pull request's run: judged by the base's configuration, not its own
            req.config_base = base_ref(env)
    else:
        from penguin_lint.github.environment import change_options

        req.diff_base = base_ref(env)
        req.new_only = _flag(env, "PENGUIN_LINT_NEW_ONLY")
        req.committed = bool(change_options(env))
    return req


def _set_outputs(env: Dict[str, str], values: Dict[str, str]) -> None:
    path = env.get("GITHUB_OUTPUT")
    if not path:
        return
    try:
        with open(path, "a", encoding="utf-8", errors="replace") as out:
            for key, value in values.items():
                value = re.sub(r"[\r\n]", "", value)  # one line per output: a value cannot add another
                out.write(f"{key}={value}\n")
    except OSError as e:
        print(f"penguin-lint: warning: cannot write the step's outputs: {e.strerror or e}")


def fix_for(message: str) -> str:
    for pattern, fix in FIXES:
        if re.search(pattern, message):
            return fix
    return DEFAULT_FIX


def _relay(stderr: str) -> None:
    """Lines for the log's stderr, each unable to act as a workflow command."""
    from penguin_lint.output.log_guard import safe_line

    for line in stderr.splitlines():
        sys.stderr.write(safe_line(line) + "\n")


def _warn(message: str) -> None:
    _relay(f"penguin-lint: warning: {message}")


def _failed(env: Dict[str, str], message: str) -> int:
    from penguin_lint.github.environment import summary_path
    from penguin_lint.github import annotations, summary as job_summary

    from penguin_lint.output.log_guard import emit_command

    emit_command(sys.stdout, f"::error title=penguin-lint::{annotations.escape_data(message)}")
    fix = fix_for(message)
    print(f"penguin-lint: fix: {annotations.escape_data(re.sub(r'`', '', fix))}")
    summary = summary_path(env)
    if summary:
        try:
            annotations.write_summary(summary, job_summary.render_failure(message, fix))
        except OSError as e:
            print(f"penguin-lint: warning: cannot write the job summary: {e.strerror or e}")
    # Counts are unknown, not zero: a workflow testing `errors == '0'` must not pass.
    _set_outputs(env, {"errors": "", "warnings": "", "sarif": "", "status": "error"})
    return 2


def _last_line(text: str, default: str) -> str:
    lines = [ln for ln in text.splitlines() if ln.strip()]
    msg = lines[-1] if lines else default
    return re.sub(r"^penguin-lint: error: ", "", msg)


def _preview_summary(env: Dict[str, str], cwd: str, root: Path, path: str) -> None:
    """Append to the job summary what the pull request does to each
    leaderboard it affects (before -> after), as far as GitHub's 1 MiB cap
    allows. A preview that cannot be made is said in one line; it never
    fails the step (the lint result decides that)."""
    from penguin_lint.github import annotations, summary as job_summary
    from penguin_lint.github.environment import change_options

    args = [sys.executable, "-I", "-m", "penguin_lint", "preview", f"--root={root}", "--format", "markdown"]
    # one argument: a ref cannot pose as an option
    args.append(f"--diff-base={base_ref(env) or _default_base(root) or 'HEAD'}")
    args.extend(change_options(env))
    try:
        proc = subprocess.run(args, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              stdin=subprocess.DEVNULL, timeout=600)
    except (OSError, subprocess.TimeoutExpired) as e:
        proc = None
        note = f"the leaderboard preview could not run: {e}"
    if proc is not None:
        text = proc.stdout.decode("utf-8", "replace")
        note = None if proc.returncode == 0 else _last_line(proc.stderr.decode("utf-8", "replace"),
                                                             f"preview exited with status {proc.returncode}")
    if note is not None:
        text = f"\n*{job_summary.md(note, cell=False)}*\n"
    elif text.startswith("No leaderboard is affected"):
        return
    else:
        text = "\n## Leaderboards after this pull request\n\n" + text.rstrip("\n") + "\n"
    budget = job_summary.LIMIT - annotations._existing(path)
    if len(text.encode("utf-8")) > budget:
        cut = text.encode("utf-8")[:max(0, budget - 200)].decode("utf-8", "ignore")
        text = cut[:cut.rfind("\n") + 1] + f"\n**{job_summary.CUT_NOTE}**\n" if budget > 200 else ""
    if text:
        try:
            annotations.write_summary(path, text)
        except OSError:
            pass  # the lint summary above says what matters


def _leaderboard_page(env: Dict[str, str], cwd: str, root: Path, path: str) -> str:
    """Write the HTML page of the boards the change affects (outside the
    checkout, for the upload step) and the compact Table to the job
    summary; the page's path, or "" when there is none."""
    import json

    from penguin_lint.github import annotations, board_page, summary as job_summary

    base = base_ref(env) or _default_base(root) or "HEAD"
    report = board_page._preview(env, cwd, root, base, "json")
    if report is None:
        return ""  # no board affected
    try:
        data = json.loads(report)
        boards = data.get("leaderboards", []) + data.get("harbor_leaderboards", [])
        changed = any(b.get("changes") for b in boards)
    except (ValueError, AttributeError, TypeError):
        data, changed = None, True
    # a board the change touches without changing a row (a note beside it): no page to look at
    written = board_page.write_page(env, cwd, root, base) if changed else None
    if data is None:
        return written or ""
    try:
        text = board_page.compact_table(data, board_page.run_url(env), written is not None)
    except (ValueError, KeyError, TypeError):
        return written or ""
    if len(text.encode("utf-8")) <= job_summary.LIMIT - annotations._existing(path):
        try:
            annotations.write_summary(path, "\n" + text)
        except OSError:
            pass  # the lint summary above says what matters
    return written or ""


def _default_base(root: Path) -> Optional[str]:
    from penguin_lint.pr.git import DEFAULT_BRANCHES, GitError, GitRepo

    try:
        g = GitRepo(root)
    except GitError:
        return None
    try:
        for name in DEFAULT_BRANCHES:
            if g.rev(name + "^{commit}"):
                return name
    except GitError:
        pass
    finally:
        g.close()
    return None


def main(env: Optional[Dict[str, str]] = None) -> int:
    from penguin_lint.output.log_guard import guarded_std

    # No line this step writes, whatever it quotes, acts as a workflow command.
    with guarded_std():
        return _main(env)


def _main(env: Optional[Dict[str, str]] = None) -> int:
    from penguin_lint.github.environment import blob_base, relocate, repository_prefix, summary_path
    from penguin_lint.github import annotations
    from penguin_lint.pipeline import PenguinLintError, run
    from penguin_lint.reporters import json_reporter, sarif_reporter
    from penguin_lint.rules import all_rules

    env = dict(os.environ if env is None else env)
    cwd = env.get("PENGUIN_LINT_PATH", "").strip() or "."
    if not os.path.isdir(cwd):
        return _failed(env, f"path input is not a folder of the checkout: {cwd}")
    from penguin_lint.run.root import link_on_the_way

    link = link_on_the_way(Path("."), cwd)
    if link is not None:  # a pull request that made it a link would choose the folder linted
        return _failed(env, f"path input {cwd}: {link} is a symbolic link in the checkout; "
                            "the path input names a real folder")
    # The root is the path input (the workspace by default), never a folder
    # found by walking up: a .penguin-lint.toml the pull request adds above
    # the layout must not move the run away from what it changed.
    root = Path(os.path.abspath(cwd))
    shard = env.get("PENGUIN_LINT_SHARD", "").strip()
    merging = env.get("PENGUIN_LINT_MERGE", "").strip()
    json_out = env.get("PENGUIN_LINT_JSON", "").strip()
    if merging and shard:
        return _failed(env, "the shard and merge inputs cannot be combined: shards lint, one job merges them")
    if shard and not json_out:
        return _failed(env, "the shard input needs the json input: a shard's report is made to be merged")
    if merging:
        try:
            merged = _merged(os.path.join(cwd, merging), merging)
        except ValueError as e:
            return _failed(env, str(e))
        except Exception as e:  # a bug: one line and a failed step, not a traceback
            return _failed(env, f"internal error: {type(e).__name__}: {e}")
        result, prefix = merged.result, merged.prefix
        exists = {f.path: f.path not in merged.missing for f in result.findings if f.path}
    else:
        try:
            outcome = run(request(env, root), warn=_warn)
        except PenguinLintError as e:
            _relay(f"penguin-lint: error: {e}")  # as the command line says it
            return _failed(env, str(e))
        except Exception as e:  # a bug: said as one line and a failed step, not a traceback
            return _failed(env, f"internal error: {type(e).__name__}: {e}")
        result = outcome.result
        # Existence is asked of the linted tree, by the path the linter reported.
        exists = {f.path: os.path.lexists(root / f.path) for f in result.findings if f.path}
        prefix = repository_prefix(root, env)
    failed = result.errors > 0 or (_flag(env, "PENGUIN_LINT_STRICT") and result.warnings > 0) \
        or result.nothing_checked
    returncode = 1 if failed else 0
    shown = relocate(result, prefix)
    exists = {prefix + p: v for p, v in exists.items()}
    rules = {r.code: r for r in all_rules()}
    if shard:
        # The merge job annotates the whole once: GitHub's 10 errors and 10
        # warnings per step then go to the findings a reviewer acts on first
        # across all the parts, and the run has one summary, not N.
        _shard_log(shown, result.shard or {})
    else:
        annotations.report(shown, sys.stdout, exists=lambda p: exists.get(p, True),
                           summary_path=summary_path(env), blob_base=blob_base(env))
    sys.stdout.flush()
    page = ""
    if not (_flag(env, "PENGUIN_LINT_ALL") or shard or merging) and summary_path(env):
        _preview_summary(env, cwd, root, summary_path(env))
        page = _leaderboard_page(env, cwd, root, summary_path(env))
    outputs = {"errors": str(result.errors), "warnings": str(result.warnings), "sarif": "",
               "status": "failed" if returncode else "passed", "leaderboard-page": page}
    # JSON as the command line writes it (paths from the root, the shard's
    # stamp for merging); SARIF from the repository root, for code scanning.
    for name, rel, write in (("json", json_out, lambda out: json_reporter.report(result, out)),
                             ("sarif", env.get("PENGUIN_LINT_SARIF", "").strip(),
                              lambda out: sarif_reporter.report(shown, out, rules=rules))):
        if not rel:
            continue
        written = _write_report(env, cwd, root, name, rel, write)
        if written is None:
            outputs["status"] = "error"
            _set_outputs(env, outputs)
            return 2
        outputs[name] = written
    _set_outputs(env, outputs)
    return returncode


def _merged(folder: str, given: str):
    """The shards' reports in ``folder`` merged (engine.merge); ValueError
    with the line to say when that cannot be done."""
    from penguin_lint.engine.merge import MAX_REPORTS, MergeError, merge_files

    try:
        with os.scandir(folder) as it:
            # regular files only: a link is never followed to a report
            paths = sorted(e.path for e in it if e.name.endswith(".json") and e.is_file(follow_symlinks=False))
    except OSError as e:
        raise ValueError(f"merge input {given}: cannot list it: {e.strerror or e}") from None
    if not paths:
        raise ValueError(f"merge input {given}: no .json report in it (download every shard's report there)")
    if len(paths) > MAX_REPORTS:
        raise ValueError(f"merge input {given}: {len(paths)} reports, more than the {MAX_REPORTS} shards "
                         f"a matrix can have")
    try:
        return merge_files(paths)
    except MergeError as e:
        raise ValueError(str(e)) from None


def _shard_log(shown, stamp: dict) -> None:
    """A shard's findings as plain log lines: no annotation and no job
    summary (the job that merges the parts writes the one of the run)."""
    from penguin_lint.github import annotations
    from penguin_lint.github.summary import plural
    from penguin_lint.reporters.wording import files_checked, holds_none

    if holds_none(shown) and not shown.findings:
        # what it says of the run's files names the part: once is enough
        sys.stdout.write(f"penguin-lint: nothing to check: {files_checked(shown)}\n")
        return
    for f in shown.findings:
        for line in annotations.log_lines(f):
            sys.stdout.write(line + "\n")
    part = f"{stamp.get('index')}/{stamp.get('count')}"
    counts = f"{plural(shown.errors, 'error')}, {plural(shown.warnings, 'warning')} ({files_checked(shown)})"
    sys.stdout.write(f"penguin-lint: shard {part}: {counts}; the job that merges the shards annotates them\n")


def _write_report(env: Dict[str, str], cwd: str, root: Path, name: str, rel: str, write) -> Optional[str]:
    """The ``name`` input's report written to ``rel`` (from the path input);
    its absolute path, or None after an error annotation."""
    from penguin_lint.core.outfile import OutputRefused, check_destination, open_report
    from penguin_lint.github import annotations
    from penguin_lint.output.log_guard import emit_command

    path = os.path.abspath(os.path.join(cwd, rel))
    # The checkout is the pull request's: a link it committed must not
    # carry the report out of the workspace or into .git.
    workspace = env.get("GITHUB_WORKSPACE", "").strip() or str(root)
    temp = env.get("RUNNER_TEMP", "").strip()
    within = [workspace] + ([env["RUNNER_TEMP"]] if temp else [])
    # a refusal names every folder the report may go in
    allowed = "the workspace and runner.temp (where a report may go)" if temp else "the workspace"
    roots = [workspace, str(root)]
    try:
        check_destination(path, roots, within, allowed)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open_report(path, roots, within, allowed) as out:
            write(out)
    except (OSError, OutputRefused) as e:
        # Asked for and not written: the upload after this step would have nothing.
        why = f"{rel}: {e.reason if isinstance(e, OutputRefused) else e.strerror or e}"
        emit_command(sys.stdout, "::error title=penguin-lint::"
                     + annotations.escape_data(f"cannot write the {name} input {why}"))
        return None
    return path


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
