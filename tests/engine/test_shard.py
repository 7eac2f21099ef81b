"""--shard K/N: every finding of --all in exactly one shard, the same split on
every run, parts balanced by bytes."""
from __future__ import annotations

import subprocess
from collections import Counter
from textwrap import dedent

import pytest

from penguin_lint.engine.shard import Shard, assign, parse_shard
from penguin_lint.version import __version__
from tests.conftest import VALID, lint, write_repo

BENCH = "packages/bench-a/benchmark_config.toml"
LB = "leaderboards/lb/leaderboard.yaml"


def many_units(tmp_path, git=False):
    """Nine packages and four leaderboards, with findings in most of them and
    in the subjects above the units."""
    files = dict(VALID)
    for i in range(9):
        version = '"1.0"' if i % 2 else '"1.0.0"'
        files[f"packages/b{i}/benchmark_config.toml"] = VALID[BENCH].replace("bench-a", f"b{i}").replace('"1.0.0"', version)
        files[f"packages/b{i}/CASE-001-one/task_config.toml"] = VALID["packages/bench-a/CASE-001-one/task_config.toml"]
    for j in range(4):
        for k, v in VALID.items():
            if k.startswith(("experiments/lb/", "leaderboards/lb/")):
                files[k.replace("/lb/", f"/lb{j}/")] = v.replace("leaderboard_id: lb", f"leaderboard_id: lb{j}")
        files[f"experiments/lb{j}/exp-1/test/attempt-2.yaml"] = "score: 4%\n" if j % 2 else VALID[
            "experiments/lb/exp-1/test/attempt-2.yaml"]
    files["experiments/orphan/exp-9/meta_info.yaml"] = "experiment_id: exp-9\n"
    files["leaderboards/stray.yaml"] = "not: a leaderboard\n"
    root = write_repo(tmp_path / "r", files)
    (root / "leaderboards" / "link").symlink_to("lb0")  # PL006 on a top folder
    if git:
        g = ["git", "-c", "user.name=t", "-c", "user.email=t@example.invalid", "-c", "commit.gpgsign=false"]
        for args in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "init"]):
            subprocess.run([*g, *args], cwd=root, check=True, capture_output=True)
    return root


def key(f):
    return (f["path"], f["line"], f["column"], f["code"], f["message"])


@pytest.mark.parametrize("git", [False, True])
def test_every_finding_is_reported_by_exactly_one_shard(tmp_path, git):
    root = many_units(tmp_path, git)
    whole = lint(root, "--all", "--no-cache")
    assert whole.code == 1 and len(whole.findings) >= 10
    for n in (1, 2, 3, 4, 7):
        runs = [lint(root, "--all", "--no-cache", "--shard", f"{k}/{n}") for k in range(1, n + 1)]
        got = Counter(key(f) for r in runs for f in r.findings)
        assert got == Counter(key(f) for f in whole.findings), n
        assert sum(r.json["summary"]["files"] for r in runs) == whole.json["summary"]["files"]
        assert [r.code for r in runs] == [1 if r.findings else 0 for r in runs]
    four = [lint(root, "--all", "--no-cache", "--shard", f"{k}/4") for k in range(1, 5)]
    assert sum(1 for r in four if r.findings) >= 3  # the findings are spread, not all in one part
    # the subjects above the units belong to the first shard
    assert [f["path"] for f in four[0].findings if f["code"] == "PL006"] == ["leaderboards/link"]


def test_shards_share_one_cache_folder(tmp_path):
    root = many_units(tmp_path)
    whole = lint(root, "--all", "--no-cache")
    for _ in range(2):  # the second round reads what all four wrote
        runs = [lint(root, "--all", "--shard", f"{k}/4") for k in range(1, 5)]
        assert Counter(key(f) for r in runs for f in r.findings) == Counter(key(f) for f in whole.findings)
    assert lint(root, "--all").output == whole.output


def test_the_split_is_the_same_on_every_run(tmp_path):
    root = many_units(tmp_path, git=True)
    first = [lint(root, "--all", "--no-cache", "--shard", f"{k}/3").output for k in (1, 2, 3)]
    assert [lint(root, "--all", "--no-cache", "--shard", f"{k}/3").output for k in (1, 2, 3)] == first


def test_assign_balances_by_weight_and_is_deterministic():
    weights = [10, 9, 8, 7, 6, 5, 4, 3, 2, 1]
    keys = [f"u{i}" for i in range(10)]
    owners = assign(weights, keys, 3)
    loads = [sum(w for w, s in zip(weights, owners) if s == k) for k in (1, 2, 3)]
    assert sorted(loads) == [18, 18, 19]
    assert assign(weights, keys, 3) == owners
    # the first shard starts with the subjects above the units
    assert assign([5, 5], ["a", "b"], 2, first_load=100) == [2, 2]


@pytest.mark.parametrize("text, message", [
    ("0/4", "--shard 0/4: K must be between 1 and N"),
    ("5/4", "--shard 5/4: K must be between 1 and N"),
    ("1/0", "--shard 1/0: K must be between 1 and N"),
    ("two/4", "--shard takes K/N, as in 2/4 (got 'two/4')"),
    ("1/2/3", "--shard takes K/N, as in 2/4 (got '1/2/3')"),
])
def test_a_bad_shard_is_one_error_line(tmp_path, text, message):
    root = write_repo(tmp_path / "r", {}, VALID)
    run = lint(root, "--all", "--shard", text)
    assert run.code == 2 and run.output == ""
    assert run.stderr == f"penguin-lint: error: {message}\n"
    with pytest.raises(ValueError):
        parse_shard(text)


def test_shard_needs_all(tmp_path):
    root = write_repo(tmp_path / "r", {}, VALID)
    run = lint(root, LB, "--shard", "1/2")
    assert (run.code, run.stderr) == (2, "penguin-lint: error: --shard needs --all or --diff-base\n")
    assert parse_shard(" 2 / 4 ") == Shard(2, 4) and str(Shard(2, 4)) == "2/4"


def test_a_shard_with_no_units_passes_quietly(tmp_path):
    root = write_repo(tmp_path / "r", {}, VALID)
    runs = [lint(root, "--all", "--no-cache", "--shard", f"{k}/9") for k in range(1, 10)]
    assert [r.code for r in runs] == [0] * 9
    assert sum(r.json["summary"]["files"] for r in runs) == lint(root, "--all").json["summary"]["files"]
    assert dedent(VALID[LB]).startswith("leaderboard_id: lb")


def test_a_shard_that_holds_no_file_says_so_in_every_format(tmp_path, monkeypatch):
    # nine parts of a repository of two units: most hold none of its files
    # and say so, exit 0; the parts merged are --all, in every format
    root = write_repo(tmp_path / "r", {}, VALID)
    whole = {fmt: lint(root, "--all", "--no-cache", fmt=fmt) for fmt in ("text", "json")}
    n = whole["json"].json["summary"]["files"]
    texts = [lint(root, "--all", "--no-cache", "--shard", f"{k}/9", fmt="text") for k in range(1, 10)]
    assert [r.code for r in texts] == [0] * 9
    empty = [k for k, r in enumerate(texts, 1) if "files checked" not in r.output]
    assert len(empty) >= 6
    for k in empty:
        assert texts[k - 1].output == f"Nothing to check: shard {k}/9 holds none of the {n} files.\n"
    k = empty[-1]
    part = ("--all", "--no-cache", "--shard", f"{k}/9")
    concise = lint(root, *part, fmt="concise")
    assert (concise.code, concise.output) == (0, f"Nothing to check: shard {k}/9 holds none of the {n} files.\n")
    report = lint(root, *part).json
    assert report["summary"]["files"] == 0 and report["findings"] == []
    assert report["shard"]["index"] == k and report["shard"]["holds_none_of"] == n
    sarif = lint(root, *part, fmt="sarif")
    assert sarif.code == 0 and sarif.json["runs"][0]["results"] == []
    summary = tmp_path / "summary.md"
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(summary))
    github = lint(root, *part, fmt="github")
    assert (github.code, github.output) == (0, f"penguin-lint: 0 errors, 0 warnings (shard {k}/9 holds none of the {n} files)\n")
    assert summary.read_text() == f"## penguin-lint {__version__}\n\nNothing to check: shard {k}/9 holds none of the {n} files.\n\n"
    monkeypatch.delenv("GITHUB_STEP_SUMMARY")
    # merged: the report of --all, with no word of the parts
    reports = []
    for k in range(1, 10):
        p = tmp_path / f"part-{k}.json"
        p.write_text(lint(root, "--all", "--no-cache", "--shard", f"{k}/9").output)
        reports.append(str(p))
    for fmt in ("text", "json"):
        merged = lint(None, "merge", *reports, "--format", fmt)
        assert (merged.code, merged.output) == (0, whole[fmt].output), fmt
