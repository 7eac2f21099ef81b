"""A hostile pull request against the newest surfaces: a staged submodule,
forged shard reports, paths that leave the repository, text no file name
decodes to."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path


PROJECT = Path(__file__).resolve().parents[2]
EXAMPLE = PROJECT / "examples" / "repo"


def _git(root: Path, *args: str) -> str:
    env = dict(os.environ, GIT_AUTHOR_NAME="a", GIT_AUTHOR_EMAIL="a@b", GIT_COMMITTER_NAME="a",
               GIT_COMMITTER_EMAIL="a@b")
    return subprocess.run(["git", *args], cwd=root, check=True, capture_output=True, text=True, env=env).stdout


def _cli(root: Path, *args: str, env=None):
    return subprocess.run([sys.executable, "-m", "penguin_lint", *args], cwd=root, capture_output=True,
                          text=True, env=env)


def _example(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    shutil.copytree(EXAMPLE, root)
    _git(root, "init", "-q")
    _git(root, "add", "-A")
    _git(root, "commit", "-qm", "x")
    return root


def _action(root: Path, **extra: str):
    env = {"PATH": os.environ["PATH"], "HOME": os.environ.get("HOME", "/tmp"), "GITHUB_WORKSPACE": str(root),
           "GITHUB_OUTPUT": str(root.parent / "out.txt"), "RUNNER_TEMP": str(root.parent)}
    env.update(extra)
    (root.parent / "out.txt").write_text("")
    proc = subprocess.run([sys.executable, "-m", "penguin_lint.github.action"], cwd=root, capture_output=True,
                          text=True, env=env)
    outputs = dict(l.split("=", 1) for l in (root.parent / "out.txt").read_text().splitlines() if "=" in l)
    return proc, outputs


def test_staged_gitlink_fails_as_all_does(tmp_path):
    """A submodule staged in a package fails --all and --diff-base (PL007,
    PL205) but --staged, the pre-commit hook's command, passes it."""
    root = _example(tmp_path)
    _git(root, "update-index", "--add", "--cacheinfo",
         f"160000,{_git(root, 'rev-parse', 'HEAD').strip()},packages/sql-puzzles/sub")
    (root / "packages/sql-puzzles/sub").mkdir()
    staged = _cli(root, "--staged", "packages/sql-puzzles/sub", "--format", "json")
    _git(root, "commit", "-qm", "sub")
    diff = _cli(root, "--diff-base", "HEAD~1", "--format", "json")
    assert "PL007" in {f["code"] for f in json.loads(diff.stdout)["findings"]}
    assert diff.returncode == 1
    assert "PL007" in {f["code"] for f in json.loads(staged.stdout)["findings"]}
    assert staged.returncode == 1


def _forged_reports(root: Path, n: int) -> list:
    """What an honest shard of ``root`` writes, with the findings taken out."""
    out = []
    for k in range(1, n + 1):
        doc = json.loads(_cli(root, "--all", "--shard", f"{k}/{n}", "--format", "json").stdout)
        doc["findings"] = []
        doc["shard"]["missing"], doc["shard"]["fixable"] = [], []
        out.append(doc)
    return out


def test_linked_shard_reports_cannot_make_a_failing_run_pass(tmp_path):
    """docs/sharding.md's workflow: each shard writes its report to
    runner.temp and uploads the path the step's json output gives. A pull
    request that commits every penguin-lint-shard-K.json as a link to a
    report of its own (zero findings) changes nothing: the merged run fails
    as --all does."""
    root = _example(tmp_path)
    assert _cli(root, "--all").returncode == 1
    for k, doc in enumerate(_forged_reports(root, 2), 1):
        (root / f"forged-{k}.json").write_text(json.dumps(doc))
        os.symlink(f"forged-{k}.json", root / f"penguin-lint-shard-{k}.json")
    _git(root, "add", "-A")
    _git(root, "commit", "-qm", "the pull request")
    downloaded = tmp_path / "shards"
    downloaded.mkdir()
    temp = tmp_path / "runner-temp"
    temp.mkdir()
    for k in (1, 2):
        proc, outputs = _action(root, PENGUIN_LINT_SHARD=f"{k}/2", RUNNER_TEMP=str(temp),
                                PENGUIN_LINT_JSON=str(temp / f"penguin-lint-shard-{k}.json"))
        # actions/upload-artifact of ${{ steps.lint.outputs.json }}
        assert outputs["json"] == str(temp / f"penguin-lint-shard-{k}.json"), proc.stdout + proc.stderr
        shutil.copyfile(outputs["json"], downloaded / f"penguin-lint-shard-{k}.json")
    proc, outputs = _action(root, PENGUIN_LINT_MERGE=str(downloaded))
    assert outputs.get("status") == "failed" and proc.returncode == 1, proc.stdout
    assert outputs["errors"] == str(json.loads(_cli(root, "--all", "--format", "json").stdout)["summary"]["errors"])


def test_merge_refuses_paths_outside_the_repository(tmp_path):
    """A shard report naming '../../..' or an absolute path: merge puts it in
    SARIF (a location outside %SRCROOT%) and in the job summary as a link
    that leaves the repository's blob (github.com/<other>/<repo>/...)."""
    root = _example(tmp_path)
    docs = _forged_reports(root, 1)
    docs[0]["findings"] = [{"path": p, "line": 1, "column": 1, "end_line": 1, "end_column": 2, "code": "PL101",
                            "name": "x", "severity": "error", "message": "m", "hint": None, "scope": None}
                           for p in ("../../../../attacker/repo/blob/main/x.toml", "/etc/passwd")]
    folder = tmp_path / "shards"
    folder.mkdir()
    (folder / "s1.json").write_text(json.dumps(docs[0]))
    summary = tmp_path / "summary.md"
    proc, outputs = _action(root, PENGUIN_LINT_MERGE=str(folder), PENGUIN_LINT_SARIF="out.sarif",
                            GITHUB_STEP_SUMMARY=str(summary), GITHUB_SERVER_URL="https://github.com",
                            GITHUB_REPOSITORY="o/r", GITHUB_SHA="a" * 40)
    uris = []
    if (root / "out.sarif").exists():
        run = json.loads((root / "out.sarif").read_text())["runs"][0]
        uris = [r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in run["results"]]
    assert not [u for u in uris if u.startswith("/") or u.startswith("../")], uris
    assert "blob/" + "a" * 40 + "/../" not in (summary.read_text() if summary.exists() else "")


def test_merge_of_a_lone_surrogate_path_is_no_traceback(tmp_path):
    """A report's path "a\\ud800.toml" (valid JSON) passes merge's checks and
    then crashes the job summary's link with a UnicodeEncodeError traceback,
    in the Action and in `penguin-lint merge --format github`."""
    root = _example(tmp_path)
    doc = _forged_reports(root, 1)[0]
    doc["findings"] = [{"path": "a\ud800.toml", "line": 1, "column": 1, "end_line": 1, "end_column": 2,
                        "code": "PL101", "name": "x", "severity": "error", "message": "m", "hint": None,
                        "scope": None}]
    folder = tmp_path / "shards"
    folder.mkdir()
    (folder / "s1.json").write_text(json.dumps(doc))
    proc, outputs = _action(root, PENGUIN_LINT_MERGE=str(folder), GITHUB_STEP_SUMMARY=str(tmp_path / "s.md"),
                            GITHUB_SERVER_URL="https://github.com", GITHUB_REPOSITORY="o/r", GITHUB_SHA="a" * 40)
    assert "Traceback" not in proc.stderr, proc.stderr[-500:]
    assert outputs.get("status") in ("failed", "error")
