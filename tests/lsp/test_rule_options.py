"""``penguin-lint lsp --select/--ignore``: the rules an editor's settings
choose (the VS Code extension's ``penguin-lint.select``/``ignore``), taken as
the command line takes them, for open files and the workspace's run alike."""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

from tests.lsp_client import LspClient, uri_of

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "repo"
SUMMARY = "experiments/code-eval/sql-puzzles-baseline-deepseek-flash-1017-20261030/test/summary.yaml"
CONFIG = "packages/sql-puzzles/benchmark_config.toml"


def _open(client: LspClient, root: Path, rel: str) -> str:
    uri = uri_of(root / rel)
    client.notify("textDocument/didOpen", {"textDocument": {
        "uri": uri, "languageId": "toml" if rel.endswith(".toml") else "yaml", "version": 1,
        "text": (root / rel).read_text(encoding="utf-8")}})
    return uri


def _codes(diagnostics) -> list:
    return sorted(d["code"] for d in diagnostics)


def test_select_and_ignore_choose_the_rules_of_open_files_and_of_the_workspace(tmp_path):
    root = tmp_path / "repo"
    shutil.copytree(EXAMPLE, root)
    # codes, prefixes and names, in any case, repeated or joined with commas
    client = LspClient(root, args=["--select", "pl2,PL3", "--ignore=summary-mismatch"])
    try:
        client.initialize(root)
        config = _open(client, root, CONFIG)
        summary = _open(client, root, SUMMARY)
        assert _codes(client.wait_diagnostics(config, 1)["diagnostics"]) == ["PL203"]
        assert client.wait_diagnostics(summary, 1)["diagnostics"] == []
        closed = client.request("workspace/diagnostic", {"previousResultIds": []})
        codes = sorted(d["code"] for i in closed["items"] for d in i["items"])
        # PL104 (not selected) and PL303 (ignored) are nowhere; PL2 and PL3 findings are
        assert codes == ["PL204", "PL205", "PL304"]
    finally:
        client.close()


def test_an_unknown_rule_is_one_error_line_before_the_server_starts(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "penguin_lint", "lsp", "--ignore", "PL3,no-such-rule"],
                          cwd=tmp_path, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and proc.stdout == ""
    lines = proc.stderr.splitlines()
    assert lines == ["penguin-lint: error: unknown rule code or prefix 'no-such-rule' in --ignore "
                     "(see `penguin-lint rules`)"]
