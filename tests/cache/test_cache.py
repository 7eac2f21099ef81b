"""The content cache of --all: a warm run parses nothing and reports the same
bytes; any change to what a unit read is seen; a corrupt, foreign, tracked or
linked cache is never trusted."""
from __future__ import annotations

import json
import os
import subprocess
import time
from pathlib import Path
from textwrap import dedent

import pytest

from penguin_lint.cache.units import FORMAT
from tests.conftest import VALID, lint, write_repo

BENCH = "packages/bench-a/benchmark_config.toml"
ATTEMPT = "experiments/lb/exp-1/test/attempt-1.yaml"
README = "packages/bench-a/CASE-001-one/statement/README.md"
GIT = ["git", "-c", "user.name=t", "-c", "user.email=t@example.invalid", "-c", "commit.gpgsign=false",
       "-c", "core.hooksPath=/dev/null", "-c", "init.defaultBranch=main"]


@pytest.fixture
def loads(monkeypatch):
    """Every file parsed in this process, in order."""
    import penguin_lint.core.repo as repo_mod

    seen = []
    orig = repo_mod.load_file

    def counting(abs_path, rel, limit):
        seen.append(rel)
        return orig(abs_path, rel, limit)

    monkeypatch.setattr(repo_mod, "load_file", counting)
    return seen


def age(root: Path, seconds: int = 600) -> None:
    """Time stamps of a tree edited minutes ago (not within the racy second)."""
    then = time.time() - seconds
    for dirpath, dirnames, filenames in os.walk(root):
        for name in dirnames + filenames:
            os.utime(os.path.join(dirpath, name), (then, then), follow_symlinks=False)
    os.utime(root, (then, then))


def edit_keeping_times(path: Path, text: str) -> None:
    """Change a file's bytes but not its time stamps or its folder's."""
    st, dst = path.stat(), path.parent.stat()
    path.write_text(text, encoding="utf-8")
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))
    os.utime(path.parent, ns=(dst.st_atime_ns, dst.st_mtime_ns))


def git(root: Path, *args: str) -> None:
    subprocess.run([*GIT, *args], cwd=root, check=True, capture_output=True)


def bad_version_repo(tmp_path: Path) -> Path:
    return write_repo(tmp_path / "r", {BENCH: VALID[BENCH].replace('"1.0.0"', '"1.0"')}, VALID)


def test_a_warm_run_parses_nothing_and_reports_the_same_bytes(tmp_path, loads):
    root = bad_version_repo(tmp_path)
    age(root)
    cold = lint(root, "--all", "-j1")
    assert cold.code == 1 and cold.at("PL203") == [(BENCH, 4)]
    assert len(set(loads)) == 7
    loads.clear()
    warm = lint(root, "--all", "-j1")
    assert loads == []
    assert (warm.code, warm.output) == (cold.code, cold.output)
    for fmt in ("text", "sarif", "github"):
        assert lint(root, "--all", "-j1", fmt=fmt).output == lint(root, "--all", "--no-cache", fmt=fmt).output
    assert (root / ".penguin-lint-cache" / ".gitignore").read_text().splitlines()[-1] == "*"


def test_a_run_right_after_writing_the_tree_still_reuses_unchanged_units(tmp_path, loads):
    # Fresh time stamps are not trusted: the listings are read again instead.
    root = bad_version_repo(tmp_path)
    cold = lint(root, "--all", "-j1")
    loads.clear()
    assert lint(root, "--all", "-j1").output == cold.output
    assert loads == []


@pytest.mark.parametrize("aged", [True, False])
def test_an_edit_is_seen_even_with_the_old_time_stamps(tmp_path, loads, aged):
    root = write_repo(tmp_path / "r", {}, VALID)
    if aged:
        age(root)
    assert lint(root, "--all", "-j1").code == 0
    loads.clear()
    edit_keeping_times(root / ATTEMPT, dedent(VALID[ATTEMPT]).replace("score: 50.0\nresults", "score: high\nresults"))
    run = lint(root, "--all", "-j1")
    assert run.code == 1
    assert run.at("PL102") == [(ATTEMPT, 1)]
    # only the leaderboard's unit ran again, not the package
    assert ATTEMPT in loads and BENCH not in loads


def test_an_added_attempt_is_seen(tmp_path):
    root = write_repo(tmp_path / "r", {}, VALID)
    age(root)
    assert lint(root, "--all", "-j1").code == 0
    (root / "experiments/lb/exp-1/test/attempt-3.yaml").write_text(
        "score: 50.0\nresults:\n  - source: CASE-001-one\n    score: 50.0\n")
    run = lint(root, "--all", "-j1")
    fresh = lint(root, "--all", "--no-cache")
    assert run.output == fresh.output and run.code == fresh.code == 1
    assert [f["path"] for f in run.findings] == ["experiments/lb/exp-1/test/attempt-3.yaml"]


def test_a_package_file_that_grows_is_seen_though_its_folder_did_not_change(tmp_path):
    root = write_repo(tmp_path / "r", {".penguin-lint.toml": 'max-file-size = "1KiB"\n'}, VALID)
    age(root)
    assert lint(root, "--all", "-j1").code == 0
    edit_keeping_times(root / README, "# One\n" + "x" * 2000 + "\n")
    run = lint(root, "--all", "-j1")
    assert run.at("PL004") == [(README, 1)]


def test_a_configuration_change_is_a_different_cache(tmp_path):
    root = bad_version_repo(tmp_path)
    age(root)
    assert lint(root, "--all").at("PL203")
    (root / ".penguin-lint.toml").write_text('ignore = ["PL203"]\n')
    assert lint(root, "--all").code == 0
    (root / ".penguin-lint.toml").unlink()
    assert lint(root, "--all").at("PL203") == [(BENCH, 4)]
    assert lint(root, "--all", "--select", "PL1").code == 0


def test_git_blob_ids_name_clean_files_and_an_uncommitted_edit_is_seen(tmp_path, loads):
    root = write_repo(tmp_path / "r", {}, VALID)
    git(root, "init", "-q")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "init")
    age(root)
    assert lint(root, "--all", "-j1").code == 0
    loads.clear()
    assert lint(root, "--all", "-j1").code == 0 and loads == []
    edit_keeping_times(root / ATTEMPT, "score: [\n")
    run = lint(root, "--all", "-j1")
    assert run.at("PL001") == [(ATTEMPT, 2)] or [p for p, _ in run.at("PL001")] == [ATTEMPT]
    git(root, "commit", "-qam", "broken")
    assert [p for p, _ in lint(root, "--all", "-j1").at("PL001")] == [ATTEMPT]
    (root / ATTEMPT).write_text(dedent(VALID[ATTEMPT]))
    assert lint(root, "--all", "-j1").code == 0


def _cache_files(root: Path):
    return sorted((root / ".penguin-lint-cache" / f"v{FORMAT}").glob("*/*.json"))


def _hide_findings(root: Path) -> None:
    """A well-formed cache that claims every unit is clean."""
    for f in _cache_files(root):
        data = json.loads(f.read_text())
        data["record"]["findings"] = []
        f.write_text(json.dumps(data, separators=(",", ":")))  # the layout the tool writes


@pytest.mark.parametrize("garbage", [
    b"", b"\x00\xff" * 100, b"[]", b'{"format": 1}', b"{" * 100000,
    "json-with-wrong-types",
])
def test_a_corrupt_or_foreign_cache_is_ignored(tmp_path, garbage):
    root = bad_version_repo(tmp_path)
    age(root)
    first = lint(root, "--all", "-j1")
    for f in _cache_files(root):
        if garbage == "json-with-wrong-types":
            data = json.loads(f.read_text())
            data["record"]["findings"] = [["PL999", 1, "x", None, None, "a", None, None, None, None, None]]
            data["record"]["count"] = "many"
            f.write_bytes(json.dumps(data).encode())
        else:
            f.write_bytes(garbage)
    again = lint(root, "--all", "-j1")
    assert (again.code, again.output) == (first.code, first.output)
    # damage is said once, and the records are written afresh
    assert again.stderr.startswith("penguin-lint: warning: 2 cache records were damaged (")
    assert again.stderr.count("\n") == 1
    last = lint(root, "--all", "-j1")
    assert (last.output, last.stderr) == (first.output, "")


@pytest.mark.parametrize("attributes", [False, True])
def test_a_cache_folder_tracked_by_git_is_never_used(tmp_path, attributes):
    root = bad_version_repo(tmp_path)
    if attributes:  # blob ids are not used then; the tracked folder is still seen
        (root / ".gitattributes").write_text("*.yaml text eol=lf\n")
    git(root, "init", "-q")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "init")
    age(root)
    assert lint(root, "--all").code == 1
    _hide_findings(root)
    # untracked, the folder is the user's own: a forged clean verdict is believed...
    assert lint(root, "--all").code == 0
    # ...but committed (a pull request can), it is not read at all
    git(root, "add", "-f", ".penguin-lint-cache")
    git(root, "commit", "-qm", "a cache that hides the findings")
    run = lint(root, "--all")
    assert run.code == 1 and run.at("PL203") == [(BENCH, 4)]
    assert run.stderr == ("penguin-lint: warning: the cache folder .penguin-lint-cache/ is tracked by git; "
                          "the cache is not used\n")


def test_a_linked_cache_folder_is_not_followed(tmp_path):
    root = bad_version_repo(tmp_path)
    outside = tmp_path / "outside"
    outside.mkdir()
    (root / ".penguin-lint-cache").symlink_to(outside)
    run = lint(root, "--all")
    assert run.code == 1 and run.at("PL203") == [(BENCH, 4)]
    assert run.stderr == ("penguin-lint: warning: .penguin-lint-cache is a symbolic link, not a folder; "
                          "the cache is not used\n")
    assert list(outside.iterdir()) == []


def test_no_cache_and_cache_dir(tmp_path, monkeypatch, loads):
    root = bad_version_repo(tmp_path)
    assert lint(root, "--all", "--no-cache").code == 1
    assert not (root / ".penguin-lint-cache").exists()
    elsewhere = tmp_path / "ci-temp" / "penguin-lint"
    assert lint(root, "--all", "--cache-dir", str(elsewhere)).code == 1
    assert (elsewhere / ".gitignore").is_file() and _cache_files(root) == []
    assert len(list((elsewhere / f"v{FORMAT}").glob("*/*.json"))) == 2  # one record per unit: the package, the leaderboard
    env_dir = tmp_path / "from-env"
    monkeypatch.setenv("PENGUIN_LINT_CACHE_DIR", str(env_dir))
    loads.clear()
    assert lint(root, "--all", "-j1").code == 1
    assert loads and len(list((env_dir / f"v{FORMAT}").glob("*/*.json"))) == 2
    assert not (root / ".penguin-lint-cache").exists()


def test_a_cache_that_cannot_be_written_is_one_warning(tmp_path):
    root = bad_version_repo(tmp_path)
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder\n")
    run = lint(root, "--all", "--cache-dir", str(blocker / "cache"))
    assert run.code == 1 and run.at("PL203") == [(BENCH, 4)]
    assert run.stderr.startswith("penguin-lint: warning: cannot use the cache folder ")
    assert run.stderr.count("\n") == 1


def test_workers_fill_the_cache_and_a_warm_run_needs_none(tmp_path, loads):
    files = dict(VALID)
    for i in range(30):  # enough units for workers
        files[f"packages/b{i}/benchmark_config.toml"] = VALID[BENCH].replace("bench-a", f"b{i}").replace('"1.0.0"', '"1.0"')
    root = write_repo(tmp_path / "r", files)
    age(root)
    cold = lint(root, "--all", "--jobs", "2")
    assert len(cold.at("PL203")) == 30
    loads.clear()
    warm = lint(root, "--all", "--jobs", "2")
    assert warm.output == cold.output and loads == []
    edit_keeping_times(root / "packages/b7/benchmark_config.toml",
                       dedent(VALID[BENCH]).replace("bench-a", "b7"))
    after = lint(root, "--all", "--jobs", "1")  # in this process, so that its parsing is seen
    assert len(after.at("PL203")) == 29 and ("packages/b7/benchmark_config.toml", 4) not in after.at("PL203")
    assert loads == ["packages/b7/benchmark_config.toml"]


def test_a_record_a_worker_cannot_write_is_one_warning(tmp_path, monkeypatch):
    """Workers write their units' records: a failure in one is said once,
    by the run, and changes no verdict."""
    import penguin_lint.cache.units as units

    files = dict(VALID)
    for i in range(30):
        files[f"packages/b{i}/benchmark_config.toml"] = VALID[BENCH].replace("bench-a", f"b{i}").replace('"1.0.0"', '"1.0"')
    root = write_repo(tmp_path / "r", files)
    cache = tmp_path / "cache"

    def refuse(path, data, **kw):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(units, "replace_file", refuse)
    run = lint(root, "--all", "--jobs", "2", "--cache-dir", str(cache))
    assert run.code == 1 and len(run.at("PL203")) == 30
    assert run.stderr == f"penguin-lint: warning: cannot write the cache in {cache}: No space left on device\n"
    assert not list(cache.glob(f"v{FORMAT}/*/*.json"))


def test_a_unit_is_run_again_when_a_file_of_another_unit_it_read_changes(tmp_path):
    # The attempts name their task; renaming the task in the package changes
    # nothing under experiments/, yet the experiments' verdict changes.
    root = write_repo(tmp_path / "r", {}, VALID)
    age(root)
    assert lint(root, "--all").code == 0
    task = root / "packages/bench-a/CASE-001-one"
    task.rename(root / "packages/bench-a/CASE-002-two")
    toml = root / "packages/bench-a/CASE-002-two/task_config.toml"
    toml.write_text(toml.read_text().replace("CASE-001-one", "CASE-002-two"))
    run = lint(root, "--all")
    assert run.output == lint(root, "--all", "--no-cache").output
    assert sorted(p for p, _ in run.at("PL304")) == [ATTEMPT, "experiments/lb/exp-1/test/attempt-2.yaml"]


# -- cached and uncached runs agree after any sequence of edits ----------------

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

EDITS = [
    ("write", ATTEMPT, "score: 50.0\nresults:\n  - source: CASE-001-one\n    score: 50.0\n"),
    ("write", ATTEMPT, "score: 10.0\nresults:\n  - source: CASE-001-one\n    score: 10.0\n"),
    ("write", ATTEMPT, "score: [\n"),
    ("write", "experiments/lb/exp-1/test/attempt-3.yaml", "score: 50.0\nresults: []\n"),
    ("write", BENCH, dedent(VALID[BENCH]).replace('"1.0.0"', '"1.0"')),
    ("write", BENCH, dedent(VALID[BENCH])),
    ("write", "leaderboards/lb/leaderboard.yaml", dedent(VALID["leaderboards/lb/leaderboard.yaml"]).replace(
        "phase: test", "phase: dev")),
    ("write", "packages/bench-a/run.sh", "#!/bin/sh\n"),
    ("chmod", "packages/bench-a/run.sh", 0o755),
    ("chmod", "packages/bench-a/run.sh", 0o644),
    ("delete", "experiments/lb/exp-1/test/attempt-2.yaml", None),
    ("delete", "experiments/lb/exp-1/test/attempt-3.yaml", None),
    ("mkdir", "experiments/lb/exp-1/dev", None),
    ("rename", ("packages/bench-a/CASE-001-one", "packages/bench-a/CASE-009-x"), None),
    ("rename", ("packages/bench-a/CASE-009-x", "packages/bench-a/CASE-001-one"), None),
    ("config", ".penguin-lint.toml", 'ignore = ["PL3"]\n'),
    ("delete", ".penguin-lint.toml", None),
    ("age", None, None),
]


def _apply(root: Path, edit, keep_times: bool) -> None:
    op, target, arg = edit
    if op == "age":
        age(root)
        return
    if op == "rename":
        src, dst = (root / t for t in target)
        if src.is_dir() and not dst.exists():
            src.rename(dst)
        return
    path = root / target
    if op in ("write", "config"):
        path.parent.mkdir(parents=True, exist_ok=True)
        if keep_times and path.exists():
            edit_keeping_times(path, arg)
        else:
            path.write_text(arg)
    elif op == "chmod" and path.exists():
        path.chmod(arg)
    elif op == "delete" and path.exists():
        path.unlink()
    elif op == "mkdir":
        path.mkdir(parents=True, exist_ok=True)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(steps=st.lists(st.tuples(st.sampled_from(range(len(EDITS))), st.booleans()), min_size=1, max_size=6))
def test_cached_runs_agree_with_uncached_runs_after_any_edits(tmp_path_factory, steps):
    root = write_repo(tmp_path_factory.mktemp("prop") / "r", {}, VALID)
    age(root)
    lint(root, "--all")
    for i, keep_times in steps:
        _apply(root, EDITS[i], keep_times)
        cached, fresh = lint(root, "--all"), lint(root, "--all", "--no-cache")
        assert (cached.code, cached.output) == (fresh.code, fresh.output), EDITS[i]


def test_the_cache_folder_is_never_linted_even_by_a_glob_over_the_whole_tree(tmp_path):
    root = write_repo(tmp_path / "r", {".penguin-lint.toml": '[kinds]\n"**/*.json" = "summary"\n',
                                       "notes/board.json": '{"n_attempt": 1}\n'}, VALID)
    first = lint(root, "--all")
    assert _cache_files(root)
    second = lint(root, "--all")
    assert second.output == first.output
    assert [f["path"] for f in second.findings if ".penguin-lint-cache" in f["path"]] == []
    assert "notes/board.json" in [f["path"] for f in second.findings]


def test_names_that_are_not_utf8_keep_the_cache_usable(tmp_path, loads):
    root = write_repo(tmp_path / "r", {"packages/bench-a/CASE-001-one/statement/n\u00f6tes.md": "# x\n"}, VALID)
    odd = os.fsencode(str(root / "experiments/lb/exp-1")) + b"/caf\xe9"
    os.mkdir(odd)
    os.mkdir(odd + b"/test")
    age(root)
    cold = lint(root, "--all", "-j1")
    loads.clear()
    warm = lint(root, "--all", "-j1")
    assert (warm.code, warm.output) == (cold.code, cold.output) and loads == []


def test_a_record_under_another_units_name_is_ignored_and_stale_records_go(tmp_path):
    files = dict(VALID)
    files["packages/bench-b/benchmark_config.toml"] = VALID[BENCH].replace("bench-a", "bench-b").replace(
        '"1.0.0"', '"1.0"')
    root = write_repo(tmp_path / "r", files)
    age(root)
    first = lint(root, "--all")
    records = {json.loads(f.read_text())["unit"]: f for f in _cache_files(root)}
    assert len(records) == 3
    clean = next(f for k, f in records.items() if '"packages/bench-a"' in k)
    dirty = next(f for k, f in records.items() if '"packages/bench-b"' in k)
    dirty.write_bytes(clean.read_bytes())  # bench-a's clean verdict, filed as bench-b's
    assert lint(root, "--all").output == first.output
    import shutil

    shutil.rmtree(root / "packages/bench-b")
    lint(root, "--all")
    assert sorted(json.loads(f.read_text())["unit"] for f in _cache_files(root)) == sorted(
        k for k in records if "bench-b" not in k)


def _settled_git_repo(tmp_path: Path) -> Path:
    root = bad_version_repo(tmp_path)
    subprocess.run([*GIT, "init", "-q"], cwd=root, check=True)
    subprocess.run([*GIT, "add", "-A"], cwd=root, check=True)
    subprocess.run([*GIT, "commit", "-qm", "init"], cwd=root, check=True)
    time.sleep(1.2)  # past the racy second: the files' time stamps can be trusted
    return root


def test_a_warm_run_over_unchanged_time_stamps_asks_git_nothing_about_files(tmp_path, git_calls, loads):
    root = _settled_git_repo(tmp_path)
    assert lint(root, "--all", "-j1").code == 1
    before = len(git_calls())
    loads.clear()
    warm = lint(root, "--all", "-j1")
    assert warm.code == 1 and warm.at("PL203") == [(BENCH, 4)] and loads == []
    # only whether git tracks the cache folder; no blob ids, no work-tree diff
    assert git_calls()[before:] == ["ls-files -z -- :(literal).penguin-lint-cache"], git_calls()


def test_an_edit_that_keeps_the_time_stamps_is_seen_by_its_changed_inode_time(tmp_path, loads):
    root = _settled_git_repo(tmp_path)
    lint(root, "--all", "-j1")
    edit_keeping_times(root / ATTEMPT, dedent(VALID[ATTEMPT]).replace("score: 50.0\nresults", "score: high\nresults"))
    loads.clear()
    run = lint(root, "--all", "-j1")
    assert ATTEMPT in loads
    assert [f["code"] for f in run.findings if f["path"] == ATTEMPT] == ["PL102"]


def test_records_of_an_older_format_are_removed(tmp_path):
    root = bad_version_repo(tmp_path)
    old = root / ".penguin-lint-cache" / "v1" / "0123abcd"
    old.mkdir(parents=True)
    (old / "x.json").write_text("{}")
    lint(root, "--all", "-j1")
    assert not (root / ".penguin-lint-cache" / "v1").exists()
    assert _cache_files(root)


def test_a_cache_from_one_checkout_serves_a_fresh_clone_of_the_same_commit(tmp_path, loads):
    # CI: actions/cache restores the folder into a new checkout, where every
    # time stamp and inode is new; files are then known by their blob ids
    first = _settled_git_repo(tmp_path)
    cache = tmp_path / "cache"
    assert lint(first, "--all", "-j1", "--cache-dir", str(cache)).code == 1
    record = json.loads(_cache_files_in(cache)[0].read_text())["record"]
    for rel, (fid, _sig) in record["read"].items():
        if fid != "absent":
            assert fid == git_out(first, "hash-object", rel).strip(), rel
    clone = tmp_path / "clone"
    subprocess.run([*GIT, "clone", "-q", str(first), str(clone)], check=True, capture_output=True)
    loads.clear()
    run = lint(clone, "--all", "-j1", "--cache-dir", str(cache))
    assert run.code == 1 and run.at("PL203") == [(BENCH, 4)]
    assert loads == []


def _cache_files_in(folder: Path):
    return sorted((folder / f"v{FORMAT}").glob("*/*.json"))


def git_out(root: Path, *args: str) -> str:
    return subprocess.run([*GIT, *args], cwd=root, check=True, capture_output=True, text=True).stdout
