"""--shard K/N with --diff-base: a pull request's diff run in parts; the
parts merged are the unsharded diff run byte for byte (findings with their
blame, counts, what it compared with) with its exit status, and never the
report of --all (old debt elsewhere stays out)."""
from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from tests.conftest import lint
from tests.engine.test_merge import git, merge, realistic

LB0 = "experiments/synth-lb-00"


def _set(path: Path, key: str, value: str) -> None:
    lines = path.read_text().splitlines(keepends=True)
    path.write_text("".join(f"{key}: {value}\n" if ln.startswith(f"{key}:") else ln for ln in lines))


@pytest.fixture
def change(tmp_path):
    """The realistic repository with its debt on the default branch, and a
    change on top: a wrong mean, a renamed model, a version with a 'v', a
    removed task that attempts name (dependents re-checked)."""
    root = realistic(tmp_path)
    base = subprocess.run(["git", "rev-parse", "HEAD"], cwd=root, capture_output=True, text=True).stdout.strip()
    git(root, "checkout", "-q", "-b", "feature")
    _set(root / LB0 / "synth-lb-00-e001-baseline-glm-5" / "test" / "summary.yaml", "score_mean", "0.9")
    _set(root / LB0 / "synth-lb-00-e002-baseline-glm-5" / "meta_info.yaml", "model_name", '"other"')
    bench = root / "packages" / "synth-bench-003" / "benchmark_config.toml"
    bench.write_text(bench.read_text().replace('version = "', 'version = "v', 1))
    git(root, "rm", "-rq", "packages/synth-bench-001/CASE-001-routing-policy")
    git(root, "commit", "-qam", "change")
    return root, base


def parts(root: Path, base: str, out: Path, n: int, *args: str):
    out.mkdir(exist_ok=True)
    paths = []
    for k in range(1, n + 1):
        run = lint(root, "--diff-base", base, "--shard", f"{k}/{n}", *args)
        assert run.code in (0, 1), run.stderr
        assert run.json["shard"]["index"] == k and "touched" in run.json["shard"]
        p = out / f"part-{k}.json"
        p.write_text(run.output)
        paths.append(str(p))
    return paths


def test_the_parts_of_a_diff_run_merged_are_the_diff_run(tmp_path, change):
    root, base = change
    whole = {fmt: lint(root, "--diff-base", base, "--no-cache", fmt=fmt) for fmt in ("json", "text")}
    assert whole["json"].code == 1
    summary = whole["json"].json["summary"]
    assert summary["dependents"] >= 5 and summary["compared_with"].endswith(f"({base[:7]})")
    scopes = {f["scope"] for f in whole["json"].findings}
    assert scopes == {"touched", "dependent"}, scopes
    # old debt elsewhere is not the change's: --all reports more
    assert len(lint(root, "--all", "--no-cache").findings) > len(whole["json"].findings)
    for n in (1, 2, 3, 5):
        paths = parts(root, base, tmp_path / f"parts-{n}", n)
        counts = [len(json.loads(Path(p).read_text())["findings"]) for p in paths]
        assert sum(counts) == len(whole["json"].findings), (n, counts)
        if n == 3:
            assert sum(1 for c in counts if c) >= 2  # spread over the parts
        for fmt in ("json", "text"):
            got = merge(*paths, "--format", fmt)
            assert (got.code, got.stderr) == (whole[fmt].code, ""), (n, fmt, got.stderr)
            assert got.output == whole[fmt].output, (n, fmt)  # byte for byte


def test_the_exit_status_is_the_diff_run_s(tmp_path, change):
    root, base = change
    whole = lint(root, "--diff-base", base, "--no-cache", "--select", "PL104,PL203")
    paths = parts(root, base, tmp_path / "p", 2, "--select", "PL104,PL203")
    got = merge(*paths, "--format", "json")
    assert (got.code, got.output) == (whole.code, whole.output)
    assert got.code == 1 and [f["code"] for f in got.findings] == ["PL203"]


def test_parts_of_different_runs_are_refused(tmp_path, change):
    root, base = change
    diff = parts(root, base, tmp_path / "diff", 2)
    whole = []
    for k in (1, 2):
        p = tmp_path / f"all-{k}.json"
        p.write_text(lint(root, "--all", "--no-cache", "--shard", f"{k}/2").output)
        whole.append(str(p))
    got = merge(diff[0], whole[1])
    assert got.code == 2 and got.output == ""
    assert got.stderr.startswith("penguin-lint: error: ") and len(got.stderr.splitlines()) == 1
    later = parts(root, "HEAD~0", tmp_path / "later", 2)  # against itself: another base
    got = merge(diff[0], later[1])
    assert got.code == 2 and "parts of different runs" in got.stderr


def test_shard_with_paths_or_fix_is_a_usage_error(tmp_path, change):
    root, base = change
    for args, message in ((["packages", "--shard", "1/2"], "--shard needs --all or --diff-base"),
                          (["--diff-base", base, "--shard", "1/2", "--fix"], "cannot be combined with --fix")):
        run = lint(root, *args, fmt="text")
        assert run.code == 2 and message in run.stderr, run.stderr


def test_a_part_that_holds_none_of_the_change_says_so(tmp_path, git_env):
    from tests.conftest import VALID, write_repo

    root = write_repo(tmp_path / "r", {}, VALID)
    git(root, "init", "-q", "-b", "main")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "base")
    summary = root / "experiments/lb/exp-1/test/summary.yaml"
    summary.write_text(summary.read_text() + "# checked again\n")
    git(root, "commit", "-qam", "change")
    whole = lint(root, "--diff-base", "HEAD~1", "--no-cache")
    n = whole.json["summary"]["files"]
    against = whole.json["summary"]["compared_with"]
    runs = [lint(root, "--diff-base", "HEAD~1", "--no-cache", "--shard", f"{k}/4", fmt="text") for k in range(1, 5)]
    assert [r.code for r in runs] == [0] * 4
    empty = [k for k, r in enumerate(runs, 1) if r.output.startswith("Nothing to check")]
    assert len(empty) >= 2
    for k in empty:
        assert runs[k - 1].output == f"Nothing to check: shard {k}/4 holds none of the {n} files checked against {against}.\n"
