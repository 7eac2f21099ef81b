"""The cache is advisory: a record is used only when what it describes is
proven unchanged, a cache folder git tracks is never used however it was
named, only the run's own cache folder is left out of --all, and any damage
to what the cache keeps means running as without it, with one warning."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.conftest import VALID, lint, pull_request_repo, write_repo
from tests.cache.test_cache import age

BENCH = "packages/bench-a/benchmark_config.toml"
TASK = "packages/bench-a/CASE-001-one"
EXP = "experiments/lb/exp-1"
GIT = ["git", "-c", "user.name=t", "-c", "user.email=t@example.invalid", "-c", "commit.gpgsign=false",
       "-c", "core.hooksPath=/dev/null", "-c", "init.defaultBranch=main"]


def git(root: Path, *args: str) -> None:
    subprocess.run([*GIT, *args], cwd=root, check=True, capture_output=True)


def records(folder: Path) -> list:
    return sorted(folder.glob("v*/*/*.json"))


def hide_findings(folder: Path) -> None:
    """Rewrite every record as one claiming its unit is clean, in the
    layout the tool writes (a forged record, not a damaged one)."""
    for f in records(folder):
        data = json.loads(f.read_bytes())
        data["record"]["findings"] = []
        f.write_bytes(json.dumps(data, separators=(",", ":")).encode("ascii"))


def warnings(run) -> list:
    return [ln for ln in run.stderr.splitlines() if ln.startswith("penguin-lint: warning:")]


def findings(run) -> list:
    return sorted((f["code"], f["path"], f["line"]) for f in run.findings)


# -- 9: folder time stamps are no proof -----------------------------------------

def test_a_tree_unpacked_over_with_its_folder_times_restored_is_seen(tmp_path):
    root = write_repo(tmp_path / "r", {}, VALID)
    age(root)
    time.sleep(1.1)  # past the racy second: the records note every folder's stamps
    assert lint(root, "--all", "-j1").code == 0
    stamps = {rel: v[0] for f in records(root / ".penguin-lint-cache")
              for rel, v in json.loads(f.read_bytes())["record"]["listings"].items()}
    assert stamps[EXP] is not None and stamps[TASK] is not None
    times = {}
    for dirpath, _dirs, _files in os.walk(root):
        st = os.lstat(dirpath)
        times[dirpath] = (st.st_atime_ns, st.st_mtime_ns)
    # the second tree, as tar or rsync -t unpack it: its folders keep the
    # first tree's times
    phase = root / EXP / "val"
    phase.mkdir()
    (phase / "summary.yaml").write_text("n_attempt: [\n")
    (root / TASK / "data.tar.gz").write_bytes(b"\x1f\x8b\x08\x00" + b"\0" * 20)
    (root / TASK / "statement-link").symlink_to("statement")
    times[str(phase)] = times[str(root / EXP)]
    for path, (a, m) in times.items():
        os.utime(path, ns=(a, m), follow_symlinks=False)
    fresh = lint(root, "--all", "-j1", "--no-cache")
    assert fresh.code == 1
    paths = {f["path"] for f in fresh.findings}
    assert {f"{EXP}/val/summary.yaml", f"{TASK}/data.tar.gz", f"{TASK}/statement-link"} <= paths
    cached = lint(root, "--all", "-j1")
    assert (cached.code, cached.output) == (fresh.code, fresh.output)


# -- 10: a tracked cache folder, however named ----------------------------------

@pytest.mark.parametrize("how", ["option", "env"])
def test_a_tracked_cache_folder_named_explicitly_is_never_used(tmp_path, monkeypatch, how):
    root = write_repo(tmp_path / "r", {BENCH: VALID[BENCH].replace('"1.0.0"', '"1.0"')}, VALID)
    git(root, "init", "-q")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "base")
    age(root)
    folder = root / "ci-cache"
    args = ["--all", "-j1"]
    if how == "option":
        args += ["--cache-dir", str(folder)]
    else:
        monkeypatch.setenv("PENGUIN_LINT_CACHE_DIR", str(folder))
    first = lint(root, *args)
    assert first.code == 1 and first.at("PL203") == [(BENCH, 4)]
    hide_findings(folder)
    assert records(folder)
    # the pull request commits the forged records
    git(root, "add", "-f", "ci-cache")
    git(root, "commit", "-qm", "a cache that hides the findings")
    run = lint(root, *args)
    assert run.code == 1 and run.at("PL203") == [(BENCH, 4)]
    assert warnings(run) == ["penguin-lint: warning: the cache folder ci-cache/ is tracked by git; "
                             "the cache is not used"]


def test_a_cache_folder_whose_records_only_are_tracked_is_never_used(tmp_path):
    root = write_repo(tmp_path / "r", {BENCH: VALID[BENCH].replace('"1.0.0"', '"1.0"')}, VALID)
    git(root, "init", "-q")
    age(root)
    folder = root / "build" / "lint-cache"
    assert lint(root, "--all", "-j1", "--cache-dir", str(folder)).code == 1
    hide_findings(folder)
    git(root, "add", "-A")
    git(root, "add", "-f", *[str(p.relative_to(root)) for p in records(folder)])
    git(root, "commit", "-qm", "base")
    run = lint(root, "--all", "-j1", "--cache-dir", str(folder))
    assert run.code == 1 and run.at("PL203") == [(BENCH, 4)]
    assert len(warnings(run)) == 1 and "tracked by git" in run.stderr


@pytest.mark.parametrize("run", ["all", "diff"])
def test_a_cache_folder_reached_through_a_committed_link_is_never_written(tmp_path, monkeypatch, run):
    # the pull request commits .cache -> a folder outside the repository; a
    # workflow keeps the cache under .cache/ in the checkout
    outside = tmp_path / "outside"
    outside.mkdir()
    root = pull_request_repo(write_repo(tmp_path / "r", {}, VALID))
    (root / ".cache").symlink_to(outside)
    git(root, "add", "-A")
    git(root, "commit", "-qm", "a link")
    monkeypatch.setenv("PENGUIN_LINT_CACHE_DIR", str(root / ".cache" / "penguin-lint"))
    args = ["--all", "-j1"] if run == "all" else ["--diff-base", "main"]
    for _ in range(2):  # a diff run makes its index copy on the second run
        result = lint(root, *args)
        assert result.code == 0, result.output
        assert ("the cache folder .cache/penguin-lint/ is reached through the symbolic link .cache; "
                "the cache is not used") in result.stderr
    assert list(outside.iterdir()) == []


# -- 11: only the run's own cache folder is skipped ------------------------------

def test_a_data_folder_named_like_the_cache_is_linted(tmp_path, git_env):
    hidden = "leaderboards/.penguin-lint-cache/leaderboard.yaml"
    root = pull_request_repo(write_repo(tmp_path / "r", {}, VALID))
    (root / hidden).parent.mkdir()
    (root / hidden).write_text("leaderboard_id: [\n")
    diff = lint(root)
    assert diff.code == 1 and hidden in {f["path"] for f in diff.findings}
    for args in (["--all"], ["--all", "--no-cache"]):
        run = lint(root, *args)
        assert run.code == 1, args
        assert [f["code"] for f in run.findings if f["path"] == hidden] == \
            [f["code"] for f in diff.findings if f["path"] == hidden], args


def test_the_runs_own_cache_folder_inside_a_data_folder_is_not_linted(tmp_path):
    root = write_repo(tmp_path / "r", {}, VALID)
    folder = root / "leaderboards" / "lint-cache"
    assert lint(root, "--all", "--cache-dir", str(folder)).code == 0
    assert records(folder)
    run = lint(root, "--all", "--cache-dir", str(folder))
    assert run.code == 0 and run.findings == []


# -- 12: a damaged index copy -----------------------------------------------------

@pytest.mark.parametrize("damage", ["truncated", "garbage", "garbage noted as written"])
def test_a_damaged_index_copy_is_one_warning_and_the_plain_status(tmp_path, git_env, damage):
    root = pull_request_repo(write_repo(tmp_path / "r", {}, VALID))
    assert lint(root).code == 0  # notes that it ran
    assert lint(root).code == 0  # makes the copy
    (copy,) = (root / ".penguin-lint-cache" / "status").glob("*/index")
    data = copy.read_bytes()
    copy.write_bytes(data[: len(data) // 2] if damage == "truncated" else b"DIRC" + os.urandom(len(data)))
    if damage == "garbage noted as written":
        # as if git itself had left it so: only git's failure to read it tells
        st = copy.stat()
        (copy.parent / "index.stamp").write_text(f"{st.st_size} {st.st_mtime_ns} {st.st_ctime_ns} {st.st_ino}\n")
    summary = f"{EXP}/val/summary.yaml"  # an untracked file: only git status finds it
    (root / summary).parent.mkdir()
    (root / summary).write_text("n_attempt: [\n")
    fresh = lint(root, "--no-cache")
    assert fresh.code == 1 and summary in {f["path"] for f in fresh.findings}
    run = lint(root)
    assert (run.code, findings(run)) == (fresh.code, findings(fresh))
    assert len(warnings(run)) == 1 and "index" in warnings(run)[0], run.stderr
    assert ("could not be read by git" in run.stderr) == (damage == "garbage noted as written"), run.stderr
    again = lint(root)  # the copy is made afresh
    assert (again.code, findings(again), again.stderr) == (fresh.code, findings(fresh), "")


# -- round three, 3: a huge record is not read ------------------------------------

def test_a_huge_record_is_ignored_without_reading_it(tmp_path):
    root = write_repo(tmp_path / "r", {BENCH: VALID[BENCH].replace('"1.0.0"', '"1.0"')}, VALID)
    age(root)
    cache = tmp_path / "cache"
    first = lint(root, "--all", "-j1", "--cache-dir", str(cache))
    assert first.code == 1
    target = max(records(cache), key=lambda p: p.stat().st_size)
    head = target.read_bytes()
    # what the tool wrote up to the record itself, then 60 MiB of empty lists
    head = head[: head.index(b'"record":') + len(b'"record":')]
    with open(target, "wb") as f:
        f.write(head + b"[" + b"[]," * (20 * 1024 * 1024) + b"[]]}")
    probe = ("import resource, subprocess, sys\n"
             "p = subprocess.run([sys.executable, '-m', 'penguin_lint', *sys.argv[1:]],"
             " capture_output=True)\n"
             "sys.stdout.write(str(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss) + '\\n')\n"
             "sys.stdout.write(str(p.returncode) + '\\n' + p.stderr.decode())\n")
    proc = subprocess.run([sys.executable, "-c", probe, "--root", str(root), "--all", "-j1", "--format", "json",
                           "--cache-dir", str(cache)], capture_output=True, text=True, timeout=120)
    peak_kb, code, *err = proc.stdout.splitlines()
    assert int(code) == 1, proc.stdout
    assert int(peak_kb) < 150 * 1024, f"peak {int(peak_kb) // 1024} MB"
    assert len([ln for ln in err if ln.startswith("penguin-lint: warning:")]) == 1, err
    run = lint(root, "--all", "-j1", "--cache-dir", str(cache))
    fresh = lint(root, "--all", "-j1", "--no-cache")
    assert (run.code, run.output, run.stderr) == (fresh.code, fresh.output, "")
