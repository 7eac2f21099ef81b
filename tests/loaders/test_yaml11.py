"""yaml11.py types scalars exactly as PyYAML's safe loader does, and spares a run PyYAML's import."""
import math
import subprocess
import sys

import pytest
import yaml
from hypothesis import example, given, settings, strategies as st
from yaml.constructor import ConstructorError, SafeConstructor
from yaml.nodes import ScalarNode
from yaml.resolver import Resolver

from penguin_lint.loaders import load_bytes
from penguin_lint.loaders.yaml11 import BOOL, FLOAT, INT, NULL, STR, TIMESTAMP, construct, resolve_plain

_pyyaml = Resolver()
_ctor = SafeConstructor()


def pyyaml_tag(text):
    return _pyyaml.resolve(ScalarNode, text, (True, False))


# Texts near every YAML 1.1 type: numbers in each base and spelling, booleans, nulls,
# timestamps, with the characters that make or break each pattern.
_alphabet = st.sampled_from(list("0123456789_:.+-eExXbBoOaAfFiInNtTyYsSlLuU~=<Z \t") + ["inf", "nan", "Inf",
                                                                                      "NaN", "INF", "NAN"])
near = st.lists(_alphabet, max_size=14).map("".join)
words = st.sampled_from(["yes", "Yes", "YES", "no", "No", "NO", "true", "True", "TRUE", "false", "FALSE",
                         "on", "On", "ON", "off", "Off", "OFF", "oN", "yEs", "null", "Null", "NULL", "nULL",
                         "~", "<<", "=", "y", "n", ".inf", "-.Inf", "+.INF", ".NaN", ".nan", "-.nan",
                         "2026-10-29", "2026-1-2 3:04:05", "2026-10-29T12:00:00Z", "2026-10-29t1:00:00.5 +1",
                         "2026-10-29 12:00:00 -05:30", "1:30", "1:30.5", "-1:2:3", "190:20:30.15",
                         "0b1010", "0x_1F", "017", "0o17", "08", "1_000", "1e3", "1.0e+3", "1.0e3", ".5",
                         "5.", "-0", "+12", "0", "00", "0_", "1__0", "0.1_5"])


@settings(max_examples=3000, deadline=None)
@given(st.one_of(near, words))
@example("")
@example("!")
@example("*")
def test_resolve_plain_is_pyyamls(text):
    assert resolve_plain(text) == pyyaml_tag(text)


def outcome(fn):
    try:
        value = fn()
    except (ConstructorError, ValueError, IndexError, KeyError, TypeError) as e:
        return ("error", type(e).__name__ if not isinstance(e, ConstructorError) else "ValueError")
    except OverflowError:
        return ("overflow",)
    if isinstance(value, float) and math.isnan(value):
        return ("nan",)
    return (type(value).__name__, value)


def pyyaml_value(tag, text):
    node = ScalarNode(tag, text)
    if tag == INT:
        return _ctor.construct_yaml_int(node)
    if tag == FLOAT:
        return _ctor.construct_yaml_float(node)
    if tag == BOOL:
        return _ctor.construct_yaml_bool(node)
    if tag == NULL:
        return None
    return text


@settings(max_examples=3000, deadline=None)
@given(st.one_of(near, words))
def test_plain_scalars_get_pyyamls_values(text):
    tag = resolve_plain(text)
    if tag in (STR, TIMESTAMP) or tag not in (INT, FLOAT, BOOL, NULL):
        return
    mine, theirs = outcome(lambda: construct(tag, text)), outcome(lambda: pyyaml_value(tag, text))
    if tag == FLOAT and ":" in text and theirs[0] == "float" and mine[0] == "float":
        # base 60 is summed in floats here, in integers there: equal to rounding
        assert math.isclose(mine[1], theirs[1], rel_tol=1e-12)
    else:
        assert mine == theirs


@settings(max_examples=2000, deadline=None)
@given(st.sampled_from([INT, FLOAT, BOOL, NULL]), st.one_of(near, words, st.text(max_size=8)))
@example(FLOAT, "0:inf")
def test_explicit_tags_fail_on_the_same_texts(tag, text):
    # !!int "abc", !!float "", !!bool "maybe": the event loop reports these as not valid
    mine, theirs = outcome(lambda: construct(tag, text)), outcome(lambda: pyyaml_value(tag, text))
    if mine == ("overflow",):
        # a base-60 float that adds up to infinity (!!float "0:inf") is refused
        # as too large, where PyYAML gives inf
        assert theirs[0] == "error" or theirs == ("float", float("inf")) or theirs == ("float", float("-inf"))
        return
    assert (mine[0] == "error") == (theirs[0] == "error"), (mine, theirs)
    if mine[0] not in ("error", "float"):
        assert mine == theirs


@pytest.mark.parametrize("text, value", [
    ("0b1010", 10), ("-0x_1F", -31), ("017", 15), ("1:30", 90), ("-1:2:3", -3723), ("1_000", 1000),
    ("1:30.5", 90.5), ("-.inf", float("-inf")), ("Yes", True), ("OFF", False), ("~", None),
    ("1.0e+3", 1000.0), ("0.1_5", 0.15),
])
def test_yaml_1_1_spellings(text, value):
    assert construct(resolve_plain(text), text) == value
    assert yaml.safe_load(f"v: {text}\n")["v"] == value


@pytest.mark.parametrize("text", ["1e3", "0o17", "08", "yEs", "2026-10-29", "=", "<<"])
def test_texts_that_are_not_numbers_or_booleans(text):
    assert resolve_plain(text) == pyyaml_tag(text)
    assert resolve_plain(text) not in (INT, FLOAT, BOOL, NULL)


def test_the_fast_path_does_not_import_pyyaml():
    code = ("import sys\n"
            "from penguin_lint.loaders import load_bytes\n"
            "doc = load_bytes(b'score: 0.5\\nok: yes\\nn: 0x1F\\nt: 1:30\\n', 'test/attempt-1.yaml')\n"
            "assert doc.parsed and doc.data == {'score': 0.5, 'ok': True, 'n': 31, 't': 90}, doc.data\n"
            "print('yaml' in sys.modules)\n"
            "doc = load_bytes(b'a: &x 1\\n', 'test/attempt-1.yaml')\n"
            "print('yaml' in sys.modules, [p.code for p in doc.problems])\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.splitlines() == ["False", "True ['PL003']"]


def test_both_loaders_agree_on_typed_scalars():
    from penguin_lint.loaders.yaml_loader import load_yaml_events

    text = "a: 0b11\nb: 1:30\nd: On\ne: ~\nf: 1e3\ng: 2026-10-29\nh: 0.25\n"
    fast, events = load_bytes(text.encode(), "x.yaml"), load_yaml_events(text, "x.yaml")
    # timestamps stay text for the rules to judge; everything else is PyYAML's value
    want = dict(yaml.safe_load(text), g="2026-10-29")
    assert fast.data == events.data == want
    assert type(fast.data["a"]) is int and type(fast.data["h"]) is float
