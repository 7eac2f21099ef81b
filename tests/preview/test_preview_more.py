"""preview: leaderboard paths as well as ids, a --before with no leaderboards,
rows built on a summary that fails PL303, and relabelled rows."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from penguin_lint import preview
from tests.conftest import lint
from tests.preview.test_preview import build, experiment, lb_with

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


@pytest.mark.parametrize("arg", ["leaderboards/code-eval/leaderboard.yaml", "leaderboards/code-eval",
                                 "leaderboards/code-eval/", "./leaderboards/code-eval/leaderboard.yaml"])
def test_a_leaderboard_path_is_taken_for_its_id(tmp_path, monkeypatch, arg):
    root = tmp_path / "repo"
    shutil.copytree(EXAMPLES / "repo", root)
    by_id = lint(None, "preview", "--root", str(root), "code-eval")
    monkeypatch.chdir(root)
    by_path = lint(None, "preview", arg)
    assert by_path.code == by_id.code == 0
    assert by_path.output == by_id.output
    # from elsewhere, relative to the root, or absolute
    monkeypatch.chdir(tmp_path)
    assert lint(None, "preview", "--root", str(root), arg).output == by_id.output
    assert lint(None, "preview", "--root", str(root), str(root / arg)).output == by_id.output


def test_a_path_that_is_no_leaderboard_is_a_usage_error(tmp_path):
    root = tmp_path / "repo"
    shutil.copytree(EXAMPLES / "repo", root)
    run = lint(None, "preview", "--root", str(root), "experiments/code-eval")
    assert run.code == 2
    assert run.stderr == ("penguin-lint: error: experiments/code-eval is not a leaderboard: give an id, or a path "
                          "such as leaderboards/ID/leaderboard.yaml or leaderboards/ID\n")


def test_before_a_folder_without_leaderboards_warns(tmp_path):
    empty = tmp_path / "not-the-base"
    empty.mkdir()
    run = lint(None, "preview", "--root", str(EXAMPLES / "repo"), "--before", str(empty))
    assert run.code == 0
    assert run.stderr == (f"penguin-lint: warning: --before {empty}: no leaderboards under {empty / 'leaderboards'}; "
                          "every row shows as added\n")
    quiet = lint(None, "preview", "--root", str(EXAMPLES / "repo"), "--before", str(EXAMPLES / "repo"))
    assert quiet.code == 0 and quiet.stderr == ""


def test_a_row_built_on_a_summary_that_fails_pl303_says_so(tmp_path):
    files = {**experiment("x", [10.0, 20.0]), **experiment("y", [50.0, 70.0])}
    files["experiments/lb/y/test/summary.yaml"] = "n_attempt: 2\nscore_mean: 65.0\nscore_std: 14.142135623730951\n"
    files.update(lb_with("""\
        - {experiment_id: x, phase: test}
        - {experiment_id: y, phase: test}
        """))
    board = preview.board(build(tmp_path, "r", files), "lb")
    x, y = board.rows
    assert x.summary_problems == []
    assert y.summary_problems == ["y/test/summary.yaml fails PL303: score_mean is 65.0 but the 2 attempts average 60"]
    text = preview.render_text([board])
    assert "y/test/summary.yaml fails PL303: score_mean is 65.0 but the 2 attempts average 60" in text
    doc = json.loads(preview.render_json([board]))
    assert doc["leaderboards"][0]["rows"][1]["summary_problems"] == y.summary_problems


def test_a_relabelled_row_is_changed_not_added_and_removed(tmp_path):
    base = {**experiment("a", [50.0, 60.0], model="m1"), **experiment("b", [70.0, 80.0], model="m2")}
    base.update(lb_with("""\
        - {experiment_id: a, phase: test}
        - {experiment_id: b, phase: test}
        """))
    head = dict(base)
    head.update(experiment("a", [50.0, 60.0], model="m1-renamed"))  # meta_info says another model
    before, after = build(tmp_path, "base", base), build(tmp_path, "head", head)
    ((b, a, changes),) = preview.compare_repos(before, after)
    assert [(c.kind, c.key, c.fields, c.note) for c in changes if c.kind != "unchanged"] == [
        ("changed", "h / m1-renamed / a / test", ["label"], "relabelled from h / m1 / a / test")]
    md = preview.render_changes_markdown([(b, a, changes)])
    assert "| changed | h / m1-renamed / a / test | 2 | 55.0000 |" in md
    assert "relabelled from h / m1 / a / test |" in md
    assert "| added |" not in md and "| removed |" not in md
    # and in the pull request's job summary
    summary = preview.pull_request_summary(before, after, {"experiments/lb/a/meta_info.yaml"})
    assert "| changed | h / m1-renamed / a / test |" in summary and "| added |" not in summary
    text = preview.render_changes_text([(b, a, changes)])
    assert "  changed   h / m1-renamed / a / test  rank 2  mean 55.0000  (label)  [relabelled from h / m1 / a / test]" in text


def test_a_new_row_on_other_experiments_is_still_added(tmp_path):
    base = {**experiment("a", [50.0, 60.0], model="m1")}
    base.update(lb_with("- {experiment_id: a, phase: test}\n"))
    head = {**experiment("c", [50.0, 60.0], model="m3")}
    head.update(lb_with("- {experiment_id: c, phase: test}\n"))
    ((_, _, changes),) = preview.compare_repos(build(tmp_path, "base", base), build(tmp_path, "head", head))
    assert sorted(c.kind for c in changes) == ["added", "removed"]
