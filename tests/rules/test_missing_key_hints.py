"""PL101 proposes the missing key with a placeholder of its type, in the file's
format; an empty file is said to be empty, with what it needs."""
from __future__ import annotations

import re
import textwrap

import pytest

from tests.conftest import VALID, lint

SUMMARY = "experiments/lb/exp-1/test/summary.yaml"
BENCH = "packages/bench-a/benchmark_config.toml"
LB = "leaderboards/lb/leaderboard.yaml"


def _pl101(run, path):
    return [f for f in run.findings if f["code"] == "PL101" and f["path"] == path]


def _proposal(hint):
    m = re.fullmatch(r"add (.+?)(?: under (\S+))?", hint)
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
    assert _pl101(again, path) == [] and "PL001" not in again.codes() and "PL102" not in again.codes(), again.findings


@pytest.mark.parametrize("text", ["", "\n", "# to be written\n"])
def test_an_empty_summary_is_said_to_be_empty(repo, text):
    root = repo({SUMMARY: text})
    run = lint(root, "--all")
    (f,) = [f for f in run.findings if f["path"] == SUMMARY]
    assert (f["code"], f["line"]) == ("PL102", 1)
    assert f["message"] == "the file is empty: it needs a mapping with n_attempt, score_mean"
    prefix = "write at least these keys, one per line: "
    assert f["hint"].startswith(prefix)
    lines = f["hint"][len(prefix):].split(" / ")
    assert lines == ["n_attempt: 1", "score_mean: 0.0"]
    (root / SUMMARY).write_text("\n".join(lines) + "\n")
    assert [g["code"] for g in lint(root, "--all").findings if g["path"] == SUMMARY and g["code"] < "PL2"] == []


def test_a_null_document_is_not_called_empty(repo):
    root = repo({SUMMARY: "null\n"})
    (f,) = [f for f in lint(root, "--all").findings if f["path"] == SUMMARY]
    assert f["message"].startswith("the file holds only null: it needs a mapping with n_attempt")
