"""Shared test helpers: build a repository from a dict, run the linter."""
from __future__ import annotations

import json
import os
import shutil
import textwrap
from pathlib import Path
from typing import Dict, List, Optional

import pytest
from click.testing import CliRunner
from hypothesis import settings

from penguin_lint.cli import main

# In CI the property tests draw the same examples on every run, so a red check
# is the change's, never the draw's; developers' runs keep exploring (and the
# fuzz campaigns, python -m tests.fuzz, explore at length).
settings.register_profile("ci", derandomize=True)
if os.environ.get("CI"):
    settings.load_profile("ci")

# A minimal valid repository: one benchmark with one task, one leaderboard
# with one experiment of two attempts. Tests copy it and break one thing.
VALID: Dict[str, str] = {
    "packages/bench-a/benchmark_config.toml": """\
        id = "bench-a"
        title = "Bench A"
        description = "A benchmark."
        version = "1.0.0"
        last_update = "2026-10-29T12:00:00Z"
        status = "draft"

        [author]
        name = "Lab"
        """,
    "packages/bench-a/CASE-001-one/task_config.toml": """\
        id = "CASE-001-one"
        title = "One"
        description = "The first task."
        """,
    "packages/bench-a/CASE-001-one/statement/README.md": "# One\n",
    "packages/bench-a/CASE-001-one/rubric/README.md": "# Rubric\n",
    "leaderboards/lb/leaderboard.yaml": """\
        leaderboard_id: lb
        status: draft
        title: LB
        author:
          name: Lab
        values:
          - experiment_id: exp-1
            phase: test
        """,
    "experiments/lb/exp-1/meta_info.yaml": """\
        experiment_id: exp-1
        benchmark_id: bench-a
        harness_name: h
        model_name: m
        algorithm: baseline
        """,
    "experiments/lb/exp-1/test/summary.yaml": """\
        n_attempt: 2
        score_mean: 50.0
        score_std: 0.0
        """,
    "experiments/lb/exp-1/test/attempt-1.yaml": """\
        score: 50.0
        results:
          - source: CASE-001-one
            score: 50.0
        """,
    "experiments/lb/exp-1/test/attempt-2.yaml": """\
        score: 50.0
        results:
          - source: CASE-001-one
            score: 50.0
        """,
}


def git(cwd: Path, *args: str) -> str:
    """A git command that must succeed; its standard output."""
    import subprocess

    proc = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True)
    assert proc.returncode == 0, f"git {' '.join(args)}: {proc.stderr}"
    return proc.stdout


def write_repo(root: Path, files: Dict[str, Optional[str]], base: Optional[Dict[str, str]] = None) -> Path:
    """Write ``base`` updated with ``files`` under ``root``; a None value
    removes that file from ``base``. Text is dedented; bytes are written raw."""
    if root.exists():  # a fixture called twice in one test starts afresh
        shutil.rmtree(root)
    merged: Dict[str, object] = dict(base or {})
    for k, v in files.items():
        if v is None:
            merged.pop(k, None)
        else:
            merged[k] = v
    for rel, content in merged.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            p.write_bytes(content)
        else:
            p.write_text(textwrap.dedent(content), encoding="utf-8")
    return root


class LintRun:
    def __init__(self, code: int, output: str, stderr: str):
        self.code = code
        self.output = output
        self.stderr = stderr
        self._json = None

    @property
    def json(self):
        if self._json is None:
            self._json = json.loads(self.output)
        return self._json

    @property
    def findings(self) -> List[dict]:
        return self.json["findings"]

    def codes(self) -> List[str]:
        return [f["code"] for f in self.findings]

    def at(self, code: str) -> List[tuple]:
        """(path, line) of every finding with ``code``."""
        return [(f["path"], f["line"]) for f in self.findings if f["code"] == code]


def lint(root: Path, *args: str, fmt: str = "json") -> LintRun:
    """Run the command in-process, as a user would type it."""
    try:  # click < 8.2 mixes stderr into stdout unless told not to
        runner = CliRunner(mix_stderr=False)
    except TypeError:
        runner = CliRunner()
    argv = ["--root", str(root), "--format", fmt, *args]
    if root is None or (args and args[0] == "rules"):
        argv = list(args)
    result = runner.invoke(_entry, argv, catch_exceptions=False)
    return LintRun(result.exit_code, result.stdout, result.stderr if hasattr(result, "stderr") else "")


import click  # noqa: E402


@click.command(context_settings={"ignore_unknown_options": True, "allow_extra_args": True})
@click.pass_context
def _entry(ctx):
    main(ctx.args)


@pytest.fixture(autouse=True)
def no_github_pull_request(monkeypatch):
    """The suite may itself run in a pull request's workflow, where --all
    would read the base's configuration on its own (pipeline.pull_request_base),
    rule links would point into the Action that runs it (address.py), and the
    hook's advice would name pre-commit's command (PRE_COMMIT)."""
    for name in ("GITHUB_EVENT_NAME", "GITHUB_BASE_REF", "GITHUB_WORKSPACE", "GITHUB_ACTION_REPOSITORY",
                 "GITHUB_ACTION_REF", "GITHUB_ACTION_PATH", "PRE_COMMIT"):
        monkeypatch.delenv(name, raising=False)


@pytest.fixture
def repo(tmp_path):
    """A function that writes VALID plus overrides and returns the root."""
    def make(files: Optional[Dict[str, Optional[str]]] = None, base: Optional[Dict[str, str]] = VALID):
        return write_repo(tmp_path / "repo", files or {}, base)
    return make


@pytest.fixture
def git_env(monkeypatch, tmp_path):
    """Commits need an identity; the user's own git configuration stays out."""
    for k, v in {"GIT_AUTHOR_NAME": "T", "GIT_AUTHOR_EMAIL": "t@example.com",
                 "GIT_COMMITTER_NAME": "T", "GIT_COMMITTER_EMAIL": "t@example.com",
                 "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": str(tmp_path / "gitconfig")}.items():
        monkeypatch.setenv(k, v)
    (tmp_path / "gitconfig").write_text("[init]\n\tdefaultBranch = main\n[protocol \"file\"]\n\tallow = always\n")


@pytest.fixture
def git_calls(tmp_path, monkeypatch):
    """The git commands started from now on, logged by a stand-in first on
    PATH; call the fixture's value to read them, one line of arguments each."""
    import os

    real = shutil.which("git")
    shim = tmp_path / "git-shim"
    shim.mkdir()
    log = tmp_path / "git-calls.log"
    (shim / "git").write_text(f'#!/bin/sh\necho "$*" >> "{log}"\nexec "{real}" "$@"\n')
    (shim / "git").chmod(0o755)
    monkeypatch.setenv("PATH", f"{shim}{os.pathsep}{os.environ['PATH']}")

    def calls() -> List[str]:
        return log.read_text().splitlines() if log.exists() else []
    return calls


def cloned_pull_request(tmp_path: Path, base_files: Optional[Dict[str, str]] = None):
    """(workspace, write) as a pull request's checkout: an origin whose main
    holds VALID plus ``base_files``, cloned, on branch pr; ``write(changes)``
    commits changes there (needs the git_env or git_identity fixture)."""
    import subprocess

    def git(cwd, *args):
        proc = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True)
        assert proc.returncode == 0, f"git {' '.join(args)}: {proc.stderr}"

    upstream = write_repo(tmp_path / "upstream", dict(VALID, **(base_files or {})))
    git(upstream, "init", "-q", "-b", "main")
    git(upstream, "add", "-A")
    git(upstream, "commit", "-q", "-m", "base")
    ws = tmp_path / "ws"
    git(tmp_path, "clone", "-q", str(upstream), str(ws))
    git(ws, "checkout", "-q", "-b", "pr")

    def write(changes, message="change"):
        for rel, text in changes.items():
            (ws / rel).parent.mkdir(parents=True, exist_ok=True)
            (ws / rel).write_text(textwrap.dedent(text))
        git(ws, "add", "-A")
        git(ws, "commit", "-q", "-m", message)
    return ws, write


def pull_request_repo(root: Path) -> Path:
    """``root`` as a git repository: its files committed on main, and a
    branch feature checked out on top (needs the git_env fixture)."""
    import subprocess

    for args in (["init", "-q", "-b", "main"], ["add", "-A"], ["commit", "-q", "-m", "base"],
                 ["checkout", "-q", "-b", "feature"]):
        proc = subprocess.run(["git", *args], cwd=root, capture_output=True, text=True)
        assert proc.returncode == 0, f"git {' '.join(args)}: {proc.stderr}"
    return root


def repo_with_a_failing_rule(tmp_path: Path, monkeypatch) -> Path:
    """Thirty packages (enough units for worker processes), and PL201 made to
    fail on one of them (packages/b17): what a bug in a rule looks like."""
    from penguin_lint.rules import get_rule

    bench = "packages/bench-a/benchmark_config.toml"
    files = dict(VALID)
    for i in range(30):
        files[f"packages/b{i}/benchmark_config.toml"] = VALID[bench].replace("bench-a", f"b{i}")
    root = write_repo(tmp_path / "r", files)

    def broken(self, subject, ctx):
        if subject.path.endswith("b17/benchmark_config.toml"):
            raise ZeroDivisionError("boom")
        return iter(())

    rule = get_rule("PL201")
    monkeypatch.setattr(rule, "check", broken.__get__(rule.load()))
    return root
