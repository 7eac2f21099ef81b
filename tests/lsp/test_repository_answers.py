"""Completion, go to definition, hover and ``workspace/diagnostic``: what
the language server answers from the repository, asked over standard
input and output as an editor asks."""
from __future__ import annotations

import textwrap
import time
from pathlib import Path

import pytest

from tests.conftest import VALID, write_repo
from tests.lsp_client import LspClient, uri_of
from tests.installed import rule_page

BOARD = "leaderboards/lb/leaderboard.yaml"
META = "experiments/lb/exp-1/meta_info.yaml"
ATTEMPT = "experiments/lb/exp-1/test/attempt-1.yaml"
SUMMARY2 = "experiments/lb/exp-2/test/summary.yaml"
# the repository's board, with an entry that averages another experiment
LEADERBOARD = textwrap.dedent(VALID[BOARD]) + """\
  - op: mean
    args:
      - { experiment_id: "exp-2", phase: "test", metric: "score_mean" }
      - { experiment_id: "exp-2", phase: "test", metric: "score_mean" }
"""


def _repo(tmp_path: Path) -> Path:
    files = {BOARD: LEADERBOARD,
             "packages/bench-a/CASE-002-two/task_config.toml":
                 VALID["packages/bench-a/CASE-001-one/task_config.toml"].replace("CASE-001-one", "CASE-002-two"),
             "packages/bench-a/CASE-002-two/statement/README.md": "# Two\n",
             "packages/bench-a/CASE-002-two/rubric/README.md": "# Rubric\n"}
    for name, text in VALID.items():
        if name.startswith("experiments/lb/exp-1/"):
            files[name.replace("exp-1", "exp-2")] = text.replace("exp-1", "exp-2").replace("50.0", "40.0") \
                .replace("model_name: m", "model_name: m2")
    files["experiments/lb/exp-2/val/summary.yaml"] = "n_attempt: 0\n"
    return write_repo(tmp_path / "repo", files, VALID)


@pytest.fixture
def server(tmp_path):
    root = _repo(tmp_path)
    client = LspClient(root)
    client.initialize(root)
    yield root, client
    assert client.close() == 0


def _open(client: LspClient, root: Path, rel: str, text=None) -> str:
    uri = uri_of(root / rel)
    client.notify("textDocument/didOpen", {"textDocument": {
        "uri": uri, "languageId": "yaml", "version": 1,
        "text": (root / rel).read_text() if text is None else text}})
    client.wait_diagnostics(uri, 1)
    return uri


def _ask(client: LspClient, method: str, uri: str, line: int, character: int):
    return client.request(method, {"textDocument": {"uri": uri}, "position": {"line": line, "character": character}})


def _labels(answer) -> list:
    return [i["label"] for i in answer["items"]]


def test_completion_offers_the_names_the_repository_holds(server):
    root, client = server
    text = LEADERBOARD.replace("    phase: test\n", "    phase: t\n  - experiment_id: exp-\n  - op: \n")
    board = _open(client, root, BOARD, text)
    # the experiments of the board's folder, replacing the whole value typed so far
    answer = _ask(client, "textDocument/completion", board, 8, len("  - experiment_id: exp-"))
    assert _labels(answer) == ["exp-1", "exp-2"]
    assert answer["items"][1]["textEdit"] == {"newText": "exp-2", "range": {
        "start": {"line": 8, "character": 19}, "end": {"line": 8, "character": 23}}}
    assert answer["items"][1]["detail"] == "m2 / baseline / bench-a"
    # the phases that experiment has
    assert _labels(_ask(client, "textDocument/completion", board, 7, len("    phase: t"))) == ["test"]
    assert _labels(_ask(client, "textDocument/completion", board, 9, len("  - op: "))) == \
        ["mean", "sum", "sub", "div", "weighted_mean"]
    # in a flow mapping: the phases of its own experiment (exp-2 has a val phase),
    # the numbers its phase's summary holds
    line = text.splitlines()[12]
    assert _labels(_ask(client, "textDocument/completion", board, 12, line.index('"test"') + 1)) == \
        ["test", "val"]
    assert _labels(_ask(client, "textDocument/completion", board, 12, line.index('score_mean') + 2)) == \
        ["score_mean", "score_std"]
    # meta_info.yaml: the benchmarks of the packages; an attempt: its benchmark's tasks
    meta = _open(client, root, META)
    assert _labels(_ask(client, "textDocument/completion", meta, 1, len("benchmark_id: "))) == ["bench-a"]
    attempt = _open(client, root, ATTEMPT, "score: 50.0\nresults:\n  - source: CASE\n    score: 50.0\n")
    assert _labels(_ask(client, "textDocument/completion", attempt, 2, len("  - source: CASE"))) == \
        ["CASE-001-one", "CASE-002-two"]
    # outside a value: nothing
    assert _ask(client, "textDocument/completion", board, 0, 0) is None


def test_definition_leads_from_a_name_to_its_file(server):
    root, client = server
    board = _open(client, root, BOARD)

    def where(uri, line, character):
        return [(Path(loc["uri"][len("file://"):]).relative_to(root.resolve()).as_posix(),
                 loc["range"]["start"]["line"])
                for loc in _ask(client, "textDocument/definition", uri, line, character) or ()]

    assert where(board, 6, 21) == [("experiments/lb/exp-1/meta_info.yaml", 0),
                                   ("experiments/lb/exp-1/test/summary.yaml", 0)]
    assert where(board, 7, len("    phase: te")) == [("experiments/lb/exp-1/test/summary.yaml", 0)]
    metric = LEADERBOARD.splitlines()[10]
    assert where(board, 10, metric.index("score_mean") + 3) == [(SUMMARY2, 1)]
    assert where(client and _open(client, root, META), 1, len("benchmark_id: be")) == \
        [("packages/bench-a/benchmark_config.toml", 0)]
    assert where(_open(client, root, ATTEMPT), 2, len("  - source: CASE")) == \
        [("packages/bench-a/CASE-001-one/task_config.toml", 0)]
    # a name that leads nowhere (or out of the repository) has no definition
    other = _open(client, root, "experiments/lb/exp-1/test/attempt-2.yaml",
                  "score: 50.0\nresults:\n  - source: ../../etc\n    score: 50.0\n")
    assert where(other, 2, len("  - source: ../")) == []


def test_hover_says_what_a_leaf_reads_what_an_entry_computes_and_what_a_finding_means(server):
    root, client = server
    text = LEADERBOARD.replace("leaderboard_id: lb\n", "leaderboard_id: lb\nextra: 1  # penguin-lint: disable=PL104\n")
    board = _open(client, root, BOARD, text)

    def hover(line, character):
        answer = _ask(client, "textDocument/hover", board, line, character)
        return answer["contents"]["value"] if answer else None

    leaf = hover(11, text.splitlines()[11].index("exp-2") + 1)
    assert leaf.startswith(f"reads `score_mean` = **`40.0`** from `{SUMMARY2}`")
    # the entry: the mean of two leaves of 40, rank 2 after exp-1's 50
    assert "entry 2 (m2, baseline, test): mean **40**, std 0, rank **2**" in leaf
    assert "entry 1 (m, baseline, test): mean **50**, std 0, rank **1**" in hover(8, 4)
    # the comment: the rules it names, with their pages
    note = hover(1, len("extra: 1  # pen"))
    assert note.startswith("`penguin-lint: disable` (this line):\n- **PL104** `unknown-field`")
    assert f"([page]({rule_page('PL104')}))" in note
    # a finding under the cursor: its rule, what it means, its page
    client.notify("textDocument/didChange", {"textDocument": {"uri": board, "version": 2},
                                             "contentChanges": [{"text": text.replace("  # penguin", "  # x")}]})
    diags = client.wait_diagnostics(board, 2)["diagnostics"]
    # (the entry of two leaves of one experiment is PL404, on its own lines)
    assert [(d["code"], d["range"]["start"]["line"]) for d in diags][0] == ("PL104", 1)
    said = hover(1, 2)
    assert said.startswith("**PL104** `unknown-field`: ") and "PL404" not in said
    assert f"([PL104]({rule_page('PL104')}))" in said
    assert hover(0, 0) is None or "PL104" not in hover(0, 0)


def test_hover_on_a_board_past_its_limit_computes_only_the_entries_preview_shows(server):
    # 10,001 entries: the first 10,000 are computed (one of 40 ranked last
    # among 9,999 of 50), the one past the limit is said to be not computed
    root, client = server
    leaf = "  - {experiment_id: exp-1, phase: test}\n"
    text = LEADERBOARD[:LEADERBOARD.index("values:\n") + len("values:\n")] \
        + "  - {experiment_id: exp-2, phase: test}\n" + leaf * 10_000
    board = _open(client, root, BOARD, text)

    def hover(line):
        answer = _ask(client, "textDocument/hover", board, line, 6)
        return answer["contents"]["value"] if answer else None

    first = 6  # 0-based line of entry 1
    assert "entry 1 (m2, baseline, test): mean **40**, std 0, rank **10000**" in hover(first)
    assert "entry 5000 (m, baseline, test): mean **50**, std 0, rank **1**" in hover(first + 4999)
    assert "entry 10000 (m, baseline, test): mean **50**, std 0, rank **1**" in hover(first + 9999)
    past = hover(first + 10_000)
    assert "entry 10000 " not in past
    assert "no entry computed here: the leaderboard has more than 10,000 values (line 10007)" in past


# the findings the repository of _repo() has with META naming no such benchmark
WITH_BAD_META = {META: [("PL307", 1)], "experiments/lb/exp-2/val/summary.yaml": [("PL101", 0), ("PL103", 0)],
                 BOARD: [("PL404", 11)]}


def _changed(client: LspClient, root: Path, *rels: str) -> None:
    """What a client watching files says when ``rels`` change on disk."""
    client.notify("workspace/didChangeWatchedFiles", {"changes": [
        {"uri": uri_of(root / rel), "type": 2} for rel in rels]})


def _by_path(root: Path, answer) -> dict:
    return {Path(i["uri"][len("file://"):]).relative_to(root.resolve()).as_posix(): i for i in answer["items"]}


def _found(report) -> list:
    return [(d["code"], d["range"]["start"]["line"]) for d in report["items"]]


def test_workspace_diagnostics_list_the_repository_not_only_open_files(server):
    root, client = server
    (root / META).write_text((root / META).read_text().replace("bench-a", "bench-x"))
    (root / SUMMARY2).write_text("n_attempt: 2\nscore_mean: 45.0\nscore_std: 0.0\n")
    _changed(client, root, META, SUMMARY2)
    first = client.request("workspace/diagnostic", {"previousResultIds": []})
    found = {p: _found(i) for p, i in _by_path(root, first).items()}
    assert found[META] == [("PL307", 1)]
    assert found[SUMMARY2] == [("PL303", 1)]
    assert all(i["kind"] == "full" for i in first["items"])
    # asked again with the ids it holds: nothing changed
    ids = [{"uri": i["uri"], "value": i["resultId"]} for i in first["items"]]
    again = client.request("workspace/diagnostic", {"previousResultIds": ids})
    assert sorted(i["kind"] for i in again["items"]) == ["unchanged"] * len(first["items"])
    # an open document's diagnostics are pushed: the workspace report leaves it out; a
    # file repaired in its buffer no longer has findings anywhere
    summary = _open(client, root, SUMMARY2, "n_attempt: 2\nscore_mean: 40.0\nscore_std: 0.0\n")
    assert client.diagnostics[summary][-1]["diagnostics"] == []
    third = client.request("workspace/diagnostic", {"previousResultIds": ids})
    paths = _by_path(root, third)
    assert SUMMARY2 not in paths and paths[META]["kind"] == "unchanged"


def test_workspace_is_linted_from_the_start_for_a_client_that_pulls(tmp_path):
    # the run starts when the client says initialized: its cache is written
    # before any pull, and the first pull answers the repository's findings
    root = _repo(tmp_path)
    (root / META).write_text((root / META).read_text().replace("bench-a", "bench-x"))
    records = root / ".penguin-lint-cache"
    client = LspClient(root)
    try:
        client.initialize(root)
        deadline = time.monotonic() + 60
        while not list(records.glob("v*/*/*.json")) and time.monotonic() < deadline:
            client.request("textDocument/hover", {"textDocument": {"uri": uri_of(root / BOARD)},
                                                  "position": {"line": 0, "character": 0}})
            time.sleep(0.05)
        assert list(records.glob("v*/*/*.json")), "no whole run before the first pull"
        first = client.request("workspace/diagnostic", {"previousResultIds": []})
        assert {p: _found(i) for p, i in _by_path(root, first).items()} == WITH_BAD_META
    finally:
        assert client.close() == 0


def test_a_client_that_does_not_pull_costs_no_whole_run(tmp_path):
    root = _repo(tmp_path)
    (root / META).write_text((root / META).read_text().replace("bench-a", "bench-x"))
    client = LspClient(root)
    try:
        client.request("initialize", {"processId": None, "rootUri": uri_of(root), "capabilities": {}})
        client.notify("initialized", {})
        # a document opened and linted: the server is past initialized
        _open(client, root, META)
        assert not (root / ".penguin-lint-cache").exists()
        # asked after all, it answers (the run made then; the open document left out)
        answer = client.request("workspace/diagnostic", {"previousResultIds": []})
        assert {p: _found(i) for p, i in _by_path(root, answer).items()} == \
            {p: f for p, f in WITH_BAD_META.items() if p != META}
        assert (root / ".penguin-lint-cache").is_dir()
    finally:
        assert client.close() == 0


def test_a_file_changed_on_disk_is_linted_again_and_the_client_asked_to_pull(tmp_path):
    root = _repo(tmp_path)
    (root / META).write_text((root / META).read_text().replace("bench-a", "bench-x"))
    client = LspClient(root)
    try:
        client.initialize(root, refresh=True)
        first = client.request("workspace/diagnostic", {"previousResultIds": []})
        assert {p: _found(i) for p, i in _by_path(root, first).items()} == WITH_BAD_META
        ids = [{"uri": i["uri"], "value": i["resultId"]} for i in first["items"]]
        # the run's own cache records change on disk too: they are no change to lint again
        cache_file = next((root / ".penguin-lint-cache").glob("v*/*/*.json"))
        _changed(client, root, cache_file.relative_to(root).as_posix())
        (root / SUMMARY2).write_text("n_attempt: 2\nscore_mean: 45.0\nscore_std: 0.0\n")
        _changed(client, root, SUMMARY2)
        # linted again in the background; the client is asked to pull again
        client.wait_request("workspace/diagnostic/refresh", timeout=60)
        assert len([r for r in client.server_requests if r["method"] == "workspace/diagnostic/refresh"]) == 1
        again = _by_path(root, client.request("workspace/diagnostic", {"previousResultIds": ids}))
        assert {p for p, i in again.items() if i["kind"] == "unchanged"} == set(WITH_BAD_META)
        assert again[SUMMARY2]["kind"] == "full" and _found(again[SUMMARY2]) == [("PL303", 1)]
        # repaired on disk: an empty report replaces the one the client holds
        ids = [{"uri": uri, "value": i["resultId"]} for uri, i in
               ((uri_of(root / p), i) for p, i in again.items())]
        (root / SUMMARY2).write_text("n_attempt: 2\nscore_mean: 40.0\nscore_std: 0.0\n")
        _changed(client, root, SUMMARY2)
        third = _by_path(root, client.request("workspace/diagnostic", {"previousResultIds": ids}))
        assert third[SUMMARY2]["kind"] == "full" and third[SUMMARY2]["items"] == []
        assert {p for p, i in third.items() if i["kind"] == "unchanged"} == set(WITH_BAD_META)
    finally:
        assert client.close() == 0


def test_hover_quotes_long_values_shortened(server):
    # a 2 MiB experiment id and model name: each quoted in 60 characters
    # with '...', as messages quote values; a message in 500
    root, client = server
    huge = "x" * (2 * 1024 * 1024)
    meta2 = root / "experiments/lb/exp-2/meta_info.yaml"
    meta2.write_text(meta2.read_text().replace("model_name: m2", f"model_name: m{huge}"))
    text = LEADERBOARD.replace("leaderboard_id: lb\n", f"leaderboard_id: lb\nextra: 1  # penguin-lint: disable=Q{huge}\n") \
        + f"  - experiment_id: e{huge}\n    phase: test\n"
    board = _open(client, root, BOARD, text)
    short = huge[:56] + "..."

    def hover(line, character):
        answer = _ask(client, "textDocument/hover", board, line, character)
        return answer["contents"]["value"]

    leaf = hover(13, len("  - experiment_id: e"))
    assert leaf.startswith(f"reads `score_mean` of `e{short}`, phase `test`: no such summary.yaml")
    entry = hover(11, text.splitlines()[11].index("exp-2") + 1)
    assert f"entry 2 (m{short}, baseline, test): mean **40**" in entry
    note = hover(1, len("extra: 1  # pen"))
    # the comment's own problem, its message quoting the code in a few words
    assert note.endswith("(this line):\nnames 'Q" + "X" * 34 + "...', which is not a rule code (such as PL104)")
    assert max(map(len, (leaf, entry, note))) < 1000


def test_completion_offers_the_model_harness_and_algorithm_the_board_already_uses(tmp_path):
    root = _repo(tmp_path)
    for n, (model, harness) in enumerate([("m", "h"), ("m3", "h2")], start=3):
        write = root / f"experiments/lb/exp-{n}/meta_info.yaml"
        write.parent.mkdir(parents=True)
        write.write_text(f"experiment_id: exp-{n}\nbenchmark_id: bench-a\nharness_name: {harness}\n"
                         f"model_name: {model}\nalgorithm: skillopt\n")
    # another board's names are not this board's
    other = root / "experiments/other/x-1/meta_info.yaml"
    other.parent.mkdir(parents=True)
    other.write_text("experiment_id: x-1\nbenchmark_id: bench-a\nharness_name: far\nmodel_name: far\nalgorithm: far\n")
    client = LspClient(root)
    client.initialize(root)
    try:
        # a new experiment's meta_info.yaml, being typed
        meta = "experiments/lb/exp-9/meta_info.yaml"
        (root / meta).parent.mkdir(parents=True)
        text = "experiment_id: exp-9\nbenchmark_id: bench-a\nharness_name: \nmodel_name: m\nalgorithm: \n"
        (root / meta).write_text(text)
        uri = _open(client, root, meta, text)
        models = _ask(client, "textDocument/completion", uri, 3, len("model_name: m"))
        # the most used first, with how many experiments use it; exp-9's own half-typed "m" is not offered
        assert [(i["label"], i.get("detail")) for i in models["items"]] == [
            ("m", "2 experiments"), ("m2", "1 experiment"), ("m3", "1 experiment")]
        assert models["items"][0]["textEdit"]["newText"] == "m"
        assert _labels(_ask(client, "textDocument/completion", uri, 2, len("harness_name: "))) == ["h", "h2"]
        assert _labels(_ask(client, "textDocument/completion", uri, 4, len("algorithm: "))) == \
            ["baseline", "skillopt"]
    finally:
        assert client.close() == 0


def test_hover_shows_a_rules_meaning_as_markdown_without_literal_backticks(server):
    root, client = server
    text = LEADERBOARD.replace("leaderboard_id: lb\n", "leaderboard_id: lb\nextra: 1  # penguin-lint: disable=PL104,PL203\n")
    board = _open(client, root, BOARD, text)
    answer = _ask(client, "textDocument/hover", board, 1, len("extra: 1  # pen"))
    note = answer["contents"]["value"]
    # the summary is the rule's own Markdown: its code spans are code, not text in backticks in one
    assert "**PL008** `unused-suppression`: an inline `penguin-lint: disable` comment that suppresses nothing" \
        in note, note
    assert "`` `" not in note and "` ``" not in note, note
