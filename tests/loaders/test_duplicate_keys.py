"""A key written twice is read as its consumer reads it: ``yaml.safe_load``
and ``json.loads`` keep the last value, so the data, and everything the
loaders remember about a value by its path (where it and its key are, how a
plain scalar was typed, a number's text, a number past any float), are
those of the last occurrence, at every depth, in block and flow style.

The reference for positions is PyYAML's own composer: the node the
constructor keeps for a key is the last one. Merge keys are left out (PL003
refuses them in data files; tests/loaders/test_harbor_merge_differential.py
reads them as Harbor does).
"""
from __future__ import annotations

import json
import math
import re
import sys

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from yaml.constructor import SafeConstructor

from penguin_lint.loaders import load_bytes
from penguin_lint.loaders.numbers import number_text
from tests.conftest import lint
from tests.yaml_differential import same

# few keys, so that a mapping repeats one often; 'a' and "a" are one key
YAML_KEYS = ["a", "b", "score", "'a'", '"score"']
YAML_LEAVES = ["1", "2.5", "0.50", "-3", "x", "'q'", "on", "~", ".inf", "-.nan", "1e3", "0x1f",
               "1.0e+999", "9" * 400, "2024-01-01", ""]
# an integer no float can hold
BIG = int(sys.float_info.max) + 1


def _tree(leaves, keys):
    return st.recursive(
        st.sampled_from(leaves),
        lambda kids: st.one_of(
            st.lists(st.tuples(st.sampled_from(keys), kids), min_size=1, max_size=5).map(lambda e: ("map", e)),
            st.lists(kids, min_size=1, max_size=3).map(lambda e: ("seq", e))),
        max_leaves=14)


@st.composite
def yaml_texts(draw) -> str:
    entries = draw(st.lists(st.tuples(st.sampled_from(YAML_KEYS), _tree(YAML_LEAVES, YAML_KEYS)),
                            min_size=2, max_size=6))
    block_style = st.sampled_from([True, True, False])

    def flow(v) -> str:
        if isinstance(v, str):
            return v or "~"
        if v[0] == "map":
            return "{" + ", ".join(f"{k}: {flow(x)}" for k, x in v[1]) + "}"
        return "[" + ", ".join(flow(x) for x in v[1]) + "]"

    def block(v, ind: int) -> list:
        pad, out = " " * ind, []
        for k, x in (v[1] if v[0] == "map" else [(None, x) for x in v[1]]):
            head = f"{pad}{k}:" if k is not None else f"{pad}-"
            if isinstance(x, tuple) and draw(block_style):
                out.append(head)
                out += block(x, ind + 2)
            else:
                out.append(f"{head} {flow(x)}".rstrip())
        return out

    top = ("map", entries)
    return "\n".join(block(top, 0)) + "\n" if draw(block_style) else flow(top) + "\n"


def _composed(text: str) -> dict:
    """path -> (key node or None, value node), the last node of a repeated
    key replacing the first and everything below it."""
    construct = SafeConstructor().construct_object
    out: dict = {}

    def walk(node, path, key_node):
        out[path] = (key_node, node)
        if isinstance(node, yaml.MappingNode):
            for kn, vn in node.value:
                here = path + (construct(kn, deep=True),)
                for p in [p for p in out if p[:len(here)] == here]:
                    del out[p]
                walk(vn, here, kn)
        elif isinstance(node, yaml.SequenceNode):
            for i, vn in enumerate(node.value):
                walk(vn, path + (i,), None)

    walk(yaml.compose(text, Loader=yaml.SafeLoader), (), None)
    return out


def _nonfinite_paths(data, path=()):
    if isinstance(data, dict):
        for k, v in data.items():
            yield from _nonfinite_paths(v, path + (k,))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            yield from _nonfinite_paths(v, path + (i,))
    elif isinstance(data, float) and not math.isfinite(data) or type(data) is int and abs(data) >= BIG:
        yield path


def _offset(text: str, pos) -> int:
    return [0, *(m.end() for m in re.finditer("\n", text))][pos.line - 1] + pos.column - 1


@settings(max_examples=120, deadline=None, suppress_health_check=list(HealthCheck))
@given(yaml_texts())
def test_yaml_a_repeated_key_is_its_last_occurrence_everywhere(text):
    doc = load_bytes(text.encode(), "data.yaml")
    assert doc.parsed and {p.code for p in doc.problems} <= {"PL002"}, doc.problems
    assert same(doc.data, yaml.safe_load(text)), (doc.data, yaml.safe_load(text))
    for path, (key_node, node) in _composed(text).items():
        if any(type(p) is not str for p in path if not isinstance(p, int)):
            continue
        if isinstance(node, yaml.ScalarNode) and node.value == "" and node.style is None:
            continue  # an empty value: libyaml and PyYAML place it apart
        assert _offset(text, doc.value_pos(path)) == node.start_mark.index, (path, doc.value_pos(path))
        if key_node is not None:
            assert _offset(text, doc.key_pos(path)) == key_node.start_mark.index, (path, doc.key_pos(path))
        typed = doc.implicit.get(path)
        if isinstance(node, yaml.ScalarNode) and node.style is None:
            assert typed is None or typed[1] == node.value, (path, typed)
            value = doc.get(*path)
            if isinstance(value, (int, float)) and not isinstance(value, bool) and len(node.value) <= 60:
                assert number_text(doc, path) == node.value, path
        else:
            assert typed is None, (path, typed)
    assert sorted(map(repr, doc.nonfinite)) == sorted(map(repr, _nonfinite_paths(doc.data))), doc.nonfinite


# -- JSON: every leaf is unique, so a value's place reads back as that value --

@st.composite
def json_texts(draw) -> str:
    count = iter(range(1, 10 ** 6))
    keys = st.sampled_from(["a", "b", "score"])
    kinds = st.sampled_from(["int", "decimal", "text", "inf", "big", "true", "null", "exponent"])

    def leaf() -> str:
        n = next(count)
        kind = draw(kinds)
        return {"int": f"{n}", "decimal": f"{n}.50", "text": f'"s{n}"',
                "inf": draw(st.sampled_from(["1e999", "-1e999"])),
                "big": "9" * 400 + str(n), "true": "true", "null": "null", "exponent": f"{n}.0e2"}[kind]

    def value(depth: int) -> str:
        shape = draw(st.sampled_from(["leaf", "map", "map", "list"] if depth < 4 else ["leaf"]))
        nl = draw(st.booleans())
        sep = ",\n" + "  " * (depth + 1) if nl else ", "
        if shape == "map":
            n = draw(st.integers(1, 5))
            return "{" + sep.join(f'"{draw(keys)}": {value(depth + 1)}' for _ in range(n)) + "}"
        if shape == "list":
            return "[" + sep.join(value(depth + 1) for _ in range(draw(st.integers(1, 3)))) + "]"
        return leaf()

    n = draw(st.integers(2, 6))
    return "{" + ", ".join(f'"{draw(keys)}": {value(1)}' for _ in range(n)) + "}\n"


def _walk(value, path=()):
    yield path, value
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _walk(v, path + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _walk(v, path + (i,))


def _span(text: str, pos) -> str:
    return text[_offset(text, pos):_offset(text, type(pos)(pos.end_line, pos.end_column))]


@settings(max_examples=120, deadline=None, suppress_health_check=list(HealthCheck))
@given(json_texts())
def test_json_a_repeated_key_is_its_last_occurrence_everywhere(text):
    doc = load_bytes(text.encode(), "data.json")
    ref = json.loads(text)
    assert doc.parsed and {p.code for p in doc.problems} <= {"PL002"}, doc.problems
    assert json.dumps(doc.data) == json.dumps(ref)
    for path, value in _walk(ref):
        pos = doc.value_pos(path)
        written = _span(text, pos)
        assert json.dumps(json.loads(written)) == json.dumps(value), (path, written)
        if path and isinstance(path[-1], str):
            # the key just before that value, with nothing but ':' between them
            between = text[_offset(text, doc.key_pos(path)):_offset(text, pos)]
            assert re.fullmatch(r'"%s"\s*:\s*' % path[-1], between), (path, between)
        if isinstance(value, (int, float)) and not isinstance(value, bool) and len(written) <= 60:
            assert number_text(doc, path) == written, path
    assert sorted(map(repr, doc.nonfinite)) == sorted(map(repr, _nonfinite_paths(doc.data)))
    assert len(doc.nonfinite) == len(set(doc.nonfinite))


# -- a key written three times ------------------------------------------------------

@pytest.mark.parametrize("name, text", [
    ("data.yaml", "a: 1\nb: 0\na: 2\na: 3\n"),
    ("data.yaml", "{a: 1,\n b: 0,\n a: 2,\n a: 3}\n"),
    ("data.json", '{"a": 1,\n "b": 0,\n "a": 2,\n "a": 3}\n'),
    ("data.toml", "a = 1\nb = 0\na = 2\na = 3\n"),
])
def test_each_repetition_names_the_line_of_the_first_occurrence(name, text):
    """The index moves a repeated key to its last occurrence; the third
    one's PL002 still names the first, as TOML's does."""
    found = [(p.code, p.pos.line, p.message.split(";")[0]) for p in load_bytes(text.encode(), name).problems]
    assert found == [("PL002", 3, "duplicate key 'a' (first defined on line 1)"),
                     ("PL002", 4, "duplicate key 'a' (first defined on line 1)")]


def test_the_command_line_names_the_first_occurrence_of_a_key_written_three_times(repo):
    summary = "experiments/lb/exp-1/test/summary.yaml"
    run = lint(repo({summary: "n_attempt: 2\nscore_mean: 51.0\nscore_mean: 52.0\nscore_mean: 50.0\nscore_std: 0.0\n"}),
               "--all")
    assert [(f["line"], f["column"], f["message"]) for f in run.findings] == [
        (3, 1, "duplicate key 'score_mean' (first defined on line 2); the last one wins"),
        (4, 1, "duplicate key 'score_mean' (first defined on line 2); the last one wins")]


@pytest.mark.parametrize("second, typed", [("yes", "true"), ("0x1", "1"), ("True", "true")])
def test_two_spellings_of_one_yaml_key_name_both_and_the_value_they_share(second, typed):
    text = f"a: 1\non: 1\n{second}: 2\n"
    assert yaml.safe_load(text) == {"a": 1, True: 2}  # what the consumer reads
    doc = load_bytes(text.encode(), "experiments/lb/exp/meta_info.yaml")
    (p,) = [p for p in doc.problems if p.code == "PL002"]
    assert (p.pos.line, p.pos.column) == (3, 1)
    assert p.message == (f"duplicate key '{second}': YAML 1.1 reads it as {typed}, "
                         "the same key as 'on' on line 2; the last one wins")
    assert p.hint == "quote both keys if they are different keys, or remove one of them"
    # quoted as the hint says, they are two keys and no PL002
    quoted = load_bytes(f"a: 1\n'on': 1\n'{second}': 2\n".encode(), "experiments/lb/exp/meta_info.yaml")
    assert not [p for p in quoted.problems if p.code == "PL002"]
