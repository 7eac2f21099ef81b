"""Harbor boards kept as real repositories keep them: one rows file per
submission under the board's ``leaderboard/`` folder (``entries/<run>.yaml``),
found by ``--all``, diff runs and the language server, each file one request."""
import shutil
from pathlib import Path

from tests.conftest import git, lint
from tests.lsp_client import LspClient, uri_of

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples/harbor/entries"
ENTRIES = sorted(p.name for p in (EXAMPLE / "leaderboard/entries").iterdir())
DEF = "leaderboard/leaderboard.yaml"


def _copy(tmp_path) -> Path:
    root = tmp_path / "repo"
    shutil.copytree(EXAMPLE, root)
    return root


def _spoil(root: Path, name: str) -> None:
    # the accuracy written as a string: a PL605 on line 15 of every entry
    path = root / "leaderboard/entries" / name
    text = path.read_text(encoding="utf-8")
    before = text.splitlines()[14]
    assert before.startswith("      accuracy: "), before
    path.write_text(text.replace(before, before.replace(": ", ': "', 1) + '"', 1), encoding="utf-8")


def test_the_example_is_clean_and_every_entry_is_checked():
    run = lint(EXAMPLE, "--all", "--no-cache", fmt="text")
    assert run.code == 0 and len(ENTRIES) == 4
    assert "(5 files checked)" in run.output


def test_all_finds_every_rows_file_of_the_board_in_its_subfolders(tmp_path):
    root = _copy(tmp_path)
    for name in ENTRIES:
        _spoil(root, name)
    # deeper still, JSON, and a file under the board that is not rows (a
    # script's input): it is not Harbor's, so not checked
    (root / "leaderboard/entries/2026-09").mkdir()
    (root / "leaderboard/entries/2026-09/late.json").write_text(
        '{"rows": [{"metadata": {}, "metrics": {"accuracy": "12"}}]}\n', encoding="utf-8")
    (root / "leaderboard/submissions").mkdir()
    (root / "leaderboard/submissions/run.json").write_text(
        '{"source_jobs": [], "metadata": {"agent_display": 1}, "metrics": null}\n', encoding="utf-8")
    run = lint(root, "--all", "--no-cache")
    found = {(f["path"], f["line"]) for f in run.findings if f["code"] == "PL605"
             and "'metrics.accuracy' must be a number" in f["message"]}
    assert found == {(f"leaderboard/entries/{n}", 15) for n in ENTRIES} | {
        ("leaderboard/entries/2026-09/late.json", 1)}
    assert not any(f["path"].startswith("leaderboard/submissions/") for f in run.findings)
    assert run.code == 1


def test_each_file_is_one_request_so_a_trial_repeats_only_within_a_file(tmp_path):
    root = _copy(tmp_path)
    a, b = (root / "leaderboard/entries" / n for n in ENTRIES[:2])
    trial = a.read_text(encoding="utf-8").splitlines()[21]
    assert trial.startswith("      - ")
    # the same trial in a second file: two requests, Harbor takes both
    b.write_text(b.read_text(encoding="utf-8") + trial + "\n", encoding="utf-8")
    assert [f["code"] for f in lint(root, "--all", "--no-cache").findings] == []
    # twice in one file: one request, refused
    a.write_text(a.read_text(encoding="utf-8") + trial + "\n", encoding="utf-8")
    run = lint(root, "--all", "--no-cache")
    assert [(f["code"], f["path"]) for f in run.findings] == [("PL606", f"leaderboard/entries/{ENTRIES[0]}")]


def test_a_diff_run_checks_an_added_entry_and_a_definition_change_rechecks_every_entry(tmp_path, git_env):
    root = _copy(tmp_path)
    git(root, "init", "-q")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "board")
    # a pull request adding one submission, spoilt
    added = root / "leaderboard/entries/2026-09-01__aider__Qwen4-Coder.yaml"
    shutil.copy(root / "leaderboard/entries" / ENTRIES[0], added)
    _spoil(root, added.name)
    (root / "leaderboard/notes.json").write_text('{"owner": "acme"}\n', encoding="utf-8")
    run = lint(root, "--diff-base", "HEAD", fmt="text")
    assert f"leaderboard/entries/{added.name}:15:" in run.output and "PL605" in run.output
    assert "not checked, no file the harness reads: leaderboard/notes.json" in run.output
    assert run.code == 1
    git(root, "add", "-A")
    git(root, "commit", "-qm", "entry")
    # a change to the definition alone: every entry is read again
    definition = root / DEF
    text = definition.read_text(encoding="utf-8")
    definition.write_text(text.replace("    reasoning_effort:\n      type: string\n",
                                       "    reasoning_effort:\n      enum: [low, medium]\n"), encoding="utf-8")
    run = lint(root, "--diff-base", "HEAD")
    effort = {f["path"] for f in run.findings if "reasoning_effort" in f["message"]}
    assert effort == {f"leaderboard/entries/{n}" for n in ENTRIES if "codex" not in n} | {
        f"leaderboard/entries/{added.name}"}


def test_the_language_server_lints_an_open_entry_against_its_board(tmp_path):
    root = _copy(tmp_path)
    rel = f"leaderboard/entries/{ENTRIES[1]}"
    text = (root / rel).read_text(encoding="utf-8").replace("n_trials: 140", "n_trials: 0")
    client = LspClient(root)
    try:
        client.initialize(root)
        uri = uri_of(root / rel)
        client.notify("textDocument/didOpen", {"textDocument": {
            "uri": uri, "languageId": "yaml", "version": 1, "text": text}})
        diags = client.wait_diagnostics(uri, 1)["diagnostics"]
        assert [(d["code"], d["range"]["start"]["line"]) for d in diags] == [("PL605", 18)]
        assert "metrics.n_trials" in diags[0]["message"] and DEF in diags[0]["message"]
    finally:
        client.close()


def test_rows_that_come_through_a_merge_key_or_an_alias_and_an_upper_case_extension_are_checked(tmp_path):
    """Harbor reads a rows file with yaml.safe_load: ``<<: {rows: ...}`` and a
    key that is an alias of "rows" are rows as much as ``rows:`` itself, and
    a ``.YAML`` file is read as YAML. Each is checked against the board."""
    import yaml

    root = _copy(tmp_path)
    entries = root / "leaderboard/entries"
    first = (entries / ENTRIES[0]).read_text(encoding="utf-8")
    body = first.split("rows:\n", 1)[1].replace("      accuracy: 32.9\n", '      accuracy: "32.9"\n')
    indented = "".join("  " + ln if ln.strip() else ln for ln in body.splitlines(keepends=True))
    texts = {
        "merged.yaml": "<<:\n  rows:\n" + indented,
        "aliased.yaml": "name: &k rows\n*k :\n" + body,
        "upper.YAML": "rows:\n" + body,
    }
    for name, text in texts.items():
        assert list(yaml.safe_load(text)) in (["rows"], ["name", "rows"]), name  # as Harbor reads it
        (entries / name).write_text(text, encoding="utf-8")
    run = lint(root, "--all", "--no-cache")
    wrong = {f["path"] for f in run.findings if f["code"] == "PL605" and "'metrics.accuracy' must be a number"
             in f["message"]}
    assert wrong == {"leaderboard/entries/merged.yaml", "leaderboard/entries/upper.YAML"}, run.findings
    # a key that is an alias is no key penguin-lint reads: the file is checked as rows, and says so
    assert [(f["line"], f["message"]) for f in run.findings if f["path"] == "leaderboard/entries/aliased.yaml"
            and f["code"] == "PL001"] == [(2, "a mapping key must be a plain value")], run.findings
    assert run.code == 1


PERMISSIVE = "dataset: acme/sql-repair\nname: main\ntitle: Decoy\nmetadata_schema: {type: object}\nmetrics_schema: {type: object}\n"


def test_a_definition_put_beside_rows_in_entries_does_not_judge_them(tmp_path):
    """The rows of a board are the board's: a permissive leaderboard.yaml that
    a change puts in entries/ changes nothing of what they are checked against."""
    root = _copy(tmp_path)
    _spoil(root, ENTRIES[0])
    (root / "leaderboard/entries/leaderboard.yaml").write_text(PERMISSIVE, encoding="utf-8")
    run = lint(root, "--all", "--no-cache")
    mismatch = [f for f in run.findings if f["code"] == "PL605"]
    assert [(f["path"], f["line"]) for f in mismatch] == [(f"leaderboard/entries/{ENTRIES[0]}", 15)], run.findings
    assert mismatch[0]["message"].endswith(f"(metrics_schema of {DEF})")


def test_a_second_definition_beside_the_board_s_is_pl608_in_a_pull_request(tmp_path, git_env):
    root = tmp_path / "repo"
    shutil.copytree(EXAMPLE, root)
    # the board defined in JSON, as ORCA-bench's is
    import json

    import yaml

    definition = yaml.safe_load((root / DEF).read_text(encoding="utf-8"))
    (root / DEF).unlink()
    (root / "leaderboard/leaderboard.json").write_text(json.dumps(definition, indent=2) + "\n", encoding="utf-8")
    git(root, "init", "-q", "-b", "main")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "base")
    assert lint(root, "--all", "--no-cache").code == 0
    git(root, "checkout", "-q", "-b", "pr")
    _spoil(root, ENTRIES[0])
    (root / DEF).write_text(PERMISSIVE, encoding="utf-8")  # would come first by its name
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "decoy")
    run = lint(root, "--diff-base", "main")
    assert run.code == 1
    assert sorted(f["path"] for f in run.findings if f["code"] == "PL608") == [
        "leaderboard/leaderboard.json", DEF], run.findings
    (f,) = [f for f in run.findings if f["code"] == "PL608" and f["path"] == DEF]
    assert f["message"] == ("this board has 2 definitions: leaderboard.yaml and leaderboard.json "
                            "(its rows are checked against leaderboard.yaml; Harbor reads the one --config names)")


def test_entries_of_a_board_whose_definition_a_change_deletes_are_not_counted_as_checked(tmp_path):
    """Without its definition the folder is no board: its entries are rows
    of nothing, which nothing reads. A change that deletes the definition and
    adds an entry checked nothing, and says so."""
    root = _copy(tmp_path)
    git(root, "init", "-q", "-b", "main")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "base")
    git(root, "checkout", "-q", "-b", "pr")
    git(root, "rm", "-q", DEF)
    evil = "leaderboard/entries/2026-09-01__evil.yaml"
    (root / evil).write_text('rows:\n  - metadata: {agent: "x"}\n    metrics: {accuracy: "lots"}\n', encoding="utf-8")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "no definition")
    run = lint(root, "--diff-base", "main")
    s = run.json["summary"]
    assert run.code == 1 and (s["nothing_checked"], s["unchecked"]) == (True, [evil]), run.output


def test_all_on_a_board_without_its_definition_checked_nothing_and_says_so(tmp_path):
    root = _copy(tmp_path)
    (root / DEF).unlink()
    run = lint(root, "--all", "--no-cache", fmt="text")
    assert (run.code, run.output) == (1, "Nothing checked (0 files checked).\n"), run.output
    js = lint(root, "--all", "--no-cache").json["summary"]
    assert (js["files"], js["nothing_checked"]) == (0, True)
