"""The rows of `python -m benchmarks.run --huge`: H1-H3, huge leaderboards against parsing them."""

from __future__ import annotations

import os
import sys

from benchmarks import huge
from benchmarks.common import (Linter, PARSE_FLOOR, Row, ensure_huge, fmt_s, interleaved, lint_problem,
                               peak_rss, report, run_once, verdict, warm_cache)


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
