"""penguin-lint reads YAML as yaml.safe_load reads it (issue 34): a
differential property test over generated YAML 1.1 texts, and the cases the
audit found, each pinned to its finding."""
from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings

from penguin_lint.loaders import load_yaml
from tests.conftest import lint
from tests.yaml_differential import difference, texts


@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(texts())
def test_penguin_lint_reports_or_reads_what_safe_load_reads(text):
    assert difference(text) is None, (text, difference(text))


def problems(text):
    return [(p.code, p.pos.line) for p in load_yaml(text, "data.yaml").problems]


@pytest.mark.parametrize("text, line", [
    ("algorithm: =\n", 1), ("a: 1\nb: <<\n", 2), ("- x\n- =\n", 2), ("a: [1, =]\n", 1), ("a: {b: <<}\n", 1),
])
def test_a_plain_value_or_merge_scalar_is_pl001_where_it_is(text, line):
    found = problems(text)
    assert ("PL001", line) in found, found


def test_a_plain_equals_key_is_text_as_in_safe_load():
    doc = load_yaml("=: 1\n", "data.yaml")
    assert doc.problems == [] and doc.data == {"=": 1}


def test_a_merge_key_is_pl003():
    assert problems("a: 1\n<<: {b: 2}\n") == [("PL003", 2)]


@pytest.mark.parametrize("text, data, line", [
    ("on: 3.5\n1: 7\n", {True: 7}, 2),
    ("yes: 1\ntrue: 2\n", {True: 2}, 2),
    ("1: a\n01: b\n", {1: "b"}, 2),
    ("1: a\n0x1: b\n", {1: "b"}, 2),
    ("~: a\nnull: b\n", {None: "b"}, 2),
    ("1: a\n1.0: b\n", {1: "b"}, 2),
    ("{on: 1, 1: 2}\n", {True: 2}, 1),
])
def test_keys_safe_load_merges_are_pl002(text, data, line):
    doc = load_yaml(text, "data.yaml")
    assert [(p.code, p.pos.line) for p in doc.problems] == [("PL002", line)]
    assert doc.data == data and list(map(type, doc.data)) == list(map(type, data))


@pytest.mark.parametrize("text, data", [
    ("on: 1\n'on': 2\n", {True: 1, "on": 2}),
    ('1: a\n"1": b\n', {1: "a", "1": "b"}),
    ("null: a\n'null': b\n", {None: "a", "null": "b"}),
    ("y: 1\nyes: 2\n", {"y": 1, True: 2}),  # PyYAML's bool has no 'y'
])
def test_a_quoted_key_is_not_the_typed_one(text, data):
    doc = load_yaml(text, "data.yaml")
    assert doc.problems == [] and doc.data == data


@pytest.mark.parametrize("text", ["a: b\t\n", "a: b \t\n", "- a\t\n", "a:\t1\n", "'a'\t: 1\n"])
def test_what_libyaml_accepts_and_safe_load_refuses_is_pl001(text):
    doc = load_yaml(text, "data.yaml")
    assert not doc.parsed and [(p.code, p.pos.line) for p in doc.problems] == [("PL001", 1)]


@pytest.mark.parametrize("text", ["---\n{2024-01-01:!!value ?=}\n", "a: [b ?c]\n", "a: {b ?c: 1}\n",
                                  "tags: [why?]\n", "a: [b, c?]\n", "a: {x?: 1}\n",
                                  "- [!, 0.5]\n"])
def test_a_question_mark_or_bare_tag_in_flow_is_read_as_safe_load_reads_it(text):
    # libyaml (and the fast path) read 'b ?c' and 'why?' as plain scalars;
    # safe_load's scanner ends a flow scalar at '?', takes it for a key
    # indicator and refuses the text (found by the campaign)
    assert difference(text) is None
    assert "PL001" in [p.code for p in load_yaml(text, "data.yaml").problems]


@pytest.mark.parametrize("text, data", [("---\n\ufeffx\n", "\ufeffx"), ("a: [b\ufeff]\n", {"a": ["b\ufeff"]})])
def test_a_byte_order_mark_past_the_start_is_kept_as_safe_load_keeps_it(text, data):
    doc = load_yaml(text, "data.yaml")
    assert difference(text) is None and doc.data == data


@pytest.mark.parametrize("marks", [1, 2, 3])
@pytest.mark.parametrize("body", [" 0", "a: 1\n", "", "\n", "- 1\n", "# c\na: 1\n", "a: \x07\n", "\t0"])
def test_byte_order_marks_at_the_start_are_read_as_safe_load_reads_the_file(marks, body):
    # safe_load's reader drops one mark; libyaml's drops the next as well
    assert difference("\ufeff" * marks + body) is None


def test_a_tab_in_a_comment_or_quotes_still_loads():
    doc = load_yaml("a: 'x\ty'  # c\td\nb: 1\n", "data.yaml")
    assert doc.problems == [] and doc.data == {"a": "x\ty", "b": 1}


def test_an_unknown_directive_is_pl003_not_a_parse_error():
    doc = load_yaml("%FOO bar\n---\na: 1\n", "data.yaml")
    assert doc.parsed and doc.data == {"a": 1}
    assert [(p.code, p.pos.line) for p in doc.problems] == [("PL003", 1)]


@pytest.mark.parametrize("text", [
    "a: !!set {x, y}\n", "a: !!omap [x: 1]\n", "a: !!pairs [x: 1]\n", "a: !!binary aGVsbG8=\n",
    "a: !!timestamp 2001-01-01\n",
])
def test_tags_safe_load_constructs_are_pl003(text):
    doc = load_yaml(text, "data.yaml")
    assert doc.parsed and [(p.code, p.pos.line) for p in doc.problems] == [("PL003", 1)]


@pytest.mark.parametrize("text", ["a: !!map x\n", "a: !!seq x\n", "a: !!int {b: 1}\n", "a: !!set [x]\n",
                                  "a: !!str [x]\n", "a: !!value x\n"])
def test_a_tag_on_the_wrong_kind_of_node_is_pl001(text):
    assert problems(text) == [("PL001", 1)]


@pytest.mark.parametrize("text, data", [
    ("{? a : b}\n", {"a": "b"}), ("{a, b}\n", {"a": None, "b": None}), ("{a: 1, ? b}\n", {"a": 1, "b": None}),
    ("[a: b]\n", [{"a": "b"}]), ("? a\n: b\n", {"a": "b"}), ("a: ! 'on'\n", {"a": True}),
])
def test_flow_and_explicit_keys_load(text, data):
    doc = load_yaml(text, "data.yaml")
    assert doc.problems == [] and doc.data == data


# -- through the command line, on a repository ----------------------------------

LB = "leaderboards/lb/leaderboard.yaml"
SUMMARY = "experiments/lb/exp-1/test/summary.yaml"
META = "experiments/lb/exp-1/meta_info.yaml"
HEADER = "leaderboard_id: lb\nstatus: draft\ntitle: LB\nauthor:\n  name: Lab\nvalues:\n"


def test_a_metric_is_looked_up_as_safe_loads_dict_holds_the_keys(repo):
    files = {
        SUMMARY: "n_attempt: 2\nscore_mean: 50.0\nscore_std: 0.0\non: 3.5\n'off': 2.5\n",
        LB: HEADER + ("  - { experiment_id: exp-1, phase: test, metric: 'on' }\n"
                      "  - { experiment_id: exp-1, phase: test, metric: 'off' }\n"),
    }
    run = lint(repo(files), "--all")
    # the summary's plain on: is the key True, so 'on' names no key; its 'off': is quoted
    assert run.at("PL402") == [(LB, 7)]


def test_keys_one_for_safe_load_are_pl002_in_a_summary(repo):
    run = lint(repo({SUMMARY: "n_attempt: 2\nscore_mean: 50.0\nscore_std: 0.0\non: 3.5\n1: 7\n"}), "--all")
    assert run.at("PL002") == [(SUMMARY, 5)]
    assert run.code == 1


def test_a_plain_equals_value_fails_the_run(repo):
    meta = "experiment_id: exp-1\nbenchmark_id: bench-a\nharness_name: h\nmodel_name: m\nalgorithm: =\n"
    run = lint(repo({META: meta}), "--all")
    assert run.at("PL001") == [(META, 5)]
    assert run.code == 1


def test_a_second_byte_order_mark_is_content_as_in_safe_load(repo):
    # safe_load drops the first mark and reads the second as text: its first
    # key is '\ufeffexperiment_id', an attempt ' 0' is text; columns count
    # the second mark as the editor shows it
    meta = "experiment_id: exp-1\nbenchmark_id: bench-a\nharness_name: h\nmodel_name: m\nalgorithm: 7\n"
    attempt = "experiments/lb/exp-1/test/attempt-1.yaml"
    run = lint(repo({META: ("\ufeff\ufeff" + meta).encode(), attempt: "\ufeff\ufeff 0\n".encode()}), "--all")
    found = [(f["code"], f["path"], f["line"], f["column"], f["message"]) for f in run.findings
             if f["code"] in ("PL101", "PL102")]
    assert found == [
        ("PL101", META, 1, 1, "missing required field 'experiment_id'"),
        ("PL102", META, 5, 12, "'algorithm' must be a string, not an integer"),
        ("PL102", attempt, 1, 1, "'(top level)' must be a mapping, not a string"),
    ]


def test_a_tab_after_a_value_fails_the_run(repo):
    meta = "experiment_id: exp-1\nbenchmark_id: bench-a\nharness_name: h\nmodel_name: m\t\nalgorithm: b\n"
    run = lint(repo({META: meta}), "--all")
    assert run.at("PL001") == [(META, 4)]


def test_two_nan_keys_are_one_key_as_in_safe_load():
    # safe_load builds every .nan as one object, so its dict holds one key
    # (found by the campaign): PL002 on the second, as for any repeated key
    text = ".nan: a\nb: 1\n.NaN: c\n"
    assert difference(text) is None
    assert ("PL002", 3) in problems(text)


@pytest.mark.parametrize("text, line", [("---\n- >#\n", 2), ("a: |-#\n  x\n", 1)])
def test_a_block_scalar_header_glued_to_a_comment_is_pl001(text, line):
    # libyaml reads '>#' as a folded scalar; safe_load's scanner refuses it
    # (found by the campaign)
    doc = load_yaml(text, "data.yaml")
    assert difference(text) is None
    assert [(p.code, p.pos.line) for p in doc.problems] == [("PL001", line)]


# -- what libyaml's scanner refuses and safe_load reads (issue 44) ----------------

@pytest.mark.parametrize("text, data", [
    ("metrics: {cost:, tokens: 3}\n", {"metrics": {"cost": None, "tokens": 3}}),
    ("k: [a:]\n", {"k": [{"a": None}]}),
    ("k: [a:, b]\n", {"k": [{"a": None}, "b"]}),
    ("- {cost:}\n", [{"cost": None}]),
    ("{'k' :, b:}\n", {"k": None, "b": None}),
])
def test_what_libyaml_refuses_and_safe_load_reads_is_read(text, data):
    doc = load_yaml(text, "data.yaml")
    assert doc.problems == [] and doc.data == data
    assert difference(text) is None


def test_findings_in_a_text_libyaml_refuses_have_their_lines_and_columns():
    # read by the pure-Python reader: offsets in characters, lines at LF only
    doc = load_yaml("é: {cost:, n: 1}\r\nk: 1\r\nk: &x 2\r\n", "data.yaml")
    assert doc.data == {"é": {"cost": None, "n": 1}, "k": 2}
    assert [(p.code, p.pos.line, p.pos.column) for p in doc.problems] == [("PL003", 3, 4), ("PL002", 3, 1)]
    assert (doc.key_pos(("é", "n")).line, doc.key_pos(("é", "n")).column) == (1, 12)


def test_what_both_refuse_stays_pl001():
    cases = [
        # where the reference stops, not where libyaml did
        ("k: [a:, b\n", 1, 10, "the flow sequence opened at line 1 is never closed"),
        ("a: {b:, c\nd: 1\n", 2, 2, "expected ',' or '}', but got ':' in the flow mapping opened at line 1"),
        # both stop at one place: libyaml's finding, as before
        ("a: {b: 1\nc: [d:]\n", 2, 2, "did not find expected ',' or '}' in the flow mapping opened at line 1"),
    ]
    for text, line, column, message in cases:
        doc = load_yaml(text, "data.yaml")
        assert not doc.parsed
        assert [(p.code, p.pos.line, p.pos.column, p.message) for p in doc.problems] == [
            ("PL001", line, column, "YAML does not parse: " + message)], text


def test_the_second_reading_keeps_the_limits():
    doc = load_yaml("[" * 70 + "a:" + "]" * 70 + "\n", "data.yaml")
    assert [(p.code, p.message) for p in doc.problems] == [("PL001", "nesting deeper than 64 levels")]


def test_a_text_libyaml_refuses_is_linted_as_safe_load_reads_it(repo):
    root = repo({
        SUMMARY: "n_attempt: 2\nmetrics: {cost:, tokens: 3}\nscore_mean: 40.0\nscore_std: 0.0\n",
        "experiments/lb/exp-1/test/attempt-2.yaml": "score: 50.0\nresults:\n  - {source: CASE-001-one, score: 50.0, note:}\n",
    })
    run = lint(root, "--all")
    assert [(f["code"], f["path"], f["line"], f["column"]) for f in run.findings] == [
        ("PL104", "experiments/lb/exp-1/test/attempt-2.yaml", 3, 41), ("PL303", SUMMARY, 3, 13)]
    assert run.code == 1
