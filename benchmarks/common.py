"""What every family of benchmark rows shares: running and timing a command, the
synthetic repositories, the tools compared with, the table and its verdicts."""

from __future__ import annotations

import hashlib
import json
import os
import resource
import shlex
import shutil
import statistics
import subprocess
import sys
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
    return json.dumps({"size": size, "params": gen.size_params(size), "seed": seed, "git": 2,
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
