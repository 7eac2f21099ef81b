"""One definition of a line: LF (or CR LF) ends a line; a lone CR, NEL,
U+2028 and U+2029 are characters inside it. Positions, inline suppressions
(which comment is a comment), and --fix (which text a line number names)
must all count lines that way, or a directive is misread and a fix edits the
wrong line."""
from __future__ import annotations

import pytest

from tests.conftest import VALID, lint

ATTEMPT = "experiments/lb/exp-1/test/attempt-1.yaml"
ATTEMPT_HEAD = "score: 50.0\nresults:\n  - source: CASE-001-one\n    score: 50.0\n"
TASK = "packages/bench-a/CASE-001-one/task_config.toml"

# Characters libyaml (and str.splitlines) take for line breaks that are not
# line breaks to git, editors, GitHub, or penguin-lint's positions.
YAML_ODD = ["\u2028", "\u2029", "\x85", "\r"]
# A lone CR may not stand in a TOML string; the others may.
TOML_ODD = ["\u2028", "\u2029", "\x85"]


@pytest.mark.parametrize("odd", YAML_ODD, ids=["U+2028", "U+2029", "NEL", "CR"])
def test_yaml_directive_after_a_string_with_an_odd_break_is_a_comment(repo, odd):
    # The comment on line 7 is a comment: it must suppress the unknown keys
    # of lines 5 and 6, and so be no PL008 either.
    text = (ATTEMPT_HEAD + f'legacy_note: "base{odd}line"\n'
            "legacy_importer_field: a-value-long-enough\n"
            "# penguin-lint: disable-file=PL104\n")
    root = repo({ATTEMPT: text.encode("utf-8")})
    run = lint(root, "--all")
    assert run.at("PL104") == [] and run.at("PL008") == [], run.findings
    assert run.json["summary"]["suppressed"] == 2
    # --no-suppress shows the findings on the lines an editor shows
    raw = lint(root, "--all", "--no-suppress")
    assert sorted(raw.at("PL104")) == [(ATTEMPT, 5), (ATTEMPT, 6)]


@pytest.mark.parametrize("odd", YAML_ODD, ids=["U+2028", "U+2029", "NEL", "CR"])
def test_yaml_hash_inside_a_string_after_an_odd_break_is_text(repo, odd):
    # the '#' on line 6 is inside a quoted string: data, not a directive
    text = (ATTEMPT_HEAD + f'legacy_note: "base{odd}line"\n'
            'legacy_importer_field: "x # penguin-lint: disable=PL104"\n')
    root = repo({ATTEMPT: text.encode("utf-8")})
    run = lint(root, "--all")
    assert sorted(run.at("PL104")) == [(ATTEMPT, 5), (ATTEMPT, 6)] and run.at("PL008") == [], run.findings


@pytest.mark.parametrize("odd", TOML_ODD, ids=["U+2028", "U+2029", "NEL"])
def test_toml_fix_removes_the_unused_directive_not_the_one_in_use(repo, odd):
    task = ('id = "CASE-001-one"\n'
            f'title = "One{odd}two"\n'
            'description = "The first task."\n'
            "legacy = 1  # penguin-lint: disable=PL104\n"
            "# penguin-lint: disable-file=PL203\n")
    root = repo({TASK: task.encode("utf-8")})
    before = lint(root, "--all")
    assert before.at("PL008") == [(TASK, 5)] and before.at("PL104") == [], before.findings
    diff = lint(root, "--all", "--diff", fmt="text")
    assert "-# penguin-lint: disable-file=PL203" in diff.output
    assert "@@ -2,4 +2,3 @@" in diff.output, diff.output  # lines 2-5, as the findings count them
    run = lint(root, "--all", "--fix")
    assert run.code == 0 and run.findings == [], run.findings
    assert (root / TASK).read_bytes().decode("utf-8") == task.replace("# penguin-lint: disable-file=PL203\n", "")


@pytest.mark.parametrize("odd", TOML_ODD, ids=["U+2028", "U+2029", "NEL"])
def test_toml_fix_trims_the_unused_code_of_the_right_line(repo, odd):
    task = ('id = "CASE-001-one"\n'
            f'title = """One{odd}two{odd}three"""\n'
            'description = "The first task."\n'
            "legacy = 1  # penguin-lint: disable=PL104,PL203\n")
    root = repo({TASK: task.encode("utf-8")})
    before = lint(root, "--all")
    assert before.at("PL008") == [(TASK, 4)], before.findings
    run = lint(root, "--all", "--fix")
    assert run.code == 0 and run.findings == [], run.findings
    assert (root / TASK).read_bytes().decode("utf-8") == task.replace("PL104,PL203", "PL104")


def test_yaml_fix_after_a_string_with_u2028_edits_the_line_the_finding_names(repo):
    # a PL008 fix in YAML: the own-line directive on line 6 goes, nothing else
    text = (ATTEMPT_HEAD + 'legacy_note: "base\u2028line"\n'
            "# penguin-lint: disable-file=PL203\n"
            "# penguin-lint: disable-file=PL104\n")
    root = repo({ATTEMPT: text.encode("utf-8")})
    before = lint(root, "--all")
    assert before.at("PL008") == [(ATTEMPT, 6)] and before.at("PL104") == [], before.findings
    run = lint(root, "--all", "--fix")
    assert run.findings == [], run.findings
    assert (root / ATTEMPT).read_bytes().decode("utf-8") == text.replace("# penguin-lint: disable-file=PL203\n", "")
