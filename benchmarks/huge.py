"""Repositories with one huge leaderboard, for `python -m benchmarks.run --huge`.

A leaderboard file just under the 5 MiB size limit, each of its values one leaf
(``{experiment_id: e0, phase: test}``, 39 bytes a line): 125,000 leaves. Every
leaf resolves to one of five small experiments (five benchmarks), so the file is
what a pull request can send that passes the loaders' budgets and the schema,
and what the leaderboard rules then have to walk.

    python -m benchmarks.huge --out DIR [--boards N] [--leaves N]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from benchmarks.generate import _write, _write_package, benchmark_id, task_ids

N_EXPERIMENTS = 5
LEAVES = 125_000


def board_text(lid: str, n_leaves: int) -> str:
    head = (f"leaderboard_id: {lid}\nstatus: draft\ntitle: Huge board\n"
            f"author:\n  name: Synthetic Team\nvalues:\n")
    return head + "".join(f"  - {{experiment_id: e{i % N_EXPERIMENTS}, phase: test}}\n"
                          for i in range(n_leaves))


def generate(root: Path, n_boards: int = 1, n_leaves: int = LEAVES, seed: int = 0) -> int:
    """Write ``n_boards`` leaderboards of ``n_leaves`` leaves, with their experiments and
    packages, under ``root`` (absent or empty); the number of files written."""
    root = Path(root)
    if root.exists() and any(root.iterdir()):
        raise FileExistsError(f"{root} is not empty")
    written = 0
    for b in range(N_EXPERIMENTS):
        written += _write_package(root, seed, b, 2)
    for lb in range(n_boards):
        lid = f"huge-{lb}"
        ldir = root / "leaderboards" / lid
        ldir.mkdir(parents=True)
        _write(ldir / "leaderboard.yaml", board_text(lid, n_leaves))
        written += 1
        for e in range(N_EXPERIMENTS):
            pdir = root / "experiments" / lid / f"e{e}" / "test"
            pdir.mkdir(parents=True)
            _write(pdir.parent / "meta_info.yaml", (
                f"experiment_id: e{e}\nbenchmark_id: {benchmark_id(e)}\n"
                f"harness_name: h\nmodel_name: m\nalgorithm: baseline\n"))
            source = task_ids(seed, e, 2)[0]
            for n in (1, 2):
                _write(pdir / f"attempt-{n}.yaml",
                       f"score: 50.0\nresults:\n  - source: {source}\n    score: 50.0\n")
            _write(pdir / "summary.yaml", "n_attempt: 2\nscore_mean: 50.0\nscore_std: 0.0\n")
            written += 4
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.huge", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", type=Path, required=True, help="absent or empty folder")
    parser.add_argument("--boards", type=int, default=1)
    parser.add_argument("--leaves", type=int, default=LEAVES)
    args = parser.parse_args(argv)
    print(generate(args.out, args.boards, args.leaves))
    return 0


if __name__ == "__main__":
    sys.exit(main())
