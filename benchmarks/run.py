"""Time penguin-lint on synthetic repositories and compare the figures with the targets.

    python -m benchmarks.run [--repeat N] [--workdir DIR] [--quick] [--huge]

Measurements (CPU seconds, medians of --repeat interleaved runs, each run a fresh process;
see benchmarks/README.md for the targets):
  1. cold --all vs check-jsonschema (small and medium);
  2-3. cold --all vs the CSafeLoader floor and the libyaml-events floor (large);
  4-5. warm --all with nothing changed and with one file changed vs cold (large);
  6-7. a one-file diff run vs git status -uall + start-up + 10 % of cold --all (small), and
       its growth from medium to large (twice the files), and what reading the base costs (a
       summary edit whose leaderboard has an old finding, against one whose leaderboard is
       clean; large);
  8-10. peak memory of --all, of a path run over every experiment folder and of a diff run
       that adds 500 experiments (large);
  11. the slowest of 4 shards vs --all -j1 (large);
  S2, S4, S8. for 2, 4 and 8 shards (--all --shard K/N -j1 --format json, each writing its
       report): the slowest shard, and `penguin-lint merge` of their reports, each as a ratio of
       one --all -j1 run (large). With --shards, only these rows.
With --editor, only E1-E24: the language server's answers (benchmarks/editor.py).
With --huge, only H1-H3: one and four leaderboards of 125,000 leaves (benchmarks/huge.py), and
the preview of one, against the CSafeLoader floor on the same files (CPU time and peak memory).
With --waits, only W1-W5, where contributors wait (benchmarks/waits.py).

The repositories are built once in the work folder and reused while their stamp matches the
generator's source and parameters. The script installs nothing; a missing check-jsonschema makes
its row "skipped". Exit status: 0 when no row failed, 1 when a row failed or errored.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import resource
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
from benchmarks import huge

# The three repositories: about 5,000, 22,000 and 43,000 files (benchmarks/generate.py).
SIZES = ("small", "medium", "large")

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
    cpu: float = 0.0  # user + system seconds of the process and everything it waited for


@dataclass
class Timing:
    label: str
    runs: list[Run] = field(default_factory=list)

    @property
    def median(self) -> float:
        """Median CPU seconds: on a machine shared with other work, CPU time is what a
        tool costs; wall time is in the list of runs."""
        return statistics.median(r.cpu for r in self.runs)

    @property
    def wall(self) -> float:
        return statistics.median(r.seconds for r in self.runs)

    @property
    def returncodes(self) -> set[int]:
        return {r.returncode for r in self.runs}


def _children_cpu() -> float:
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    return ru.ru_utime + ru.ru_stime


def run_once(cmd: list[str], cwd: Path | None = None, env: dict | None = None) -> Run:
    # One command at a time: the children's rusage delta is this command's CPU, workers
    # included (each process counts the children it waited for).
    cpu0 = _children_cpu()
    start = time.perf_counter()
    try:
        proc = subprocess.run(cmd, cwd=cwd, env=env, stdin=subprocess.DEVNULL,
                              capture_output=True, text=True, errors="replace",
                              timeout=TIMEOUT_S)
    except subprocess.TimeoutExpired:
        # 124, as timeout(1) reports it: counted as a failure of the tool, not as a timing.
        return Run(time.perf_counter() - start, 124, "", f"timed out after {TIMEOUT_S} s")
    return Run(time.perf_counter() - start, proc.returncode, proc.stdout, proc.stderr,
               _children_cpu() - cpu0)


def interleaved(repeat: int, jobs: dict[str, callable]) -> dict[str, Timing]:
    """Run every job once per round, so that noise from other work on the machine falls on
    all of them alike instead of on whichever happened to run during it."""
    timings = {label: Timing(label) for label in jobs}
    for _ in range(repeat):
        for label, job in jobs.items():
            run = job()
            # a job may time itself several times in a row (benchmarks/waits.py: burst)
            timings[label].runs.extend(run if isinstance(run, list) else [run])
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
        total, cpu, worst, outs, errs = 0.0, 0.0, 0, [], []
        for cmd in calls:
            r = run_once(cmd, cwd=root)
            total += r.seconds
            cpu += r.cpu
            worst = max(worst, r.returncode)
            if r.returncode:
                outs.append(r.stdout)
                errs.append(r.stderr)
        return Run(total, worst, "\n".join(outs), "\n".join(errs), cpu)

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
    return json.dumps({"size": size, "params": gen.SIZES[size], "seed": seed, "git": 2,
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
    # Packed, as a clone or a CI checkout is (not tens of thousands of loose objects).
    for args in (["init", "-q", "-b", "main"], ["add", "-A"],
                 ["commit", "-q", "-m", f"synthetic {size} repository"], ["repack", "-a", "-d", "-q"],
                 ["prune-packed"]):
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
    number: int | str  # "H1".."H3": the --huge rows
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

def experiment_folders(root: Path) -> list[str]:
    exp_root = root / "experiments"
    return [f"experiments/{lb.name}/{e.name}" for lb in sorted(exp_root.iterdir()) if lb.is_dir()
            for e in sorted(lb.iterdir()) if e.is_dir()]


ADDED_PREFIX = "bench-added-"


def add_experiments(root: Path, n: int) -> Path:
    """`n` new (uncommitted) experiments beside the first one, as a big pull request adds them."""
    source = (root / diff_target(root).relative_to(root).parts[0] / diff_target(root).relative_to(root).parts[1]
              / diff_target(root).relative_to(root).parts[2])
    remove_added(root)
    old_id = source.name
    for i in range(n):
        new_id = f"{ADDED_PREFIX}{i:04d}"
        dest = source.parent / new_id
        for path in sorted(source.rglob("*")):
            target = dest / path.relative_to(source)
            if path.is_dir():
                target.mkdir(parents=True, exist_ok=True)
            else:
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_text(path.read_text(encoding="utf-8").replace(old_id, new_id), encoding="utf-8")
    return source.parent


def remove_added(root: Path) -> None:
    for lb in (root / "experiments").iterdir():
        for e in lb.glob(ADDED_PREFIX + "*"):
            shutil.rmtree(e)


def report(rows: list[Row], timings, notes, quick: str | None) -> int:
    """Print the table, every run's figures and the notes; the exit status."""
    print()
    print_table(rows)
    print()
    print("Runs (CPU s / wall s):")
    for tm in timings:
        print(f"- {tm.label}: " + ", ".join(f"{r.cpu:.3f}/{r.seconds:.3f}" for r in tm.runs)
              + f" (exit {','.join(map(str, sorted(tm.returncodes)))})")
    for note in dict.fromkeys(notes):
        print(f"Note: {note}")
    if quick:
        print(f"Quick mode: {quick}, the verdicts are not meaningful.")
    return 1 if any(r.result in ("FAIL", "ERROR") for r in rows) else 0


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
    parser.add_argument("--huge", action="store_true",
                        help="only the huge-leaderboard rows (H1-H3): one leaderboard of 125,000 "
                             "leaves (4.6 MB), and four of them, against the CSafeLoader floor")
    parser.add_argument("--editor", action="store_true",
                        help="only the editor rows (E1-E24, benchmarks/editor.py): each language server "
                             "answer on examples/repo and the large repository, within 0.1 s")
    parser.add_argument("--shards", action="store_true",
                        help="only the shard rows (S2, S4, S8): the slowest of N shards and the "
                             "merge of their reports vs one --all -j1 run (large)")
    parser.add_argument("--waits", action="store_true", help="only W1-W5 (benchmarks/waits.py)")
    parser.add_argument("--instructions", action="store_true",
                        help="with --waits: W1 also in instructions counted by valgrind, penguin-lint's "
                             "own process apart from git's (benchmarks/instructions.py)")
    args = parser.parse_args(argv)
    if args.instructions and not args.waits:
        parser.error("--instructions counts the rows of --waits: give both")
    if args.editor:
        from benchmarks import editor

        return editor.main(["--workdir", str(args.workdir), "--repeat", str(args.repeat or 10)])
    repeat = args.repeat or (1 if args.quick else 3)
    if repeat < 1:
        parser.error("--repeat must be at least 1")
    prefix = "quick-" if args.quick else ""
    n_added = 20 if args.quick else 500
    args.workdir.mkdir(parents=True, exist_ok=True)

    linter = Linter(args.linter)
    if args.linter is None:
        # An installed package carries its bytecode (pip compiles it), and so
        # does check-jsonschema's; a source tree run with
        # PYTHONDONTWRITEBYTECODE would recompile every module on every run.
        import compileall

        compileall.compile_dir(str(PROJECT_ROOT / "penguin_lint"), quiet=1)
    if args.huge:
        return huge_main(args, linter, repeat)
    if args.waits:  # imported here: it imports this module's helpers
        return __import__("benchmarks.waits").waits.waits_main(args, linter, repeat)
    cjs = find_check_jsonschema()
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} CPUs, repeat {repeat}, "
          f"workdir {args.workdir}")
    print(f"penguin-lint: {linter.describe()}")
    print("Figures are CPU seconds (user + system, worker processes included), medians of "
          "interleaved runs; wall times are in the list of runs.")
    repos = {}
    for size in (("large",) if args.shards else SIZES):
        root, count, reused = ensure_repo(args.workdir, prefix + size)
        remove_added(root)
        repos[size] = (root, count)
        if reused:
            print(f"reused {prefix + size}: {count} files", flush=True)
    caches = args.workdir / "caches"
    shutil.rmtree(caches, ignore_errors=True)

    rows: list[Row] = []
    notes: list[str] = []
    timings: list[Timing] = []

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

    if args.shards:
        large = repos["large"][0]
        warm_cache(large)
        t = interleaved(repeat, {"--all -j1 (large)": lambda: linter(large, "--all", "-j1", "--no-cache"),
                                 **shard_jobs(linter, large, caches)})
        rows += shard_rows(t, label("large"), lint_error)
        return report(rows, t.values(), notes, "small repositories" if args.quick else None)

    def cold_job(root: Path, name: str):
        def job() -> Run:
            # A first run: an empty cache folder, filled by the run.
            folder = caches / f"cold-{name}"
            shutil.rmtree(folder, ignore_errors=True)
            return linter(root, "--all", "--cache-dir", str(folder))
        return job

    def warm_job(root: Path, name: str, edit: bool):
        folder = caches / f"warm-{name}-{'edit' if edit else 'same'}"
        target = diff_target(root)
        original = target.read_bytes()
        rounds = [0]

        def job() -> Run:
            if not edit:
                return linter(root, "--all", "--cache-dir", str(folder))
            # A new edit each round, so that the cache cannot know it.
            rounds[0] += 1
            target.write_bytes(original + f"# edit {rounds[0]}\n".encode())
            try:
                return linter(root, "--all", "--cache-dir", str(folder))
            finally:
                target.write_bytes(original)

        linter(root, "--all", "--cache-dir", str(folder))  # fill the cache (not timed)
        return job

    def edit_job(root: Path, target: Path, *extra: str):
        original = target.read_bytes()
        warm = not extra
        if warm:
            extra = ("--cache-dir", str(caches / f"diff-{root.name}-{target.name}"))

        def job() -> Run:
            # The edit lives only while the diff run does, so that --all sees the committed tree.
            target.write_bytes(original + DIFF_EDIT.encode())
            try:
                return linter(root, "--diff-base", "HEAD", *extra)
            finally:
                target.write_bytes(original)
        if warm:
            # A contributor's second and later runs: the cache folder then
            # holds git's untracked cache (status_index.py); not timed.
            job()
            job()
        return job

    def diff_job(root: Path, *extra: str):
        return edit_job(root, diff_target(root), *extra)

    def summary_job(root: Path):
        # A summary edit re-checks its leaderboard: in a clone whose base has
        # an old finding in that leaderboard, the same leaderboard is checked
        # in the base too (the cost of reading the base).
        return edit_job(root, diff_target(root).parent / "summary.yaml")

    def debt_clone(root: Path) -> Path:
        """A clone of ``root`` whose last commit gives one leaderboard an
        unresolved leaf (old debt, so that a diff run must read the base)."""
        dest = root.parent / f"{root.name}-debt"
        if not (dest / ".git").is_dir():
            shutil.rmtree(dest, ignore_errors=True)
            subprocess.run([*GIT, "clone", "-q", "--shared", str(root), str(dest)], check=True,
                           capture_output=True, stdin=subprocess.DEVNULL)
            lb = dest / "leaderboards" / diff_target(dest).relative_to(dest / "experiments").parts[0] \
                / "leaderboard.yaml"
            with open(lb, "a", encoding="utf-8") as f:
                f.write("  - experiment_id: no-such-experiment\n    phase: test\n")
            subprocess.run([*GIT, "commit", "-q", "-am", "old debt"], cwd=dest, check=True,
                           capture_output=True, stdin=subprocess.DEVNULL)
        return dest

    def git_floor_job(root: Path):
        target = diff_target(root)
        original = target.read_bytes()

        def job() -> Run:
            # What git alone needs to tell what changed (tracked and untracked):
            # no diff run can cost less than this scan of the work tree.
            target.write_bytes(original + DIFF_EDIT.encode())
            try:
                # read-only, as the linter runs it: a status that rewrote the
                # index would also make the diff runs' index copy stale
                return run_once(["git", "--no-optional-locks", "status", "--porcelain", "-z",
                                 "--untracked-files=all"], cwd=root)
            finally:
                target.write_bytes(original)
        return job

    small, medium, large = (repos[size][0] for size in SIZES)
    for root in (small, medium, large):
        warm_cache(root)
    missing_schemas = [k for k in KINDS if not (args.schemas / f"{k}.json").is_file()]
    if cjs is None:
        print("check-jsonschema is not on PATH; install it with `pip install check-jsonschema` "
              "to run measurement 1.")
    elif missing_schemas:
        print(f"schemas missing in {args.schemas}: {', '.join(missing_schemas)}; "
              "measurement 1 skipped.")
    jobs = {}
    for size, root in (("small", small), ("medium", medium)):
        jobs.update({
            f"cold --all ({size})": cold_job(root, size),
            f"diff run, 1 file ({size})": diff_job(root),
            f"diff run, 1 file, --no-cache ({size})": diff_job(root, "--no-cache"),
            f"git status -uall ({size})": git_floor_job(root),
            f"--version ({size})": lambda root=root: linter(root, "--version"),
        })
    cjs_jobs = {}
    if cjs and not missing_schemas:
        for size, root in (("small", small), ("medium", medium)):
            cjs_jobs[size] = jobs[f"check-jsonschema ({size})"] = check_jsonschema_job(
                cjs, root, args.schemas)
    floor = [sys.executable, str(PARSE_FLOOR)]
    jobs.update({
        "cold --all (large)": cold_job(large, "large"),
        "warm --all, nothing changed (large)": warm_job(large, "large", edit=False),
        "warm --all, 1 file changed (large)": warm_job(large, "large", edit=True),
        "CSafeLoader floor (large)": lambda: run_once([*floor, str(large)]),
        "libyaml-events floor (large)": lambda: run_once([*floor, "--events", str(large)]),
        "diff run, 1 file (large)": diff_job(large),
        "diff run, 1 file, --no-cache (large)": diff_job(large, "--no-cache"),
        "diff run, 1 summary, clean board (large)": summary_job(large),
        "diff run, 1 summary, board with old debt (large)": summary_job(debt_clone(large)),
        "git status -uall (large)": git_floor_job(large),
        "--version (large)": lambda: linter(large, "--version"),
        "--all -j1 (large)": lambda: linter(large, "--all", "-j1", "--no-cache"),
    })
    for k in range(1, 5):
        jobs[f"--all --shard {k}/4 -j1 (large)"] = (
            lambda k=k: linter(large, "--all", "--shard", f"{k}/4", "-j1", "--no-cache"))
    jobs.update(shard_jobs(linter, large, caches))
    t = interleaved(repeat, jobs)
    timings += t.values()

    def ratio_row(number, what, size, lint_label, ref_label, target_text, ok, ratio_text=None,
                  ref_value=None):
        lt, rt = t[lint_label], t[ref_label] if ref_label else None
        ref = ref_value if ref_value is not None else rt.median
        ratio = lt.median / ref
        error = lint_error(lt) if "--" in lint_label or "diff" in lint_label else None
        rows.append(Row(number, what, label(size), fmt_s(lt.median),
                        f"{ref_label or 'reference'} {fmt_s(ref)}",
                        ratio_text(ratio) if ratio_text else f"{ratio:.2f}x", target_text,
                        error or verdict(ok(ratio))))
        return ratio

    for size in ("small", "medium"):
        if size not in cjs_jobs:
            rows.append(Row(1, "cold --all vs check-jsonschema", label(size),
                            fmt_s(t[f"cold --all ({size})"].median), "check-jsonschema not run",
                            "-", ">= 10x faster", "SKIPPED"))
            continue
        ref = t[f"check-jsonschema ({size})"]
        if ref.returncodes - {0}:
            notes.append("check-jsonschema rejected files of a valid repository (schemas and "
                         f"generator disagree): {first_line(ref.runs[-1].stdout)}")
        ratio_row(1, "cold --all vs check-jsonschema", size, f"cold --all ({size})",
                  f"check-jsonschema ({size})", ">= 10x faster", lambda r: 1 / r >= 10,
                  lambda r: f"{1 / r:.1f}x faster")
    n_data = sum(len(v) for v in data_files_by_kind(large).values())
    for name in ("CSafeLoader floor (large)", "libyaml-events floor (large)"):
        parsed = {r.stdout.strip() for r in t[name].runs}
        if parsed != {str(n_data)}:
            notes.append(f"{name} parsed {parsed} files, expected {n_data}")
    ratio_row(2, "cold --all vs CSafeLoader floor", "large", "cold --all (large)",
              "CSafeLoader floor (large)", "<= 0.8x", lambda r: r <= 0.8)
    # What the default run adds to the linting itself: the cache's records and a second process.
    ratio_row(2, "  one process, no cache (--all -j1 --no-cache) vs CSafeLoader floor", "large",
              "--all -j1 (large)", "CSafeLoader floor (large)", "-", lambda r: True)
    rows[-1].result = "info"
    ratio_row(3, "cold --all vs libyaml-events floor", "large", "cold --all (large)",
              "libyaml-events floor (large)", "-", lambda r: True)
    rows[-1].result = "info"
    ratio_row(4, "warm --all, nothing changed, vs cold", "large",
              "warm --all, nothing changed (large)", "cold --all (large)", "<= 0.15x",
              lambda r: r <= 0.15)
    ratio_row(5, "warm --all, 1 file changed, vs cold", "large",
              "warm --all, 1 file changed (large)", "cold --all (large)", "<= 0.25x",
              lambda r: r <= 0.25)
    for size in SIZES:
        for what in ("git status -uall", "--version"):
            lt = t[f"{what} ({size})"]
            rows.append(Row(6, f"  {what} (part of the diff-run budget)", label(size),
                            fmt_s(lt.median), "-", "-", "-", "info"))
    budget = (t["git status -uall (small)"].median + t["--version (small)"].median
              + 0.1 * t["cold --all (small)"].median)
    ratio_row(6, "diff run (1 file) vs git status + start-up + 10 % of cold --all", "small",
              "diff run, 1 file (small)", None, "<= 1x budget", lambda r: r <= 1,
              ref_value=budget)
    rows[-1].reference = f"budget {fmt_s(budget)}"
    large_diff, medium_diff = t["diff run, 1 file (large)"], t["diff run, 1 file (medium)"]
    growth = large_diff.median / medium_diff.median
    rows.append(Row(7, "diff run (1 file), large vs medium", f"{label('large')} / {label('medium')}",
                    fmt_s(large_diff.median), f"medium {fmt_s(medium_diff.median)}",
                    f"{growth:.2f}x", "<= 1.2x",
                    lint_error(large_diff, medium_diff) or verdict(growth <= 1.2)))
    gits = {size: t[f"git status -uall ({size})"] for size in ("medium", "large")}
    rows.append(Row(7, "  git status -uall alone (it stats every tracked file and folder)",
                    f"{label('large')} / {label('medium')}", fmt_s(gits["large"].median),
                    f"medium {fmt_s(gits['medium'].median)}",
                    f"{gits['large'].median / gits['medium'].median:.2f}x", "-", "info"))
    plain = {size: t[f"diff run, 1 file, --no-cache ({size})"] for size in ("medium", "large")}
    rows.append(Row(7, "  the same runs with --no-cache (plain git status; a first run, every CI run)",
                    f"{label('large')} / {label('medium')}", fmt_s(plain["large"].median),
                    f"medium {fmt_s(plain['medium'].median)}",
                    f"{plain['large'].median / plain['medium'].median:.2f}x", "-",
                    lint_error(plain["large"], plain["medium"]) or "info"))
    clean, debt = t["diff run, 1 summary, clean board (large)"], t["diff run, 1 summary, board with old debt (large)"]
    rows.append(Row(7, "  reading the base: summary edit, board with an old finding vs a clean one",
                    label("large"), fmt_s(debt.median), f"clean board {fmt_s(clean.median)}",
                    f"+{fmt_s(max(debt.median - clean.median, 0.0))}", "-",
                    lint_error(clean, debt) or "info"))
    shard_labels = [f"--all --shard {k}/4 -j1 (large)" for k in range(1, 5)]
    slowest = max(shard_labels, key=lambda s: t[s].median)
    share = t[slowest].median / t["--all -j1 (large)"].median
    rows.append(Row(11, "slowest of 4 shards vs --all -j1", label("large"),
                    f"{slowest.split(' (')[0]} {fmt_s(t[slowest].median)}",
                    f"--all -j1 {fmt_s(t['--all -j1 (large)'].median)}", f"{share:.2f}x", "<= 0.35x",
                    lint_error(*(t[s] for s in shard_labels)) or verdict(share <= 0.35)))
    rows[-1].reference += " (shards: " + ", ".join(fmt_s(t[s].median) for s in shard_labels) + ")"
    rows += shard_rows(t, label("large"), lint_error)

    # Peak memory, each in a fresh process.
    def memory_row(number, what, cmd_args, *, before=None, after=None):
        if before:
            before()
        try:
            single, tree, rc = peak_rss([*linter.cmd, "--root", str(large), *cmd_args], linter.env, large)
        finally:
            if after:
                after()
        peak = max(single, tree or 0)
        detail = f"largest process {single / 1e6:.0f} MB"
        if tree is not None:
            detail += f", process tree {tree / 1e6:.0f} MB (sampled)"
        rows.append(Row(number, what, label("large"), f"{peak / 1e6:.0f} MB", detail, "-", "<= 300 MB",
                        "ERROR" if rc not in (0, 1) else verdict(peak <= 300e6)))
        if rc not in (0, 1):
            notes.append(f"penguin-lint {' '.join(cmd_args[:3])} exited {rc} during the memory measurement")

    memory_row(8, "peak memory, cold --all", ["--all", "--cache-dir", str(caches / "memory")])
    folders = experiment_folders(large)
    memory_row(9, f"peak memory, path run over every experiment folder ({len(folders):,})", folders)
    memory_row(10, f"peak memory, diff run adding {n_added} experiments",
               ["--diff-base", "HEAD", "--cache-dir", str(caches / "memory-diff")],
               before=lambda: add_experiments(large, n_added), after=lambda: remove_added(large))

    rows.sort(key=lambda r: (isinstance(r.number, str), r.number))
    return report(rows, timings, notes, "small repositories" if args.quick else None)


# --------------------------------------------------------------------------- shards

SHARD_COUNTS = (2, 4, 8)


def shard_jobs(linter: Linter, root: Path, workdir: Path) -> dict:
    """For each N: every shard of a CI matrix (its JSON report written, as a job uploads it),
    then the merge of the N reports (the aggregating job)."""
    jobs = {}
    for n in SHARD_COUNTS:
        folder = workdir / f"shards-{n}"
        folder.mkdir(parents=True, exist_ok=True)
        reports = [str(folder / f"shard-{k}.json") for k in range(1, n + 1)]
        for k in range(1, n + 1):
            jobs[f"--all --shard {k}/{n} -j1 --format json"] = (
                lambda k=k, n=n, out=reports[k - 1]: linter(
                    root, "--all", "--shard", f"{k}/{n}", "-j1", "--no-cache", "--format", "json",
                    "--output", out))
        # a subcommand: its options follow it; run after the shards of each round
        jobs[f"merge of {n} reports --format json"] = (
            lambda reports=reports, out=str(folder / "merged.json"): run_once(
                [*linter.cmd, "merge", *reports, "--format", "json", "--output", out], cwd=root,
                env=linter.env))
    return jobs


def shard_rows(t: dict, repo_label: str, lint_error) -> list:
    """S2, S4, S8: the slowest shard and the merge, each as a ratio of one --all -j1 run
    (what a matrix gains, and what its one aggregating job costs)."""
    rows = []
    whole = t["--all -j1 (large)"]
    for n in SHARD_COUNTS:
        labels = [f"--all --shard {k}/{n} -j1 --format json" for k in range(1, n + 1)]
        slowest = max(labels, key=lambda s: t[s].median)
        share = t[slowest].median / whole.median
        rows.append(Row(f"S{n}", f"slowest of {n} shards vs --all -j1", repo_label,
                        f"{slowest.split(' -j1')[0]} {fmt_s(t[slowest].median)}",
                        f"--all -j1 {fmt_s(whole.median)} (shards: "
                        + ", ".join(fmt_s(t[s].median) for s in labels) + ")",
                        f"{share:.2f}x", f"ideal {1 / n:.3f}x", lint_error(*(t[s] for s in labels)) or "info"))
        merge = t[f"merge of {n} reports --format json"]
        rows.append(Row(f"S{n}", f"  merge of the {n} reports vs --all -j1", repo_label, fmt_s(merge.median),
                        f"--all -j1 {fmt_s(whole.median)}", f"{merge.median / whole.median:.2f}x", "-",
                        lint_error(merge) or "info"))
    return rows


# --------------------------------------------------------------------------- huge leaderboards

def ensure_huge(workdir: Path, boards: int, leaves: int) -> Path:
    """A repository of `boards` huge leaderboards (benchmarks/huge.py), rebuilt when the
    generator changes. No git: these rows run `--all --no-cache` only."""
    root = workdir / f"huge-{boards}x{leaves}"
    stamp_file = workdir / f"huge-{boards}x{leaves}.stamp"
    stamp = hashlib.sha256(Path(huge.__file__).read_bytes() + Path(gen.__file__).read_bytes()).hexdigest()
    if root.is_dir() and stamp_file.is_file() and stamp_file.read_text() == stamp:
        return root
    stamp_file.unlink(missing_ok=True)
    if root.exists():
        shutil.rmtree(root)
    count = huge.generate(root, boards, leaves)
    stamp_file.write_text(stamp)
    print(f"built {root.name}: {count} files", flush=True)
    return root


def huge_main(args, linter: Linter, repeat: int) -> int:
    """H1-H3: what one huge leaderboard costs, as ratios to parsing the same files with
    CSafeLoader (the floor) in the same run: CPU time, and peak resident memory of a fresh
    process. H2 has four such leaderboards in one `--all -j1`: its memory must stay that of
    one board (the floor's does), not add up."""
    leaves = 2_000 if args.quick else huge.LEAVES
    one = ensure_huge(args.workdir, 1, leaves)
    four = ensure_huge(args.workdir, 4, leaves)
    for root in (one, four):
        warm_cache(root)
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} CPUs, repeat {repeat}, "
          f"workdir {args.workdir}")
    print(f"penguin-lint: {linter.describe()}")
    board = one / "leaderboards" / "huge-0" / "leaderboard.yaml"
    print(f"one leaderboard: {leaves:,} leaves, {board.stat().st_size / 1e6:.1f} MB")
    floor = [sys.executable, str(PARSE_FLOOR)]
    lint_args = ("--all", "-j1", "--no-cache", "--format", "json")
    # a subcommand: its options follow it
    preview_cmd = [*linter.cmd, "preview", "--root", str(one), "--format", "markdown"]
    jobs = {
        "lint, one board": lambda: linter(one, *lint_args),
        "floor, one board": lambda: run_once([*floor, str(one)]),
        "lint, four boards": lambda: linter(four, *lint_args),
        "floor, four boards": lambda: run_once([*floor, str(four)]),
        "preview, one board": lambda: run_once(preview_cmd, cwd=one, env=linter.env),
    }
    t = interleaved(repeat, jobs)
    peaks = {}
    for name, root, cmd in (
            ("lint, one board", one, [*linter.cmd, "--root", str(one), *lint_args]),
            ("floor, one board", one, [*floor, str(one)]),
            ("lint, four boards", four, [*linter.cmd, "--root", str(four), *lint_args]),
            ("floor, four boards", four, [*floor, str(four)]),
            ("preview, one board", one, preview_cmd)):
        single, tree, _ = peak_rss(cmd, linter.env, root)
        peaks[name] = max(single, tree or 0)
    notes = []
    rows = []
    for number, what, lint_label, floor_label in (
            ("H1", "one huge leaderboard, --all -j1", "lint, one board", "floor, one board"),
            ("H2", "four huge leaderboards, --all -j1", "lint, four boards", "floor, four boards"),
            ("H3", "preview --format markdown, one board", "preview, one board", "floor, one board")):
        lt, ft = t[lint_label], t[floor_label]
        problem = lint_problem(lt)
        if problem:
            notes.append(problem)
        time_ratio = lt.median / ft.median
        mem_ratio = peaks[lint_label] / peaks[floor_label]
        rows.append(Row(number, f"{what}: CPU time", one.name if "one" in lint_label else four.name,
                        fmt_s(lt.median), f"CSafeLoader {fmt_s(ft.median)}", f"{time_ratio:.2f}x",
                        "<= 1x", "ERROR" if problem else verdict(time_ratio <= 1)))
        rows.append(Row(number, f"{what}: peak memory", rows[-1].repo,
                        f"{peaks[lint_label] / 1e6:.0f} MB", f"CSafeLoader {peaks[floor_label] / 1e6:.0f} MB",
                        f"{mem_ratio:.2f}x", "<= 1x", "ERROR" if problem else verdict(mem_ratio <= 1)))
    md_size = len(t["preview, one board"].runs[-1].stdout.encode())
    rows.append(Row("H3", "  preview Markdown output", one.name, f"{md_size / 1e3:.0f} KB", "-", "-",
                    "-", "info"))
    return report(rows, t.values(), notes, "small leaderboards" if args.quick else None)


if __name__ == "__main__":
    sys.exit(main())
