"""One definition of a line, held in every part that counts lines: a
line-scoped suppression, --fix in YAML and the language server's positions
all name the line the findings name (LF ends a line; a lone CR, NEL,
U+2028 and U+2029 are characters of it). The baseline's digest is held in
tests/run/test_line_count_baseline.py, the findings and file-wide
suppressions in test_line_definition.py."""
from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import VALID, lint
from tests.lsp_client import LspClient, uri_of

ATTEMPT = "experiments/lb/exp-1/test/attempt-1.yaml"
ODD = ["\r", "\x85", "\u2028", "\u2029"]
IDS = ["CR", "NEL", "U+2028", "U+2029"]


def attempt(odd: str, tail: str = "") -> str:
    # line 1 holds the odd character in a comment (YAML breaks there, LF does not)
    return (f"score: 50.0  # measured{odd}# again\nresults:\n  - source: CASE-001-one\n    score: 50.0\n"
            + tail)


@pytest.mark.parametrize("odd", ODD, ids=IDS)
def test_a_line_suppression_after_an_odd_break_covers_the_line_findings_name(repo, odd):
    text = attempt(odd, "legacy: 1  # penguin-lint: disable=PL104\nother: 2\n")
    root = repo({ATTEMPT: text.encode("utf-8")})
    run = lint(root, "--all")
    assert run.at("PL104") == [(ATTEMPT, 6)] and run.at("PL008") == [], run.findings
    assert run.json["summary"]["suppressed"] == 1


@pytest.mark.parametrize("odd", ODD, ids=IDS)
def test_yaml_fix_after_an_odd_break_edits_the_line_the_finding_names(repo, odd):
    text = attempt(odd, "legacy: 1  # penguin-lint: disable=PL104,PL203\n")
    root = repo({ATTEMPT: text.encode("utf-8")})
    assert lint(root, "--all").at("PL008") == [(ATTEMPT, 5)]
    run = lint(root, "--all", "--fix")
    assert run.code == 0 and run.findings == [], run.findings
    assert (root / ATTEMPT).read_bytes().decode("utf-8") == text.replace("PL104,PL203", "PL104")


def test_the_language_server_names_the_lines_findings_name(tmp_path):
    from tests.conftest import write_repo

    root = write_repo(tmp_path / "repo", {}, VALID)
    client = LspClient(root)
    try:
        client.initialize(root)
        for version, odd in enumerate(ODD, start=1):
            text = attempt(odd, "  - source: CASE-404-none\n    score: 50.0\n")
            uri = uri_of(root / ATTEMPT)
            if version == 1:
                client.notify("textDocument/didOpen", {"textDocument": {
                    "uri": uri, "languageId": "yaml", "version": 1, "text": text}})
            else:
                client.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": version},
                                                         "contentChanges": [{"text": text}]})
            diags = client.wait_diagnostics(uri, version)["diagnostics"]
            assert [(d["code"], d["range"]["start"]) for d in diags] == [
                ("PL304", {"line": 4, "character": len("  - source: ")})], (repr(odd), diags)
            # a position the client sends is read the same way: line 2 is the first source
            found = client.request("textDocument/definition", {
                "textDocument": {"uri": uri}, "position": {"line": 2, "character": len("  - source: CASE")}})
            assert [Path(loc["uri"][len("file://"):]).relative_to(root.resolve()).as_posix()
                    for loc in found or ()] == ["packages/bench-a/CASE-001-one/task_config.toml"], repr(odd)
    finally:
        assert client.close() == 0
