"""Harbor Hub leaderboards: the two schemas and PL601–PL607, failing and
passing, with lines; definition lookup, pull-request mode, the examples and
the real Harbor files."""
import re
import socket
import urllib.request
from pathlib import Path

import pytest

from penguin_lint.rules import get_rule
from tests.conftest import lint

DEF = "leaderboard/leaderboard.yaml"
ROWS = "leaderboard/rows.yaml"
ROOT = Path(__file__).resolve().parents[2]
REALWORLD = ROOT.parent / "shared" / "realworld" / "harbor"

GOOD_DEF = """\
package: acme/my-dataset
name: main
title: Main leaderboard
visibility: private
metadata_schema:
  type: object
  required: [agent]
  properties:
    agent:
      type: string
    date:
      type: string
      format: date
  additionalProperties: false
metrics_schema:
  type: object
  required: [accuracy]
  properties:
    accuracy:
      type: number
      minimum: 0
      maximum: 1
    n_trials:
      type: integer
columns:
  - id: agent
    header: Agent
    accessor: metadata.agent
    type: text
  - id: accuracy
    header: Accuracy
    accessor: metrics.accuracy
    type: number
rank_by:
  - accessor: metrics.accuracy
    direction: desc
"""

GOOD_ROWS = """\
rows:
  - metadata:
      agent: terminus-2
      date: "2026-11-02"
    metrics:
      accuracy: 0.62
      n_trials: 3
    status: display
    trial_ids:
      - 36043904-3271-4c91-aaf7-4f941353d7a9
  - metadata:
      agent: openhands
    metrics:
      accuracy: 0.41
    status: hide
    trial_ids:
      - 0cc33186-273e-4b4b-82dc-04c28fce2f0c
"""


def line_of(text: str, needle: str, nth: int = 0) -> int:
    """1-based line of the nth line containing ``needle``."""
    hits = [i + 1 for i, ln in enumerate(text.split("\n")) if needle in ln]
    return hits[nth]


def edit(text: str, old: str, new: str) -> str:
    assert text.count(old) == 1, old
    return text.replace(old, new)


@pytest.fixture
def harbor(repo):
    """Write a Harbor-only repository: the good pair with overrides."""
    def make(definition=GOOD_DEF, rows=GOOD_ROWS, extra=None):
        files = {DEF: definition, ROWS: rows}
        files.update(extra or {})
        return repo({k: v for k, v in files.items() if v is not None}, base={})
    return make


def only(run, code):
    return [f for f in run.findings if f["code"] == code]


# -- the good pair ------------------------------------------------------------------
def test_good_pair_is_clean(harbor):
    run = lint(harbor(), "--all")
    assert run.findings == []
    assert run.code == 0
    assert run.json["summary"]["files"] == 2


def test_json_definition_and_rows(harbor):
    definition = """{
  "package_id": "3726ace0-0452-4939-8cdb-964cc8d077cf",
  "name": "main",
  "title": "Main",
  "metrics_schema": {"type": "object", "properties": {"accuracy": {"type": "number"}}},
  "columns": [{"id": "acc", "header": "Accuracy", "accessor": "metrics.accuracy", "type": "number"}],
  "rank_by": [{"accessor": "metrics.accuracy", "direction": "desc", "nulls": "last"}]
}
"""
    rows = '{"rows": [{"metrics": {"accuracy": "high"}}]}\n'
    run = lint(harbor(definition=None, rows=None, extra={"leaderboard/leaderboard.json": definition,
                                                           "leaderboard/rows.json": rows}), "--all")
    assert [(f["code"], f["path"], f["line"], f["column"]) for f in run.findings] == [
        ("PL605", "leaderboard/rows.json", 1, 36)]


# -- the definition schema ----------------------------------------------------------
@pytest.mark.parametrize("old,new,code,needle", [
    ("package: acme/my-dataset", "package: Acme/my-dataset", "PL103", "package:"),
    ("package: acme/my-dataset", "package: acme", "PL103", "package:"),
    ("name: main", "name: Main", "PL103", "name: Main"),
    ("name: main", "name: " + "m" * 101, "PL103", "name: m"),
    ("title: Main leaderboard", 'title: ""', "PL103", "title:"),
    ("title: Main leaderboard", "title: " + "t" * 201, "PL103", "title:"),
    ("title: Main leaderboard", "title: 12", "PL102", "title:"),
    ("visibility: private", "visibility: internal", "PL103", "visibility:"),
    ("visibility: private", "visibility: private\ndescription: " + "d" * 5001, "PL103", "description:"),
    ("name: main", "name: main\npackage_id: not-a-uuid\n", "PL103", "package_id:"),
    ("visibility: private", "visibility: private\ndataset_version_ids: [latest]", "PL103",
     "dataset_version_ids"),
    ("visibility: private", "visibility: private\ndataset_version_refs: latest", "PL102",
     "dataset_version_refs"),
    ("metadata_schema:\n  type: object\n  required: [agent]",
     "metadata_schema: []\nx_schema:\n  type: object\n  required: [agent]", "PL102", "metadata_schema:"),
    ("  - id: agent\n", "  - id: -agent\n", "PL103", "id: -agent"),
    ("    header: Agent\n", "    header: ''\n", "PL103", "header: ''"),
    ("    accessor: metadata.agent\n", "    accessor: meta.agent\n", "PL103", "meta.agent"),
    ("    accessor: metadata.agent\n", "    accessor: metadata.\n", "PL103", "accessor: metadata."),
    ("    type: text\n", "    type: txt\n", "PL103", "type: txt"),
    ("    type: text\n", "    type: text\n    align: middle\n", "PL103", "align:"),
    ("    type: text\n", "    type: text\n    display_type: html\n", "PL103", "display_type:"),
    ("    type: text\n", "    type: text\n    display_accessor: agent\n", "PL103", "display_accessor:"),
    ("    type: text\n", "    type: text\n    enable_sorting: 'no'\n", "PL102", "enable_sorting:"),
    ("    direction: desc\n", "    direction: down\n", "PL103", "direction: down"),
    ("    direction: desc\n", "    direction: desc\n    nulls: middle\n", "PL103", "nulls:"),
    ("    header: Agent\n", "", "PL101", "- id: agent"),
])
def test_definition_schema(harbor, old, new, code, needle):
    text = edit(GOOD_DEF, old, new)
    run = lint(harbor(definition=text), "--all")
    assert run.at(code) == [(DEF, line_of(text, needle))], run.findings
    assert run.code == 1


def test_uppercase_package_hints_lowercase(harbor):
    run = lint(harbor(definition=edit(GOOD_DEF, "acme/my-dataset", "Snowflake-Labs/dbt-bench")), "--all")
    [f] = run.findings
    assert (f["code"], f["line"], f["column"], f["severity"]) == ("PL103", 1, 10, "error")
    assert "lowercase" in f["hint"]


@pytest.mark.parametrize("old,new,needle", [
    ("visibility: private", "visibility: private\nowner: acme", "owner:"),
    ("    type: text\n", "    type: text\n    width: 120\n", "width:"),
    ("    direction: desc\n", "    direction: desc\n    weight: 1\n", "weight:"),
])
def test_unknown_keys_are_errors_in_definitions(harbor, old, new, needle):
    text = edit(GOOD_DEF, old, new)
    run = lint(harbor(definition=text), "--all")
    [f] = run.findings
    assert (f["code"], f["severity"], f["line"]) == ("PL103", "error", line_of(text, needle))
    assert "unknown field" in f["message"]


def test_unknown_key_offers_close_match(harbor):
    text = edit(GOOD_DEF, "    type: text\n", "    type: text\n    enable_sort: true\n")
    [f] = lint(harbor(definition=text), "--all").findings
    assert f["hint"] == "did you mean 'enable_sorting'?"


def test_nulls_where_harbor_accepts_them(harbor):
    text = edit(GOOD_DEF, "visibility: private", "visibility: private\ndescription: null\npackage_id: null")
    text = edit(text, "    type: text\n", "    type: text\n    display_accessor: null\n    align: null\n")
    text = edit(text, "    direction: desc\n", "    direction: desc\n    nulls: null\n")
    assert lint(harbor(definition=text), "--all").findings == []


def test_exported_definition_is_an_update_config(harbor):
    text = ("leaderboard_id: 9f1c2d3e-4b5a-4c6d-8e7f-0a1b2c3d4e5f\n"
            "expected_updated_at: '2026-11-02T10:00:00+00:00'\n" + GOOD_DEF)
    assert lint(harbor(definition=text), "--all").findings == []
    # update cannot change the dataset: no package_id there, and no PL601
    text = edit(text, "package: acme/my-dataset\n", "package_id: 3726ace0-0452-4939-8cdb-964cc8d077cf\n")
    run = lint(harbor(definition=text), "--all")
    assert run.at("PL103") == [(DEF, 3)] and "PL601" not in run.codes()
    text = edit(text, "'2026-11-02T10:00:00+00:00'", "'2026-11-02 10:00'")
    assert (DEF, 2) in lint(harbor(definition=text), "--all").at("PL103")


# -- the rows schema ----------------------------------------------------------------
@pytest.mark.parametrize("old,new,code,needle", [
    ("    status: hide\n", "    status: hidden\n", "PL103", "status: hidden"),
    ("      - 0cc33186-273e-4b4b-82dc-04c28fce2f0c\n", "      - trial-7\n", "PL103", "trial-7"),
    ("    status: hide\n", "    status: hide\n    rank: 1\n", "PL103", "rank: 1"),
    ("rows:\n", "leaderboard: acme/my-dataset/main\nrows:\n", "PL103", "leaderboard:"),
    ("rows:\n", "expected_updated_at: 2026-11-02\nrows:\n", "PL103", "expected_updated_at"),
    ("  - metadata:\n      agent: openhands\n", "  - metadata: []\n    x:\n      agent: openhands\n", "PL102",
     "metadata: []"),
])
def test_rows_schema(harbor, old, new, code, needle):
    text = edit(GOOD_ROWS, old, new)
    run = lint(harbor(rows=text), "--all")
    assert (ROWS, line_of(text, needle)) in run.at(code), run.findings
    assert run.code == 1


def test_row_with_id_is_an_update_row(harbor):
    # a row with an id is an exported row for `update --rows`, which links no trials
    text = edit(GOOD_ROWS, "    status: hide\n", "    status: hide\n    id: 0cc33186-273e-4b4b-82dc-04c28fce2f0d\n")
    run = lint(harbor(rows=text), "--all")
    assert run.at("PL103") == [(ROWS, line_of(text, "trial_ids:", 1))]
    assert "row 2 (rows[1]): unknown field 'trial_ids'" in run.findings[0]["message"]


def test_rows_between_1_and_500(harbor):
    run = lint(harbor(rows="rows: []\n"), "--all")
    assert run.at("PL103") == [(ROWS, 1)]
    many = "rows:\n" + "  - metrics: {accuracy: 0.5}\n    metadata: {agent: a}\n" * 501
    [f] = lint(harbor(rows=many), "--all").findings
    assert (f["code"], f["line"]) == ("PL103", 2) and "500" in f["message"] + f["hint"]
    enough = "rows:\n" + "  - metrics: {accuracy: 0.5}\n    metadata: {agent: a}\n" * 500
    assert lint(harbor(rows=enough), "--all").findings == []


def test_missing_rows_key(harbor):
    run = lint(harbor(rows="leaderboard_id: 9f1c2d3e-4b5a-4c6d-8e7f-0a1b2c3d4e5f\n"), "--all")
    assert run.at("PL101") == [(ROWS, 1)]


def test_export_headers_are_allowed(harbor):
    text = ("leaderboard_id: 9f1c2d3e-4b5a-4c6d-8e7f-0a1b2c3d4e5f\n"
            "expected_updated_at: '2026-11-02T10:00:00.123456+00:00'\n" + GOOD_ROWS)
    assert lint(harbor(rows=text), "--all").findings == []


def test_exported_rows_for_update(harbor):
    text = """\
leaderboard_id: 9f1c2d3e-4b5a-4c6d-8e7f-0a1b2c3d4e5f
expected_updated_at: '2026-11-02T10:00:00+00:00'
rows:
  - id: 5b0e3a43-8f1d-4c8e-9a57-3c4d5e6f7a8b
    expected_updated_at: '2026-11-02T10:00:00+00:00'
    metadata:
      agent: terminus-2
    metrics:
      accuracy: 0.7
    status: display
"""
    assert lint(harbor(rows=text), "--all").findings == []
    # an update row links no trials; its metrics still meet metrics_schema
    bad = edit(text, "    status: display\n", "    status: display\n    trial_ids: []\n")
    bad = edit(bad, "accuracy: 0.7", "accuracy: 7")
    run = lint(harbor(rows=bad), "--all")
    assert run.at("PL103") == [(ROWS, line_of(bad, "trial_ids"))]
    assert run.at("PL605") == [(ROWS, line_of(bad, "accuracy: 7"))]


# -- PL601 package-selector ---------------------------------------------------------
def test_pl601_both_selectors_one_finding_spanning_both(harbor):
    text = edit(GOOD_DEF, "package: acme/my-dataset\n",
                "package: acme/my-dataset\npackage_id: 3726ace0-0452-4939-8cdb-964cc8d077cf\n")
    [f] = lint(harbor(definition=text), "--all").findings
    assert (f["code"], f["line"], f["column"], f["end_line"]) == ("PL601", 1, 1, 2)


def test_pl601_neither_selector(harbor):
    text = edit(GOOD_DEF, "package: acme/my-dataset\n", "")
    [f] = lint(harbor(definition=text), "--all").findings
    assert (f["code"], f["line"]) == ("PL601", 1)
    assert "neither" in f["message"]


def test_pl601_null_package_counts_as_absent(harbor):
    text = edit(GOOD_DEF, "package: acme/my-dataset\n",
                "package: null\npackage_id: 3726ace0-0452-4939-8cdb-964cc8d077cf\n")
    assert lint(harbor(definition=text), "--all").findings == []
    text = edit(GOOD_DEF, "package: acme/my-dataset\n", "package:\n")
    assert lint(harbor(definition=text), "--all").at("PL601") == [(DEF, 1)]


# -- PL602 duplicate-column ---------------------------------------------------------
def test_pl602_duplicate_column_at_second(harbor):
    text = edit(GOOD_DEF, "  - id: accuracy\n", "  - id: agent\n")
    [f] = lint(harbor(definition=text), "--all").findings
    assert (f["code"], f["line"], f["column"]) == ("PL602", line_of(text, "- id: agent", 1), 9)
    assert f"line {line_of(text, '- id: agent')}" in f["message"]


def test_pl602_distinct_ids_pass(harbor):
    assert "PL602" not in lint(harbor(), "--all").codes()


# -- PL603 unresolved-accessor ------------------------------------------------------
@pytest.mark.parametrize("old,new,needle", [
    ("    accessor: metrics.accuracy\n    type", "    accessor: metrics.pass_at_1\n    type",
     "metrics.pass_at_1"),
    ("    accessor: metadata.agent\n", "    accessor: metadata.agent\n    display_accessor: metadata.agent_label\n",
     "agent_label"),
    ("  - accessor: metrics.accuracy\n", "  - accessor: metrics.n_trial\n", "metrics.n_trial"),
    ("    accessor: metadata.agent\n", "    accessor: metrics.agent\n", "metrics.agent"),
])
def test_pl603_accessor_naming_no_property(harbor, old, new, needle):
    text = edit(GOOD_DEF, old, new)
    run = lint(harbor(definition=text), "--all")
    assert run.at("PL603") == [(DEF, line_of(text, needle))]


def test_pl603_close_match_and_nested_hints(harbor):
    text = edit(GOOD_DEF, "  - accessor: metrics.accuracy\n", "  - accessor: metrics.acuracy\n")
    [f] = only(lint(harbor(definition=text), "--all"), "PL603")
    assert f["hint"] == "did you mean 'metrics.accuracy'?"
    text = edit(GOOD_DEF, "    n_trials:\n      type: integer\n",
                "    scores:\n      type: object\n      properties:\n        mean: {type: number}\n")
    text = edit(text, "  - accessor: metrics.accuracy\n", "  - accessor: metrics.scores.mean\n")
    [f] = only(lint(harbor(definition=text), "--all"), "PL603")
    assert "does not descend" in f["hint"]


def test_pl603_empty_schema_declares_nothing(harbor):
    text = ("package: acme/d\nname: main\ntitle: T\n"
            "columns:\n  - {id: a, header: A, accessor: metadata.agent, type: text}\n")
    assert lint(harbor(definition=text, rows=None), "--all").at("PL603") == [(DEF, 5)]


def test_pl603_partial_update_keeps_the_schema_on_harbor(harbor):
    text = ("leaderboard_id: 9f1c2d3e-4b5a-4c6d-8e7f-0a1b2c3d4e5f\n"
            "columns:\n  - {id: a, header: A, accessor: metadata.agent, type: text}\n")
    assert lint(harbor(definition=text, rows=None), "--all").findings == []


def test_pl603_pattern_properties_ref_and_allof_resolve(harbor):
    text = edit(GOOD_DEF, "  additionalProperties: false\nmetrics_schema",
                "  patternProperties:\n    '^x_': {type: string}\n  additionalProperties: false\nmetrics_schema")
    text = edit(text, "    accessor: metadata.agent\n", "    accessor: metadata.x_team\n")
    assert "PL603" not in lint(harbor(definition=text, rows=None), "--all").codes()
    text = ("package: acme/d\nname: main\ntitle: T\nmetrics_schema:\n  $ref: '#/$defs/m'\n"
            "  $defs:\n    m: {type: object}\n"
            "metadata_schema:\n  allOf:\n    - properties: {agent: {type: string}}\n"
            "columns:\n  - {id: a, header: A, accessor: metadata.agent, type: text}\n"
            "  - {id: b, header: B, accessor: metrics.anything, type: number}\n")
    assert lint(harbor(definition=text, rows=None), "--all").findings == []


# -- PL604 invalid-row-schema -------------------------------------------------------
@pytest.mark.parametrize("old,new,needle", [
    ("      type: number\n      minimum: 0\n", "      type: float\n      minimum: 0\n", "type: float"),
    ("  required: [accuracy]\n", "  required: true\n", "required: true"),
    ("      format: date\n", "      format: date\n      pattern: '(['\n", "pattern:"),
    ("      minimum: 0\n", "      minimum: '0'\n", "minimum: '0'"),
])
def test_pl604_schema_rejected_by_its_meta_schema(harbor, old, new, needle):
    text = edit(GOOD_DEF, old, new)
    run = lint(harbor(definition=text), "--all")
    assert run.at("PL604") == [(DEF, line_of(text, needle))], run.findings
    # rows are not judged against a broken schema
    assert "PL605" not in run.codes()


def test_pl604_type_message(harbor):
    text = edit(GOOD_DEF, "      type: number\n      minimum: 0\n", "      type: float\n      minimum: 0\n")
    [f] = only(lint(harbor(definition=text), "--all"), "PL604")
    assert "'metrics_schema.properties.accuracy.type' is not a JSON Schema type: 'float'" == f["message"]


def test_pl604_unknown_dialect(harbor):
    text = edit(GOOD_DEF, "metrics_schema:\n", "metrics_schema:\n  $schema: https://example.com/my-draft\n")
    [f] = lint(harbor(definition=text), "--all").findings
    assert (f["code"], f["line"]) == ("PL604", line_of(text, "$schema"))


@pytest.fixture
def no_network(monkeypatch):
    calls = []

    def refuse(*args, **kwargs):
        calls.append(args)
        raise OSError("network access in a test")

    monkeypatch.setattr(urllib.request, "urlopen", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)
    monkeypatch.setattr(socket.socket, "connect", refuse)
    return calls


@pytest.mark.parametrize("ref", ["https://example.com/schemas/score.json", "#/$defs/nope", "score.json"])
def test_pl604_unresolvable_ref_is_a_finding_and_nothing_is_fetched(harbor, no_network, ref):
    text = edit(GOOD_DEF, "      type: number\n      minimum: 0\n      maximum: 1\n",
                f"      $ref: '{ref}'\n")
    run = lint(harbor(definition=text), "--all")
    assert run.at("PL604") == [(DEF, line_of(text, "$ref"))]
    assert "PL605" not in run.codes()
    assert no_network == []


def test_pl604_self_reference_without_end(harbor):
    text = edit(GOOD_DEF, "metrics_schema:\n  type: object\n", "metrics_schema:\n  $ref: '#'\n  type: object\n")
    run = lint(harbor(definition=text), "--all")
    assert run.at("PL604") == [(DEF, line_of(text, "metrics_schema:"))]
    assert run.code == 1


def test_pl604_good_references_and_other_drafts_pass(harbor, no_network):
    text = edit(GOOD_DEF, "      type: number\n      minimum: 0\n      maximum: 1\n",
                "      $ref: '#/$defs/share'\n")
    text = edit(text, "columns:\n", "  $defs:\n    share: {type: number, minimum: 0, maximum: 1}\ncolumns:\n")
    text = edit(text, "metadata_schema:\n", "metadata_schema:\n  $schema: 'http://json-schema.org/draft-07/schema#'\n"
                "  definitions:\n    name: {type: string}\n")
    text = edit(text, "    agent:\n      type: string\n", "    agent:\n      $ref: '#/definitions/name'\n")
    assert lint(harbor(definition=text), "--all").findings == []
    bad_rows = edit(GOOD_ROWS, "accuracy: 0.41", "accuracy: 1.5")
    bad_rows = edit(bad_rows, "agent: openhands", "agent: 7")
    run = lint(harbor(definition=text, rows=bad_rows), "--all")
    assert run.at("PL605") == [(ROWS, line_of(bad_rows, "agent: 7")), (ROWS, line_of(bad_rows, "accuracy: 1.5"))]
    assert no_network == []


# -- PL605 row-mismatch -------------------------------------------------------------
def test_pl605_wrong_type_with_row_index_line_and_hint(harbor):
    text = edit(GOOD_ROWS, "accuracy: 0.41", 'accuracy: "0.41"')
    [f] = lint(harbor(rows=text), "--all").findings
    assert (f["code"], f["path"], f["line"], f["column"]) == ("PL605", ROWS, line_of(text, '"0.41"'), 17)
    assert f["message"].startswith("row 2 (rows[1]): 'metrics.accuracy' must be a number")
    assert f["hint"] == "write the number without quotes"


@pytest.mark.parametrize("old,new,needle,word", [
    ("      agent: openhands\n", "      name: openhands\n", "name: openhands", "unknown field 'metadata.name'"),
    ("      agent: openhands\n    metrics:\n", "      date: '2026-11-01'\n    metrics:\n", "  - metadata:",
     "missing required field 'metadata.agent'"),
    ("      accuracy: 0.41\n", "      accuracy: 1.41\n", "accuracy: 1.41", "at most 1"),
    ('      date: "2026-11-02"\n', '      date: "2026-13-02"\n', "2026-13-02", "date"),
    ("      n_trials: 3\n", "      n_trials: 2.5\n", "n_trials: 2.5", "integer"),
])
def test_pl605_row_fails_schema(harbor, old, new, needle, word):
    text = edit(GOOD_ROWS, old, new)
    run = lint(harbor(rows=text), "--all")
    [f] = [f for f in run.findings if word in f["message"]]
    assert (f["code"], f["line"]) == ("PL605", line_of(text, needle, 1 if needle == "  - metadata:" else 0))
    assert set(run.codes()) == {"PL605"}


def test_pl605_missing_sections_are_checked_as_empty(harbor):
    text = "rows:\n  - status: display\n"
    run = lint(harbor(rows=text), "--all")
    assert sorted(f["message"].split(" (metrics")[0].split(" (metadata")[0] for f in run.findings) == [
        "row 1 (rows[0]): missing required field 'metadata.agent'", "row 1 (rows[0]): missing required field 'metrics.accuracy'"]
    assert run.at("PL605") == [(ROWS, 2), (ROWS, 2)]


def test_pl605_yaml_typed_value_gets_quote_hint(harbor):
    text = edit(GOOD_ROWS, "agent: openhands", "agent: 1017")
    [f] = lint(harbor(rows=text), "--all").findings
    assert f["code"] == "PL605" and f["hint"] == 'YAML read 1017 as a number; quote it: agent: "1017"'


def test_pl605_without_definition_only_rows_schema_and_pl606(harbor):
    text = edit(GOOD_ROWS, "accuracy: 0.41", 'accuracy: "high"')
    text = edit(text, "0cc33186-273e-4b4b-82dc-04c28fce2f0c", "36043904-3271-4c91-aaf7-4f941353d7a9")
    text = edit(text, "    status: hide\n", "    status: gone\n")
    run = lint(harbor(definition=None, rows=text), "--all")
    assert sorted(run.codes()) == ["PL103", "PL606"]


def test_pl605_definition_option(harbor):
    root = harbor(definition=None, rows=None,
extra={
        "boards/main.json": '{"package": "acme/d", "name": "main", "title": "T",'
                            ' "metrics_schema": {"properties": {"accuracy": {"type": "number"}}}}\n',
        "results/main.yaml": "rows:\n  - metrics:\n      accuracy: high\n"})
    run = lint(root, "--kind", "harbor_rows", "--definition", str(root / "boards/main.json"),
               str(root / "results/main.yaml"))
    assert run.at("PL605") == [("results/main.yaml", 3)]
    assert "boards/main.json" in run.findings[0]["message"]
    # without it, nothing to check the row against
    run = lint(root, "--kind", "harbor_rows", str(root / "results/main.yaml"))
    assert run.findings == []


def test_pl605_kinds_mapping_pairs_files_in_one_folder(harbor):
    root = harbor(definition=None, rows=None,
extra={
        "hub/board.yaml": GOOD_DEF,
        "hub/entries.yaml": edit(GOOD_ROWS, "accuracy: 0.41", "accuracy: -1"),
        ".penguin-lint.toml": '[kinds]\n"hub/board.yaml" = "harbor_leaderboard"\n"hub/entries.yaml" = "harbor_rows"\n'})
    run = lint(root, "--all")
    assert run.at("PL605") == [("hub/entries.yaml", line_of(GOOD_ROWS, "accuracy: 0.41"))]


def test_pl605_ignores_a_penguin_leaderboard_beside_mapped_rows(repo, monkeypatch):
    from penguin_lint.rules import _harbor
    from tests.conftest import VALID
    compiled = []
    monkeypatch.setattr(_harbor, "_compile", lambda key, schema: compiled.append(key))
    root = repo({"leaderboards/lb/rows.yaml": "rows:\n  - metrics: {accuracy: high}\n",
                 ".penguin-lint.toml": '[kinds]\n"leaderboards/*/rows.yaml" = "harbor_rows"\n'}, base=VALID)
    assert lint(root, "--all").findings == []
    assert compiled == []  # leaderboards/lb/leaderboard.yaml is RFC-0005's, not a Harbor definition


def test_kind_option_forces_a_definition(repo):
    root = repo({"boards/main.yaml": edit(GOOD_DEF, "name: main", "name: Main")}, base={})
    run = lint(root, "--all")  # not a Harbor path, nor any layout folder: nothing to lint
    assert run.code == 2 and "nothing to lint" in run.stderr
    run = lint(root, "--kind", "harbor_leaderboard", str(root / "boards/main.yaml"))
    assert run.at("PL103") == [("boards/main.yaml", 2)]


def test_pl605_compiles_each_definition_once(harbor, monkeypatch):
    from penguin_lint.rules import _harbor
    calls = []
    real = _harbor._compile
    monkeypatch.setattr(_harbor, "_compile", lambda key, schema: calls.append(key) or real(key, schema))
    root = harbor(extra={"leaderboard/rows2.yaml": GOOD_ROWS,
                         "leaderboard/rows3.json":
                             '{"rows": [{"metadata": {"agent": "a"}, "metrics": {"accuracy": 1}}]}'})
    run = lint(root, "--all")
    assert run.findings == [] and run.json["summary"]["files"] == 4
    assert sorted(calls) == ["metadata_schema", "metrics_schema"]


def test_pl605_changed_definition_rechecks_rows_beside_it(harbor):
    # a definition that now requires n_trials: rows.yaml's second row lacks it
    text = edit(GOOD_DEF, "  required: [accuracy]\n", "  required: [accuracy, n_trials]\n")
    rows = edit(GOOD_ROWS, "      - 36043904-3271-4c91-aaf7-4f941353d7a9\n",
                "      - 36043904-3271-4c91-aaf7-4f941353d7a9\n      - 36043904-3271-4c91-aaf7-4f941353d7a9\n")
    root = harbor(definition=text, rows=rows)
    run = lint(root, str(root / DEF))
    assert run.at("PL605") == [(ROWS, line_of(rows, "    metrics:", 1))]
    # a rows file elsewhere is not affected
    root = harbor(definition=text, rows=rows, extra={"other/rows.yaml": rows})
    assert {f["path"] for f in lint(root, str(root / DEF)).findings} == {ROWS}


# -- PL606 duplicate-trial ----------------------------------------------------------
def test_pl606_trial_in_two_rows(harbor):
    text = edit(GOOD_ROWS, "0cc33186-273e-4b4b-82dc-04c28fce2f0c", "36043904-3271-4c91-aaf7-4F941353D7A9")
    [f] = lint(harbor(rows=text), "--all").findings
    assert (f["code"], f["line"], f["column"]) == ("PL606", line_of(text, "4F941353D7A9"), 9)
    assert "row 2 (rows[1])" in f["message"] and f"row 1 (rows[0]) (line {line_of(text, '36043904')})" in f["message"]


def test_pl606_trial_twice_in_one_row(harbor):
    text = edit(GOOD_ROWS, "      - 0cc33186-273e-4b4b-82dc-04c28fce2f0c\n",
                "      - 0cc33186-273e-4b4b-82dc-04c28fce2f0c\n      - 0cc33186-273e-4b4b-82dc-04c28fce2f0c\n")
    [f] = lint(harbor(rows=text), "--all").findings
    assert (f["code"], f["line"]) == ("PL606", line_of(text, "0cc33186", 1))
    assert "twice in row 2 (rows[1])" in f["message"]


def test_pl606_distinct_trials_pass(harbor):
    assert "PL606" not in lint(harbor(), "--all").codes()


# -- PL607 text-ranking -------------------------------------------------------------
def test_pl607_rank_by_string_warns(harbor):
    text = edit(GOOD_DEF, "    direction: desc\n",
                "    direction: desc\n  - accessor: metadata.agent\n    direction: asc\n")
    run = lint(harbor(definition=text), "--all")
    [f] = run.findings
    assert (f["code"], f["severity"], f["line"], f["column"]) == (
        "PL607", "warning", line_of(text, "- accessor: metadata.agent"), 15)
    assert run.code == 0
    assert lint(harbor(definition=text), "--all", "--strict").code == 1


@pytest.mark.parametrize("prop,warns", [
    ("{type: string}", True),
    ("{type: [string, number]}", True),
    ("{type: object, properties: {url: {type: string}}}", True),
    ("{type: array}", True),
    ("{type: string, format: date}", False),
    ("{type: string, format: date-time}", False),
    ("{type: integer}", False),
    ("{type: [number, 'null']}", False),
    ("{type: boolean}", False),
    ("{enum: [a, b]}", False),
])
def test_pl607_by_property_type(harbor, prop, warns):
    text = edit(GOOD_DEF, "    n_trials:\n      type: integer\n", f"    n_trials: {prop}\n")
    text = edit(text, "  - accessor: metrics.accuracy\n", "  - accessor: metrics.n_trials\n")
    run = lint(harbor(definition=text, rows=None), "--all")
    assert run.at("PL607") == ([(DEF, line_of(text, "- accessor: metrics.n_trials"))] if warns else [])


def test_pl607_number_rank_passes(harbor):
    assert "PL607" not in lint(harbor(), "--all").codes()


# -- documentation and examples of the rules ----------------------------------------
@pytest.mark.parametrize("code", ["PL601", "PL602", "PL603", "PL604", "PL605", "PL606", "PL607"])
def test_rule_examples(repo, code):
    rule = get_rule(code)
    assert rule.doc() and rule.summary and rule.bad[1] and rule.good[1]
    assert rule.kinds and set(rule.kinds) <= {"harbor_leaderboard", "harbor_rows"}
    extra = {}
    if code == "PL605":  # the examples name the schema they are checked against
        extra[DEF] = ("package: acme/d\nname: main\ntitle: T\n"
                      "metrics_schema: {properties: {accuracy: {type: number}}}\n")
    bad = lint(repo({rule.bad[0]: rule.bad[1], **extra}, base={}), "--all")
    assert code in bad.codes()
    good = lint(repo({rule.good[0]: rule.good[1], **extra}, base={}), "--all")
    assert code not in good.codes()
    assert f"{code} {rule.name}" in lint(repo(), "rules", code).output


# -- the examples and the real files ------------------------------------------------
def _planted():
    text = (ROOT / "examples/harbor/VIOLATIONS.md").read_text(encoding="utf-8")
    out = []
    for m in re.finditer(r"^\| \d+ \| `([^`]+)` \| (\d+):(\d+)[^|]*\| (PL\d+) [a-z-]+ \| (error|warning) \|",
                         text, re.M):
        path, line, col, code, severity = m.groups()
        out.append((path.split("/", 1)[1], int(line), int(col), code, severity))
    return sorted(out)


def test_examples_clean_pair():
    run = lint(ROOT / "examples/harbor/clean", "--all")
    assert run.findings == [] and run.code == 0


def test_examples_broken_pair_reports_exactly_the_planted_findings():
    planted = _planted()
    assert len(planted) == 6
    run = lint(ROOT / "examples/harbor/broken", "--all")
    found = sorted((f["path"], f["line"], f["column"], f["code"], f["severity"]) for f in run.findings)
    assert found == planted
    assert run.code == 1


@pytest.mark.skipif(not REALWORLD.is_dir(), reason="real Harbor files not present")
def test_real_snowflake_definition_uppercase_slug():
    run = lint(REALWORLD / "Snowflake-Labs/data-eng-bench", "--all", "--no-cache")  # shared files: nothing written
    assert [(f["code"], f["path"], f["line"]) for f in run.findings] == [
        ("PL103", "leaderboard/leaderboard.yaml", 6)]
    assert "Snowflake-Labs/dbt-bench" in run.findings[0]["message"]


@pytest.mark.skipif(not REALWORLD.is_dir(), reason="real Harbor files not present")
def test_real_orca_definition_is_clean_and_submissions_are_not_rows():
    run = lint(REALWORLD / "ORCA-bench/ORCA-bench", "--all", "--no-cache")
    assert run.findings == []
    assert run.json["summary"]["files"] == 1  # leaderboard.json; submissions/*.json is not a kind


def test_a_pattern_that_backtracks_is_matched_in_linear_time(harbor):
    import time

    definition = edit(GOOD_DEF, "    agent:\n      type: string\n",
                      "    agent:\n      type: string\n      pattern: \"^(a+)+$\"\n")
    rows = edit(GOOD_ROWS, "agent: terminus-2", "agent: " + "a" * 40 + "!")
    start = time.process_time()
    run = lint(harbor(definition, rows), "--all")
    assert time.process_time() - start < 2
    assert only(run, "PL604") == []  # RE2 matches it without backtracking
    f = only(run, "PL605")[0]  # row 2 (openhands) fails it too
    assert (f["path"], f["line"]) == (ROWS, line_of(rows, "agent: aaa"))
    assert "row 1 (rows[0]): 'metadata.agent' does not match ^(a+)+$" in f["message"]


def test_pl604_accepts_an_unambiguous_slug_pattern(harbor):
    definition = edit(GOOD_DEF, "    agent:\n      type: string\n",
                      "    agent:\n      type: string\n      pattern: \"^([a-z0-9]+-)*[a-z0-9]+$\"\n")
    assert lint(harbor(definition), "--all").findings == []


def test_a_non_finite_value_repeated_by_an_alias_is_reported_where_each_row_holds_it(repo):
    """Harbor reads rows with safe_load: an alias repeats its anchor's value.
    Each row that holds .inf through it gets its PL103, and a message quotes
    the value, not the anchor written before it."""
    rows = GOOD_ROWS.replace("accuracy: 0.62", "accuracy: &a .inf").replace("accuracy: 0.41", "accuracy: *a")
    run = lint(repo({DEF: GOOD_DEF, ROWS: rows}, base={}), "--all")
    first, second = line_of(rows, "&a .inf"), line_of(rows, "*a")
    assert [(f["line"], f["column"]) for f in run.findings if f["code"] == "PL103"] == [(first, 17), (second, 17)]
    messages = [f["message"] for f in run.findings if f["code"] == "PL605"]
    assert messages == [
        "row 1 (rows[0]): 'metrics.accuracy' must be at most 1, not .inf (metrics_schema of leaderboard/leaderboard.yaml)",
        "row 2 (rows[1]): 'metrics.accuracy' must be at most 1, not inf (metrics_schema of leaderboard/leaderboard.yaml)",
    ]
