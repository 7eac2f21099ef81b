"""Each concept in its room: the engine runs no git, and output safety sits
below both the reporters and GitHub."""
from __future__ import annotations

import ast
import subprocess
from pathlib import Path

from penguin_lint.core.config import Config
from penguin_lint.core.repo import Repository
from penguin_lint.engine.runner import Engine, enabled_rules
from tests.conftest import VALID, write_repo

PACKAGE = Path(__file__).resolve().parents[2] / "penguin_lint"
SUB = "packages/bench-a/CASE-003-sub"


def _imported(folder: str):
    """(module file, imported name) for every import under ``folder``,
    wherever it is written."""
    for path in sorted((PACKAGE / folder).rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                yield path.name, node.module
                yield from ((path.name, f"{node.module}.{a.name}") for a in node.names)
            elif isinstance(node, ast.Import):
                yield from ((path.name, a.name) for a in node.names)


def test_the_engine_imports_nothing_that_runs_git():
    bad = [(m, i) for m, i in _imported("engine")
           if i.split(".")[0] == "subprocess" or i.startswith(("penguin_lint.pr.git", "penguin_lint.pr.worktree"))]
    assert bad == []


class _Told:
    """What git said, as the engine is handed it, with the questions noted."""

    def __init__(self, links, work_tree=True):
        self.links, self.work_tree, self.asked = set(links), work_tree, []

    def in_work_tree(self):
        return self.work_tree

    def among(self, roots, must_know, memo_dir=None):
        self.asked.append((tuple(roots), must_know))
        return set(self.links)


def _engine(root):
    config = Config()
    return Engine(Repository(root, config), config, enabled_rules(config))


def test_run_all_reports_the_gitlinks_it_is_told_of(tmp_path):
    root = write_repo(tmp_path / "r", dict(VALID))
    (root / SUB).mkdir()  # what actions/checkout leaves of a submodule
    told = _Told({SUB})
    result = _engine(root).run_all(jobs=1, gitlinks=told)
    assert [(f.path, f.line) for f in result.findings if f.code == "PL007"] == [(SUB, None)]
    assert told.asked and told.asked[0][1] is True  # an empty folder: git must answer
    # outside a work tree it is not asked which folders are gitlinks
    outside = _Told({SUB}, work_tree=False)
    result = _engine(root).run_all(jobs=1, gitlinks=outside)
    assert [f for f in result.findings if f.code == "PL007"] == [] and outside.asked == []


def test_run_all_runs_no_git_when_told_nothing(tmp_path, monkeypatch):
    root = write_repo(tmp_path / "r", dict(VALID))
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    (root / SUB).mkdir()
    calls = []

    def no_git(*args, **kwargs):  # pragma: no cover - reached only on a regression
        calls.append(args)
        raise AssertionError("the engine ran a process")

    monkeypatch.setattr(subprocess, "Popen", no_git)
    monkeypatch.setattr(subprocess, "run", no_git)
    result = _engine(root).run_all(jobs=1)
    assert calls == [] and [f for f in result.findings if f.code == "PL007"] == []
