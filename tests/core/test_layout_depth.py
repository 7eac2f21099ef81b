"""A folder nested thousands deep (a pull request can commit one) is walked
and looked up without recursion: a finding or a pass, never a traceback."""
from __future__ import annotations

import os
import subprocess

from tests.conftest import VALID, lint, write_repo

DEEP = 1500


def test_a_file_thousands_of_folders_deep_is_linted_in_every_kind_of_run(tmp_path, git_env):
    root = write_repo(tmp_path / "r", {}, VALID)
    env = dict(os.environ, GIT_CONFIG_NOSYSTEM="1", GIT_CONFIG_GLOBAL=os.devnull)
    for args in (["init", "-q", "-b", "main"], ["add", "-A"], ["commit", "-q", "-m", "base"],
                 ["checkout", "-q", "-b", "pr"]):
        subprocess.run(["git", *args], cwd=root, check=True, capture_output=True, env=env)
    folder = root / "packages/bench-a/CASE-001-one/statement"
    deepest = folder
    for _ in range(DEEP):  # (os.makedirs recurses)
        deepest = deepest / "a"
        deepest.mkdir()
    (deepest / "notes.md").write_text("x\n")
    try:
        _lint_every_way(root, folder, env)
    finally:  # shutil.rmtree (pytest's clean-up of old runs) recurses too
        (deepest / "notes.md").unlink()
        while deepest != folder:
            deepest.rmdir()
            deepest = deepest.parent


def _lint_every_way(root, folder, env):
    subprocess.run(["git", "add", "-A"], cwd=root, check=True, env=env)
    for args in (["--staged"], ["--all", "--no-cache"], [str(folder)]):
        run = lint(root, *args)
        assert run.code == 0 and "Traceback" not in run.stderr, (args, run.stderr[-500:])
        assert run.json["summary"]["errors"] == 0
    subprocess.run(["git", "commit", "-q", "-m", "deep"], cwd=root, check=True, env=env)
    run = lint(root, "--diff-base", "main")
    assert run.code == 0 and run.json["summary"]["files"] >= 1, run.stderr[-500:]
