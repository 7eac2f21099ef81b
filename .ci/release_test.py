"""The release's artifacts as their consumers meet them: run by .ci/release-check, which builds
the sdist and the wheel from a clean clone, checks them with twine, and installs the wheel
alone (with its dependencies from the index, not this checkout) into a fresh virtual
environment. Here that install lints the examples, serves the language server and runs the
Action's lint step with the same findings as the checkout.

Not part of the suite (tests/): a build and an install take about 40 s, and they check what
is committed (a clean clone), not the work tree the suite reads.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

PROJECT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(PROJECT))

from penguin_lint.version import __version__  # noqa: E402
from tests.github.test_action import BROKEN_TASK, TASK, git_identity, pull_request, runner  # noqa: E402,F401
from tests.lsp_client import LspClient, uri_of  # noqa: E402

EXAMPLES = ["examples/repo", "examples/clean", "examples/harbor/broken", "examples/harbor/clean"]


def _given(name: str) -> str:
    value = os.environ.get(name)
    assert value, f"{name} is not set: run these through .ci/release-check"
    return value


@pytest.fixture(scope="module")
def dist() -> Path:
    return Path(_given("PENGUIN_LINT_DIST"))


@pytest.fixture(scope="module")
def wheel_python() -> str:
    return _given("PENGUIN_LINT_WHEEL_PYTHON")


def run(python: str, *args: str, cwd: Path, checkout: bool = False) -> subprocess.CompletedProcess:
    """penguin-lint of the wheel's environment (isolated: nothing of the current folder or
    PYTHONPATH is imported), or with ``checkout``, this checkout's code."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PENGUIN_LINT_CACHE_DIR")}
    if checkout:
        code = f"import sys; sys.path.insert(0, {str(PROJECT)!r}); from penguin_lint.cli import main; main()"
        cmd = [python, "-I", "-c", code, *args]
    else:
        cmd = [python, "-I", "-m", "penguin_lint", *args]
    return subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=300)


def tracked(pattern: str) -> list:
    out = subprocess.run(["git", "ls-files", "--", pattern], cwd=PROJECT, capture_output=True, text=True,
                         check=True).stdout
    return sorted(out.split())


def test_the_build_made_one_sdist_and_one_wheel_of_this_version(dist):
    assert sorted(p.name for p in dist.iterdir()) == [
        f"penguin_lint-{__version__}-py3-none-any.whl", f"penguin_lint-{__version__}.tar.gz"]


def test_the_wheel_carries_the_package_its_schemas_and_rule_pages(dist):
    with zipfile.ZipFile(dist / f"penguin_lint-{__version__}-py3-none-any.whl") as whl:
        names = set(whl.namelist())
        metadata = whl.read(f"penguin_lint-{__version__}.dist-info/METADATA").decode()
    modules = [p for p in tracked("penguin_lint/*.py")]
    assert modules and [m for m in modules if m not in names] == []
    schemas = [f"penguin_lint/schemas/{Path(p).name}" for p in tracked("schemas/*.json")]
    pages = [f"penguin_lint/rule_pages/{Path(p).name}" for p in tracked("docs/rules/*.md")]
    assert len(schemas) >= 8 and len(pages) >= 45
    assert [p for p in schemas + pages if p not in names] == []
    assert f"\nVersion: {__version__}\n" in metadata and "\nName: penguin-lint\n" in metadata
    assert "Provides-Extra: lsp" in metadata


def test_the_sdist_holds_what_the_wheel_is_built_from(dist):
    with tarfile.open(dist / f"penguin_lint-{__version__}.tar.gz") as sdist:
        names = {n.split("/", 1)[1] for n in sdist.getnames() if "/" in n}
    wanted = ["pyproject.toml", "README.md", *tracked("penguin_lint/*.py"), *tracked("schemas/*.json"),
              *tracked("docs/rules/*.md")]
    assert [p for p in wanted if p not in names] == []


def test_the_installed_copy_is_the_wheel_and_says_its_version(wheel_python, tmp_path):
    where = subprocess.run([wheel_python, "-I", "-c", "import penguin_lint; print(penguin_lint.__file__)"],
                           cwd=tmp_path, capture_output=True, text=True, check=True).stdout.strip()
    assert "site-packages" in where and not Path(where).is_relative_to(PROJECT)
    got = run(wheel_python, "--version", cwd=tmp_path)
    assert (got.returncode, got.stdout, got.stderr) == (0, f"penguin-lint, version {__version__}\n", "")


@pytest.mark.parametrize("example", EXAMPLES)
def test_the_wheel_lints_each_example_as_the_checkout_does(example, wheel_python, tmp_path):
    copy = tmp_path / "repo"
    shutil.copytree(PROJECT / example, copy)
    reports = []
    for checkout in (False, True):
        for fmt in ("json", "text"):
            got = run(wheel_python, "--all", "--no-cache", "--format", fmt, cwd=copy, checkout=checkout)
            assert got.returncode in (0, 1) and got.stderr == "", got.stderr
            reports.append((got.returncode, got.stdout))
    wheel_json, wheel_text, checkout_json, checkout_text = reports
    assert wheel_json == checkout_json and wheel_text == checkout_text
    doc = json.loads(wheel_json[1])
    assert doc["tool"] == {"name": "penguin-lint", "version": __version__}
    if example == "examples/repo":  # its planted mistakes (VIOLATIONS.md)
        assert (doc["summary"]["errors"], doc["summary"]["warnings"]) == (6, 1)


def test_rule_pages_and_schemas_are_read_from_the_install(wheel_python, tmp_path):
    page = run(wheel_python, "rules", "PL303", cwd=tmp_path).stdout.rstrip("\n").split("\n")[-1]
    assert page.startswith("Documentation: file://") and "site-packages/penguin_lint/rule_pages/PL303.md" in page
    from urllib.parse import unquote, urlsplit
    assert Path(unquote(urlsplit(page.split(" ", 1)[1]).path)).is_file()
    folder = Path(run(wheel_python, "schemas", "--path", cwd=tmp_path).stdout.strip())
    assert sorted(p.name for p in folder.glob("*.json")) == sorted(Path(p).name for p in tracked("schemas/*.json"))


def test_the_language_server_of_the_wheel_publishes_what_all_finds(wheel_python, tmp_path):
    root = tmp_path / "repo"
    shutil.copytree(PROJECT / "examples/repo", root)
    board = root / "leaderboards/code-eval/leaderboard.yaml"
    client = LspClient(root, python=wheel_python, env={k: v for k, v in os.environ.items() if k != "PYTHONPATH"})
    try:
        client.initialize(root)
        client.notify("textDocument/didOpen", {"textDocument": {
            "uri": uri_of(board), "languageId": "yaml", "version": 1, "text": board.read_text()}})
        published = client.wait_diagnostics(uri_of(board), 1)["diagnostics"]
    finally:
        client.close()
    expected = [f for f in json.loads(run(wheel_python, "--all", "--no-cache", "--format", "json", cwd=root).stdout)
                ["findings"] if f["path"] == "leaderboards/code-eval/leaderboard.yaml"]
    assert expected and sorted((d["code"], d["range"]["start"]["line"] + 1) for d in published) == \
        sorted((f["code"], f["line"]) for f in expected)


def test_the_actions_lint_step_runs_the_wheel_as_it_runs_the_checkout(wheel_python, tmp_path, git_identity):
    ws, write = pull_request(tmp_path)
    write({TASK: BROKEN_TASK}, "break a task")
    sarif = "penguin-lint.sarif"
    wheel = runner(ws, tmp_path / "wheel", inputs={"sarif": sarif}).lint(python=wheel_python)
    wheel_sarif = json.loads((ws / sarif).read_text())
    (ws / sarif).unlink()
    ours = runner(ws, tmp_path / "ours", inputs={"sarif": sarif}).lint()
    assert wheel.outputs["status"] == ours.outputs["status"] == "failed"
    assert (wheel.outputs["errors"], wheel.outputs["warnings"]) == (ours.outputs["errors"], ours.outputs["warnings"])
    assert wheel.commands() == ours.commands() and wheel.commands()
    driver = wheel_sarif["runs"][0]["tool"]["driver"]
    assert (driver["version"], driver["semanticVersion"]) == (__version__, __version__)
