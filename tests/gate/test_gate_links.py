"""What a pull request hides behind git's other entries is still judged: a
layout top folder swapped for a symbolic link (diff runs) and a submodule
whose folder is left empty or absent from the work tree (every mode)."""
from __future__ import annotations

import os
import stat
import subprocess


from tests.conftest import VALID, lint, write_repo
from tests.github.test_action import git, git_identity, pull_request, runner  # noqa: F401 (fixture)
from tests.rules.test_harbor import GOOD_DEF, GOOD_ROWS

TOPS = ("packages", "leaderboards", "experiments")



def link_tops(ws, tops=TOPS):
    """Move each top folder into staging/ and commit a link in its place,
    then break files behind the links."""
    (ws / "staging").mkdir()
    for top in tops:
        git(ws, "mv", top, f"staging/{top}")
        os.symlink(f"staging/{top}", ws / top)
    (ws / "staging/packages/bench-a/CASE-001-one/task_config.toml").write_text(
        'id = "CASE-001-one"\ntitle = "One"\n')  # PL101 if it were read
    (ws / "staging/experiments/lb/exp-1/test/attempt-1.yaml").write_text(
        "score: 99\nresults:\n  - source: NOPE\n    score: 1\n")
    git(ws, "add", "-A")
    git(ws, "commit", "-q", "-m", "layout behind links")


# -- 1. a layout top folder replaced by a link ---------------------------------------

def test_diff_run_reports_each_linked_layout_folder(tmp_path):
    ws, _ = pull_request(tmp_path)
    link_tops(ws)
    assert git(ws, "ls-files", "-s", "packages").startswith("120000 ")
    run = lint(ws, "--diff-base", "origin/main")
    assert run.code == 1, run.output + run.stderr
    # the old folders' files are gone with them: nothing else to say
    assert [(f["code"], f["path"], f["line"]) for f in run.findings] == [
        ("PL006", "experiments", None), ("PL006", "leaderboards", None), ("PL006", "packages", None)]
    text = lint(ws, "--diff-base", "origin/main", fmt="text")
    assert text.code == 1 and "All checks passed" not in text.output
    assert "packages: PL006 symbolic link where data files live" in text.output


def test_diff_run_reports_a_linked_harbor_leaderboard_folder(tmp_path):
    ws, _ = pull_request(tmp_path, {"leaderboard/leaderboard.yaml": GOOD_DEF,
                                    "leaderboard/rows.yaml": GOOD_ROWS})
    (ws / "staging").mkdir()
    git(ws, "mv", "leaderboard", "staging/leaderboard")
    os.symlink("staging/leaderboard", ws / "leaderboard")
    rows = ws / "staging/leaderboard/rows.yaml"
    rows.write_text(rows.read_text().replace("accuracy: 0.62", "accuracy: 7"))
    git(ws, "add", "-A")
    git(ws, "commit", "-q", "-m", "harbor board behind a link")
    run = lint(ws, "--diff-base", "origin/main")
    assert run.code == 1, run.output + run.stderr
    # the link, and the board where it now is (one folder down: walked as a board)
    assert [(f["code"], f["path"]) for f in run.findings] == [("PL006", "leaderboard"),
                                                              ("PL605", "staging/leaderboard/rows.yaml")]


def test_a_board_one_folder_down_is_checked_by_every_kind_of_run(tmp_path):
    """hub/leaderboard/ is a board to the hook (its files are Harbor's by
    name), and so to --all and to the diff run of a pull request that adds it."""
    ws, write = pull_request(tmp_path)
    write({"hub/leaderboard/leaderboard.yaml": GOOD_DEF,
           "hub/leaderboard/rows.yaml": GOOD_ROWS.replace("accuracy: 0.62", "accuracy: 7")}, "a board in hub/")
    expected = [("PL605", "hub/leaderboard/rows.yaml")]
    diff = lint(ws, "--diff-base", "origin/main")
    whole = lint(ws, "--all", "--no-cache")
    paths = lint(ws, str(ws / "hub/leaderboard/rows.yaml"))
    for run in (diff, whole, paths):
        assert run.code == 1 and [(f["code"], f["path"]) for f in run.findings
                                  if f["path"].startswith("hub/")] == expected, run.output


def test_action_fails_a_pull_request_that_links_the_layout_folders(tmp_path):
    ws, _ = pull_request(tmp_path)
    link_tops(ws, ("packages", "experiments"))
    run = runner(ws, tmp_path).lint()
    assert run.code == 1, run.stdout + run.stderr
    assert run.outputs["status"] == "failed"
    # (the leaderboard's PL401 on the experiments that went is right too)
    errors = sorted(c for c in run.commands() if c.startswith("::error") and "PL006" in c)
    assert [c.split("::")[1] for c in errors] == [
        "error file=experiments,title=PL006 symlink", "error file=packages,title=PL006 symlink"], errors
    # what --all says of the same tree
    assert lint(ws, "--all", "--no-cache").at("PL006") == [("experiments", None), ("packages", None)]


# -- 2. --all and submodules whose folders are empty ---------------------------------

LB2 = "leaderboards/lb2"
VENDORED = "packages/bench-a/CASE-001-one/statement/vendored"


def fake_git(tmp_path, monkeypatch):
    """A git on PATH that logs each run's arguments, then runs the real one."""
    real = subprocess.run(["sh", "-c", "command -v git"], capture_output=True, text=True).stdout.strip()
    folder = tmp_path / "fakebin"
    folder.mkdir()
    log = tmp_path / "git.log"
    log.write_text("")
    script = folder / "git"
    script.write_text(f'#!/bin/sh\necho "$*" >> "{log}"\nexec "{real}" "$@"\n')
    script.chmod(script.stat().st_mode | stat.S_IEXEC)
    monkeypatch.setenv("PATH", f"{folder}{os.pathsep}{os.environ['PATH']}")
    return log


def test_all_reports_gitlinks_left_as_empty_folders_and_asks_git_once(tmp_path, monkeypatch):
    root = write_repo(tmp_path / "r", dict(VALID))
    git(root, "init", "-q", "-b", "main")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "base")
    log = fake_git(tmp_path, monkeypatch)
    # no submodule: one question, and a pass
    clean = lint(root, "--all", "--no-cache")
    assert clean.code == 0, clean.output + clean.stderr
    assert len(log.read_text().splitlines()) == 1
    sha = git(root, "rev-parse", "HEAD").strip()
    for path in (LB2, VENDORED):
        git(root, "update-index", "--add", "--cacheinfo", f"160000,{sha},{path}")
        (root / path).mkdir()  # what actions/checkout leaves of a submodule
    git(root, "commit", "-q", "-m", "two submodules")
    log.write_text("")
    for args in (("--no-cache",), ()):  # the second run twice: from the cache too
        for _ in range(1 if args else 2):
            run = lint(root, "--all", *args)
            assert run.code == 1, run.output + run.stderr
            assert [(f["code"], f["path"], f["line"]) for f in run.findings] == [
                ("PL007", LB2, None), ("PL007", VENDORED, None)]
            assert run.findings[0]["message"].startswith("nested git repository (a submodule)")
    # one question per run, over the layout's top folders; a warm run whose
    # index git has not rewritten since takes the answer the cache kept
    calls = [c for c in log.read_text().splitlines() if " ls-files -s " in c]
    assert len(calls) == 2, calls
    assert all(c.endswith("ls-files -s -z -- :(literal)packages :(literal)experiments :(literal)leaderboards")
               for c in calls), calls
    # a folder made by hand is not a gitlink: no PL007
    (root / "leaderboards/empty").mkdir()
    assert (LB2, None) in lint(root, "--all", "--no-cache").at("PL007")
    assert ("leaderboards/empty", None) not in lint(root, "--all", "--no-cache").at("PL007")


# -- 3. a submodule whose folder is absent from the work tree --------------------------

SUB = "packages/bench-a/CASE-003-sub"


def absent_submodule_repo(tmp_path):
    """A repository whose branch adds a gitlink and no folder for it."""
    root = write_repo(tmp_path / "r", dict(VALID))
    git(root, "init", "-q", "-b", "main")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "base")
    git(root, "checkout", "-q", "-b", "pr")
    git(root, "update-index", "--add", "--cacheinfo", f"160000,{'1' * 40},{SUB}")
    assert not (root / SUB).exists()
    return root


def test_a_submodule_absent_from_the_work_tree_is_pl007_in_every_mode(tmp_path):
    root = absent_submodule_repo(tmp_path)
    staged = lint(root, "--staged")
    assert staged.code == 1 and staged.at("PL007") == [(SUB, None)], staged.output
    assert staged.at("PL205") == []  # its files are PL007's matter, not missing files
    git(root, "commit", "-q", "-m", "a task as a submodule")
    for args in (("--diff-base", "main"), ("--all", "--no-cache"), ("--all",), (str(root / SUB),), (str(root / "packages/bench-a"),),
                 (str(root),), (str(root / "packages"),)):
        run = lint(root, *args)
        assert run.code == 1, (args, run.output, run.stderr)
        assert run.at("PL007") == [(SUB, None)], (args, run.output)
        assert run.at("PL205") == [], (args, run.output)
    text = lint(root, "--diff-base", "main", fmt="text")
    assert "All checks passed" not in text.output
    assert text.output.startswith(f"{SUB}: PL007 nested git repository (a submodule)"), text.output
    # a warm run keeps the answer while the index is the same, and asks again once git rewrote it
    other = "experiments/lb/exp-9"
    assert lint(root, "--all").at("PL007") == [(SUB, None)]
    git(root, "update-index", "--add", "--cacheinfo", f"160000,{'2' * 40},{other}")
    assert lint(root, "--all").at("PL007") == [(other, None), (SUB, None)]
    git(root, "rm", "-q", "--cached", other)
    # a file named alone asks nothing of the folders around it
    assert lint(root, str(root / "packages/bench-a/CASE-001-one/task_config.toml")).code == 0
