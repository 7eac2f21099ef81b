"""The baseline file itself: its format (a golden file: a change to it would
silently un-baseline the debt users recorded), the text of a finding's line
as part of what an entry matches, its size bound, and a malformed entry as
one error line."""
from __future__ import annotations

import json
import os
import stat
import textwrap
from pathlib import Path

import pytest

from tests.conftest import VALID, lint
from tests.github.test_action import git_identity  # noqa: F401 (fixture)
from tests.run.test_baseline import (ATTEMPT, ATTEMPT_1, BASELINE, BENCH, DEBT, UNKNOWN, debt,
                                     pull_request_recording_its_debt)

GOLDEN = Path(__file__).with_name("baseline.golden.json")
# what version 1 wrote (messages without any number): still read as it was
GOLDEN_V1 = Path(__file__).with_name("baseline.v1.golden.json")
TASK = "packages/bench-a/CASE-001-one/task_config.toml"
# one more of the same unknown source (the same line text: one entry, count 2), one not in
# ASCII, a task without its description (a finding about the whole file: no line text) and a
# field no task has (at the first column of the last line)
FILES = {ATTEMPT: ATTEMPT_1 + UNKNOWN + UNKNOWN.replace("404-none", "405-caf\u00e9"),
         TASK: 'id = "CASE-001-one"\ntitle = "One"\n',
         "packages/bench-a/CASE-002-two/task_config.toml":
             'id = "CASE-002-two"\ntitle = "Two"\ndescription = "The second task."\nruns = 1\n',
         "packages/bench-a/CASE-002-two/statement/README.md": "# Two\n",
         "packages/bench-a/CASE-002-two/rubric/README.md": "# Rubric\n"}
TWO = "packages/bench-a/CASE-002-two/task_config.toml"
#: the bound the file is read within (run/baseline.py)
LIMIT = 32 * 1024 * 1024


def test_the_baseline_is_written_as_the_golden_file_records_it(tmp_path):
    # a change here un-baselines what users recorded: it needs a new version that reads this one
    root = debt(tmp_path, FILES)
    assert lint(root, "--all", "--no-cache", "--write-baseline").code == 0
    assert (root / BASELINE).read_bytes() == GOLDEN.read_bytes()
    umask = os.umask(0o022)
    os.umask(umask)
    assert stat.S_IMODE((root / BASELINE).stat().st_mode) == 0o644 & ~umask


@pytest.mark.parametrize("golden", [GOLDEN, GOLDEN_V1], ids=["v2", "v1"])
def test_a_baseline_in_the_golden_format_records_the_same_debt(tmp_path, golden):
    root = debt(tmp_path, FILES)
    assert sorted(lint(root, "--all", "--no-cache").codes()) == [
        "PL101", "PL104", "PL203", "PL303", "PL304", "PL304", "PL304"]
    (root / BASELINE).write_bytes(golden.read_bytes())
    run = lint(root, "--all", "--no-cache")
    assert run.code == 0 and run.findings == []
    assert run.json["summary"]["baselined"] == 7 and run.json["summary"]["baseline_stale"] == 0
    # a finding at the first column of a line (not the first) is fingerprinted by its line too
    (root / TWO).write_text((root / TWO).read_text().replace("runs = 1", "runs = 1  # to remove"))
    run = lint(root, "--all", "--no-cache")
    assert run.at("PL104") == [(TWO, 4)] and run.json["summary"]["baselined"] == 6


def test_the_same_message_on_a_line_that_now_says_something_else_is_new_debt(tmp_path):
    root = debt(tmp_path)
    assert lint(root, "--all", "--no-cache", "--write-baseline").code == 0
    # the same finding (same code, path, line and message), its line's text changed
    (root / ATTEMPT).write_text(ATTEMPT_1.replace("CASE-404-none", "CASE-404-none  # to check"))
    run = lint(root, "--all", "--no-cache")
    assert run.code == 1 and run.at("PL304") == [(ATTEMPT, 3)]
    assert run.json["summary"]["baselined"] == 2 and run.json["summary"]["baseline_stale"] == 1
    # the line's own text, not its neighbours', nor its indentation
    (root / ATTEMPT).write_text("score: 50.0  # again\nresults:\n" + UNKNOWN + "# end\n")
    (root / BENCH).write_text((root / BENCH).read_text().replace('version = "v1"', '  version = "v1"'))
    again = lint(root, "--all", "--no-cache")
    assert again.code == 0, again.output
    assert again.json["summary"]["baselined"] == 3


def test_a_finding_on_the_first_line_past_its_first_column_keeps_its_line_text(tmp_path):
    rest = textwrap.dedent(VALID[BENCH]).replace('version = "1.0.0"\n', "")
    root = debt(tmp_path, {BENCH: 'version = "v1"\n' + rest})
    first = lint(root, "--all", "--no-cache")
    assert [(f["line"], f["column"]) for f in first.findings if f["code"] == "PL203"] == [(1, 11)]
    assert lint(root, "--all", "--no-cache", "--write-baseline").code == 0
    (root / BENCH).write_text('# the version\nversion = "v1"\n' + rest)
    assert lint(root, "--all", "--no-cache").code == 0
    (root / BENCH).write_text('version = "v1"  # to fix\n' + rest)
    run = lint(root, "--all", "--no-cache")
    assert run.code == 1 and run.at("PL203") == [(BENCH, 1)]


def error_line(root) -> str:
    run = lint(root, "--all", "--no-cache", fmt="text")
    assert run.code == 2 and run.output == ""
    assert len(run.stderr.splitlines()) == 1, run.stderr
    return run.stderr


def test_a_malformed_entry_is_one_error_line(tmp_path):
    root = debt(tmp_path)
    entry = {"code": "PL203", "path": BENCH, "message": "m", "context": "", "count": 1}
    why = {
        "an entry is not a finding's code, path, message and context": [
            "PL203", None, [entry], {k: v for k, v in entry.items() if k != "context"},
            dict(entry, context=None), dict(entry, path=1), dict(entry, message=[]), dict(entry, code=203)],
        "an entry's count is not a positive number": [
            dict(entry, count=0), dict(entry, count=True), dict(entry, count="1"), dict(entry, count=1.0),
            dict(entry, count=2 ** 31), {k: v for k, v in entry.items() if k != "count"}],
    }
    for reason, entries in why.items():
        for e in entries:
            (root / BASELINE).write_text(json.dumps({"version": 1, "findings": [entry, e]}))
            assert error_line(root) == (f"penguin-lint: error: {BASELINE}: not a baseline penguin-lint wrote "
                                        f"({reason}); write it again with --all --write-baseline\n"), e
    for doc in ({"version": 3, "findings": []}, {"findings": []}, {"version": 1, "findings": {}},
                {"version": 2}, {"version": True, "findings": []}, [1]):
        (root / BASELINE).write_text(json.dumps(doc))
        assert "(an object with version 2 (or 1) and a list of findings is expected)" in error_line(root), doc
    for raw in (b"\xff\xfe{}", b"[" * 100_000 + b"]" * 100_000):
        (root / BASELINE).write_bytes(raw)
        assert "(not JSON)" in error_line(root)
    # the largest count there is is read
    (root / BASELINE).write_text(json.dumps({"version": 1, "findings": [dict(entry, count=2 ** 31 - 1)]}))
    assert lint(root, "--all", "--no-cache").code == 1


def test_a_baseline_past_its_size_bound_is_refused(tmp_path):
    root = debt(tmp_path)
    assert lint(root, "--all", "--no-cache", "--write-baseline").code == 0
    recorded = (root / BASELINE).read_bytes()
    # up to the bound it is read (whitespace is JSON's), one byte more is refused
    (root / BASELINE).write_bytes(recorded + b" " * (LIMIT - len(recorded)))
    run = lint(root, "--all", "--no-cache")
    assert run.code == 0 and run.json["summary"]["baselined"] == 3
    (root / BASELINE).write_bytes(recorded + b" " * (LIMIT + 1 - len(recorded)))
    assert error_line(root) == (f"penguin-lint: error: {BASELINE}: not a baseline penguin-lint wrote "
                                "(larger than 32 MiB); write it again with --all --write-baseline\n")


def test_with_pl502_ignored_a_changed_baseline_is_still_not_the_one_used(tmp_path, monkeypatch, git_identity):  # noqa: F811
    seed = debt(tmp_path / "seed")
    assert lint(seed, "--all", "--no-cache", "--write-baseline").code == 0
    ws = pull_request_recording_its_debt(tmp_path, dict(DEBT, **{BASELINE: (seed / BASELINE).read_text()}), monkeypatch)
    run = lint(ws, "--all", "--no-cache")
    assert [(f["code"], f["line"], f["message"], f["hint"]) for f in run.findings if f["code"] == "PL502"] == [
        ("PL502", None, f"{BASELINE} is changed in this pull request; the run uses the base's baseline",
         "a baseline records old debt; it takes effect once merged")]
    for args in (["--all", "--no-cache"], ["--diff-base", "origin/main"]):
        run = lint(ws, *args, "--ignore", "PL502")
        assert run.code == 1, args
        assert [(f["code"], f["path"], f["line"]) for f in run.findings] == [("PL304", ATTEMPT, 5)], args


def test_a_finding_about_another_id_is_not_the_one_recorded(tmp_path):
    """An entry records what a finding is about, digits included: a task
    that differs from the recorded one only in its digits is new debt (a
    version 1 baseline, which kept no digit, took it for the recorded one)."""
    root = debt(tmp_path)
    assert lint(root, "--all", "--no-cache", "--write-baseline").code == 0
    recorded = (root / ATTEMPT).read_text()
    (root / ATTEMPT).write_text(recorded.replace("CASE-404-none", "CASE-405-none"))
    run = lint(root, "--all", "--no-cache")
    assert run.code == 1 and run.at("PL304") == [(ATTEMPT, 3)], run.output
    # the line of the finding, placed elsewhere, is still the recorded one
    (root / ATTEMPT).write_text("# moved\n" + recorded)
    assert lint(root, "--all", "--no-cache").code == 0
