"""A run reads as its steps: the options are checked in one place, before
anything is opened, and each request is one kind of run (whole repository,
paths, diff, staged, standard input) with its own module."""
from __future__ import annotations

from pathlib import Path

import pytest

from penguin_lint.pipeline import Request, kind_class, run
from penguin_lint.run.options import check_options
from penguin_lint.run.request import PenguinLintError
from tests.conftest import VALID, git, lint, write_repo

LB = "leaderboards/lb/leaderboard.yaml"

USAGE = [
    (dict(all=True, paths=["x"]), "--all cannot be combined with paths or --diff-base"),
    (dict(all=True, diff_base="main"), "--all cannot be combined with paths or --diff-base"),
    (dict(all=True, unsafe_fixes=True), "--unsafe-fixes works with --fix or --diff"),
    (dict(paths=["x"], shard="1/2"), "--shard needs --all or --diff-base"),
    (dict(all=True, kind="nope"), "unknown kind 'nope' (known: "),
    (dict(all=True, new_only=True),
     "--new-only needs a change to compare with: give paths or --diff-base, not --all"),
    (dict(staged=True, all=True), "--staged cannot be combined with --all or --diff-base"),
    (dict(staged=True, fix=True), "--fix and --diff work on the working tree: run them without --staged, "
                                  "then stage the result"),
    (dict(staged=True, config_from_worktree=True),
     "--staged reads the configuration from the index: it cannot be combined with --config-base or "
     "--config-from-worktree"),
    (dict(stdin_filename="a.yaml", paths=["a.yaml"]),
     "--stdin-filename lints standard input: give '-' as the only path"),
    (dict(stdin_filename="a.yaml", paths=["-"], fix=True),
     "--stdin-filename cannot be combined with --all, --diff-base, --staged, --fix or --diff"),
    (dict(paths=["-"]), "'-' (standard input) needs --stdin-filename PATH: the file it stands for"),
    (dict(diff_base="main", config_base="main"),
     "--config-base is for --all and path runs (a diff run reads the base's configuration)"),
    (dict(all=True, config_base="main", config_from_worktree=True),
     "--config-base and --config-from-worktree cannot be combined"),
    (dict(all=True, select=["PL99999"]),
     "unknown rule code or prefix 'PL99999' in --select (see `penguin-lint rules`)"),
]


@pytest.mark.parametrize("options,message", USAGE)
def test_options_are_checked_together_before_anything_is_opened(tmp_path, options, message):
    # no repository at all: the check needs none, and opens nothing
    with pytest.raises(PenguinLintError) as failed:
        check_options(Request(**options), tmp_path)
    assert str(failed.value).startswith(message)


@pytest.mark.parametrize("options,message", USAGE[:4])
def test_the_api_and_the_command_line_say_what_the_check_says(repo, options, message):
    root = repo()
    with pytest.raises(PenguinLintError) as failed:
        run(Request(root=root, cwd=root, **options))
    assert str(failed.value) == message
    args = (["--all"] if options.get("all") else []) + list(options.get("paths", ())) \
        + (["--diff-base", options["diff_base"]] if "diff_base" in options else []) \
        + (["--unsafe-fixes"] if options.get("unsafe_fixes") else []) \
        + (["--shard", options["shard"]] if "shard" in options else [])
    cli = lint(root, *args)
    assert (cli.code, cli.stderr) == (2, f"penguin-lint: error: {message}\n")


@pytest.mark.parametrize("options,kind", [
    (dict(all=True), "whole"), (dict(all=True, shard="1/2"), "whole"),
    (dict(paths=["x"]), "paths"), (dict(), "diff"), (dict(diff_base="main", paths=["x"]), "diff"),
    (dict(staged=True), "staged"), (dict(staged=True, paths=["x"]), "staged"),
    (dict(stdin_filename="x", paths=["-"]), "stdin"),
])
def test_each_request_is_one_kind_of_run_in_its_own_module(tmp_path, options, kind):
    mode = check_options(Request(**options), tmp_path).mode
    assert mode == kind
    assert kind_class(mode).__module__ == f"penguin_lint.run.{kind}"


@pytest.fixture
def branch(tmp_path, git_env):
    root = write_repo(tmp_path / "repo", {}, VALID)
    for args in (["init", "-q", "-b", "main"], ["add", "-A"], ["commit", "-q", "-m", "base"],
                 ["checkout", "-q", "-b", "feature"]):
        git(root, *args)
    (root / LB).write_text((root / LB).read_text() + "# changed\n")
    git(root, "commit", "-qam", "change")
    return root


def head(root: Path, ref: str = "HEAD") -> str:
    return git(root, "rev-parse", "--short=7", ref).strip()


def test_each_kind_of_run_supplies_its_own_base(branch):
    def outcome(**options):
        return run(Request(root=branch, cwd=branch, cache=False, **options)).result

    whole = outcome(all=True)
    assert (whole.compared_with, whole.staged) == (None, False)
    assert whole.files > 1
    diff = outcome(diff_base="main")
    assert diff.compared_with == f"main ({head(branch, 'main')})"
    assert sorted(diff.touched) == [LB]
    paths = outcome(paths=[LB])
    assert paths.compared_with == f"HEAD ({head(branch)})"
    stdin = outcome(paths=["-"], stdin_filename=LB, stdin=(branch / LB).read_bytes())
    assert stdin.compared_with == f"HEAD ({head(branch)})"
    (branch / LB).write_text((branch / LB).read_text() + "# staged\n")
    git(branch, "add", LB)
    staged = outcome(staged=True)
    assert (staged.compared_with, staged.staged, staged.no_changes) == (f"HEAD ({head(branch)})", True, False)
