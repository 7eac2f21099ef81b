"""penguin-lint's YAML reading against ``yaml.safe_load``, the reference.

For every text, either penguin-lint reports it (PL001 does not load, PL002
duplicate key, PL003 anchor, alias, merge key, tag or directive, PL005
encoding), or the data it reads is what ``yaml.safe_load`` returns; and a
text ``safe_load`` reads is never "YAML does not parse" (libyaml's scanner
refuses some of them). The texts come from a grammar of YAML 1.1: typed
scalars and keys (on, 0x1, ~, 1.0, =, <<), block and flow collections
nested, empty values in flow collections (``{a:, b: 1}``, ``[a:]``), quoted
and complex keys, aliases and anchored keys, whitespace before ':', tags,
anchors and aliases, directives, tabs and odd characters where they change
how a text scans, and byte-order marks at the start (one, which both drop,
or more, the rest of which safe_load reads as content). Each text is
compared as the file holding its UTF-8 bytes: penguin-lint's ``load_bytes``
against ``safe_load`` of those bytes.

tests/loaders/test_yaml_differential.py runs a few hundred texts;
``python -m tests.fuzz --yaml-differential --minutes 20`` runs a campaign.
"""
from __future__ import annotations

import datetime
import math
import warnings

import yaml
from hypothesis import strategies as st
from yaml.constructor import SafeConstructor
from yaml.nodes import ScalarNode

from penguin_lint.loaders import load_bytes

REPORTED = {"PL001", "PL002", "PL003", "PL005"}
# a text safe_load reads is never this (other PL001s, such as nesting too deep, may be)
NOT_PARSED = "YAML does not parse"

SCALARS = [
    "x", "a b", "0.25", "42", "-3", "yes", "No", "on", "OFF", "y", "n", "true", "False", "~", "null", "NULL",
    "010", "08", "0x1f", "0b101", "1_000", "1:20", "1:30.5", "-.inf", ".nan", "1e3", "1.0e+3", "+1", "-0",
    "0.", ".5", "1.", "=", "<<", "<", "==", "2024-01-01", "2001-12-14 21:59:43.10 -5", "2024-1-1",
    "'it''s'", "'on'", "'1'", "''", '"a\\tb"', '"\\x41"', '"on"', '""', '"\\u00e9"', "a #b", "a#b", "a:b",
    "http://x.y/z", "why?", "a?b", "é", "-x", "?x", ":x", "%x", "@x", "`x", "a\tb", "a \tb", "x\u0085y", "x\u2028y",
    "\u00a0x", "\ufeffx", "[a]", "{a: 1}", "[a, b: c]", "{a, b}", "{? a : b}", "{[a]: b}", "[on, 1, ~]",
    "{on: 1, 'on': 2}", "{1: a, 1.0: b}", "{=: 1}", "{<<: {a: 1}}", "|\n  text", ">-\n  folded", "*a",
]
KEYS = [
    "a", "b", "score", "x y", "on", "'on'", '"on"', "ON", "yes", "y", "true", "True", "1", "01", "0x1", "1.0",
    "'1'", "~", "null", "''", "", "=", "<<", "'<<'", "2024-01-01", ".inf", ".nan", "-1", "é", "? a", "? [a]",
    "[a]", "{a: 1}", "a\t", "'a'\t", "a #c", "k:v", "-k", "*a", "*b", "&a a", "&b 'b'", "a:", "'a':",
]
COMMON = ["x", "1", "0.5", "on", "~", "'s'", "yes", "1.0", "null", "2024-01-01", "0x1f", "-1", "''", "True"]
COMMON_KEYS = ["a", "b", "c", "on", "'on'", "1", "'1'", "1.0", "~", "null", "yes", "true", "0x1", "01", "y",
               "*a", "'q'", '"q"']
# a value left out: 'k:' with nothing after it, in a flow collection too ('{k:, b: 1}', '[k:]')
EMPTY = ""
TAGS = [""] * 30 + ["!!str ", "!!int ", "!!float ", "!!bool ", "!!null ", "!!set ", "!!omap ",
        "!!pairs ", "!!binary ", "!!timestamp ", "!!map ", "!!seq ", "! ", "!local ", "!!python/none ",
        "!!value ", "!!merge ", "&a ", "&b !!str "]
# byte-order marks a file begins with: safe_load drops the first only
MARKS = [""] * 12 + ["\ufeff", "\ufeff\ufeff", "\ufeff\ufeff\ufeff", "\ufeff\ufeff "]
HEADS = [""] * 10 + ["---\n", "--- ", "%YAML 1.1\n---\n", "%FOO bar\n---\n", "%TAG !e! tag:e.com,2000:\n---\n",
         "%YAML 1.1\n%YAML 1.1\n---\n", "# c\n%FOO\n---\n", "\t\n"]
SEPS = [": "] * 12 + [":  ", ":\t", " : ", " : ", "  : ", "\t: ", ":"]
FLOW_SEPS = [": "] * 10 + [":\t", ":", ":", " :", " : ", "  :"]
DASHES = ["- "] * 10 + ["-\t", "-  "]
ENDS = ["\n"] * 8 + ["", "\r\n", "\n...\n", "\n---\n"]
TAILS = [""] * 12 + ["  # c"] * 3 + [" ", " # c", "\t", "\t# c", " \t", "  #\tc"]


class Map(list):
    """(key, value) entries of a mapping."""


class Seq(list):
    """Items of a sequence."""


def _trees():
    # mostly texts safe_load loads (where typing and keys matter), some odd
    leaf = st.one_of(st.sampled_from(COMMON), st.sampled_from(COMMON), st.sampled_from(SCALARS),
                     st.sampled_from([EMPTY, "*a", "*b", "&a x", "&b 1"]),
                     st.text(alphabet="ab01.-_:#'\" \t[]{},=<~!&*?%|>\u0085é", max_size=6))
    key = st.one_of(st.sampled_from(COMMON_KEYS), st.sampled_from(COMMON_KEYS), st.sampled_from(KEYS),
                    st.text(alphabet="ab01.-:~'\" \t=<", min_size=1, max_size=4))
    return st.recursive(
        leaf,
        lambda kids: st.one_of(st.lists(st.tuples(key, kids), min_size=1, max_size=4).map(Map),
                               st.lists(kids, min_size=1, max_size=4).map(Seq)),
        max_leaves=10)


@st.composite
def texts(draw) -> str:
    """A YAML text rendered from a random tree in random styles."""
    tree = draw(_trees())
    pick = lambda options: draw(st.sampled_from(options))  # noqa: E731

    def flow(node) -> str:
        if isinstance(node, Map):
            return "{" + ", ".join(k + pick(FLOW_SEPS) + flow(v) for k, v in node) + "}"
        if isinstance(node, Seq):
            return "[" + ", ".join(flow_item(v) for v in node) + "]"
        return node if node == EMPTY else pick(TAGS) + node

    def flow_item(node) -> str:
        # a single pair in a flow sequence, written without braces: '[a: 1]', '[a:]'
        if isinstance(node, Map) and len(node) == 1 and pick([True, False]):
            k, v = node[0]
            return k + pick(FLOW_SEPS) + flow(v)
        return flow(node)

    def block(node, ind: int):
        pad = " " * ind
        lines = []
        if isinstance(node, Map):
            for k, v in node:
                head = pad + k + pick(SEPS)
                if isinstance(v, (Map, Seq)) and pick([True, True, False]):
                    lines.append(head.rstrip(" ") + pick(TAILS))
                    lines += block(v, ind + pick([2, 2, 1, 4] + ([0] if isinstance(v, Seq) else [])))
                else:
                    lines.append(head + flow(v) + pick(TAILS))
        else:
            for v in node:
                dash = pad + pick(DASHES)
                if isinstance(v, (Map, Seq)) and pick([True, True, False]):
                    lines.append(dash.rstrip(" ") + pick(TAILS))
                    lines += block(v, ind + 2)
                else:
                    lines.append(dash + flow(v) + pick(TAILS))
        return lines

    if isinstance(tree, (Map, Seq)):
        body = "\n".join(block(tree, 0)) if pick([True, True, True, False]) else flow(tree)
    else:
        body = pick(TAGS) + tree
    return pick(MARKS) + pick(HEADS) + body + pick(ENDS)


def same(ours, ref) -> bool:
    """Equal with the same types all the way down (True is not 1), mappings
    in the same order. A timestamp is the one value read differently on
    purpose: penguin-lint keeps its source text (the rules judge the text),
    safe_load builds a date; the text must be one safe_load builds that date
    from."""
    if isinstance(ref, (datetime.date, datetime.datetime)):
        return isinstance(ours, str) and _timestamp(ours) == ref
    if type(ours) is not type(ref):
        return False
    if isinstance(ref, dict):
        return len(ours) == len(ref) and all(
            same(ko, kr) and same(vo, vr) for (ko, vo), (kr, vr) in zip(ours.items(), ref.items()))
    if isinstance(ref, list):
        return len(ours) == len(ref) and all(same(o, r) for o, r in zip(ours, ref))
    if isinstance(ref, float) and math.isnan(ref):
        return math.isnan(ours)
    return ours == ref


def _timestamp(text: str):
    try:
        return SafeConstructor().construct_yaml_timestamp(ScalarNode("tag:yaml.org,2002:timestamp", text))
    except (ValueError, TypeError, AttributeError):
        return None


def reference(text: str):
    """(True, data) if safe_load loads the file holding ``text``, else (False, the error)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return True, yaml.safe_load(text.encode("utf-8"))
        except Exception as e:  # noqa: BLE001 - safe_load fails in odd ways on odd text (!!int "")
            return False, e


def difference(text: str):
    """None if penguin-lint and safe_load agree on the file holding ``text``, else what differs."""
    doc = load_bytes(text.encode("utf-8"), "data.yaml")
    codes = {p.code for p in doc.problems}
    refused = [p for p in doc.problems if p.message.startswith(NOT_PARSED)]
    if refused:
        ok, ref = reference(text)
        if ok:
            return f"penguin-lint says '{refused[0].message}'; safe_load reads {ref!r}"
        return None
    if codes & REPORTED:
        return None
    ok, ref = reference(text)
    if not ok:
        return f"safe_load fails ({type(ref).__name__}: {str(ref).splitlines()[0]}) and penguin-lint " \
               f"reports {sorted(codes) or 'nothing'}, reading {doc.data!r}"
    if not doc.parsed:
        return f"penguin-lint did not parse it without a finding; safe_load reads {ref!r}"
    if not same(doc.data, ref):
        return f"penguin-lint reads {doc.data!r}, safe_load {ref!r}"
    return None


def campaign(minutes: float, seed: int, crash_dir, verbose: bool = False) -> int:
    """Compare texts until ``minutes`` have passed; each text that differs
    (or makes penguin-lint raise) goes to ``crash_dir``. 0 if none did."""
    import time
    import traceback

    from hypothesis import HealthCheck, given, settings
    from hypothesis import seed as with_seed

    deadline = time.monotonic() + minutes * 60
    found: dict = {}
    count = 0

    def record(text: str, problem: str) -> None:
        signature = problem.split(",")[0][:80]
        if signature not in found:
            found[signature] = text
            crash_dir.mkdir(parents=True, exist_ok=True)
            (crash_dir / f"difference-{len(found)}.yaml").write_text(text, encoding="utf-8", newline="")
            (crash_dir / f"difference-{len(found)}.txt").write_text(problem + "\n", encoding="utf-8")
            print(f"difference {len(found)}: {text!r}\n  {problem}", flush=True)

    batch = 0
    while time.monotonic() < deadline:
        batch += 1

        @with_seed(seed + batch)
        @settings(max_examples=500, deadline=None, database=None, suppress_health_check=list(HealthCheck))
        @given(texts())
        def run(text):
            nonlocal count
            if time.monotonic() >= deadline:
                return
            count += 1
            try:
                problem = difference(text)
            except Exception:  # noqa: BLE001 - a crash is a finding of the campaign
                problem = "penguin-lint raised: " + traceback.format_exc().strip().splitlines()[-1]
            if problem:
                record(text, problem)

        run()
        if verbose:
            print(f"{count} texts, {len(found)} differences", flush=True)
    print(f"{count} texts compared with yaml.safe_load in {minutes:g} min (seed {seed}): "
          f"{len(found)} distinct differences" + (f", in {crash_dir}" if found else ""))
    return 1 if found else 0
