"""The rows of `python -m benchmarks.run --waits`: where contributors wait.

W1 the pre-commit hook (`--staged`, one staged file) at two sizes, vs a bare start, and
   beside one huge leaderboard;
W2 one huge leaderboard in every mode (path run, untracked and tracked; standard input; the
   language server opening it) vs `--all` on the same file;
W3 a one-file diff run without a cache at two sizes: a first CI run (the change committed,
   --committed, as the Action runs it), and a contributor's first local run (git's status floor);
W4 cold `--all` CPU vs check-jsonschema on a repository of small files;
W5 the language server: first diagnostics of an ordinary file vs importing its libraries.
With --instructions, W1 again in instructions counted by valgrind (benchmarks/instructions.py):
penguin-lint's own process apart from git's.

Each row is a ratio of two timings of the same interleaved run (benchmarks/common.py).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path

from benchmarks import huge
from penguin_lint.pr.git import READ_ONLY
from benchmarks.common import (GIT, Row, Run, Timing, check_jsonschema_job, diff_target, ensure_huge,
                            ensure_repo, find_check_jsonschema, fmt_s, interleaved, lint_problem,
                            report, restore_diff_file, run_once, verdict, warm_cache, _children_cpu,
                            TIMEOUT_S, DIFF_EDIT, PARSE_FLOOR)

# Runs of a tenth of a second vary by a third between rounds on a shared machine: the hook and
# the bare start are timed this many times in a row in each round, and their medians taken over all.
BURST = 5
# A flat cost: the large repository (about 9x the small one's files) may cost this much more.
FLAT = 1.2
# A cold run may cost this much more than reading and parsing its files with its own loaders.
LOADERS = 1.5
# The hook's own process may execute this many times the instructions of a bare start.
HOOK_INSTRUCTIONS = 1.5
# The library floor of the language server: what any server written on them imports first.
LSP_FLOOR = "import pygls.server, lsprotocol.types"


def git_copy(source: Path, dest: Path, track_board: bool) -> Path:
    """`source` (a huge-leaderboard folder) as a git repository, its board committed or left
    untracked; rebuilt when the source's stamp changes."""
    stamp = dest.with_suffix(".stamp")
    want = (source.with_suffix(".stamp").read_text() if source.with_suffix(".stamp").is_file() else "")
    if dest.is_dir() and stamp.is_file() and stamp.read_text() == want:
        return dest
    shutil.rmtree(dest, ignore_errors=True)
    shutil.copytree(source, dest)
    env = dict(os.environ, GIT_AUTHOR_DATE="2026-10-29T12:00:00Z", GIT_COMMITTER_DATE="2026-10-29T12:00:00Z")
    add = ["add", "-A"] if track_board else ["add", "-A", "--", ".", ":!leaderboards"]
    for args in (["init", "-q", "-b", "main"], add, ["commit", "-q", "-m", "huge"]):
        subprocess.run([*GIT, *args], cwd=dest, env=env, check=True, stdin=subprocess.DEVNULL,
                       stdout=subprocess.DEVNULL)
    stamp.write_text(want)
    return dest


def burst(job, times: int = BURST):
    """``job`` timed ``times`` times in a row: one list of runs per round."""
    return lambda: [job() for _ in range(times)]


@contextmanager
def one_staged_file(root: Path):
    """One attempt file edited and staged, as a commit about to be made; undone after."""
    rel = diff_target(root).relative_to(root).as_posix()
    with open(root / rel, "a", encoding="utf-8") as f:
        f.write(DIFF_EDIT)
    subprocess.run([*GIT, "add", "--", rel], cwd=root, check=True, stdin=subprocess.DEVNULL)
    try:
        yield
    finally:
        subprocess.run([*GIT, "reset", "-q", "--", rel], cwd=root, check=True, stdin=subprocess.DEVNULL)
        restore_diff_file(root)


def staged_job(linter, root: Path):
    """The hook: one attempt file edited and staged, `--staged`."""
    def job() -> Run:
        with one_staged_file(root):
            return linter(root, "--staged")
    return job


def git_status_job(root: Path):
    """The question a first diff run asks git about the work tree (what is
    modified, staged or untracked under the layout's folders), with the same
    one-file edit: git's own cost, which grows with the tree it stats and lists."""
    target = diff_target(root)
    folders = [f":(literal){d}" for d in ("data", "packages", "experiments", "leaderboards")]

    def job() -> Run:
        with open(target, "a", encoding="utf-8") as f:
            f.write(DIFF_EDIT)
        try:
            # as the run asks it: read-only (the index is never refreshed in place)
            return run_once(["git", *READ_ONLY, "status", "--porcelain=v2", "-z", "-uall", "--ignore-submodules",
                             "--", *folders], cwd=root)
        finally:
            restore_diff_file(root)
    return job


def diff_job(linter, root: Path):
    """A contributor's first diff run: one file edited in the work tree, which git must find."""
    target = diff_target(root)

    def job() -> Run:
        with open(target, "a", encoding="utf-8") as f:
            f.write(DIFF_EDIT)
        try:
            return linter(root, "--diff-base", "HEAD", "--no-cache")
        finally:
            restore_diff_file(root)
    return job


def ci_diff_job(linter, root: Path):
    """A pull request's first CI run, as the Action runs it: one file edited and committed on
    top of the base, judged with --committed in a clean checkout; the commit undone after."""
    target = diff_target(root)
    rel = target.relative_to(root).as_posix()
    env = dict(os.environ, GIT_AUTHOR_DATE="2026-10-29T12:00:00Z", GIT_COMMITTER_DATE="2026-10-29T12:00:00Z")

    def git(*args: str) -> None:
        subprocess.run([*GIT, *args], cwd=root, env=env, check=True, stdin=subprocess.DEVNULL,
                       stdout=subprocess.DEVNULL)

    def job() -> Run:
        with open(target, "a", encoding="utf-8") as f:
            f.write(DIFF_EDIT)
        git("commit", "-q", "-m", "one file", "--", rel)
        try:
            return linter(root, "--diff-base", "HEAD~1", "--committed", "--no-cache")
        finally:
            git("reset", "-q", "--soft", "HEAD~1")
            git("reset", "-q", "--", rel)
            restore_diff_file(root)
    return job


def _frame(message: dict) -> bytes:
    body = json.dumps(dict(message, jsonrpc="2.0")).encode()
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def lsp_job(linter, root: Path, rel: str):
    """Start `penguin-lint lsp`, initialize, open `rel`; timed until its diagnostics arrive
    (then the server is shut down, untimed)."""
    path = root / rel
    uri = path.resolve().as_uri()

    def job() -> Run:
        text = path.read_text(encoding="utf-8")
        cpu0 = _children_cpu()
        start = time.perf_counter()
        proc = subprocess.Popen([*linter.cmd, "lsp"], cwd=root, env=linter.env, stdin=subprocess.PIPE,
                                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        proc.stdin.write(_frame({"id": 1, "method": "initialize", "params": {
            "processId": None, "rootUri": root.resolve().as_uri(), "capabilities": {}}}))
        proc.stdin.write(_frame({"method": "initialized", "params": {}}))
        proc.stdin.write(_frame({"method": "textDocument/didOpen", "params": {"textDocument": {
            "uri": uri, "languageId": "yaml", "version": 1, "text": text}}}))
        proc.stdin.flush()
        seen = False
        while not seen:
            headers = {}
            while True:
                line = proc.stdout.readline()
                if not line:
                    break
                if not line.strip():
                    break
                name, _, value = line.decode("ascii").partition(":")
                headers[name.strip().lower()] = value.strip()
            if "content-length" not in headers:
                break
            msg = json.loads(proc.stdout.read(int(headers["content-length"])))
            seen = (msg.get("method") == "textDocument/publishDiagnostics"
                    and msg["params"]["uri"] == uri)
        elapsed = time.perf_counter() - start
        # The process's CPU up to now is read from /proc: waiting for its exit would add the
        # shutdown, which nobody waits for.
        cpu = _proc_cpu(proc.pid)
        proc.stdin.write(_frame({"id": 2, "method": "shutdown"}) + _frame({"method": "exit"}))
        proc.stdin.close()
        try:
            proc.wait(timeout=TIMEOUT_S)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        if cpu is None:
            cpu = _children_cpu() - cpu0
        return Run(elapsed, 0 if seen else 3, "", "" if seen else "no diagnostics", cpu)
    return job


def _proc_cpu(pid: int) -> float | None:
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def waits_main(args, linter, repeat: int) -> int:
    prefix = "quick-" if args.quick else ""
    leaves = 2_000 if args.quick else huge.LEAVES
    caches = args.workdir / "caches"
    shutil.rmtree(caches, ignore_errors=True)
    caches.mkdir(parents=True)
    small, n_small, _ = ensure_repo(args.workdir, prefix + "small")
    large, n_large, _ = ensure_repo(args.workdir, prefix + "large")
    one = ensure_huge(args.workdir, 1, leaves)
    tracked = git_copy(one, args.workdir / f"{one.name}-tracked", True)
    untracked = git_copy(one, args.workdir / f"{one.name}-untracked", False)
    for root in (small, large, one, tracked, untracked):
        warm_cache(root)
    board = "leaderboards/huge-0/leaderboard.yaml"
    ordinary = diff_target(small).relative_to(small).as_posix()
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} CPUs, repeat {repeat}, workdir {args.workdir}")
    print(f"penguin-lint: {linter.describe()}; small {n_small:,} files, large {n_large:,} files")

    def stdin_run() -> Run:
        cmd = [*linter.cmd, "--root", str(tracked), "--no-cache", "--stdin-filename", board, "-"]
        cpu0 = _children_cpu()
        start = time.perf_counter()
        with open(tracked / board, "rb") as f:
            proc = subprocess.run(cmd, cwd=tracked, env=linter.env, stdin=f, capture_output=True,
                                  timeout=TIMEOUT_S)
        return Run(time.perf_counter() - start, proc.returncode, proc.stdout.decode(errors="replace"),
                   proc.stderr.decode(errors="replace"), _children_cpu() - cpu0)

    jobs = {
        "--version (small)": burst(lambda: linter(small, "--version")),
        "--version (large)": burst(lambda: linter(large, "--version")),
        "--staged, 1 file (small)": burst(staged_job(linter, small)),
        "--staged, 1 file (large)": burst(staged_job(linter, large)),
        "--staged, 1 file, huge board": burst(staged_job(linter, tracked)),
        "--all -j1 --no-cache, huge board": lambda: linter(tracked, "--all", "-j1", "--no-cache"),
        "path run, huge board untracked": lambda: linter(untracked, "--no-cache", board),
        "path run, huge board tracked": lambda: linter(tracked, "--no-cache", board),
        "--stdin-filename, huge board": stdin_run,
        "lsp, open huge board": lsp_job(linter, tracked, board),
        "CI diff run, 1 file, --committed --no-cache (small)": ci_diff_job(linter, small),
        "CI diff run, 1 file, --committed --no-cache (large)": ci_diff_job(linter, large),
        "diff run, 1 file, --no-cache (small)": diff_job(linter, small),
        "diff run, 1 file, --no-cache (large)": diff_job(linter, large),
        "git status -uall (small)": git_status_job(small),
        "git status -uall (large)": git_status_job(large),
        "lsp, first diagnostics (small)": lsp_job(linter, small, ordinary),
        "lsp library imports": lambda: run_once([sys.executable, "-c", LSP_FLOOR]),
        "cold --all (small)": lambda: linter(small, "--all", "--cache-dir", str(_empty(caches / "cold"))),
        "cold --all (large)": lambda: linter(large, "--all", "--cache-dir", str(_empty(caches / "cold"))),
        # what any linter pays to read the files with the consumer's parsers, and what
        # penguin-lint's own loaders pay, before validation or rules (benchmarks/parse_floor.py)
        "parse floor (small)": lambda: run_once([sys.executable, str(PARSE_FLOOR), str(small)]),
        "own loaders floor (small)": lambda: run_once([sys.executable, str(PARSE_FLOOR), "--ours", str(small)],
                                                      env=linter.env),
        "own loaders floor (large)": lambda: run_once([sys.executable, str(PARSE_FLOOR), "--ours", str(large)],
                                                      env=linter.env),
    }
    cjs = find_check_jsonschema()
    if cjs:
        jobs["check-jsonschema (small)"] = check_jsonschema_job(cjs, small, args.schemas)
    t = interleaved(repeat, jobs)
    rows, notes = waits_rows(t, n_small, n_large, prefix, one.name)
    if args.instructions:
        rows += instruction_rows(linter, small, large, f"{prefix}small ({n_small:,} files)",
                                 f"{prefix}large ({n_large:,} files)")
    for tm in t.values():
        if "check-jsonschema" not in tm.label and "imports" not in tm.label:
            problem = lint_problem(tm)
            if problem:
                notes.append(problem)
    return report(rows, t.values(), notes, "small repositories" if args.quick else None)


def instruction_rows(linter, small: Path, large: Path, small_label: str, large_label: str) -> list[Row]:
    """W1 counted in instructions (benchmarks/instructions.py): penguin-lint's own process
    apart from the git processes it starts, each run once (a count does not vary)."""
    from benchmarks import instructions as ins

    if not ins.available():
        return [Row("W1i", "hook in instructions (valgrind)", "-", "-", "valgrind not found", "-",
                    f"<= {HOOK_INSTRUCTIONS}x", "SKIPPED")]
    c = {}
    for size, root in (("small", small), ("large", large)):
        c["version", size] = ins.count([*linter.cmd, "--root", str(root), "--version"], root, linter.env)
        with one_staged_file(root):
            c["hook", size] = ins.count([*linter.cmd, "--root", str(root), "--staged"], root, linter.env)
    rows: list[Row] = []
    for size, repo in (("small", small_label), ("large", large_label)):
        h, v = c["hook", size], c["version", size]
        bad = h.returncode not in (0, 1) or v.returncode != 0
        r = h.own / v.own
        rows.append(Row("W1i", "hook vs bare start, instructions of penguin-lint's own process", repo,
                        ins.fmt_i(h.own), f"--version {ins.fmt_i(v.own)}", f"{r:.2f}x", f"<= {HOOK_INSTRUCTIONS}x",
                        "ERROR" if bad else verdict(r <= HOOK_INSTRUCTIONS)))
        r = h.total / v.total
        rows.append(Row("W1i", "  the same, git's processes included", repo, ins.fmt_i(h.total),
                        f"--version {ins.fmt_i(v.total)}", f"{r:.2f}x", "-", "info"))
    hl, hs = c["hook", "large"], c["hook", "small"]
    both = f"{large_label} / {small_label}"
    r = hl.own / hs.own
    rows.append(Row("W1i", "  hook, penguin-lint's own process, large vs small", both, ins.fmt_i(hl.own),
                    f"small {ins.fmt_i(hs.own)}", f"{r:.2f}x", f"<= {FLAT}x", verdict(r <= FLAT)))
    rows.append(Row("W1i", "  hook, git's processes (the index read), large vs small", both,
                    ins.fmt_i(hl.git), f"small {ins.fmt_i(hs.git)}", f"{hl.git / hs.git:.2f}x", "-", "info"))
    return rows


def _empty(folder: Path) -> Path:
    shutil.rmtree(folder, ignore_errors=True)
    return folder


def waits_rows(t: dict[str, Timing], n_small: int, n_large: int, prefix: str, huge_name: str):
    rows: list[Row] = []
    notes: list[str] = []
    small, large = f"{prefix}small ({n_small:,} files)", f"{prefix}large ({n_large:,} files)"

    def row(number, what, repo, lint_label, ref_label, target, ok, ratio=None):
        lt, rt = t[lint_label], t[ref_label]
        r = lt.median / rt.median
        bad = lint_problem(lt) if "imports" not in lint_label else None
        rows.append(Row(number, what, repo, fmt_s(lt.median), f"{ref_label} {fmt_s(rt.median)}",
                        ratio(r) if ratio else f"{r:.2f}x", target, "ERROR" if bad else verdict(ok(r))))

    for size, repo in (("small", small), ("large", large)):
        row("W1", "hook: --staged, 1 staged file, vs bare start", repo, f"--staged, 1 file ({size})",
            f"--version ({size})", "<= 2x", lambda r: r <= 2)
    row("W1", "  hook, large vs small", f"{large} / {small}", "--staged, 1 file (large)",
        "--staged, 1 file (small)", f"<= {FLAT}x", lambda r: r <= FLAT)
    # an attempt edited next to a 4.6 MB board: the board is not the edit's to read
    row("W1", "  hook, an attempt beside one huge board vs small", f"{huge_name} / {small}",
        "--staged, 1 file, huge board", "--staged, 1 file (small)", f"<= {FLAT}x", lambda r: r <= FLAT)
    for mode in ("path run, huge board untracked", "path run, huge board tracked",
                 "--stdin-filename, huge board", "lsp, open huge board"):
        row("W2", f"one huge board: {mode.split(', huge board')[0]}{mode.split('huge board')[1]} vs --all",
            huge_name, mode, "--all -j1 --no-cache, huge board", f"<= {FLAT}x", lambda r: r <= FLAT)
    # a first CI run (the Action's): the change is what the pull request commits
    row("W3", "CI diff run, 1 committed file, --committed --no-cache, large vs small", f"{large} / {small}",
        "CI diff run, 1 file, --committed --no-cache (large)", "CI diff run, 1 file, --committed --no-cache (small)",
        f"<= {FLAT}x", lambda r: r <= FLAT)
    # a contributor's first local run: git must stat and list the work tree
    lt, rt = t["diff run, 1 file, --no-cache (large)"], t["diff run, 1 file, --no-cache (small)"]
    rows.append(Row("W3", "  a local diff run, 1 edited file, --no-cache, large vs small", f"{large} / {small}",
                    fmt_s(lt.median), f"{rt.label} {fmt_s(rt.median)}", f"{lt.median / rt.median:.2f}x", "-",
                    "ERROR" if lint_problem(lt) else "info"))
    # what the diff run adds to git's answer: the part penguin-lint controls
    own = {size: t[f"diff run, 1 file, --no-cache ({size})"].median - t[f"git status -uall ({size})"].median
           for size in ("small", "large")}
    rows.append(Row("W3", "  the local run less git status -uall (penguin-lint's own part), large vs small",
                    f"{large} / {small}", fmt_s(own["large"]), f"the same, small {fmt_s(own['small'])}",
                    f"{own['large'] / own['small']:.2f}x", f"<= {FLAT}x",
                    verdict(own["large"] / own["small"] <= FLAT)))
    g_small, g_large = t["git status -uall (small)"].median, t["git status -uall (large)"].median
    rows.append(Row("W3", "  git status -uall alone, large vs small (git's floor)", f"{large} / {small}",
                    fmt_s(g_large), f"git status -uall (small) {fmt_s(g_small)}", f"{g_large / g_small:.2f}x",
                    "-", "info"))
    if "check-jsonschema (small)" in t:
        row("W4", "cold --all CPU vs check-jsonschema", small, "cold --all (small)",
            "check-jsonschema (small)", ">= 15x less", lambda r: 1 / r >= 15, lambda r: f"{1 / r:.1f}x less")
        cjs_t = t["check-jsonschema (small)"].median
        for label, what in (("parse floor (small)", "parse floor: walk + CSafeLoader + tomllib, nothing else"),
                            ("own loaders floor (small)", "penguin-lint's loaders alone: walk, read, parse")):
            ft = t[label].median
            rows.append(Row("W4", f"  {what}, vs check-jsonschema", small, fmt_s(ft),
                            f"check-jsonschema (small) {fmt_s(cjs_t)}", f"{cjs_t / ft:.1f}x less", "-", "info"))
    else:
        rows.append(Row("W4", "cold --all CPU vs check-jsonschema", small, fmt_s(t["cold --all (small)"].median),
                        "check-jsonschema not found", "-", ">= 15x less", "SKIPPED"))
    # what a cold run adds to reading and parsing every file (validation, rules, walk, cache)
    for size, repo in (("small", small), ("large", large)):
        row("W4", "  cold --all vs its own loaders alone (parse_floor.py --ours)", repo, f"cold --all ({size})",
            f"own loaders floor ({size})", f"<= {LOADERS}x", lambda r: r <= LOADERS)
    row("W5", "lsp: start to first diagnostics of an ordinary file vs importing pygls + lsprotocol",
        small, "lsp, first diagnostics (small)", "lsp library imports", "<= 1.5x", lambda r: r <= 1.5)
    return rows, notes
