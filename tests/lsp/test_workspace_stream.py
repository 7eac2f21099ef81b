"""``workspace/diagnostic`` with a ``partialResultToken`` (as VS Code asks):
the reports go out as ``$/progress`` while the whole run finds them, and
together they are what a pull that waits for the run answers."""
from __future__ import annotations

import asyncio
import shutil
from pathlib import Path

from penguin_lint.lsp import workspace
from penguin_lint.lsp.project import Project
from tests.conftest import VALID, write_repo
from tests.lsp_client import LspClient, uri_of

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "repo"
META = "experiments/lb/exp-1/meta_info.yaml"


def _key(f):
    return (f.code, f.path, f.line, f.column, f.message, f.hint)


def test_a_whole_run_hands_out_its_findings_folder_by_folder(tmp_path, monkeypatch):
    root = tmp_path / "repo"
    shutil.copytree(EXAMPLE, root)
    monkeypatch.setenv("PENGUIN_LINT_CACHE_DIR", str(tmp_path / "cache"))
    parts = []
    final = asyncio.run(workspace._run_forked(Project(root), parts.append))
    import penguin_lint

    assert sorted(map(_key, final)) == sorted(map(_key, penguin_lint.lint(root, cache=False).findings))
    # several parts, each before the end, together every finding (none is held back)
    assert len(parts) >= 2
    assert sorted(_key(f) for p in parts for f in p) == sorted(map(_key, final))
    assert {f.path for p in parts for f in p} == {f.path for f in final}


def test_unused_suppressions_and_a_baseline_come_at_the_end(tmp_path, monkeypatch):
    monkeypatch.setenv("PENGUIN_LINT_CACHE_DIR", str(tmp_path / "cache"))
    # PL008 is known only once the run is over: not in any part, in the result
    suppressed = VALID[META] + "# penguin-lint: disable-file=PL104\n"
    root = write_repo(tmp_path / "repo", {META: suppressed}, VALID)
    parts = []
    final = asyncio.run(workspace._run_forked(Project(root), parts.append))
    assert ("PL008", META) in [(f.code, f.path) for f in final]
    assert "PL008" not in [f.code for p in parts for f in p]
    # with a baseline, which takes findings back at the end, nothing is handed out early
    from penguin_lint.cli import main

    bad = write_repo(tmp_path / "bad", {META: VALID[META].replace("bench-a", "bench-x")}, VALID)

    try:
        main(["--all", "--no-cache", "--write-baseline", "--root", str(bad)])
    except SystemExit:
        pass
    assert (bad / ".penguin-lint-baseline.json").is_file()
    (bad / META).write_text(VALID[META].replace("bench-a", "bench-y"))  # a new finding too
    parts = []
    final = asyncio.run(workspace._run_forked(Project(bad), parts.append))
    assert parts == [] and ("PL307", META) in [(f.code, f.path) for f in final]


def _reports(root: Path, items) -> dict:
    return {Path(i["uri"][len("file://"):]).relative_to(root.resolve()).as_posix():
            sorted((d["code"], d["range"]["start"]["line"]) for d in i["items"]) for i in items}


def test_a_pull_with_a_token_streams_what_a_pull_without_one_answers(tmp_path):
    root = tmp_path / "repo"
    shutil.copytree(EXAMPLE, root)
    client = LspClient(root, env=None)
    try:
        client.initialize(root)
        board = next(root.glob("leaderboards/*/leaderboard.yaml"))
        uri = uri_of(board)
        client.notify("textDocument/didOpen", {"textDocument": {
            "uri": uri, "languageId": "yaml", "version": 1, "text": board.read_text()}})
        client.wait_diagnostics(uri, 1)
        answer = client.request("workspace/diagnostic", {"previousResultIds": [], "partialResultToken": "t1"})
        progress = [n["params"] for n in client.notifications if n.get("method") == "$/progress"]
        # the answer itself is empty: every report came before it, as partial results
        assert answer == {"items": []}
        assert progress and all(p["token"] == "t1" for p in progress)
        streamed = {}
        for p in progress:  # a later report of a file replaces the one before it
            streamed.update(_reports(root, p["value"]["items"]))
        waited = client.request("workspace/diagnostic", {"previousResultIds": []})
        assert streamed == _reports(root, waited["items"])
        assert streamed and board.relative_to(root).as_posix() not in streamed  # open: pushed, not pulled
        # asked again with the ids it holds, still streamed: every file unchanged
        ids = [{"uri": i["uri"], "value": i["resultId"]} for i in waited["items"]]
        before = len(client.notifications)
        assert client.request("workspace/diagnostic", {"previousResultIds": ids, "partialResultToken": "t2"}) \
            == {"items": []}
        again = [n["params"]["value"]["items"] for n in client.notifications[before:]
                 if n.get("method") == "$/progress"]
        assert sorted(i["kind"] for items in again for i in items) == ["unchanged"] * len(ids)
    finally:
        assert client.close() == 0


def test_worker_processes_hand_out_their_findings_as_they_go(tmp_path, monkeypatch):
    # two workers (PENGUIN_LINT_JOBS): each sends every folder's findings as it finishes
    # it, and the run's own process passes them on; together, the result
    import penguin_lint

    root = tmp_path / "repo"
    shutil.copytree(EXAMPLE, root)
    monkeypatch.setenv("PENGUIN_LINT_JOBS", "2")
    parts = []
    result = penguin_lint.lint(root, cache=False, progress=parts.append)
    assert len(parts) >= 2
    assert sorted(_key(f) for p in parts for f in p) == sorted(map(_key, result.findings))
    monkeypatch.setenv("PENGUIN_LINT_JOBS", "1")
    assert sorted(map(_key, penguin_lint.lint(root, cache=False).findings)) == sorted(map(_key, result.findings))


def test_a_worker_failing_while_it_streams_is_one_error(tmp_path, monkeypatch):
    import pytest

    import penguin_lint
    from tests.conftest import repo_with_a_failing_rule

    root = repo_with_a_failing_rule(tmp_path, monkeypatch)
    monkeypatch.setenv("PENGUIN_LINT_JOBS", "2")
    with pytest.raises(penguin_lint.PenguinLintError,
                       match="PL201 failed on packages/b17/benchmark_config.toml: ZeroDivisionError: boom"):
        penguin_lint.lint(root, cache=False, progress=lambda found: None)


def test_a_streamed_warm_run_hands_out_cached_findings_and_keeps_the_cache(tmp_path, monkeypatch):
    # a streamed run looks units up in its workers: what they prove unchanged is handed out
    # as it is proven, and the records it did not run again are still kept when it saves
    import penguin_lint

    root = tmp_path / "repo"
    shutil.copytree(EXAMPLE, root)
    cache = tmp_path / "cache"
    cold = penguin_lint.lint(root, cache=cache)
    records = sorted(p.name for p in cache.rglob("*.json"))
    assert records
    monkeypatch.setenv("PENGUIN_LINT_JOBS", "2")
    parts = []
    warm = penguin_lint.lint(root, cache=cache, progress=parts.append)
    assert sorted(map(_key, warm.findings)) == sorted(map(_key, cold.findings))
    assert sorted(_key(f) for p in parts for f in p) == sorted(map(_key, warm.findings))
    assert sorted(p.name for p in cache.rglob("*.json")) == records
    # an edit since: that unit is run again, the rest come from the cache
    attempt = next(root.rglob("attempt-1.yaml"))
    attempt.write_text(attempt.read_text() + "seeded: 1\n")
    parts = []
    edited = penguin_lint.lint(root, cache=cache, progress=parts.append)
    rel = attempt.relative_to(root).as_posix()
    assert ("PL104", rel) in [(f.code, f.path) for f in edited.findings]
    assert sorted(_key(f) for p in parts for f in p) == sorted(map(_key, edited.findings))
    monkeypatch.setenv("PENGUIN_LINT_JOBS", "1")
    assert sorted(map(_key, penguin_lint.lint(root, cache=False).findings)) == sorted(map(_key, edited.findings))


def test_a_unit_under_way_hands_out_each_folder_as_it_is_checked(tmp_path, monkeypatch):
    # one leaderboard with its three experiments is one unit: each experiment's finding is
    # handed out when its folder is done, not when the unit is, in the run's own process
    # and from workers alike, and none twice
    import penguin_lint

    files = {k.replace("exp-1", name): v.replace("exp-1", name) for k, v in VALID.items()
             if k.startswith("experiments/") for name in ("exp-1", "exp-2", "exp-3")}
    for name in ("exp-1", "exp-2", "exp-3"):
        files[f"experiments/lb/{name}/test/attempt-1.yaml"] += "seeded: 1\n"
    root = write_repo(tmp_path / "repo", files, VALID)
    seeded = sorted(f"experiments/lb/{n}/test/attempt-1.yaml" for n in ("exp-1", "exp-2", "exp-3"))
    for jobs in ("1", "2"):
        monkeypatch.setenv("PENGUIN_LINT_JOBS", jobs)
        parts = []
        result = penguin_lint.lint(root, cache=False, progress=parts.append)
        assert [sorted(f.path for f in p if f.code == "PL104") for p in parts
                if any(f.code == "PL104" for f in p)] == [[s] for s in seeded], jobs
        assert sorted(_key(f) for p in parts for f in p) == sorted(map(_key, result.findings))
