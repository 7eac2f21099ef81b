"""The YAML fast path (loaders/yaml_fast.py) against the event loop: for any
text it either declines or gives the same Document (data with its types,
problems, non-finite paths, every PositionTree array, the implicitly typed
scalars); it accepts the shapes data files are written in; load_yaml takes
it first."""
from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from penguin_lint.loaders import document, load_bytes, yaml_loader
from penguin_lint.loaders.scalars import same  # equal with the same types all the way down
from penguin_lint.loaders.yaml_fast import MAX_TEXT, load_fast
from penguin_lint.loaders.yaml_loader import load_yaml, load_yaml_events

ROOT = Path(__file__).resolve().parents[2]
REALWORLD = ROOT.parent / "shared" / "realworld"
ARRAYS = ("start", "end", "kstart", "kend", "first", "next", "flags")


def check(text: str) -> bool:
    """Whether the fast path took ``text``; if it did, its Document is the
    event loop's."""
    fast = load_fast(text, "f.yaml")
    slow = load_yaml_events(text, "f.yaml")
    if fast is None:
        return False
    assert slow.parsed and fast.parsed
    assert same(fast.data, slow.data), (fast.data, slow.data)
    assert fast.problems == slow.problems == []
    assert fast.nonfinite == slow.nonfinite
    tf, ts = fast._tree.tree, slow._tree.tree
    for name in ARRAYS:
        assert getattr(tf, name) == getattr(ts, name), (name, list(getattr(tf, name)), list(getattr(ts, name)))
    assert list(fast.implicit.items()) == list(slow.implicit.items())
    return True


# -- a grammar of the subset and of its near misses ------------------------------------

TRICKY = [
    "yes", "No", "on", "OFF", "y", "n", "true", "False", "~", "null", "Null", "NULL",
    "0o7", "010", "08", "0x1f", "0x1F", "0b101", "1_0", "1_000", "1:20", "1:30.5", "190:20:30", "-1:30",
    "-.inf", ".inf", "+.Inf", ".NaN", ".nan", "1e3", "1.0e+3", "1e-3", "6.9e+1", "1.5E+10", "+1", "-1",
    "0", "-0", "00", "0.", "0.5", ".5", "-0.25", "+0.5", "1.", "1_0.5", "12345678901234567890",
    "0.4722222222222222", "69.170", "2001-12-14t21:59:43.10-05:00", "2001-12-14 21:59:43.10 -5",
    "2024-01-01", "2024-1-1", "'it''s'", "'a'", "''", "' sp '", '"a\\"b"', '"\\u00e9"', '"\\x41\\n"',
    '"\\q"', '"tab\\there"', '"\\ud800"', '""', '"a # b"', "'a: b'", "a: b", "a #b", "a#b", "#", "- x",
    "-x", "--x", "[x]", "{}", "[]", "[ ]", "[a, b]", "[a,b]", "[a,]", "[, a]", "{a: 1, b: x}",
    "{a: 1, a: 2}", "{a:1}", "{a}", "{'a': 1}", "[1, 'two', \"3\"]", "[yes, 0x1f, ~, 1e3]", "[a: b]",
    "[[1]]", "{a: [1]}", "x]", "a,b", "a}", "http://x.y/z?q=1&r=2", "a:b", "a:", "a :b", "*alias",
    "&anchor x", "!tag x", "!!str 1", "|", ">", "> x", "%x", "@x", "`x", "?x", ":x", "<<", "=",
    "a b  c", "é", "日本", "😀", "\u00a0x", "x\u2028y", "a\tb", "---", "...", "- ", "a ", " a", "",
    "1" * 30, "9" * 400 + ".5", "0x" + "f" * 40,
]
SAFE = ["x", "test", "mean", "score_mean", "synth-lb-00", "CASE-003-coverage-control", "0.25", "1.0",
        "42", "7.71875", "1779519", "-3", "a b", "http://x.y/z", "v1.2", "'quoted'", '"dq"', "[a, b]",
        "{experiment_id: \"x\", phase: \"test\", metric: \"score_mean\"}", "[]", "{}", "yes", "~", "1e3",
        "2024-01-01", "é"]
KEYS = ["a", "b", "c", "score", "n_attempt", "x y", "1", "y", "on", "null", "é"]
ODD_KEYS = ["<<", "-k", "k:v", "'q'", '"dq"', "a#b", "k]", "? k", "&a k", "!t k", "k ", "[k]"]
plain_word = st.text(alphabet="ab01.-_:# '\"[]{},eE+x\\é", min_size=1, max_size=8)


class Map(list):
    """(key, value) entries of a block mapping."""


class Seq(list):
    """Items of a block sequence."""


def trees(leaf, key):
    return st.recursive(
        leaf,
        lambda kids: st.one_of(st.lists(st.tuples(key, kids), min_size=1, max_size=4).map(Map),
                               st.lists(kids, min_size=1, max_size=4).map(Seq)),
        max_leaves=12)


@st.composite
def documents(draw, leaf, key, odd: bool):
    """A YAML text rendered from a random tree in randomly chosen styles:
    indentation steps, indentless and compact sequences, comments, blank
    lines, trailing spaces, CRLF. ``odd`` adds styles outside the subset."""
    root = draw(st.one_of(st.lists(st.tuples(key, trees(leaf, key)), min_size=1, max_size=5).map(Map),
                          st.lists(trees(leaf, key), min_size=1, max_size=4).map(Seq)))
    steps = [1, 2, 3, 4] + ([0, 5] if odd else [])

    def tail():
        return draw(st.sampled_from(["", "", "", "  ", " # c", "   # note: x", "#x" if odd else ""]))

    def scalar_line(prefix, value):
        if value == "":
            return prefix.rstrip(" ") if not odd else prefix
        return prefix + value + tail()

    def render(node, ind):
        lines = []
        if isinstance(node, Map):
            for k, v in node:
                head = " " * ind + k + ":"
                if isinstance(v, (Map, Seq)):
                    lines.append(head + tail())
                    step = draw(st.sampled_from(steps + ([0] if isinstance(v, Seq) else [])))
                    lines += render(v, ind + step)
                else:
                    lines.append(scalar_line(head + draw(st.sampled_from([" ", "  "] + (["", "\t"] if odd else []))), v))
        else:
            for v in node:
                dash = " " * ind + "-" + draw(st.sampled_from([" ", "  "] + (["", "\t"] if odd else [])))
                if isinstance(v, Map) and draw(st.booleans()):
                    # compact: '- key: value', the rest of the mapping under the key
                    inner = render(v, len(dash))
                    lines.append(dash + inner[0][len(dash):])
                    lines += inner[1:]
                elif isinstance(v, (Map, Seq)):
                    lines.append(dash.rstrip(" ") + tail())
                    lines += render(v, ind + draw(st.sampled_from(steps[:4])))
                else:
                    lines.append(scalar_line(dash, v))
            return lines
        return lines

    lines = render(root, draw(st.sampled_from([0, 0, 0, 2])))
    # blank and comment lines anywhere
    for _ in range(draw(st.integers(0, 3))):
        at = draw(st.integers(0, len(lines)))
        lines.insert(at, draw(st.sampled_from(["", "  ", "# a comment", "    # indented: comment", " #"])))
    newline = draw(st.sampled_from(["\n", "\n", "\r\n"] + (["\r", "\u2028"] if odd else [])))
    text = newline.join(lines) + draw(st.sampled_from([newline, "", newline * 2]))
    if odd:
        for _ in range(draw(st.integers(0, 2))):
            at = draw(st.integers(0, len(text)))
            if draw(st.booleans()):
                text = text[:at] + draw(st.sampled_from(
                    [" ", "\t", "#", ":", ": ", "- ", "\n", "\n  ", "'", '"', "[", "]", "{", ",", "&a ", "*a",
                     "!x ", "---\n", "...\n", "? ", "|\n", ">-\n", "\r", "\u2028", "\x85", "\ufeff", "\x07",
                     "%YAML 1.1\n", "<<: ", "  ", "a: 1\n", "\\"])) + text[at:]
            else:
                text = text[:at] + text[at + 1:]
    return text


near_misses = documents(st.one_of(st.sampled_from(TRICKY), plain_word),
                        st.one_of(st.sampled_from(KEYS), st.sampled_from(ODD_KEYS)), odd=True)
subset = documents(st.one_of(st.sampled_from(TRICKY), plain_word),
                   st.sampled_from(KEYS), odd=False)


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(near_misses)
def test_near_misses_are_declined_or_read_as_the_event_loop_reads_them(text):
    check(text)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(subset)
def test_subset_texts_are_read_as_the_event_loop_reads_them(text):
    check(text)


def _unique_keys(text):
    """The documents of the clean grammar whose mappings repeat no key."""
    doc = load_yaml_events(text, "f.yaml")
    return doc.parsed and not doc.problems


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(documents(st.sampled_from(SAFE), st.sampled_from(KEYS), odd=False).filter(_unique_keys))
def test_clean_subset_texts_take_the_fast_path(text):
    assert check(text), text


@pytest.mark.parametrize("value, expected", [
    ("yes", True), ("No", False), ("on", True), ("1_000", 1000), ("0x1F", 31), ("010", 8), ("1:30", 90),
    ("1:30.5", 90.5), ("~", None), ("null", None), ("2024-01-01", "2024-01-01"), ("1e3", "1e3"),
    ("0.", 0.0), ("+1", 1), ("6.9e+1", 69.0), ("'it''s'", "it's"), ('"a\\"b\\u00e9"', 'a"bé'),
    ("a b  c", "a b  c"), ("http://x/y?a=1#frag", "http://x/y?a=1#frag"),
])
def test_yaml_1_1_typing_is_kept(value, expected):
    in_flow = not any(c in value for c in ":#")  # the fast path reads no ':' or '#' inside '[...]'
    text = f"k: {value}\nl:\n  - {value}\n" + (f"m: [{value}, x]\n" if in_flow else "")
    assert check(text)
    doc = load_fast(text, "f.yaml")
    assert same(doc.data["k"], expected)
    assert same(doc.data["l"][0], expected)
    if in_flow:
        assert same(doc.data["m"][0], expected)


# -- what it declines ---------------------------------------------------------------------

@pytest.mark.parametrize("text", [
    "a: 1\na: 2\n",                      # duplicate key: the event loop reports PL002
    "a: {x: 1, x: 2}\n",
    "a: &x 1\nb: *x\n",                  # anchors and aliases
    "a: !!str 1\n",                      # tags
    "<<: {a: 1}\n",                      # the merge key
    "%YAML 1.1\n---\na: 1\n",            # directives, markers
    "---\na: 1\n", "a: 1\n...\n",
    "a: |\n  text\n", "a: >-\n  text\n",  # block scalars
    "a: one\n  two\n",                   # multi-line plain scalar
    "a: 'one\n  two'\n",                 # multi-line quoted scalar
    "a: [1,\n  2]\n",                    # a flow collection over lines
    "a: [[1]]\n",                        # nested flow
    "? a\n: 1\n",                        # complex key
    "a: b: c\n",                         # ': ' inside a plain scalar
    "a:\tb\n", "\ta: 1\n",               # tabs
    "a: 1\rb: 2\n", "a: 1\u2028b: 2\n", "a: 1\x85b: 2\n",  # breaks to libyaml only
    "a: 1\n b: 2\n",                     # odd indentation
    "a: .inf\n", "a: .NaN\n",            # non-finite: the event loop records their paths
    "", "# only a comment\n", "just a scalar\n", "[1, 2]\n",
    "a: " + "9" * 5000 + "\n",           # too long an integer: the event loop reports it
    "a: x\n" + "b: y\n" * (MAX_TEXT // 5),  # too large for the fast path
])
def test_declines_what_it_cannot_prove(text):
    assert load_fast(text, "f.yaml") is None


def test_value_budget_is_the_event_loops(monkeypatch):
    # one budget for both loaders: past it the fast path declines and the event loop reports
    monkeypatch.setattr(document, "MAX_VALUES", 1000)
    monkeypatch.setattr(yaml_loader, "MAX_VALUES", 1000)
    doc = load_bytes(("x: [" + "1, " * 1500 + "1]\n").encode(), "test/attempt-1.yaml")
    [p] = doc.problems
    assert p.code == "PL001" and p.message.endswith("more than 1,000 values in one file")


def test_duplicate_keys_still_reported_through_load_yaml():
    doc = load_yaml("a: 1\nb: 2\na: 3\n", "f.yaml")
    assert [(p.code, p.pos.line) for p in doc.problems] == [("PL002", 3)]
    assert doc.data == {"a": 3, "b": 2}


def test_load_yaml_takes_the_fast_path_first(monkeypatch):
    calls = []
    real = yaml_loader.load_yaml_events
    monkeypatch.setattr(yaml_loader, "load_yaml_events", lambda t, p: calls.append(p) or real(t, p))
    doc = load_bytes(b"score: 0.5\nresults:\n  - source: \"CASE-001\"\n    score: 0.5\n", "test/attempt-1.yaml")
    assert doc.parsed and doc.data["results"][0]["score"] == 0.5 and calls == []
    assert doc.value_pos(("results", 0, "score")).line == 4
    doc = load_bytes(b"a: &x 1\n", "test/attempt-1.yaml")
    assert calls == ["test/attempt-1.yaml"] and [p.code for p in doc.problems] == ["PL003"]


# -- the shapes of real files -------------------------------------------------------------

ATTEMPT = """\
score: 0.4722222222222222
cost: 7.71875
duration_ms: 2968089
token: 1779519
results:
  - source: "CASE-003-coverage-control"
    score: 0.25
  - source: "CASE-013-ledger-forecast"   # re-run
    score: 1.0
"""
SUMMARY = """\
# written by the harness
n_attempt: 5
score_mean: 69.170
score_std: 0.09485003819797713
cost: 39.140625
duration_ms: 9815919
token: 5181961
"""
META = """\
experiment_id: "synth-lb-14-e034-skillopt-gpt-oss-120b"
benchmark_id: synth-bench-040
harness_name: 'harbor-terminus'
model_name: "gpt-oss-120b"
algorithm: skillopt
tags: [baseline, "v2"]

notes: ~
"""
LEADERBOARD = """\
leaderboard_id: "synth-lb-00"
status: "draft"
title: "Synthetic Leaderboard 00"
author:
  name: "Synthetic Team"
values:
  - op: "mean"
    args:
      - {experiment_id: "synth-lb-00-e000-baseline-glm-5", phase: "test", metric: "score_mean"}
      - {experiment_id: "synth-lb-00-e001-baseline-glm-5", phase: "test", metric: "score_mean"}
  - op: mean
    weights: [0.5, 0.5]
    args:
    - {experiment_id: "synth-lb-00-e002-baseline-glm-5", phase: "val", metric: "score_mean"}
    - {experiment_id: "synth-lb-00-e003-baseline-glm-5", phase: "val", metric: "score_mean"}
"""


@pytest.mark.parametrize("text", [ATTEMPT, SUMMARY, META, LEADERBOARD], ids=["attempt", "summary", "meta", "lb"])
@pytest.mark.parametrize("newline", ["\n", "\r\n"], ids=["lf", "crlf"])
def test_the_shapes_of_data_files_take_the_fast_path(text, newline):
    text = text.replace("\n", newline)
    assert check(text)
    assert check(text.rstrip(newline))  # no final line break


def test_positions_and_written_precision_come_from_the_fast_path():
    doc = load_fast(SUMMARY, "test/summary.yaml")
    assert doc.implicit[("score_mean",)] == ("float", "69.170")
    assert doc.value_pos(("score_mean",)) == load_yaml_events(SUMMARY, "s").value_pos(("score_mean",))
    pos = doc.value_pos(("score_mean",))
    assert (pos.line, pos.column, pos.end_line, pos.end_column) == (3, 13, 3, 19)
    doc = load_fast(LEADERBOARD, "leaderboard.yaml")
    pos = doc.key_pos(("values", 1, "args", 1, "phase"))
    assert (pos.line, pos.column) == (15, 58)


def _yaml_files(root: Path):
    return sorted(p for p in root.rglob("*") if p.suffix in (".yaml", ".yml") and p.is_file())


def _compare_files(files):
    taken = 0
    for path in files:
        text = path.read_bytes().decode("utf-8")
        if text.startswith("\ufeff"):
            text = text[1:]
        taken += check(text)
    return taken


def test_example_files_are_read_alike():
    files = _yaml_files(ROOT / "examples")
    assert len(files) > 20
    # every example but those holding block scalars or YAML-only constructs
    assert _compare_files(files) >= len(files) - 3


@pytest.mark.skipif(not REALWORLD.is_dir(), reason="real-world files not present")
def test_real_world_files_are_read_alike():
    files = _yaml_files(REALWORLD)
    assert files
    assert _compare_files(files) >= 1


@pytest.mark.parametrize("value", ["010", "0777", "00", "0", "7", "08", "0x1F", "0b101", "1_000", "-010", "+010"])
def test_integers_read_as_pyyaml_reads_them(value):
    # what the repository's own tools get from yaml.safe_load (YAML 1.1: 010 is octal 8)
    import yaml

    from penguin_lint.loaders.yaml_loader import load_yaml_events

    expected = yaml.safe_load(f"k: {value}\n")["k"]
    for doc in (load_yaml(f"k: {value}\n", "f.yaml"), load_yaml_events(f"k: {value}\n", "f.yaml")):
        assert same(doc.data["k"], expected), (value, doc.data["k"], expected)
