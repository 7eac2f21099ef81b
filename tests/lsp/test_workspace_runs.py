"""The whole run behind ``workspace/diagnostic``: forked from the server,
or (where there is no fork) ``penguin-lint --all`` as a process of its own,
both giving the findings of ``--all``."""
from __future__ import annotations

import asyncio
import os
import time

import pytest

from penguin_lint.lsp import workspace
from penguin_lint.lsp.project import Project
from tests.conftest import VALID, write_repo


def _key(findings):
    return sorted((f.code, f.path, f.line, f.column, f.end_line, f.end_column, f.message, f.hint)
                  for f in findings)


def test_forked_and_separate_runs_find_what_all_finds(tmp_path, monkeypatch):
    meta = "experiments/lb/exp-1/meta_info.yaml"
    root = write_repo(tmp_path / "repo", {meta: VALID[meta].replace("bench-a", "bench-x"),
                                          "experiments/lb/exp-1/test/summary.yaml": "n_attempt: 0\n"}, VALID)
    monkeypatch.setenv("PENGUIN_LINT_CACHE_DIR", str(tmp_path / "cache"))
    project = Project(root)
    forked = asyncio.run(workspace._run_forked(project))
    separate = asyncio.run(workspace._run_process(project))
    import penguin_lint

    expected = _key(penguin_lint.lint(root, cache=False).findings)
    assert ("PL307", meta, 2) in [k[:3] for k in expected]
    assert _key(forked) == expected
    assert _key(separate) == expected


def test_a_run_cancelled_ends_its_child(tmp_path, monkeypatch):
    # the server shutting down cancels the run: the forked child is killed and reaped
    root = write_repo(tmp_path / "repo", {}, VALID)
    monkeypatch.setenv("PENGUIN_LINT_CACHE_DIR", str(tmp_path / "cache"))
    children = []
    fork = os.fork

    def slow_fork():
        pid = fork()
        if pid == 0:
            time.sleep(30)  # a long run
        children.append(pid)
        return pid

    monkeypatch.setattr(os, "fork", slow_fork)

    async def go():
        task = asyncio.ensure_future(workspace._run_forked(Project(root)))
        while not children:
            await asyncio.sleep(0.01)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    asyncio.run(go())
    (pid,) = children
    with pytest.raises(ChildProcessError):
        os.waitpid(pid, os.WNOHANG)  # gone, and reaped


def test_a_run_that_cannot_start_is_said_in_the_log(tmp_path, monkeypatch, caplog):
    root = write_repo(tmp_path / "repo", {}, VALID)

    def no_fork():
        raise OSError(11, "Resource temporarily unavailable")

    monkeypatch.setattr(os, "fork", no_fork)
    assert asyncio.run(workspace._run_forked(Project(root))) is None
    assert "penguin-lint --all could not start: [Errno 11] Resource temporarily unavailable" in caplog.text
