"""Merge keys in Harbor files against both ways PyYAML's releases read them.

Up to 6.0.3 PyYAML's ``flatten_mapping`` lets the first mapping of a ``<<``
list win and the last of several ``<<`` keys; 6.0.4 lets the last source win,
except where two keys are one Python object (one-character strings and small
numbers are shared), where the first does. Which release reads the harness's
files is not ours to know, so a Harbor file passes only when both read it the
same, and then penguin-lint reads what they read; where they differ it is a
finding. The two readings below are ``yaml.SafeLoader`` with each release's
rule for ordering the merged pairs (the installed PyYAML is one of them).
"""
from __future__ import annotations

import math

import yaml
from hypothesis import given, settings, strategies as st
from yaml.constructor import ConstructorError
from yaml.nodes import MappingNode, SequenceNode

from penguin_lint.loaders import load_bytes
from penguin_lint.loaders.yaml_aliases import expand_aliases


def _sources(loader, node):
    """The merge sources of ``node`` in the text's order, each a list of
    mappings (one for ``<<: *a``, several for ``<<: [...]``); the ``<<``
    pairs are taken out of the node."""
    out, kept = [], []
    for key_node, value_node in node.value:
        if key_node.tag != "tag:yaml.org,2002:merge":
            kept.append((key_node, value_node))
            continue
        items = value_node.value if isinstance(value_node, SequenceNode) else [value_node]
        for item in items:
            if not isinstance(item, MappingNode):
                raise ConstructorError("while constructing a mapping", node.start_mark,
                                       "expected a mapping for merging", item.start_mark)
            loader.flatten_mapping(item)
        out.append(items if isinstance(value_node, SequenceNode) else [value_node])
    node.value = kept
    return out


class UpTo603(yaml.SafeLoader):
    """A list's mappings in reverse (its first wins), the ``<<`` keys in order (the last wins)."""

    def flatten_mapping(self, node):
        merged = []
        for items in _sources(self, node):
            for item in reversed(items):
                merged.extend(item.value)
        node.value = merged + node.value


class From604(yaml.SafeLoader):
    """Every pair in order, but a key that is the same object as one taken already is dropped."""

    def flatten_mapping(self, node):
        merged, taken = [], set()
        for items in _sources(self, node):
            for item in items:
                for pair in item.value:
                    if id(pair[0].value) not in taken:
                        taken.add(id(pair[0].value))
                        merged.append(pair)
        node.value = merged + node.value


def _same(a, b) -> bool:
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return {(type(k), k) for k in a} == {(type(k), k) for k in b} and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    return a == b or (isinstance(a, float) and math.isnan(a) and math.isnan(b))


KEYS = ["k", "x", "1", "kk", "status", "metrics", "'kk'", "true"]
SCALARS = ["1", "2", "hide", "display", "true", "0.5", "~", "kk"]


@st.composite
def flow_mapping(draw, anchors):
    pairs = []
    for key in draw(st.lists(st.sampled_from(KEYS), min_size=0, max_size=3, unique=True)):
        pairs.append(f"{key}: {draw(st.sampled_from(SCALARS + [f'*{a}' for a in anchors]))}")
    merge = draw(st.sampled_from([None] + anchors)) if anchors else None
    if merge is not None:
        pairs.insert(draw(st.integers(0, len(pairs))), f"<<: *{merge}")
    return "{" + ", ".join(pairs) + "}"


@st.composite
def merging_text(draw):
    lines, anchors = [], []
    for i in range(draw(st.integers(1, 4))):
        lines.append(f"a{i}: &m{i} {draw(flow_mapping(list(anchors)))}")
        anchors.append(f"m{i}")
    lines.append("r:")
    own = draw(st.lists(st.sampled_from(KEYS), max_size=2, unique=True))
    body = [f"  {key}: {draw(st.sampled_from(SCALARS))}" for key in own]
    for _ in range(draw(st.integers(1, 3))):
        sources = draw(st.lists(st.one_of(st.sampled_from([f"*{a}" for a in anchors]), flow_mapping(list(anchors))),
                                min_size=1, max_size=3))
        value = sources[0] if len(sources) == 1 and draw(st.booleans()) else "[" + ", ".join(sources) + "]"
        body.insert(draw(st.integers(0, len(body))), f"  <<: {value}")
    return "\n".join(lines + body) + "\n"


def _ours(text: str):
    doc = load_bytes(text.encode(), "leaderboard/rows.yaml")
    if doc.aliases is not None:
        expand_aliases(doc)
    return doc


@settings(max_examples=300, deadline=None)
@given(merging_text())
def test_a_harbor_file_passes_only_where_every_release_reads_it_the_same(text):
    try:
        old, new = yaml.load(text, Loader=UpTo603), yaml.load(text, Loader=From604)
    except yaml.YAMLError:
        return  # refused by both: the loaders' own differential covers what PyYAML refuses
    doc = _ours(text)
    reported = [p for p in doc.problems if p.code in ("PL001", "PL002", "PL003")]
    if not _same(old, new):
        # the file does not pass: the merge's PL003, or a key repeated inside
        # a merged mapping (PL002), which is where the releases part
        assert reported, text
        assert any(p.code == "PL003" and p.message.startswith("merge key '<<' merges two different values")
                   for p in reported) or any(p.code == "PL002" for p in reported), text
    elif not reported:
        assert _same(doc.data, old), text
        assert _same(doc.data, yaml.safe_load(text)), text


def test_the_two_readings_are_the_releases():
    """Each reading is PyYAML's where the installed release is that one."""
    text = "a: &a {kk: 1, k: 1}\nb: &b {kk: 2, k: 2}\nr:\n  <<: [*a, *b]\n"
    installed = yaml.safe_load(text)["r"]
    assert yaml.load(text, Loader=UpTo603)["r"] == {"kk": 1, "k": 1}
    assert yaml.load(text, Loader=From604)["r"] == {"kk": 2, "k": 1}
    release = tuple(int(part) for part in yaml.__version__.split(".")[:3])
    assert installed == (yaml.load(text, Loader=From604) if release >= (6, 0, 4) else
                         yaml.load(text, Loader=UpTo603))["r"]
