"""The rows of whole runs (`python -m benchmarks.run`, and `--shards`): rows 1-11, S2-S8."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from benchmarks.common import (DIFF_EDIT, GIT, KINDS, Linter, PARSE_FLOOR, Row, Run, SIZES, Timing,
                               add_experiments, check_jsonschema_job, data_files_by_kind, diff_target,
                               ensure_repo, experiment_folders, find_check_jsonschema, first_line, fmt_s,
                               interleaved, lint_note, lint_problem, peak_rss, remove_added, report,
                               run_once, verdict, warm_cache)


def whole_main(args, linter: Linter, repeat: int, prefix: str, n_added: int) -> int:
    """Rows 1-11 and S2-S8 (with --shards, only those): whole runs on the synthetic repositories."""
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
