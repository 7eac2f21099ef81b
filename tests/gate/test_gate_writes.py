"""What a pull request cannot hide or overwrite: a nested repository in the
layout, and report files written through links it committed."""
from __future__ import annotations

import os
import subprocess
import textwrap
from pathlib import Path

from tests.conftest import VALID, lint, pull_request_repo, write_repo
from tests.github.test_action import git, git_identity, pull_request, runner  # noqa: F401 (fixture)

EXP = "experiments/lb/exp-1"
WRONG_SUMMARY = "n_attempt: 2\nscore_mean: 99.0\nscore_std: 0.0\n"


def nested_experiment(root: Path, name: str = "exp-2") -> str:
    """A second experiment with a wrong summary, made as a repository of its
    own inside ``root`` and added to the outer one (git keeps a gitlink)."""
    folder = root / "experiments/lb" / name
    for rel in ("meta_info.yaml", "test/summary.yaml", "test/attempt-1.yaml", "test/attempt-2.yaml"):
        text = textwrap.dedent(VALID[f"{EXP}/{rel}"]).replace("exp-1", name)
        (folder / rel).parent.mkdir(parents=True, exist_ok=True)
        (folder / rel).write_text(WRONG_SUMMARY if rel.endswith("summary.yaml") else text)
    git(folder, "init", "-q", "-b", "main")
    git(folder, "add", "-A")
    git(folder, "commit", "-q", "-m", "inner")
    return f"experiments/lb/{name}"


# -- a nested repository or submodule ------------------------------------------------

def test_a_nested_repository_in_the_layout_is_a_finding_in_diff_and_all_runs(tmp_path, git_env):
    root = pull_request_repo(write_repo(tmp_path / "repo", VALID))
    path = nested_experiment(root)
    git(root, "add", "-A")
    assert git(root, "ls-files", "-s", path).startswith("160000 ")  # one gitlink, no files
    git(root, "commit", "-q", "-m", "nested")
    diff = lint(root, "--diff-base", "main")
    assert diff.code == 1, diff.output + diff.stderr
    assert (path, None) in diff.at("PL007")
    full = lint(root, "--all")
    assert full.code == 1
    assert (path, None) in full.at("PL007")
    (f,) = [f for f in full.findings if f["code"] == "PL007"]
    assert f["severity"] == "error" and "nested git repository" in f["message"]


def test_a_checked_out_submodule_is_refused_too(tmp_path, git_env):
    # a submodule's work tree holds a '.git' file, not a folder
    root = write_repo(tmp_path / "repo", {f"{EXP}/test/.git": "gitdir: ../../../../.git/modules/x\n"}, VALID)
    run = lint(root, "--all")
    assert run.code == 1
    assert run.at("PL007") == [(f"{EXP}/test", None)]


def test_a_nested_repository_in_a_package_is_named_as_such(tmp_path):
    root = write_repo(tmp_path / "repo", {"packages/bench-a/CASE-001-one/.git/HEAD": "ref: refs/heads/main\n"},
                      VALID)
    run = lint(root, "--all")
    (f,) = [f for f in run.findings if f["code"] == "PL007"]
    assert f["path"] == "packages/bench-a/CASE-001-one/.git"
    assert f["message"].startswith("nested git repository")


# -- reports never written through a link ------------------------------------------------

def _outside(tmp_path) -> Path:
    victim = tmp_path / "outside.txt"
    victim.write_text("keep me\n")
    return victim


def test_output_through_a_committed_link_is_refused(tmp_path):
    victim = _outside(tmp_path)
    root = write_repo(tmp_path / "repo", {}, VALID)
    os.symlink(victim, root / "report.json")
    run = lint(root, "--all", "--output", str(root / "report.json"))
    assert run.code == 2
    assert run.stderr == (f"penguin-lint: error: cannot write --output {root / 'report.json'}: "
                          "is a symbolic link; not written through\n")
    assert victim.read_text() == "keep me\n"
    assert os.path.islink(root / "report.json")


def test_output_under_a_linked_folder_or_into_git_is_refused(tmp_path, git_env):
    root = pull_request_repo(write_repo(tmp_path / "repo", {}, VALID))
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    os.symlink(outside, root / "reports")
    run = lint(root, "--all", "--output", str(root / "reports/out.json"))
    assert run.code == 2 and "a folder on the way is a symbolic link" in run.stderr
    assert list(outside.iterdir()) == []
    config = (root / ".git/config").read_bytes()
    run = lint(root, "--all", "--output", str(root / ".git/config"))
    assert run.code == 2 and run.stderr.endswith("inside a .git folder; not written\n")
    assert (root / ".git/config").read_bytes() == config


def test_fix_diff_output_through_a_link_is_refused(tmp_path):
    victim = _outside(tmp_path)
    root = write_repo(tmp_path / "repo", {f"{EXP}/test/summary.yaml": "n_attempt: 2\nscore_mean: 50\nscore_std: 0.0\n"},
                      VALID)
    os.symlink(victim, root / "fixes.diff")
    run = lint(root, "--all", "--fix", "--diff", "--output", str(root / "fixes.diff"), fmt="text")
    assert run.code == 2 and "is a symbolic link; not written through" in run.stderr
    assert victim.read_text() == "keep me\n"


def test_output_replaces_a_file_afresh_not_through_a_hard_link(tmp_path):
    root = write_repo(tmp_path / "repo", {}, VALID)
    other = tmp_path / "other.txt"
    other.write_text("keep me\n")
    os.link(other, root / "report.json")
    run = lint(root, "--all", "--output", str(root / "report.json"))
    assert run.code == 0, run.stderr
    assert other.read_text() == "keep me\n"
    assert b'"findings": []' in (root / "report.json").read_bytes()


def test_the_actions_sarif_is_not_written_through_a_committed_link(tmp_path):
    ws, write = pull_request(tmp_path)
    config = (ws / ".git/config").read_bytes()
    os.symlink(".git/config", ws / "penguin-lint.sarif")
    git(ws, "add", "-A")
    git(ws, "commit", "-q", "-m", "a link where the SARIF goes")
    run = runner(ws, tmp_path, inputs={"sarif": "penguin-lint.sarif"}).lint()
    assert run.code == 2, run.stdout + run.stderr
    (cmd,) = run.commands()
    assert cmd == ("::error title=penguin-lint::cannot write the sarif input penguin-lint.sarif: "
                   "is a symbolic link; not written through")
    assert run.outputs["status"] == "error" and run.outputs["sarif"] == ""
    assert (ws / ".git/config").read_bytes() == config


def test_the_actions_sarif_stays_in_the_workspace(tmp_path):
    ws, write = pull_request(tmp_path)
    victim = _outside(tmp_path)
    os.symlink(str(tmp_path), ws / "up")
    git(ws, "add", "-A")
    git(ws, "commit", "-q", "-m", "a linked folder")
    for sarif, why in (("up/outside.txt", "a folder on the way is a symbolic link; not written through"),
                       ("../outside.txt", "outside the workspace and runner.temp (where a report may go); "
                                          "not written"),
                       (".git/hooks/x.sarif", "inside a .git folder; not written")):
        run = runner(ws, tmp_path, inputs={"sarif": sarif}).lint()
        assert run.code == 2, (sarif, run.stdout + run.stderr)
        assert run.commands() == [f"::error title=penguin-lint::cannot write the sarif input {sarif}: {why}"]
        assert run.outputs["status"] == "error"
    assert victim.read_text() == "keep me\n"
    assert not (ws / ".git/hooks/x.sarif").exists()
    # the runner's own temp folder is fine
    run = runner(ws, tmp_path, inputs={"sarif": str(tmp_path / "runner-temp/out.sarif")}).lint()
    assert run.code == 0 and run.outputs["sarif"] == str(tmp_path / "runner-temp/out.sarif")


def test_a_submodule_not_checked_out_is_still_a_finding_in_a_diff_run(tmp_path, git_env):
    # CI's checkout leaves a submodule's folder empty: the diff names one
    # gitlink, and nothing in the work tree shows what it holds
    root = pull_request_repo(write_repo(tmp_path / "repo", VALID))
    for path in (nested_experiment(root, "exp-2"), nested_experiment(root, "exp-3")):
        git(root, "add", path)
    git(root, "commit", "-q", "-m", "nested")
    for name in ("exp-2", "exp-3"):
        subprocess.run(["rm", "-rf", str(root / "experiments/lb" / name)], check=True)
    (root / "experiments/lb/exp-2").mkdir()  # as a checkout without submodules leaves it
    (root / "packages/bench-a/CASE-002-sub").mkdir()
    inner = nested_experiment(root, "exp-4")
    subprocess.run(["git", "update-index", "--add", "--cacheinfo",
                    f"160000,{git(root / inner, 'rev-parse', 'HEAD').strip()},packages/bench-a/CASE-002-sub"],
                   cwd=root, check=True)
    subprocess.run(["rm", "-rf", str(root / inner)], check=True)
    git(root, "commit", "-q", "-m", "a task as a submodule")
    run = lint(root, "--diff-base", "main")
    assert run.code == 1
    # exp-3's folder is not in the work tree at all: a finding all the same
    assert sorted(run.at("PL007")) == [("experiments/lb/exp-2", None), ("experiments/lb/exp-3", None),
                                       ("packages/bench-a/CASE-002-sub", None)]


def test_output_named_through_a_link_to_the_repository_is_checked_all_the_same(tmp_path, git_env):
    root = pull_request_repo(write_repo(tmp_path / "repo", {}, VALID))
    alias = tmp_path / "alias"
    os.symlink(root, alias)  # as /tmp is a link on some systems
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    os.symlink(outside, root / "reports")
    config = (root / ".git/config").read_bytes()
    for target, why in ((alias / ".git/config", "inside a .git folder; not written"),
                        (alias / "reports/out.json", "a folder on the way is a symbolic link; not written through")):
        run = lint(root, "--all", "--output", str(target))
        assert run.code == 2 and run.stderr == f"penguin-lint: error: cannot write --output {target}: {why}\n"
    assert (root / ".git/config").read_bytes() == config and list(outside.iterdir()) == []
