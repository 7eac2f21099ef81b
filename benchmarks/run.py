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
With --scale, only G1-G4 (benchmarks/growth.py): how cold whole runs, their memory, 8 shards and
the workers grow from 20k to 120k files (--scale-top N adds a repository of about N files).

The repositories are built once in the work folder and reused while their stamp matches the
generator's source and parameters. The script installs nothing; a missing check-jsonschema makes
its row "skipped". Exit status: 0 when no row failed, 1 when a row failed or errored.
"""
from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

from benchmarks.common import (Linter, PROJECT_ROOT)


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
    parser.add_argument("--scale", action="store_true",
                        help="only G1-G4 (benchmarks/growth.py): cost per file, peak memory, 8 shards "
                             "and the workers on the large shape grown to 20k and 120k files")
    parser.add_argument("--scale-top", type=int, metavar="FILES",
                        help="with --scale: a third repository of about FILES files (e.g. 400000)")
    parser.add_argument("--instructions", action="store_true",
                        help="with --waits: W1 also in instructions counted by valgrind, penguin-lint's "
                             "own process apart from git's (benchmarks/instructions.py)")
    args = parser.parse_args(argv)
    if args.scale_top and not args.scale:
        parser.error("--scale-top adds a size to the rows of --scale: give both")
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
        from benchmarks.huge_rows import huge_main

        return huge_main(args, linter, repeat)
    if args.scale:
        from benchmarks.growth import scale_main

        return scale_main(args, linter, repeat)
    if args.waits:
        from benchmarks.waits import waits_main

        return waits_main(args, linter, repeat)
    from benchmarks.whole import whole_main

    return whole_main(args, linter, repeat, prefix, n_added)


if __name__ == "__main__":
    sys.exit(main())
