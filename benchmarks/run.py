"""Time penguin-lint on synthetic repositories and compare the figures with the targets.

    python -m benchmarks.run [--repeat N] [--workdir DIR] [--quick]

Measurements (each timing is the median of --repeat runs, each run a fresh process):
  1. `penguin-lint --all` vs check-jsonschema on the same data files and the project's schemas
     (medium repository); target: penguin-lint at least 10x faster.
  2. `penguin-lint --all` vs the parse floor, a process that only parses every data file
     (large repository); target: within 2x.
  3. `penguin-lint --diff-base HEAD` with one modified attempt file vs `--all` (large);
     target: at most 3 %.
  4. `--all` on large vs on a half-size repository; target: at most 2.2x.
  5. peak resident memory of `--all` on large; target: below 300 MB (10^6 bytes).

The repositories are built once in the work folder and reused while their stamp matches the
generator's source and parameters. The script installs nothing; a missing check-jsonschema makes
its row "skipped". Exit status: 0 when no row failed, 1 when a row failed or errored.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from benchmarks import generate as gen

PROJECT_ROOT = Path(__file__).resolve().parent.parent
PARSE_FLOOR = Path(__file__).resolve().parent / "parse_floor.py"
KINDS = ("benchmark_config", "task_config", "leaderboard", "meta_info", "summary", "attempt")
# A hung tool should not hold the run forever; the slowest honest run is far below this.
TIMEOUT_S = 1800
# Per check-jsonschema call, like xargs: well under ARG_MAX (which also holds the environment).
ARG_BUDGET = 128 * 1024
# The one file the diff measurement touches, and how: a comment keeps the repository valid.
DIFF_EDIT = "\n# edited after the commit: the diff measurement lints this change\n"


# --------------------------------------------------------------------------- running commands

@dataclass
class Run:
    seconds: float
    returncode: int
    stdout: str
    stderr: str


@dataclass
class Timing:
    label: str
    runs: list[Run] = field(default_factory=list)

    @property
    def median(self) -> float:
        return statistics.median(r.seconds for r in self.runs)

    @property
    def returncodes(self) -> set[int]:
        return {r.returncode for r in self.runs}


def run_once(cmd: list[str], cwd: Path | None = None, env: dict | None = None) -> Run:
    start = time.perf_counter()
    try:
        proc = subprocess.run(cmd, cwd=cwd, env=env, stdin=subprocess.DEVNULL,
                              capture_output=True, text=True, errors="replace",
                              timeout=TIMEOUT_S)
    except subprocess.TimeoutExpired:
        # 124, as timeout(1) reports it: counted as a failure of the tool, not as a timing.
        return Run(time.perf_counter() - start, 124, "", f"timed out after {TIMEOUT_S} s")
    return Run(time.perf_counter() - start, proc.returncode, proc.stdout, proc.stderr)


def interleaved(repeat: int, jobs: dict[str, callable]) -> dict[str, Timing]:
    """Run every job once per round, so that noise from other work on the machine falls on
    all of them alike instead of on whichever happened to run during it."""
    timings = {label: Timing(label) for label in jobs}
    for _ in range(repeat):
        for label, job in jobs.items():
            timings[label].runs.append(job())
    return timings


def first_line(text: str) -> str:
    lines = [line.strip() for line in text.strip().splitlines() if line.strip()]
    return lines[-1] if lines and lines[0].startswith("Traceback") else (lines[0] if lines else "")


# --------------------------------------------------------------------------- the tools

class Linter:
    def __init__(self, command: str | None = None) -> None:
        self.env = dict(os.environ)
        if command:
            self.cmd = shlex.split(command)
            return
        # Not resolved: a virtualenv's python is a symlink, and its scripts sit beside the link.
        script = Path(sys.executable).parent / "penguin-lint"
        if script.is_file() and os.access(script, os.X_OK):
            self.cmd = [str(script)]
        else:
            self.cmd = [sys.executable, "-m", "penguin_lint"]
            # Not installed: let `-m` find the package in this checkout from any cwd.
            paths = [str(PROJECT_ROOT)] + [p for p in [self.env.get("PYTHONPATH")] if p]
            self.env["PYTHONPATH"] = os.pathsep.join(paths)

    def __call__(self, root: Path, *args: str) -> Run:
        return run_once([*self.cmd, "--root", str(root), *args], cwd=root, env=self.env)

    def describe(self) -> str:
        return " ".join(self.cmd)


def lint_problem(timing: Timing) -> str | None:
    """Why a linter timing cannot count (None when it can)."""
    for r in timing.runs:
        if r.returncode not in (0, 1) or "Traceback (most recent call last)" in r.stderr:
            why = first_line(r.stderr or r.stdout)
            return f"{timing.label} failed (exit {r.returncode}): {why}"
    return None


def lint_note(timing: Timing) -> str | None:
    # The repositories are valid, so exit 1 means a finding the generator did not intend
    # (or a linter bug): the timing stands, but it deserves a look.
    for r in timing.runs:
        if r.returncode == 1:
            out = (r.stdout or r.stderr).strip().splitlines()
            return (f"{timing.label} reported errors on a valid repository (exit 1); "
                    f"first line: {out[0] if out else '(no output)'}")
    return None


def find_check_jsonschema() -> str | None:
    found = shutil.which("check-jsonschema")
    if found:
        return found
    sibling = Path(sys.executable).parent / "check-jsonschema"
    return str(sibling) if sibling.is_file() else None


def kind_of(rel: tuple[str, ...]) -> str | None:
    """The schema kind of a repository-relative path, for the default layout of SPEC section 1."""
    top, n, name = rel[0], len(rel), rel[-1]
    if top == "packages":
        if n == 3 and name == "benchmark_config.toml":
            return "benchmark_config"
        if n == 4 and name == "task_config.toml":
            return "task_config"
    elif top == "leaderboards" and n == 3 and name == "leaderboard.yaml":
        return "leaderboard"
    elif top == "experiments":
        if n == 4 and name == "meta_info.yaml":
            return "meta_info"
        if n == 5 and name == "summary.yaml":
            return "summary"
        if n == 5 and name.startswith("attempt-") and name.endswith(".yaml"):
            return "attempt"
    return None


def data_files_by_kind(root: Path) -> dict[str, list[str]]:
    files: dict[str, list[str]] = {k: [] for k in KINDS}
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
        rel_dir = Path(dirpath).relative_to(root).parts
        for name in sorted(filenames):
            if rel_dir:
                kind = kind_of((*rel_dir, name))
                if kind:
                    files[kind].append("/".join((*rel_dir, name)))
    return files


def chunks(paths: list[str], budget: int = ARG_BUDGET) -> list[list[str]]:
    out: list[list[str]] = []
    size = budget + 1
    for p in paths:
        if size + len(p) + 1 > budget:
            out.append([])
            size = 0
        out[-1].append(p)
        size += len(p) + 1
    return out


def check_jsonschema_job(exe: str, root: Path, schemas: Path) -> callable:
    files = data_files_by_kind(root)
    calls = [[exe, "--schemafile", str(schemas / f"{kind}.json"), *batch]
             for kind in KINDS for batch in chunks(files[kind])]

    def job() -> Run:
        # One timing for all calls together: that is what validating the repository costs.
        total, worst, outs, errs = 0.0, 0, [], []
        for cmd in calls:
            r = run_once(cmd, cwd=root)
            total += r.seconds
            worst = max(worst, r.returncode)
            if r.returncode:
                outs.append(r.stdout)
                errs.append(r.stderr)
        return Run(total, worst, "\n".join(outs), "\n".join(errs))

    job.n_calls = len(calls)
    job.n_files = sum(len(v) for v in files.values())
    return job


def peak_rss(cmd: list[str], env: dict, cwd: Path) -> tuple[int, int | None, int]:
    """Peak memory of `cmd`, in bytes: (largest single process, sampled process-tree sum or
    None, exit status).

    RUSAGE_CHILDREN reports the largest child this process ever waited for, so it is read in a
    fresh helper process whose only child is the linter. It does not add up worker processes,
    hence the process-tree sum, sampled from /proc where there is one.
    """
    helper = ("import resource, subprocess, sys\n"
              "rc = subprocess.run(sys.argv[1:], stdin=subprocess.DEVNULL,"
              " stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode\n"
              "print(rc, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n")
    proc = subprocess.Popen([sys.executable, "-c", helper, *cmd], cwd=cwd, env=env,
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, text=True)
    tree_peak = None
    if Path("/proc/self/status").exists():
        tree_peak = 0
        while proc.poll() is None:
            tree_peak = max(tree_peak, _descendants_rss(proc.pid))
            time.sleep(0.02)
    out, _ = proc.communicate(timeout=TIMEOUT_S)
    rc, maxrss = (int(x) for x in out.split())
    # Linux reports KiB, macOS bytes.
    single = maxrss if sys.platform == "darwin" else maxrss * 1024
    return single, tree_peak, rc


def _descendants_rss(pid: int) -> int:
    parent_of: dict[int, int] = {}
    rss_of: dict[int, int] = {}
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/stat") as f:
                stat = f.read()
            with open(f"/proc/{entry.name}/statm") as f:
                resident_pages = int(f.read().split()[1])
        except (OSError, ValueError, IndexError):
            continue  # the process ended while being read
        # The command name may hold spaces and parentheses; the ppid follows the last ")".
        parent_of[int(entry.name)] = int(stat.rsplit(")", 1)[1].split()[1])
        rss_of[int(entry.name)] = resident_pages * os.sysconf("SC_PAGE_SIZE")
    total = 0
    for p in rss_of:
        q = parent_of.get(p)
        while q is not None and q != pid:
            q = parent_of.get(q)
        if q == pid:  # a descendant of the helper, not the helper itself
            total += rss_of[p]
    return total


# --------------------------------------------------------------------------- repositories

GIT = ["git", "-c", "user.name=penguin-lint-bench", "-c", "user.email=bench@example.invalid",
       "-c", "commit.gpgsign=false", "-c", "core.hooksPath=/dev/null", "-c", "gc.auto=0",
       "-c", "core.autocrlf=false"]


def stamp_for(size: str, seed: int) -> str:
    source = Path(gen.__file__).read_bytes()
    return json.dumps({"size": size, "params": gen.SIZES[size], "seed": seed, "git": 1,
                       "generator": hashlib.sha256(source).hexdigest()}, sort_keys=True)


def ensure_repo(workdir: Path, size: str, seed: int = 0) -> tuple[Path, int, bool]:
    """The repository of `size` in workdir, built (as a git repository with one commit) unless
    a matching one is there. Returns (root, file count, reused)."""
    root = workdir / size
    stamp_file = workdir / f"{size}.stamp"
    stamp = stamp_for(size, seed)
    if root.is_dir() and stamp_file.is_file() and stamp_file.read_text() == stamp:
        # A run stopped mid-way through the diff measurement may have left its edit behind.
        restore_diff_file(root)
        return root, count_files(root), True
    stamp_file.unlink(missing_ok=True)
    if root.exists():
        shutil.rmtree(root)
    start = time.perf_counter()
    count = gen.generate_size(root, size, seed)
    gen_s = time.perf_counter() - start
    # A fixed date keeps the commit identical from one build to the next.
    env = dict(os.environ, GIT_AUTHOR_DATE="2026-10-29T12:00:00Z",
               GIT_COMMITTER_DATE="2026-10-29T12:00:00Z")
    for args in (["init", "-q", "-b", "main"], ["add", "-A"],
                 ["commit", "-q", "-m", f"synthetic {size} repository"]):
        subprocess.run([*GIT, *args], cwd=root, env=env, check=True, stdin=subprocess.DEVNULL)
    stamp_file.write_text(stamp)
    print(f"built {size}: {count} files in {gen_s:.1f} s "
          f"(+ git commit {time.perf_counter() - start - gen_s:.1f} s)", flush=True)
    return root, count, False


def count_files(root: Path) -> int:
    total = 0
    for _, dirnames, filenames in os.walk(root):
        dirnames[:] = [d for d in dirnames if d != ".git"]
        total += len(filenames)
    return total


def warm_cache(root: Path) -> None:
    # Read every file once so that no tool pays for cold disk reads the other did not.
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = [d for d in dirnames if d != ".git"]
        for name in filenames:
            with open(os.path.join(dirpath, name), "rb") as f:
                f.read()


def diff_target(root: Path) -> Path:
    exp_root = root / "experiments"
    lb = sorted(exp_root.iterdir())[0]
    exp = sorted(p for p in lb.iterdir() if p.is_dir())[0]
    return exp / gen.PHASES[0] / "attempt-1.yaml"


def restore_diff_file(root: Path) -> None:
    target = diff_target(root)
    rel = target.relative_to(root).as_posix()
    original = subprocess.run([*GIT, "show", f"HEAD:{rel}"], cwd=root, check=True,
                              capture_output=True, stdin=subprocess.DEVNULL).stdout
    if target.read_bytes() != original:
        target.write_bytes(original)


# --------------------------------------------------------------------------- report

@dataclass
class Row:
    number: int
    measurement: str
    repo: str
    lint: str
    reference: str
    ratio: str
    target: str
    result: str  # PASS, FAIL, SKIPPED or ERROR


def verdict(ok: bool) -> str:
    return "PASS" if ok else "FAIL"


def fmt_s(seconds: float) -> str:
    return f"{seconds:.3f} s" if seconds < 10 else f"{seconds:.1f} s"


def print_table(rows: list[Row]) -> None:
    head = ["#", "measurement", "repository", "penguin-lint", "reference", "ratio", "target",
            "result"]
    body = [[str(r.number), r.measurement, r.repo, r.lint, r.reference, r.ratio, r.target,
             r.result] for r in rows]
    widths = [max(len(line[i]) for line in [head, *body]) for i in range(len(head))]
    for line in [head, ["-" * w for w in widths], *body]:
        print("| " + " | ".join(cell.ljust(w) for cell, w in zip(line, widths)) + " |")


# --------------------------------------------------------------------------- main

def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.run", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=None,
                        help="runs per timing, median reported (default 3, 1 with --quick)")
    parser.add_argument("--workdir", type=Path,
                        default=Path(tempfile.gettempdir()) / "penguin-lint-bench",
                        help="where the repositories are built and kept (default: %(default)s)")
    parser.add_argument("--quick", action="store_true",
                        help="small repositories: a smoke test of this script, not a measurement")
    parser.add_argument("--schemas", type=Path, default=PROJECT_ROOT / "schemas",
                        help="folder with <kind>.json for check-jsonschema (default: %(default)s)")
    parser.add_argument("--linter", metavar="COMMAND",
                        help="command to run instead of the penguin-lint found beside Python "
                             "(e.g. an older release, for comparison)")
    args = parser.parse_args(argv)
    repeat = args.repeat or (1 if args.quick else 3)
    if repeat < 1:
        parser.error("--repeat must be at least 1")
    prefix = "quick-" if args.quick else ""
    args.workdir.mkdir(parents=True, exist_ok=True)

    linter = Linter(args.linter)
    if args.linter is None:
        # An installed package carries its bytecode (pip compiles it), and so
        # does check-jsonschema's; a source tree run with
        # PYTHONDONTWRITEBYTECODE would recompile every module on every run.
        import compileall

        compileall.compile_dir(str(PROJECT_ROOT / "penguin_lint"), quiet=1)
    cjs = find_check_jsonschema()
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} CPUs, repeat {repeat}, "
          f"workdir {args.workdir}")
    print(f"penguin-lint: {linter.describe()}")
    repos = {}
    for size in ("medium", "large", "half"):
        root, count, reused = ensure_repo(args.workdir, prefix + size)
        repos[size] = (root, count)
        if reused:
            print(f"reused {prefix + size}: {count} files", flush=True)

    rows: list[Row] = []
    notes: list[str] = []
    timings: list[Timing] = []

    def lint_job(root: Path, *flags: str):
        return lambda: linter(root, *flags)

    def label(size: str) -> str:
        return f"{prefix}{size} ({repos[size][1]:,} files)"

    def lint_error(*ts: Timing) -> str | None:
        for t in ts:
            problem = lint_problem(t)
            if problem:
                notes.append(problem)
                return "ERROR"
            note = lint_note(t)
            if note:
                notes.append(note)
        return None

    # 1. check-jsonschema on medium.
    medium, _ = repos["medium"]
    warm_cache(medium)
    missing_schemas = [k for k in KINDS if not (args.schemas / f"{k}.json").is_file()]
    if cjs is None:
        print("check-jsonschema is not on PATH; install it with `pip install check-jsonschema` "
              "to run measurement 1.")
    elif missing_schemas:
        print(f"schemas missing in {args.schemas}: {', '.join(missing_schemas)}; "
              "measurement 1 skipped.")
    jobs = {"penguin-lint --all (medium)": lint_job(medium, "--all")}
    cjs_job = None
    if cjs and not missing_schemas:
        cjs_job = check_jsonschema_job(cjs, medium, args.schemas)
        jobs["check-jsonschema (medium)"] = cjs_job
    t1 = interleaved(repeat, jobs)
    timings += t1.values()
    lint1 = t1["penguin-lint --all (medium)"]
    error = lint_error(lint1)
    if cjs_job is None:
        rows.append(Row(1, "--all vs check-jsonschema", label("medium"),
                        f"--all {fmt_s(lint1.median)}", "check-jsonschema not run", "-",
                        ">= 10x faster", "SKIPPED"))
    else:
        ref = t1["check-jsonschema (medium)"]
        if ref.returncodes - {0}:
            notes.append("check-jsonschema rejected files of a valid repository (schemas and "
                         f"generator disagree): {first_line(ref.runs[-1].stdout)}")
        speedup = ref.median / lint1.median
        rows.append(Row(1, "--all vs check-jsonschema", label("medium"),
                        f"--all {fmt_s(lint1.median)}",
                        f"check-jsonschema {fmt_s(ref.median)} ({cjs_job.n_calls} calls, "
                        f"{cjs_job.n_files:,} files)",
                        f"{speedup:.1f}x faster", ">= 10x faster",
                        error or verdict(speedup >= 10)))

    # 2-4 share one --all timing on large and run interleaved with it: parse floor and diff
    # mode on large, --all on half.
    large, _ = repos["large"]
    half, _ = repos["half"]
    warm_cache(large)
    warm_cache(half)
    target = diff_target(large)
    original = target.read_bytes()
    floor_cmd = [sys.executable, str(PARSE_FLOOR), str(large)]

    def diff_job() -> Run:
        # The edit lives only while the diff run does, so that --all sees the committed tree.
        target.write_bytes(original + DIFF_EDIT.encode())
        try:
            return linter(large, "--diff-base", "HEAD")
        finally:
            target.write_bytes(original)

    def git_floor_job() -> Run:
        # What git alone needs to tell what changed (tracked and untracked):
        # no diff run can cost less than this scan of the work tree.
        target.write_bytes(original + DIFF_EDIT.encode())
        try:
            return run_once(["git", "status", "--porcelain", "-z", "--untracked-files=all"], cwd=large)
        finally:
            target.write_bytes(original)

    t2 = interleaved(repeat, {
        "penguin-lint --all (large)": lint_job(large, "--all"),
        "parse floor (large)": lambda: run_once(floor_cmd),
        "penguin-lint --diff-base HEAD (large)": diff_job,
        "git status -uall (large)": git_floor_job,
        "penguin-lint --all (half)": lint_job(half, "--all"),
    })
    timings += t2.values()
    all_large = t2["penguin-lint --all (large)"]
    floor = t2["parse floor (large)"]
    diff = t2["penguin-lint --diff-base HEAD (large)"]
    n_data = sum(len(v) for v in data_files_by_kind(large).values())
    parsed = {r.stdout.strip() for r in floor.runs}
    if parsed != {str(n_data)}:
        notes.append(f"parse floor parsed {parsed} files, expected {n_data}")
    error_all = lint_error(all_large)
    ratio = all_large.median / floor.median
    rows.append(Row(2, "--all vs parse floor", label("large"), f"--all {fmt_s(all_large.median)}",
                    f"parse floor {fmt_s(floor.median)} ({n_data:,} data files)",
                    f"{ratio:.2f}x floor", "<= 2x floor", error_all or verdict(ratio <= 2)))
    error_diff = lint_error(diff)
    share = diff.median / all_large.median
    rows.append(Row(3, "--diff-base HEAD (1 attempt changed) vs --all", label("large"),
                    f"--diff-base {fmt_s(diff.median)}", f"--all {fmt_s(all_large.median)}",
                    f"{share * 100:.1f} %", "<= 3 %",
                    error_diff or error_all or verdict(share <= 0.03)))
    git_floor = t2["git status -uall (large)"]
    rows.append(Row(3, "  git's own change scan (floor of 3)", label("large"),
                    f"git status {fmt_s(git_floor.median)}", f"--all {fmt_s(all_large.median)}",
                    f"{git_floor.median / all_large.median * 100:.1f} %", "-", "info"))

    # 4. growth: large against half.
    all_half = t2["penguin-lint --all (half)"]
    growth = all_large.median / all_half.median
    rows.append(Row(4, "--all, large vs half size", f"{label('large')} / {label('half')}",
                    f"--all {fmt_s(all_large.median)}", f"--all {fmt_s(all_half.median)}",
                    f"{growth:.2f}x", "<= 2.2x",
                    lint_error(all_half) or error_all or verdict(growth <= 2.2)))

    # 5. peak memory of --all on large, in a fresh process.
    single, tree, rc = peak_rss([*linter.cmd, "--root", str(large), "--all"], linter.env, large)
    peak = max(single, tree or 0)
    detail = f"largest process {single / 1e6:.0f} MB"
    if tree is not None:
        detail += f", process tree {tree / 1e6:.0f} MB (sampled)"
    rows.append(Row(5, "peak resident memory of --all", label("large"), f"{peak / 1e6:.0f} MB",
                    detail, "-", "< 300 MB",
                    "ERROR" if rc not in (0, 1) else verdict(peak < 300e6)))
    if rc not in (0, 1):
        notes.append(f"penguin-lint --all exited {rc} during the memory measurement")

    print()
    print_table(rows)
    print()
    print("Runs (seconds):")
    for t in timings:
        print(f"- {t.label}: " + ", ".join(f"{r.seconds:.3f}" for r in t.runs)
              + f" (exit {','.join(map(str, sorted(t.returncodes)))})")
    for note in dict.fromkeys(notes):
        print(f"Note: {note}")
    if args.quick:
        print("Quick mode: small repositories, the verdicts are not meaningful.")
    return 1 if any(r.result in ("FAIL", "ERROR") for r in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
