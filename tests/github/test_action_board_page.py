"""The Action's leaderboard page: for a pull request that changes a board,
the HTML page written under RUNNER_TEMP and uploaded by a pinned step, and
the Table view in the job summary with a pointer to it."""
from __future__ import annotations

import re
from pathlib import Path

from tests.actionstep import ACTION
from tests.conftest import VALID
from tests.github.test_action import TASK, pull_request, runner

ATTEMPT = "experiments/lb/exp-1/test/attempt-{}.yaml"


def change_the_board(write):
    write({"experiments/lb/exp-1/test/summary.yaml": "n_attempt: 2\nscore_mean: 60.0\nscore_std: 0.0\n",
           **{ATTEMPT.format(j): VALID[ATTEMPT.format(j)].replace("50.0", "60.0") for j in (1, 2)}})


def test_a_pull_request_that_changes_a_board_gets_its_page_and_the_table_in_the_summary(tmp_path):
    ws, write = pull_request(tmp_path)
    change_the_board(write)
    r = runner(ws, tmp_path)
    run = r.lint()
    assert run.code == 0, run.stdout + run.stderr
    page = Path(run.outputs["leaderboard-page"])
    # written outside the checkout, in the runner's temporary folder
    assert page.resolve().is_relative_to(r.temp.resolve()) and not page.resolve().is_relative_to(ws.resolve())
    assert page.name == "leaderboards.html" and page.parent.name == "penguin-lint-leaderboards"
    html = page.read_text(encoding="utf-8")
    assert html.startswith("<!DOCTYPE html>") and "Content-Security-Policy" in html
    assert 'class="board" id="board-0"' in html and "board-1" not in html  # the one board it changes
    # the job summary: the Table compactly, bars as text, and where the page is
    summary = run.summary
    assert "### Leaderboard Table after this pull request" in summary
    rows = [ln for ln in summary.splitlines() if re.match(r"\| \d", ln)]
    assert rows and all("`█" in ln for ln in rows), summary
    assert any("| 60.00 |" in ln or "| 60.00 ± 0.00 |" in ln for ln in rows), rows
    assert "artifact `penguin-lint-leaderboards`" in summary


def test_no_page_when_no_board_changes(tmp_path):
    ws, write = pull_request(tmp_path)
    write({TASK: VALID[TASK].replace("The first task.", "The first task, reworded.")})
    r = runner(ws, tmp_path)
    run = r.lint()
    assert run.code == 0, run.stdout + run.stderr
    assert run.outputs["leaderboard-page"] == ""
    assert not (r.temp / "penguin-lint-leaderboards").exists()
    assert "Leaderboard Table" not in run.summary


def test_no_page_when_a_change_beside_a_board_changes_no_row(tmp_path):
    # the board is affected (a file in its folders changed) but no row moves
    ws, write = pull_request(tmp_path)
    write({"experiments/lb/exp-1/test/summary.yaml": VALID["experiments/lb/exp-1/test/summary.yaml"] + "# rerun\n"})
    r = runner(ws, tmp_path)
    run = r.lint()
    assert run.code == 0, run.stdout + run.stderr
    assert run.outputs["leaderboard-page"] == ""
    assert not (r.temp / "penguin-lint-leaderboards").exists()


def test_a_page_planted_as_a_symlink_is_replaced_not_followed(tmp_path):
    ws, write = pull_request(tmp_path)
    change_the_board(write)
    r = runner(ws, tmp_path)
    target = tmp_path / "victim.txt"
    target.write_text("keep")
    (r.temp / "penguin-lint-leaderboards").mkdir(parents=True)
    (r.temp / "penguin-lint-leaderboards" / "leaderboards.html").symlink_to(target)
    run = r.lint()
    assert target.read_text() == "keep"
    assert Path(run.outputs["leaderboard-page"]).read_text().startswith("<!DOCTYPE html>")


def test_the_upload_step_is_pinned_and_uploads_the_page_only(tmp_path):
    (upload,) = [s for s in ACTION["runs"]["steps"] if "upload-artifact" in s.get("uses", "")]
    assert re.fullmatch(r"actions/upload-artifact@[0-9a-f]{40}", upload["uses"])
    assert upload["with"]["path"] == "${{ steps.lint.outputs.leaderboard-page }}"
    assert upload["with"]["name"] == "penguin-lint-leaderboards"
    assert "steps.lint.outputs.leaderboard-page != ''" in upload["if"] and "!cancelled()" in upload["if"]
    assert ACTION["outputs"]["leaderboard-page"]["value"] == "${{ steps.lint.outputs.leaderboard-page }}"
