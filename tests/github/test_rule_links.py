"""Rule links point at the copy of penguin-lint in use (issue 30): the Action's
repository at its ref, the commit pip installed from git, else the page shipped
in the package; no output carries the README's ``<owner>`` placeholder."""
from __future__ import annotations

import json
import subprocess
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

from penguin_lint import address
from penguin_lint.github import summary as step_summary
from tests.actionstep import PROJECT
from tests.conftest import VALID, lint, write_repo
from tests.github.test_action import TASK, git_identity, pull_request, runner  # noqa: F401
from tests.lsp_client import LspClient, uri_of

EXAMPLES = PROJECT / "examples"
PLACEHOLDERS = ("<owner>", "%3Cowner%3E", "<commit-sha>", "%3Ccommit-sha%3E")
SHA = "0123456789abcdef0123456789abcdef01234567"


def _clean(text: str, where: str) -> None:
    for word in PLACEHOLDERS:
        assert word not in text, f"{where} carries {word}"


def test_the_actions_summary_and_sarif_link_into_the_actions_repository_at_its_ref(tmp_path):
    ws, write = pull_request(tmp_path)
    write({TASK: 'id = "CASE-001-one"\ntitle = "One"\n'})
    env = {"GITHUB_ACTION_REPOSITORY": "penguins/penguin-lint", "GITHUB_ACTION_REF": "v1.2"}
    run = runner(ws, tmp_path, inputs={"sarif": "out.sarif"}).lint(extra_env=env)
    assert run.code == 1, run.stderr
    page = "https://github.com/penguins/penguin-lint/blob/v1.2/docs/rules/PL101.md"
    assert f"| [PL101]({page}) missing-field |" in run.summary
    rules = json.loads((ws / "out.sarif").read_text())["runs"][0]["tool"]["driver"]["rules"]
    assert {r["id"]: r["helpUri"] for r in rules}["PL101"] == page
    _clean(run.summary + run.stdout + (ws / "out.sarif").read_text(), "the Action")


def test_a_composite_step_without_the_repository_reads_it_from_the_actions_folder(tmp_path):
    ws, write = pull_request(tmp_path)
    write({TASK: 'id = "CASE-001-one"\ntitle = "One"\n'})
    env = {"GITHUB_ACTION_PATH": f"/home/runner/work/_actions/penguins/penguin-lint/{SHA}"}
    run = runner(ws, tmp_path).lint(extra_env=env)
    page = f"https://github.com/penguins/penguin-lint/blob/{SHA}/docs/rules/PL101.md"
    assert f"| [PL101]({page}) missing-field |" in run.summary, run.summary


@pytest.mark.parametrize("env", [
    {"GITHUB_ACTION_REPOSITORY": "a/b", "GITHUB_ACTION_REF": "../../evil"},
    {"GITHUB_ACTION_REPOSITORY": "a/b c", "GITHUB_ACTION_REF": "v1"},
    {"GITHUB_ACTION_PATH": "/home/runner/work/_actions/a/b/x)](javascript:alert(1)"},
    {"GITHUB_ACTION_PATH": "/home/runner/work/my-repo/my-repo"},
    {"GITHUB_ACTION_REPOSITORY": "a/b", "GITHUB_ACTION_REF": "v1", "GITHUB_SERVER_URL": "javascript:x"},
])
def test_what_is_not_a_plain_repository_and_ref_falls_back_to_the_shipped_page(env):
    assert address.action_base(env) is None
    url = address.rule_docs("PL303", env=env)
    assert url.startswith("file:") and Path(unquote(urlsplit(url).path)).is_file()


class _Dist:
    def __init__(self, record):
        self.record = record

    def read_text(self, name):
        return json.dumps(self.record) if name == "direct_url.json" else None


@pytest.mark.parametrize("record, base", [
    ({"url": "https://github.com/penguins/penguin-lint.git", "vcs_info": {"vcs": "git", "commit_id": SHA}},
     f"https://github.com/penguins/penguin-lint/blob/{SHA}"),
    ({"url": "ssh://git@github.com/penguins/penguin-lint.git", "vcs_info": {"vcs": "git", "commit_id": SHA}},
     f"https://github.com/penguins/penguin-lint/blob/{SHA}"),
    ({"url": "file:///src/penguin-lint", "dir_info": {"editable": True}}, None),
    ({"url": "https://example.com/x/penguin-lint.git", "vcs_info": {"vcs": "git", "commit_id": SHA}}, None),
    ({"url": "https://github.com/a/b.git", "vcs_info": {"vcs": "git", "commit_id": "<commit-sha>"}}, None),
])
def test_a_copy_installed_from_git_links_to_the_commit_pip_recorded(monkeypatch, record, base):
    import importlib.metadata

    monkeypatch.setattr(importlib.metadata, "distribution", lambda name: _Dist(record))
    address.installed_base.cache_clear()
    try:
        assert address.installed_base() == base
        if base:
            assert address.rule_docs("PL303", env={}) == f"{base}/docs/rules/PL303.md"
    finally:
        address.installed_base.cache_clear()


def test_the_shipped_page_is_package_data():
    project = (PROJECT / "pyproject.toml").read_text(encoding="utf-8")
    assert '"penguin_lint.rule_pages" = "docs/rules"' in project and '"penguin_lint.rule_pages" = ["*.md"]' in project
    url = address.rule_docs("PL303", env={})
    assert Path(unquote(urlsplit(url).path)).read_text(encoding="utf-8").startswith("# PL303 summary-mismatch")


def test_no_output_of_any_command_or_format_carries_a_placeholder(tmp_path):
    repo = tmp_path / "repo"
    subprocess.run(["cp", "-r", str(EXAMPLES / "repo"), str(repo)], check=True)
    for fmt in ("text", "json", "github", "sarif"):
        for args in (("--all", "--no-cache"), ("--all", "--no-cache", "--statistics"), ("packages",)):
            if "--statistics" in args and fmt not in ("text", "json"):
                continue
            run = lint(repo, *args, fmt=fmt)
            assert run.code in (0, 1), (fmt, args, run.stderr)
            _clean(run.output + run.stderr, f"--format {fmt} {' '.join(args)}")
    for args in (("rules",), ("rules", "--format", "json"), ("rules", "PL303"), ("--version",)):
        run = lint(None, *args)
        assert run.code == 0
        _clean(run.output, " ".join(args))
    for fmt in ("text", "markdown", "json"):
        run = lint(repo, "preview", "--format", fmt)
        _clean(run.output + run.stderr, f"preview --format {fmt}")
    for path in sorted((PROJECT / "schemas").glob("*.json")):
        schema = json.loads(path.read_text(encoding="utf-8"))
        assert schema["$id"] == address.SCHEMA_ID_PREFIX + path.name
        _clean(path.read_text(encoding="utf-8"), path.name)
    assert lint(None, "schemas", "--write", str(tmp_path / "schemas")).code == 0
    for path in (tmp_path / "schemas").rglob("*"):
        if path.is_file():
            _clean(path.read_text(encoding="utf-8"), f"schemas --write: {path.name}")
    md = step_summary.render(*_result(repo))
    assert "[PL" in md
    _clean(md, "the job summary")


def _result(repo):
    from penguin_lint.api import lint as api_lint
    from penguin_lint.engine.runner import Result

    findings = list(api_lint(repo, cache=False).findings)
    return Result(findings, 1), findings


def test_the_language_servers_code_description_links_the_shipped_page(tmp_path):
    root = write_repo(tmp_path / "repo", {}, VALID)
    client = LspClient(root)
    try:
        client.initialize(root)
        uri = uri_of(root / "experiments/lb/exp-1/test/attempt-1.yaml")
        client.notify("textDocument/didOpen", {"textDocument": {
            "uri": uri, "languageId": "yaml", "version": 1, "text": 'score: 50.0\nresults:\n  - {score: "x"}\n'}})
        diags = client.wait_diagnostics(uri, 1)["diagnostics"]
        assert diags
        for d in diags:
            href = d["codeDescription"]["href"]
            _clean(href, "codeDescription")
            assert href.startswith("file:") and Path(unquote(urlsplit(href).path)).is_file()
    finally:
        client.close()
