"""A fix never drops digits of a value known exactly (issue 30): attempts'
costs that add up to exactly 1.4147 are written 1.4147, not 1.41, in PL303's
hint and by --fix alike."""
from __future__ import annotations

from tests.conftest import VALID, lint, write_repo

PHASE = "experiments/lb/exp-1/test/"


def _repo(tmp_path, written="1.40"):
    return write_repo(tmp_path / "r", {
        PHASE + "summary.yaml": f"n_attempt: 2\nscore_mean: 50.0\nscore_std: 0.0\ncost: {written}\n",
        PHASE + "attempt-1.yaml": VALID[PHASE + "attempt-1.yaml"] + "cost: 0.5\n",
        PHASE + "attempt-2.yaml": VALID[PHASE + "attempt-2.yaml"] + "cost: 0.9147\n",
    }, VALID)


def test_the_hint_and_the_fix_keep_every_digit_of_an_exact_total(tmp_path):
    root = _repo(tmp_path)
    run = lint(root, "--all", "--no-cache")
    (f,) = [f for f in run.findings if f["code"] == "PL303"]
    assert (f["path"], f["line"]) == (PHASE + "summary.yaml", 4)
    assert f["hint"] == "set cost to 1.4147, or fix the attempt files"
    assert lint(root, "--all", "--no-cache", "--fix").code == 0
    assert (root / PHASE / "summary.yaml").read_text().endswith("cost: 1.4147\n")


def test_a_total_the_author_wrote_with_more_decimals_keeps_them(tmp_path):
    root = _repo(tmp_path, "1.500000")
    assert lint(root, "--all", "--no-cache", "--fix").code == 0
    assert (root / PHASE / "summary.yaml").read_text().endswith("cost: 1.414700\n")
