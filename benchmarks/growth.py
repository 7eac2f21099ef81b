"""The rows of `python -m benchmarks.run --scale`: G1-G4, how whole runs grow with the repository.

The repositories are the `large` shape grown (`benchmarks/generate.py`, "grown-<files>"):
about 20,000 and 120,000 files (with `--scale-top N`, a third of about N files, e.g. 400000),
each a packed git repository with one commit, kept in the work folder and reused by stamp.
Every figure comes from one interleaved run, so the ratios compare like with like.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time

from benchmarks.common import (Linter, Row, Timing, count_files, ensure_repo, fmt_s, interleaved,
                               lint_problem, peak_rss, report, run_once, verdict, warm_cache)

SMALL, BIG = 20_000, 120_000
QUICK_SMALL, QUICK_BIG = 2_000, 6_000
SHARDS = 8
# JSON reports: the 8 shards' are merged and held to the whole run's (G3)
COLD = ("--all", "-j1", "--no-cache", "--format", "json")


def _label(files: int) -> str:
    return f"{files // 1000}k"


def scale_main(args, linter: Linter, repeat: int) -> int:
    """G1 CPU per file of a cold `--all -j1 --no-cache`, 120k vs 20k (and the top size);
    G2 its peak memory, 120k vs 20k; G3 the largest of 8 shards vs the whole run, 120k;
    G4 the default workers vs -j1 (wall time), 120k."""
    small_n, big_n = (QUICK_SMALL, QUICK_BIG) if args.quick else (SMALL, BIG)
    sizes = [small_n, big_n] + ([args.scale_top] if args.scale_top else [])
    roots, counts = {}, {}
    for n in sizes:
        root, count, _ = ensure_repo(args.workdir, f"grown-{n}")
        warm_cache(root)
        roots[n], counts[n] = root, count_files(root) if count is None else count
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} CPUs, repeat {repeat}, "
          f"workdir {args.workdir}")
    print(f"penguin-lint: {linter.describe()}")
    print("repositories: " + ", ".join(f"{_label(n)} = {counts[n]:,} files" for n in sizes))
    big = roots[big_n]
    jobs = {}
    for n in sizes:
        jobs[f"cold -j1 ({_label(n)})"] = lambda n=n: linter(roots[n], *COLD)
    for k in range(1, SHARDS + 1):
        jobs[f"--shard {k}/{SHARDS} -j1 ({_label(big_n)})"] = (
            lambda k=k: linter(big, "--all", "--shard", f"{k}/{SHARDS}", "-j1", "--no-cache", "--format", "json"))
    jobs[f"cold, default workers ({_label(big_n)})"] = lambda: linter(big, "--all", "--no-cache")
    t = interleaved(repeat, jobs)
    peaks, largest = {}, {}
    for n in sizes:
        cmd = [*linter.cmd, "--root", str(roots[n]), *COLD]
        peaks[n] = own_peak(cmd, linter.env, roots[n])
        single, tree, rc = peak_rss(cmd, linter.env, roots[n])
        largest[n] = max(single, tree or 0)
    rows = _rows(t, sizes, counts, peaks, big_n, largest)
    g4 = next(i for i, r in enumerate(rows) if r.number == "G4")
    rows.insert(g4, _merged_row(linter, t, big_n, args.workdir))
    return report(rows, t.values(), [], "tiny repositories" if args.quick else None)


def _merged_row(linter: Linter, t: dict, big_n: int, workdir) -> Row:
    """G3's check of what the timed runs reported: the 8 shards' reports merged
    are the whole run's report, byte for byte."""
    folder = workdir / "shard-reports"
    folder.mkdir(parents=True, exist_ok=True)
    parts = []
    for k in range(1, SHARDS + 1):
        part = folder / f"shard-{k}-of-{SHARDS}.json"
        part.write_text(t[f"--shard {k}/{SHARDS} -j1 ({_label(big_n)})"].runs[-1].stdout, encoding="utf-8")
        parts.append(str(part))
    merged = run_merge(linter, parts)
    whole = t[f"cold -j1 ({_label(big_n)})"].runs[-1]
    same = merged.returncode == whole.returncode and merged.stdout == whole.stdout
    return Row("G3", f"  the {SHARDS} shards' reports merged vs the whole run's (JSON)", _label(big_n),
               f"{len(merged.stdout):,} bytes, exit {merged.returncode}",
               f"--all -j1 {len(whole.stdout):,} bytes, exit {whole.returncode}",
               "identical" if same else "differ", "identical", verdict(same))


def run_merge(linter: Linter, parts: list):
    return run_once([*linter.cmd, "merge", "--format", "json", *parts], env=linter.env)


def own_peak(cmd: list[str], env: dict, cwd) -> int:
    """Peak resident memory of penguin-lint's own process, in bytes: its high-water mark
    (VmHWM) read from /proc until it ends. Unlike common.peak_rss, not the git processes it
    starts (`git ls-files` holds git's whole index, which grows with the repository); 0
    where there is no /proc."""
    proc = subprocess.Popen(cmd, cwd=cwd, env=env, stdin=subprocess.DEVNULL,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    peak = 0
    while proc.poll() is None:
        try:
            with open(f"/proc/{proc.pid}/status") as f:
                for line in f:
                    if line.startswith("VmHWM:"):
                        peak = max(peak, int(line.split()[1]) * 1024)
                        break
        except (OSError, ValueError):
            pass
        time.sleep(0.02)
    return peak


def _growth_rows(number: str, what: str, sizes: list, big_n: int, figure: dict, shown, limit: float, ok) -> list:
    """``what`` at each size above the smallest against the smallest; the
    target holds at ``big_n``, the other sizes are information."""
    small_n, out = sizes[0], []
    for n in sizes[1:]:
        ratio = figure[n] / figure[small_n]
        target = n == big_n
        out.append(Row(number, f"  {what}, {_label(n)} vs {_label(small_n)}", _label(n), shown(figure[n]),
                       shown(figure[small_n]), f"{ratio:.2f}x", f"<= {limit:g}x"
                       if target else "info", ok(ratio <= limit) if target else "info"))
    return out


def _rows(t: dict, sizes: list, counts: dict, peaks: dict, big_n: int, largest: dict) -> list:
    colds = {n: t[f"cold -j1 ({_label(n)})"] for n in sizes}
    problem = next(filter(None, (lint_problem(tm) for tm in t.values())), None)

    def ok(good: bool) -> str:
        return "ERROR" if problem else verdict(good)

    per_file = {n: colds[n].median / counts[n] * 1e3 for n in sizes}  # ms
    rows = []
    for n in sizes:
        rows.append(Row("G1", "cold --all -j1 --no-cache: CPU per file", _label(n),
                        f"{per_file[n]:.4f} ms", f"{fmt_s(colds[n].median)} / {counts[n]:,} files",
                        "-", "-", "info"))
    rows += _growth_rows("G1", "CPU per file", sizes, big_n, per_file, lambda v: f"{v:.4f} ms", 1.10, ok)
    for n in sizes:
        rows.append(Row("G2", "cold --all -j1 --no-cache: peak memory of its process", _label(n),
                        f"{peaks[n] / 1e6:.0f} MB", f"{peaks[n] / counts[n]:.0f} B per file",
                        "-", "-", "info"))
        rows.append(Row("G2", "  largest process or sum of the tree (git's included)", _label(n),
                        f"{largest[n] / 1e6:.0f} MB", "-", "-", "-", "info"))
    rows += _growth_rows("G2", "peak memory", sizes, big_n, peaks, lambda v: f"{v / 1e6:.0f} MB", 1.5, ok)
    shards: list[Timing] = [t[f"--shard {k}/{SHARDS} -j1 ({_label(big_n)})"] for k in range(1, SHARDS + 1)]
    slowest = max(shards, key=lambda tm: tm.median)
    whole = colds[big_n]
    share = slowest.median / whole.median
    rows.append(Row("G3", f"largest of {SHARDS} shards vs --all -j1 (CPU)", _label(big_n),
                    fmt_s(slowest.median),
                    f"--all -j1 {fmt_s(whole.median)} (shards: "
                    + ", ".join(fmt_s(s.median) for s in shards) + ")",
                    f"{share:.3f}x", "<= 0.16x", ok(share <= 0.16)))
    # each shard's own cost beyond its share: the walk above the units and the plan
    extra = (sum(s.median for s in shards) - whole.median) / SHARDS
    rows.append(Row("G3", f"  what each of {SHARDS} shards adds to its share (summed less --all, / {SHARDS})",
                    _label(big_n), fmt_s(extra), f"--all -j1 {fmt_s(whole.median)}",
                    f"{extra / whole.median:.3f}x", "-", "info"))
    workers = t[f"cold, default workers ({_label(big_n)})"]
    speedup = whole.wall / workers.wall
    rows.append(Row("G4", "default workers vs -j1 (wall time, --no-cache)", _label(big_n),
                    f"{workers.wall:.1f} s wall ({fmt_s(workers.median)} CPU)",
                    f"-j1 {whole.wall:.1f} s wall", f"{speedup:.2f}x faster", ">= 1.8x",
                    ok(speedup >= 1.8)))
    # Wall time needs both cores free; on a shared machine this says whether the workers
    # add work of their own (a serial phase, units read twice) or only wait for a core.
    rows.append(Row("G4", "  CPU of the default workers vs -j1 (all processes)", _label(big_n),
                    fmt_s(workers.median), f"-j1 {fmt_s(whole.median)}",
                    f"{workers.median / whole.median:.2f}x", "-", "info"))
    return rows
