"""`penguin-lint lsp`: the language server, driven by a real LSP client over
its standard input and output, and the overlay of buffers it lints."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.conftest import VALID, lint, write_repo
from tests.lsp_client import LspClient, uri_of
from tests.installed import rule_page
from penguin_lint.lsp.project import Project
from penguin_lint.lsp.textmap import TextMap
from penguin_lint.rules import all_rules

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
ATTEMPT = "experiments/lb/exp-1/test/attempt-1.yaml"
SUMMARY = "experiments/lb/exp-1/test/summary.yaml"
BOARD = "leaderboards/lb/leaderboard.yaml"
# a character beyond U+FFFF is two UTF-16 code units: LSP columns count those
BROKEN_ATTEMPT = 'score: 50.0\nresults:\n  - {source: "\U0001F427", score: "high"}\n'


def _open(client: LspClient, root: Path, rel: str, text: str) -> str:
    uri = uri_of(root / rel)
    client.notify("textDocument/didOpen", {"textDocument": {
        "uri": uri, "languageId": "yaml", "version": 1, "text": text}})
    return uri


def _change(client: LspClient, uri: str, version: int, text: str) -> None:
    client.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": version},
                                             "contentChanges": [{"text": text}]})


def _apply(text: str, edits) -> str:
    """The text with LSP edits applied (ASCII lines: UTF-16 columns are characters)."""
    lines = text.split("\n")
    starts = [0]
    for line in lines[:-1]:
        starts.append(starts[-1] + len(line) + 1)
    for e in sorted(edits, key=lambda e: (e["range"]["start"]["line"], e["range"]["start"]["character"]),
                    reverse=True):
        s, t = e["range"]["start"], e["range"]["end"]
        a, b = starts[s["line"]] + s["character"], starts[t["line"]] + t["character"]
        text = text[:a] + e["newText"] + text[b:]
    return text


def test_the_language_server_lints_unsaved_buffers_across_files_and_fixes(tmp_path):
    root = write_repo(tmp_path / "repo", {}, VALID)
    client = LspClient(root)
    try:
        caps = client.initialize(root)["capabilities"]
        assert caps["codeActionProvider"]["codeActionKinds"] == ["quickfix", "source.fixAll.penguin-lint"]

        # didOpen of a buffer broken before it is saved: its text is linted, not the file's
        attempt = _open(client, root, ATTEMPT, BROKEN_ATTEMPT)
        diags = client.wait_diagnostics(attempt, 1)["diagnostics"]
        assert [d["code"] for d in diags] == ["PL304", "PL102"]
        assert diags[0]["range"]["start"] == {"line": 2, "character": len("  - {source: ")}
        d = diags[1]
        prefix = '  - {source: "\U0001F427", score: '
        start = len(prefix) + 1  # the penguin is one character, two UTF-16 units
        assert d["range"] == {"start": {"line": 2, "character": start},
                              "end": {"line": 2, "character": start + len('"high"')}}
        assert d["severity"] == 1 and d["source"] == "penguin-lint"
        assert d["codeDescription"]["href"] == rule_page("PL102")
        assert d["message"] == "'results[0].score' must be a number, not a string"

        # didChange that repairs it: the diagnostics are cleared
        _change(client, attempt, 2, BROKEN_ATTEMPT.replace('"high"', "50.0").replace('"\U0001F427"', "CASE-001-one"))
        assert client.wait_diagnostics(attempt, 2)["diagnostics"] == []

        # an open leaderboard follows an unsaved change to a summary it reads
        board = _open(client, root, BOARD, (root / BOARD).read_text())
        assert client.wait_diagnostics(board, 1)["diagnostics"] == []
        summary_text = (root / SUMMARY).read_text()
        summary = _open(client, root, SUMMARY, summary_text)
        assert client.wait_diagnostics(summary, 1)["diagnostics"] == []
        _change(client, summary, 2, summary_text.replace("score_mean: 50.0", "score_mean: high"))
        assert [d["code"] for d in client.wait_diagnostics(summary, 2)["diagnostics"]] == ["PL102"]
        board_diags = client.wait_until(board, bool)
        assert [(d["code"], d["range"]["start"]["line"]) for d in board_diags] == [("PL402", 6)]
        assert "in exp-1/test/summary.yaml is a string" in board_diags[0]["message"]
        _change(client, summary, 3, summary_text)
        assert client.wait_diagnostics(summary, 3)["diagnostics"] == []
        assert client.wait_until(board, lambda diags: not diags) == []

        # a fixable finding offers the repair --fix makes, as an edit of the buffer
        wrong = summary_text.replace("score_mean: 50.0", "score_mean: 40.0")
        _change(client, summary, 4, wrong)
        (d,) = client.wait_diagnostics(summary, 4)["diagnostics"]
        assert d["code"] == "PL303"
        actions = client.request("textDocument/codeAction", {
            "textDocument": {"uri": summary}, "range": d["range"], "context": {"diagnostics": [d]}})
        quick = [a for a in actions if a["kind"] == "quickfix"]
        assert [a["title"] for a in quick] == ["Fix PL303 (summary-mismatch)"]
        assert quick[0]["diagnostics"] == [d]
        fixed = _apply(wrong, quick[0]["edit"]["changes"][summary])
        (fix_all,) = client.request("textDocument/codeAction", {
            "textDocument": {"uri": summary}, "range": {"start": {"line": 0, "character": 0},
                                                        "end": {"line": 0, "character": 0}},
            "context": {"diagnostics": [], "only": ["source.fixAll"]}})
        assert fix_all["kind"] == "source.fixAll.penguin-lint"
        assert _apply(wrong, fix_all["edit"]["changes"][summary]) == fixed
        assert fixed != wrong
        # the repair --fix writes
        (root / SUMMARY).write_text(wrong)
        lint(root, "--fix", SUMMARY)
        assert (root / SUMMARY).read_text() == fixed
        _change(client, summary, 5, fixed)
        assert client.wait_diagnostics(summary, 5)["diagnostics"] == []

        # closing a buffer clears its diagnostics; the file on disk counts again
        client.notify("textDocument/didClose", {"textDocument": {"uri": attempt}})
        assert client.wait_diagnostics(attempt, 3)["diagnostics"] == []

        # a file changed on disk, not in the editor: the client's watcher says so
        (watch,) = [r for r in client.server_requests if r["method"] == "client/registerCapability"]
        assert watch["params"]["registrations"][0]["method"] == "workspace/didChangeWatchedFiles"
        client.notify("textDocument/didClose", {"textDocument": {"uri": summary}})
        assert client.wait_diagnostics(summary, 6)["diagnostics"] == []
        (root / SUMMARY).write_text(summary_text.replace("score_mean: 50.0", "score_mean: high"))
        client.notify("workspace/didChangeWatchedFiles", {"changes": [{"uri": summary, "type": 2}]})
        assert [d["code"] for d in client.wait_until(board, bool)] == ["PL402"]
        assert client.close() == 0
        assert b"Traceback" not in b"".join(client.stderr)
    finally:
        if client.proc.poll() is None:
            client.proc.kill()


def test_columns_are_counted_in_the_encoding_the_client_prefers(tmp_path):
    """Neovim offers UTF-8 first: the penguin is then four units wide."""
    root = write_repo(tmp_path / "repo", {}, VALID)
    client = LspClient(root)
    try:
        assert client.initialize(root, encodings=["utf-8", "utf-16"])["capabilities"]["positionEncoding"] == "utf-8"
        attempt = _open(client, root, ATTEMPT, BROKEN_ATTEMPT)
        d = client.wait_diagnostics(attempt, 1)["diagnostics"][1]
        start = len('  - {source: "\U0001F427", score: '.encode("utf-8"))
        assert (d["code"], d["range"]["start"]) == ("PL102", {"line": 2, "character": start})
        assert client.close() == 0
    finally:
        if client.proc.poll() is None:
            client.proc.kill()


def test_the_mark_of_a_toml_buffer_is_a_finding_whose_quick_fix_removes_it(tmp_path):
    bench = "packages/bench-a/benchmark_config.toml"
    root = write_repo(tmp_path / "repo", {}, VALID)
    text = "\ufeff" + (root / bench).read_text()
    client = LspClient(root)
    try:
        client.initialize(root)
        uri = _open(client, root, bench, text)
        (d,) = client.wait_diagnostics(uri, 1)["diagnostics"]
        assert d["code"] == "PL005"
        actions = client.request("textDocument/codeAction", {
            "textDocument": {"uri": uri}, "range": d["range"], "context": {"diagnostics": [d]}})
        (quick,) = [a for a in actions if a["kind"] == "quickfix"]
        assert quick["edit"]["changes"][uri] == [{"range": {"start": {"line": 0, "character": 0},
                                                            "end": {"line": 0, "character": 1}}, "newText": ""}]
        assert _apply(text, quick["edit"]["changes"][uri]) == text[1:]
        assert client.close() == 0
    finally:
        if client.proc.poll() is None:
            client.proc.kill()


def test_a_buffer_is_linted_as_the_file_would_be_on_disk(tmp_path):
    """Every file of the example repository, linted one at a time as an open
    buffer, has the findings `--all` reports in it."""
    root = tmp_path / "repo"
    shutil.copytree(EXAMPLES / "repo", root)
    assert _buffer_findings_match_a_full_run(root) == 7


def _buffer_findings_match_a_full_run(root: Path) -> int:
    """Lint every file of ``root`` as an open buffer, one at a time; each has
    the findings `--all` reports in it. Returns how many there are."""
    expected = {}
    for f in lint(root, "--all").findings:
        expected.setdefault(f["path"], []).append((f["code"], f["line"], f["column"], f["message"]))
    project = Project(root)
    for p in sorted(root.rglob("*")):
        rel = p.relative_to(root).as_posix()
        if p.is_file() and not p.is_symlink() and project.lints(rel):
            project.set_buffer(rel, p.read_bytes().decode("utf-8", "surrogateescape"))
            got = [(f.code, f.line, f.column, f.message) for f in project.lint([rel])[rel]]
            assert sorted(got) == sorted(expected.get(rel, [])), rel
    return sum(len(v) for v in expected.values())


def test_each_rules_bad_example_is_found_in_its_buffer(tmp_path):
    found = 0
    for rule in all_rules():
        path, text = rule.bad
        if path.endswith("/"):
            continue  # a folder's example: no buffer holds it
        found += _buffer_findings_match_a_full_run(write_repo(tmp_path / rule.code, {path: text}, VALID))
    assert found > 90


def test_a_change_parses_the_changed_buffer_only(tmp_path):
    """State is kept between changes: the documents and listings a
    leaderboard read are reused while their files are unchanged on disk."""
    root = tmp_path / "repo"
    shutil.copytree(EXAMPLES / "repo", root)
    hour_ago = time.time() - 3600  # older than a coarse clock's doubt
    for p in [root, *root.rglob("*")]:
        os.utime(p, (hour_ago, hour_ago))
    board = "leaderboards/code-eval/leaderboard.yaml"
    summary = "experiments/code-eval/sql-puzzles-baseline-deepseek-flash-1017-20261030/test/summary.yaml"
    text = (root / summary).read_text()
    project = Project(root)
    project.set_buffer(board, (root / board).read_text())
    project.set_buffer(summary, text)
    first = project.lint([board, summary])
    assert [f.code for f in first[board]] == ["PL403"] and [f.code for f in first[summary]] == ["PL303"]
    parsed, scanned = project.repo.parsed, project.repo.scanned
    assert parsed > 10
    project.set_buffer(summary, text.replace("score_mean: 71.6666666667", "score_mean: 69.1666666667"))
    again = project.lint([board, summary])
    assert again[summary] == [] and [f.code for f in again[board]] == ["PL403"]
    assert (project.repo.parsed - parsed, project.repo.scanned - scanned) == (1, 0)


def test_a_leaderboard_change_reaches_the_findings_a_folder_check_puts_in_an_open_file(tmp_path):
    root = write_repo(tmp_path / "repo", {}, VALID)
    project = Project(root)
    meta = "experiments/lb/exp-1/meta_info.yaml"
    assert project.lint([meta])[meta] == []
    project.set_buffer(BOARD, (root / BOARD).read_text().replace("experiment_id: exp-1", "experiment_id: exp-2"))
    # PL306 is the experiment folder's finding, reported in its meta_info.yaml
    assert project.affected(BOARD, [meta, ATTEMPT]) == {meta}
    assert [f.code for f in project.lint([meta])[meta]] == ["PL306"]


def test_a_buffer_of_a_file_not_saved_yet_is_part_of_its_folder(tmp_path):
    root = write_repo(tmp_path / "repo", {}, VALID)
    project = Project(root)
    third = "experiments/lb/exp-1/test/attempt-3.yaml"
    assert project.lint([SUMMARY])[SUMMARY] == []
    project.set_buffer(third, (root / ATTEMPT).read_text().replace("50.0", "20.0"))
    assert [f.code for f in project.lint([third])[third]] == ["PL302"]
    project.set_buffer(SUMMARY, (root / SUMMARY).read_text().replace("n_attempt: 2", "n_attempt: 3"))
    found = project.lint([SUMMARY, third])
    assert found[third] == []
    # the mean and deviation of 50, 50 and 20
    assert [(f.code, f.line) for f in found[SUMMARY]] == [("PL303", 2), ("PL303", 3)]
    project.drop_buffer(third)
    assert "PL303" not in [f.code for f in project.lint([SUMMARY])[SUMMARY]]


@pytest.mark.parametrize("text, finding, expected", [
    ("a: 1\n", (1, 4, 1, 5), ((0, 3), (0, 4))),
    # a byte-order mark is in the editor's text, not in the loader's columns
    ("\ufeffa: 1\n", (1, 4, 1, 5), ((0, 4), (0, 5))),
    ("x: '\U0001F427'\ny: \U0001F427 z\n", (2, 6, 2, 7), ((1, 6), (1, 7))),
    ("a: 1\r\nb: 2\r\n", (2, 1, None, None), ((1, 0), (1, 4))),  # no end: to the end of the line
    ("a: 1\n", (None, None, None, None), ((0, 0), (0, 4))),  # no line: the first line
])
def test_finding_positions_become_lsp_positions(text, finding, expected):
    assert TextMap(text).range(*finding) == expected


def test_positions_in_utf8_and_utf32():
    text = "\ufeffk: '\u00e9\U0001F427' x\n"
    assert TextMap(text, "utf-8").position(1, 7) == (0, 3 + len("k: '\u00e9\U0001F427".encode("utf-8")))
    assert TextMap(text, "utf-32").position(1, 7) == (0, 1 + 6)


def test_without_pygls_the_command_says_what_to_install(monkeypatch):
    import sys

    monkeypatch.delitem(sys.modules, "penguin_lint.lsp.server", raising=False)
    monkeypatch.setitem(sys.modules, "pygls.lsp.server", None)  # not installed
    r = lint(None, "lsp")
    assert r.code == 2
    assert r.stderr.startswith("penguin-lint: error: the language server needs pygls 2 "
                               "(pip install 'penguin-lint[lsp]')")


def _boards_with_big_summaries(root: Path, n: int, metrics: int) -> list:
    """``n`` leaderboards, each on one experiment whose summary is valid and
    big (``metrics`` extra numeric metrics), all older than a coarse clock's doubt."""
    files = dict(VALID)
    summary = "n_attempt: 2\nscore_mean: 50.0\nscore_std: 0.0\n" + "".join(
        f"metric_{i:07d}: {i}.5\n" for i in range(metrics))
    boards = []
    for k in range(n):
        lb, exp = f"lb{k}", f"exp-{k}"
        for rel, text in VALID.items():
            if rel.startswith(("leaderboards/lb/", "experiments/lb/")):
                files[rel.replace("/lb/", f"/{lb}/").replace("exp-1", exp)] = \
                    text.replace("leaderboard_id: lb", f"leaderboard_id: {lb}").replace("exp-1", exp)
        files[f"experiments/{lb}/{exp}/test/summary.yaml"] = summary
        boards.append(f"leaderboards/{lb}/leaderboard.yaml")
    write_repo(root, files, None)
    hour_ago = time.time() - 3600
    for p in [root, *root.rglob("*")]:
        os.utime(p, (hour_ago, hour_ago))
    return boards


def test_documents_kept_for_closed_files_stay_within_a_byte_budget(tmp_path, monkeypatch):
    """Leaderboards opened and closed in turn, each reading a big valid
    summary from disk: what the server keeps is bounded in bytes (the least
    recently used documents go), so its memory stays flat instead of
    growing by a parsed summary per leaderboard opened."""
    import tracemalloc

    from penguin_lint.lsp import overlay

    root = tmp_path / "repo"
    boards = _boards_with_big_summaries(root, 6, 6_000)
    size = (root / "experiments/lb0/exp-0/test/summary.yaml").stat().st_size
    # room for one summary (raising=False: before the budget, nothing bounded what was kept)
    monkeypatch.setattr(overlay, "MAX_KEPT_BYTES", size + size // 2, raising=False)
    project = Project(root)
    tracemalloc.start()
    try:
        retained = []
        for board in boards:
            project.set_buffer(board, (root / board).read_text())
            assert project.lint([board])[board] == []
            project.drop_buffer(board)
            project.repo.refresh()  # as the server's close does
            retained.append(tracemalloc.get_traced_memory()[0])
    finally:
        tracemalloc.stop()
    # a parsed summary takes some 500 KB: five more kept would be 2.5 MB more
    assert retained[-1] - retained[1] < 256 * 1024, retained
    assert 0 < project.repo.kept_bytes <= overlay.MAX_KEPT_BYTES
    kept = project.repo._kept
    assert not any(rel in kept for rel in boards)  # closed buffers are forgotten
    assert [rel for rel in kept if rel.endswith("summary.yaml")] == ["experiments/lb5/exp-5/test/summary.yaml"]
    # a document kept is still reused while its file is unchanged
    parsed = project.repo.parsed
    project.set_buffer(boards[-1], (root / boards[-1]).read_text())
    project.lint([boards[-1]])
    assert project.repo.parsed - parsed == 1  # the buffer only


def test_a_malformed_notification_is_one_short_log_line_saying_what_was_wrong(tmp_path):
    """A number over 2^31-1 or ``params: null`` logged a flattened
    exception group traceback of several KB a message; now one line each,
    and the server goes on serving."""
    root = write_repo(tmp_path / "repo", {}, VALID)
    client = LspClient(root)
    try:
        client.initialize(root)
        uri = uri_of(root / SUMMARY)
        client.notify("textDocument/didOpen", {"textDocument": {
            "uri": uri, "languageId": "yaml", "version": 2 ** 31, "text": "n_attempt: 1\n"}})
        client.notify("textDocument/didChange", None)
        client.notify("textDocument/didClose", {"textDocument": {"\x1b[31m": 1}})
        _open(client, root, SUMMARY, "n_attempt: 2\nscore_mean: 50.0\n")
        assert [d["code"] for d in client.wait_diagnostics(uri, 1)["diagnostics"]] == ["PL101"]
        assert client.close() == 0
    finally:
        if client.proc.poll() is None:
            client.proc.kill()
    lines = b"".join(client.stderr).decode("utf-8").splitlines()
    prefix = "penguin-lint lsp: error: ignored a malformed textDocument/"
    assert lines == [
        prefix + "didOpen notification: TextDocumentItem.version should be in range "
                 "[-2147483648:2147483647], but was 2147483648. @ $.params.textDocument",
        prefix + "didChange notification: its params are null",
        prefix + "didClose notification: required field missing @ $.params.textDocument.uri",
    ], lines


def test_the_server_starts_without_what_only_requests_need():
    # completion, definitions and hover (the preview's numbers) are imported on
    # their first request: an open file's first diagnostics do not wait for them
    code = ("import sys, penguin_lint.lsp.server as s; s.make_server(); "
            "print(sorted(m for m in sys.modules if m.startswith(('penguin_lint.preview', "
            "'penguin_lint.lsp.hover', 'penguin_lint.lsp.completion', 'penguin_lint.lsp.definition', "
            "'penguin_lint.lsp.knowledge', 'penguin_lint.engine.merge'))))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out == "[]\n"
