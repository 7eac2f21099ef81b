"""One version for the package, the Action and the hooks: written once (penguin_lint/version.py),
read by pyproject.toml, and held here to what --version prints, what the JSON and SARIF reports
name, CHANGELOG.md's top entry and the pins the docs tell users to write. The artifacts
themselves are built and installed by .ci/release-check."""
from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

try:
    import tomllib
except ImportError:  # Python < 3.11
    import tomli as tomllib

from penguin_lint.version import __version__
from tests.conftest import lint

PROJECT = Path(__file__).resolve().parents[2]
SEMVER = r"(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)"
HEADING = re.compile(rf"^## \[(?P<version>{SEMVER})\] - (?P<date>\d{{4}}-\d{{2}}-\d{{2}}|Unreleased)$", re.M)
SECTIONS = {"Added", "Changed", "Deprecated", "Removed", "Fixed", "Security"}  # Keep a Changelog's


def changelog() -> str:
    return (PROJECT / "CHANGELOG.md").read_text(encoding="utf-8")


def test_the_version_is_written_once_and_pyproject_reads_it():
    project = tomllib.loads((PROJECT / "pyproject.toml").read_text(encoding="utf-8"))
    assert "version" not in project["project"] and project["project"]["dynamic"] == ["version"]
    assert project["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "penguin_lint.version.__version__"}
    assert re.fullmatch(SEMVER, __version__)
    source = (PROJECT / "penguin_lint/version.py").read_text(encoding="utf-8")
    assert len(re.findall(r"^__version__ = ", source, re.M)) == 1  # setuptools reads the literal


def test_the_changelogs_top_entry_is_the_package_version():
    entries = list(HEADING.finditer(changelog()))
    assert entries, "no '## [X.Y.Z] - YYYY-MM-DD' entry"
    assert entries[0]["version"] == __version__
    # newest first, each once; only the top one may be unreleased
    versions = [tuple(int(n) for n in e["version"].split(".")) for e in entries]
    assert versions == sorted(set(versions), reverse=True)
    assert all(e["date"] != "Unreleased" for e in entries[1:])


def test_the_changelog_keeps_the_form():
    text = changelog()
    assert text.startswith("# Changelog\n")
    headings = re.findall(r"^##+ .*$", text, re.M)
    assert all(h.startswith("### ") or HEADING.match(h) for h in headings), headings
    assert {h[4:] for h in headings if h.startswith("### ")} <= SECTIONS
    # every rule code it names is one the package has (a renamed code must be said as such)
    from penguin_lint.rules import rule_codes
    named = set(re.findall(r"\bPL\d{3}\b", text))
    assert named and named <= set(rule_codes())


def test_the_json_and_sarif_reports_name_the_version():
    run = lint(PROJECT / "examples/repo", "--all", "--no-cache")
    assert run.json["tool"] == {"name": "penguin-lint", "version": __version__}
    sarif = json.loads(lint(PROJECT / "examples/repo", "--all", "--no-cache", fmt="sarif").output)
    driver = sarif["runs"][0]["tool"]["driver"]
    assert (driver["name"], driver["version"], driver["semanticVersion"]) == ("penguin-lint", __version__, __version__)


def test_version_prints_the_version_first():
    proc = subprocess.run([sys.executable, "-m", "penguin_lint", "--version"], capture_output=True, text=True,
                          timeout=60)
    assert proc.returncode == 0 and re.fullmatch(
        rf"penguin-lint, version {re.escape(__version__)}( \((checkout, )?commit [0-9a-f]{{12}}\))?\n", proc.stdout)


def test_the_docs_pin_this_release():
    """What the README and docs/ tell a user to write names this release: a tag `vX.Y.Z` (rev:,
    uses:, pip's @), the wheel's name, the cache key, and the JSON example's tool version. A
    bump that forgets one fails here."""
    pages = [PROJECT / "README.md", *sorted((PROJECT / "docs").glob("*.md"))]
    pins = []
    for page in pages:
        text = page.read_text(encoding="utf-8")
        pins += [(page.name, v) for v in re.findall(rf"penguin-lint@(?:<commit-sha> # )?v({SEMVER})", text)]
        pins += [(page.name, v) for v in re.findall(rf"^\s*rev: v({SEMVER})", text, re.M)]
        pins += [(page.name, v) for v in re.findall(rf"penguin_lint-({SEMVER})-py3-none-any\.whl", text)]
        pins += [(page.name, v) for v in re.findall(rf"key: penguin-lint-({SEMVER})-", text)]  # cache.md
        pins += [(page.name, v) for v in re.findall(rf'"tool": {{"name": "penguin-lint", "version": "({SEMVER})"}}', text)]
    pins = [(name, v[0] if isinstance(v, tuple) else v) for name, v in pins]
    assert {"README.md", "pre-commit.md", "github-action.md", "sharding.md", "command-line.md", "cache.md"} <= \
        {name for name, _ in pins}
    assert [p for p in pins if p[1] != __version__] == []
