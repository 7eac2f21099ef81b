"""PL101 proposes the missing key with a placeholder of its type, in the file's
format, or with the value the repository gives it (a package's last commit, a
summary's attempts); an empty file is said to be empty, with what it needs."""
from __future__ import annotations

import os
import re
import textwrap

import pytest

from tests.conftest import VALID, git, lint

SUMMARY = "experiments/lb/exp-1/test/summary.yaml"
BENCH = "packages/bench-a/benchmark_config.toml"
LB = "leaderboards/lb/leaderboard.yaml"


def _pl101(run, path):
    return [f for f in run.findings if f["code"] == "PL101" and f["path"] == path]


def _proposal(hint):
    # "add KEY = VALUE [under PARENT] [(where the value comes from)]
    #  [, above [TABLE] (line N): a key below a table header belongs to that table]"
    m = re.fullmatch(r"add (.+?)(?: under (\S+))?(?: \((.+)\))?"
                     r"(?:, above \[\S+\] \(line \d+\): a key below a table header belongs to that table)?", hint)
    assert m, hint
    return m.group(1), m.group(2)


def _insert(text, line_no, new_line):
    lines = text.splitlines(keepends=True)
    lines.insert(line_no, new_line + "\n")
    return "".join(lines)


@pytest.mark.parametrize("path,drop,parent_line", [
    (SUMMARY, "score_mean", None),                  # YAML, top level
    (BENCH, "title", None),                         # TOML, top level
    (BENCH, "status", None),                        # TOML, an enum: its first value
    (BENCH, "last_update", None),                   # TOML, a date-time
    (BENCH, "[author]", None),                      # TOML, a table: an inline one
    (BENCH, "name", "[author]"),                    # TOML, inside a table
    (LB, "  name:", "author:"),                     # YAML, inside a mapping
    (LB, "author:", None),                          # YAML, a mapping: a flow one
])
def test_the_proposal_inserted_in_the_file_clears_the_pl101(repo, path, drop, parent_line):
    text = textwrap.dedent(VALID[path])
    if drop == "[author]":
        text = text[:text.index("[author]")]
    elif drop == "author:":
        text = text.replace("author:\n  name: Lab\n", "")
    elif drop == "  name:":
        text = text.replace("  name: Lab\n", "  email: lab@example.com\n")
    else:
        text = "".join(ln for ln in text.splitlines(keepends=True) if not ln.startswith(drop))
    root = repo({path: text})
    (finding,) = _pl101(lint(root, "--all"), path)
    line, under = _proposal(finding["hint"])
    if parent_line is None:
        assert under is None
        # a top-level key goes first: before any TOML table
        fixed = _insert(text, 0, line)
    else:
        assert under == parent_line.strip("[]:")
        at = text.splitlines().index(parent_line) + 1
        fixed = _insert(text, at, ("  " if path.endswith(".yaml") else "") + line)
    (root / path).write_text(fixed)
    again = lint(root, "--all")
    assert _pl101(again, path) == [], again.findings
    # the value proposed is one the other rules accept (a mean PL303 agrees with, a date PL204 reads)
    assert not {"PL001", "PL102", "PL204", "PL303"} & set(again.codes()), again.findings


@pytest.mark.parametrize("text", ["", "\n", "# to be written\n"])
def test_an_empty_summary_is_said_to_be_empty(repo, text):
    root = repo({SUMMARY: text, **ATTEMPTS})
    run = lint(root, "--all")
    (f,) = [f for f in run.findings if f["path"] == SUMMARY]
    assert (f["code"], f["line"]) == ("PL102", 1)
    assert f["message"] == "the file is empty: it needs a mapping with n_attempt, score_mean"
    prefix = "write at least these keys, one per line: "
    assert f["hint"].startswith(prefix)
    lines = f["hint"][len(prefix):].split(" / ")
    # the values the attempt files give, not placeholders PL302 or PL303 would refuse
    assert lines == ["n_attempt: 3", "score_mean: 69.17"]
    (root / SUMMARY).write_text("\n".join(lines) + "\n")
    again = lint(root, "--all")
    assert [g["code"] for g in again.findings if g["path"].startswith(PHASE) and g["code"] != "PL101"] == [], \
        again.findings


def test_a_null_document_is_not_called_empty(repo):
    root = repo({SUMMARY: "null\n"})
    (f,) = [f for f in lint(root, "--all").findings if f["path"] == SUMMARY]
    assert f["message"].startswith("the file holds only null: it needs a mapping with n_attempt")


BENCH_TEXT = textwrap.dedent(VALID[BENCH])
NO_DATE = "".join(ln for ln in BENCH_TEXT.splitlines(keepends=True) if not ln.startswith("last_update"))


def _apply(root, path, hint):
    line, under = _proposal(hint)
    assert under is None
    (root / path).write_text(_insert((root / path).read_text(), 0, line))


def test_last_update_proposed_is_the_packages_last_commit(repo, git_env, monkeypatch):
    root = repo({BENCH: NO_DATE})
    git(root, "init", "-q", "-b", "main")
    git(root, "add", "packages")
    monkeypatch.setenv("GIT_COMMITTER_DATE", "2026-03-04T12:30:05+01:00")
    git(root, "commit", "-q", "-m", "the package")
    # a later commit elsewhere is not the package's
    git(root, "add", "-A")
    monkeypatch.setenv("GIT_COMMITTER_DATE", "2026-05-06T07:08:09-04:00")
    git(root, "commit", "-q", "-m", "the rest")
    (finding,) = _pl101(lint(root, "--all"), BENCH)
    assert finding["hint"] == ('add last_update = "2026-03-04T12:30:05+01:00" '
                               "(the time of the last commit of packages/bench-a/), above [author] (line 7): "
                               "a key below a table header belongs to that table")
    _apply(root, BENCH, finding["hint"])
    again = lint(root, "--all")
    assert again.code == 0, again.findings
    assert 'last_update = "2026-03-04T12:30:05+01:00"\n' in (root / BENCH).read_text()


def test_last_update_outside_git_is_the_files_modification_time(repo):
    root = repo({BENCH: NO_DATE})
    when = 1772623805  # 2026-03-04T11:30:05Z
    os.utime(root / BENCH, (when, when))
    (finding,) = _pl101(lint(root, "--all"), BENCH)
    assert finding["hint"] == ('add last_update = "2026-03-04T11:30:05Z" '
                               "(when benchmark_config.toml was last modified; git gave no commit of its folder), "
                               "above [author] (line 7): a key below a table header belongs to that table")
    _apply(root, BENCH, finding["hint"])
    assert lint(root, "--all").code == 0


def test_last_update_is_asked_again_after_a_commit_the_cache_does_not_keep_it(repo, git_env, monkeypatch):
    root = repo({BENCH: NO_DATE})
    git(root, "init", "-q", "-b", "main")
    (first,) = _pl101(lint(root, "--all"), BENCH)
    assert "git gave no commit of its folder" in first["hint"]
    git(root, "add", "-A")
    monkeypatch.setenv("GIT_COMMITTER_DATE", "2026-03-04T12:30:05+01:00")
    git(root, "commit", "-q", "-m", "base")
    (second,) = _pl101(lint(root, "--all"), BENCH)
    assert second["hint"].startswith('add last_update = "2026-03-04T12:30:05+01:00" (the time of the last commit')
    # the rest of the run is still cached
    assert (root / ".penguin-lint-cache").is_dir()


PHASE = "experiments/lb/exp-1/test"
ATTEMPTS = {f"{PHASE}/attempt-{i}.yaml": f"score: {s}\nresults:\n  - source: CASE-001-one\n    score: {s}\n"
            for i, s in ((1, "69.5"), (2, "70.0"), (3, "68.0"))}


@pytest.mark.parametrize("summary,key,proposed", [
    ("n_attempt: 3\nscore_std: 1.04\n", "score_mean", "score_mean: 69.17 (the mean of the 3 attempts' scores)"),
    ("n_attempt: 3\nscore_mean: 69.17\n", "score_std",
     "score_std: 1.04 (the sample standard deviation of the 3 attempts' scores)"),
])
def test_a_summarys_statistic_proposed_is_what_the_attempts_give(repo, summary, key, proposed):
    root = repo({SUMMARY: summary, **ATTEMPTS})
    (finding,) = _pl101(lint(root, "--all"), SUMMARY)
    assert finding["message"] == f"missing required field '{key}'"
    assert finding["hint"] == f"add {proposed}"
    _apply(root, SUMMARY, finding["hint"])
    again = lint(root, "--all")
    assert again.code == 0, again.findings  # PL303 agrees with the value proposed


def test_a_statistic_the_attempts_cannot_give_is_not_made_up(repo):
    root = repo({SUMMARY: "n_attempt: 3\nscore_std: 1.0\n"})  # two attempt files of three
    (finding,) = _pl101(lint(root, "--all"), SUMMARY)
    assert finding["hint"] == ("add score_mean: the mean of the 3 attempts' scores, "
                               "once the attempt files all hold a score")


def test_a_key_added_below_a_table_is_said_to_be_that_table_s(repo):
    """Appended at the end, after ``[author]``, a top-level key is ``author.KEY``:
    the hint says to move it above the table."""
    text = "".join(ln for ln in BENCH_TEXT.splitlines(keepends=True) if not ln.startswith("title"))
    root = repo({BENCH: text + 'title = "Bench A"\n'})
    (finding,) = _pl101(lint(root, "--all"), BENCH)
    assert finding["hint"] == ("'title' is under [author] (line 7), which makes it author.title: "
                               "move it above [author] (line 7)")
    # moved as said, it is the top-level key the schema wants
    (root / BENCH).write_text('title = "Bench A"\n' + text)
    assert _pl101(lint(root, "--all"), BENCH) == []
