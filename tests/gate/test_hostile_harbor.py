"""Harbor schemas written by a pull request: patterns that backtrack, schemas
that expand exponentially, quadratic uniqueItems, numbers that overflow.

Each input runs the command in a subprocess with a wall-clock timeout and a
memory ceiling, so that a regression fails the test instead of hanging the
suite or the machine; the child's CPU time and peak memory are asserted
loosely (shared machines are noisy).
"""
from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DEF = "leaderboard/leaderboard.json"
ROWS = "leaderboard/rows.json"
TIMEOUT = 30          # seconds of wall clock before the run is killed
CPU_LIMIT = 5.0       # seconds of CPU the child may use
RSS_LIMIT_MB = 400    # peak resident memory of the child
AS_LIMIT = 3 << 30    # address space ceiling: today's 2.5 GB blow-ups fail, not swap


# The child is measured with wait4 and limited with setrlimit (POSIX).
pytestmark = pytest.mark.skipif(not hasattr(os, "wait4"), reason="measures the child with POSIX wait4")
# ru_maxrss is in KiB on Linux, in bytes on macOS
RSS_UNIT = 1 if sys.platform == "darwin" else 1024


class Measured:
    def __init__(self, code, out, err, cpu, wall, rss_mb, killed):
        self.code, self.output, self.stderr = code, out, err
        self.cpu, self.wall, self.rss_mb, self.killed = cpu, wall, rss_mb, killed

    @property
    def findings(self):
        return json.loads(self.output)["findings"]

    def of(self, code):
        return [f for f in self.findings if f["code"] == code]


def measured(root: Path, *args: str) -> Measured:
    """``penguin-lint --root ROOT --format json ARGS`` in a child process,
    with its CPU time and peak RSS (from wait4, for that child alone)."""
    def limit():  # pragma: no cover - runs in the child
        try:
            resource.setrlimit(resource.RLIMIT_AS, (AS_LIMIT, AS_LIMIT))
        except (ValueError, OSError):  # macOS does not lower RLIMIT_AS
            pass

    env = dict(os.environ, PYTHONPATH=str(ROOT), NO_COLOR="1")
    argv = [sys.executable, "-m", "penguin_lint", "--root", str(root), "--format", "json", *(args or ("--all",))]
    out_path, err_path = root.parent / "stdout", root.parent / "stderr"
    with open(out_path, "wb") as out, open(err_path, "wb") as err:
        start = time.perf_counter()
        proc = subprocess.Popen(argv, stdout=out, stderr=err, preexec_fn=limit, env=env)
        killed = []
        timer = threading.Timer(TIMEOUT, lambda: (killed.append(1), proc.kill()))
        timer.start()
        try:
            _, status, usage = os.wait4(proc.pid, 0)
        finally:
            timer.cancel()
        proc.returncode = os.waitstatus_to_exitcode(status)
        wall = time.perf_counter() - start
    result = Measured(proc.returncode, out_path.read_text(), err_path.read_text(),
                      usage.ru_utime + usage.ru_stime, wall, usage.ru_maxrss * RSS_UNIT / 2 ** 20, bool(killed))
    assert not result.killed, f"killed after {TIMEOUT} s"
    assert "Traceback" not in result.stderr and "internal error" not in result.stderr, result.stderr[-2000:]
    assert result.code in (0, 1), (result.code, result.stderr[-2000:])
    assert result.cpu < CPU_LIMIT, f"took {result.cpu:.1f} s of CPU"
    assert result.rss_mb < RSS_LIMIT_MB, f"peak memory {result.rss_mb:.0f} MB"
    return result


def definition(metadata_schema=None, metrics_schema=None, accessor="metrics.accuracy") -> dict:
    return {
        "package": "acme/my-dataset", "name": "main", "title": "Main", "visibility": "private",
        "metadata_schema": metadata_schema or {"type": "object"},
        "metrics_schema": metrics_schema or {"type": "object", "properties": {"accuracy": {"type": "number"}}},
        "columns": [{"id": "score", "header": "Score", "accessor": accessor, "type": "number"}],
    }


def rows(*metrics, metadata=None) -> dict:
    return {"rows": [{"metadata": metadata or {}, "metrics": m, "status": "display"} for m in metrics]}


def write(tmp_path: Path, definition_doc, rows_doc=None, raw_rows: str = None) -> Path:
    root = tmp_path / "repo"
    (root / "leaderboard").mkdir(parents=True)
    (root / DEF).write_text(json.dumps(definition_doc, indent=1), encoding="utf-8")
    if raw_rows is not None:
        (root / ROWS).write_text(raw_rows, encoding="utf-8")
    elif rows_doc is not None:
        (root / ROWS).write_text(json.dumps(rows_doc, indent=1), encoding="utf-8")
    return root


def line_of(root: Path, rel: str, needle: str) -> int:
    for n, line in enumerate((root / rel).read_text(encoding="utf-8").splitlines(), 1):
        if needle in line:
            return n
    raise AssertionError(f"{needle!r} not in {rel}")


# -- (1) patterns that backtrack -------------------------------------------------------

BACKTRACKING = ["^(a|a)*$", "^(a|aa)+$", "(.*a){12}x", "a*a*a*a*a*a*b"]
HOSTILE_VALUE = "a" * 5000 + "!"


@pytest.mark.parametrize("pattern", BACKTRACKING)
def test_backtracking_pattern_is_matched_in_linear_time(tmp_path, pattern):
    schema = {"type": "object", "properties": {"accuracy": {"type": "number"},
                                               "tag": {"type": "string", "pattern": pattern}}}
    root = write(tmp_path, definition(metrics_schema=schema), rows({"accuracy": 1, "tag": HOSTILE_VALUE}))
    run = measured(root)
    [f] = run.of("PL605")
    assert (f["path"], f["line"]) == (ROWS, line_of(root, ROWS, '"tag"'))
    assert "'metrics.tag' does not match" in f["message"]
    assert run.of("PL604") == []


@pytest.mark.parametrize("pattern", BACKTRACKING)
def test_backtracking_pattern_properties_and_property_names(tmp_path, pattern):
    schema = {"type": "object", "properties": {"accuracy": {"type": "number"}},
              "patternProperties": {pattern: {"type": "string"}},
              "propertyNames": {"pattern": pattern + "|^accuracy$|^b"},
              "additionalProperties": False}
    root = write(tmp_path, definition(metrics_schema=schema),
                 rows({"accuracy": 1, HOSTILE_VALUE: "x", "b" + HOSTILE_VALUE: 2}))
    run = measured(root)
    found = [(f["line"], f["message"]) for f in run.of("PL605")]
    key = line_of(root, ROWS, '"aaaa')
    # propertyNames and additionalProperties refuse the hostile key, each at the key
    assert found[0][0] == key and found[0][1].startswith(
        f"row 1 (rows[0]): 'metrics' key does not match {pattern}|^accuracy$|^b: 'aaaa")
    assert found[1][0] == key and found[1][1].startswith("row 1 (rows[0]): unknown field 'metrics.aaaa")
    # the other key matches ^b; a*a*a*a*a*a*b also matches it as a pattern property
    assert [line for line, _ in found[2:]] == [key + 1]


def test_accessor_matched_against_a_backtracking_pattern(tmp_path):
    schema = {"type": "object", "patternProperties": {"^(a|aa)+$": {"type": "number"}}}
    accessor = "metrics." + "a" * 60 + "_"
    root = write(tmp_path, definition(metrics_schema=schema, accessor=accessor))
    run = measured(root)
    [f] = run.of("PL603")
    assert (f["path"], f["line"]) == (DEF, line_of(root, DEF, '"accessor"'))


@pytest.mark.parametrize("pattern,construct", [
    ("(?:a{0,65535}){0,65535}b", "repeats more than 1000 times ({0,65535})"),
    ("^(a+)\\1$", "back reference (\\1)"),
    ("^(?=.*\\d)\\w+$", "lookahead (?=...)"),
    ("(?<!x)y", "negative lookbehind (?<!...)"),
    ("a++", "possessive repeat"),
    ("([a-z]", "not a valid regular expression: missing ): ([a-z]"),
])
def test_pattern_re2_cannot_compile_is_pl604_naming_the_construct(tmp_path, pattern, construct):
    schema = {"type": "object", "properties": {"accuracy": {"type": "number"},
                                               "tag": {"type": "string", "pattern": pattern}}}
    root = write(tmp_path, definition(metrics_schema=schema), rows({"accuracy": 1, "tag": HOSTILE_VALUE}))
    run = measured(root)
    [f] = run.of("PL604")
    assert (f["path"], f["line"]) == (DEF, line_of(root, DEF, '"pattern"'))
    assert f["message"].startswith("'metrics_schema.properties.tag.pattern' cannot be used: it ")
    assert construct in f["message"]
    assert run.of("PL605") == []  # rows are not checked against a refused schema
    assert run.stderr == ""       # RE2 logs nothing of its own


def test_ecma_semantics_of_patterns(tmp_path):
    # $ is the end of the value (no trailing newline), \d is ASCII, \s is
    # ECMA-262's white space, \u escapes work, . stops at a line terminator
    props = {"id": {"pattern": "^[a-z]+$"}, "num": {"pattern": "^\\d+$"}, "sp": {"pattern": "^\\s$"},
             "uni": {"pattern": "^\\u00e9$"}, "dot": {"pattern": "^.$"}}
    schema = {"type": "object", "properties": dict(props, accuracy={"type": "number"})}
    good = {"accuracy": 1, "id": "abc", "num": "42", "sp": "\u00a0", "uni": "\u00e9", "dot": "x"}
    bad = {"accuracy": 1, "id": "abc\n", "num": "\u0664\u0662", "sp": "x", "uni": "e", "dot": "\u2028"}
    root = write(tmp_path, definition(metrics_schema=schema), rows(good, bad))
    run = measured(root)
    assert sorted(f["message"].split("'")[1] for f in run.of("PL605")) == [
        "metrics.dot", "metrics.id", "metrics.num", "metrics.sp", "metrics.uni"]
    assert all(f["message"].startswith("row 2 (rows[1]): ") for f in run.of("PL605"))


# -- (2) schemas that expand exponentially ---------------------------------------------------

def _chain(n: int, node) -> dict:
    defs = {f"d{i}": node(f"#/$defs/d{i + 1}") for i in range(n)}
    defs[f"d{n}"] = {"type": "object", "required": ["never"]}
    return {"$defs": defs, "$ref": "#/$defs/d0"}


@pytest.mark.parametrize("name,node", [
    ("anyOf", lambda ref: {"anyOf": [{"$ref": ref}, {"$ref": ref}]}),
    ("allOf", lambda ref: {"allOf": [{"$ref": ref}, {"$ref": ref}]}),
    ("oneOf", lambda ref: {"oneOf": [{"$ref": ref}, {"$ref": ref, "type": "object"}]}),
    ("unevaluatedProperties", lambda ref: {"allOf": [{"$ref": ref}], "unevaluatedProperties": False}),
])
def test_exponential_schema_is_pl604_before_any_row(tmp_path, name, node):
    schema = _chain(26, node)
    text = json.dumps(schema)
    assert len(text) < 3000  # a few KB of schema
    root = write(tmp_path, definition(metadata_schema=schema), rows({"accuracy": 1}, {"accuracy": 2}))
    run = measured(root)
    [f] = run.of("PL604")
    assert (f["path"], f["line"]) == (DEF, line_of(root, DEF, '"metadata_schema"'))
    assert f["message"].startswith("'metadata_schema' is refused: ")
    assert "more than 50,000 schema keywords" in f["message"]
    assert run.of("PL605") == []


def test_reference_cycle_without_descent_is_pl604(tmp_path):
    schema = {"$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"allOf": [{"$ref": "#/$defs/a"}]}}, "$ref": "#/$defs/a"}
    root = write(tmp_path, definition(metrics_schema=schema), rows({"accuracy": 1}))
    [f] = measured(root).of("PL604")
    assert "refers to itself without end" in f["message"]


def test_long_reference_chain_is_pl604_with_its_depth(tmp_path):
    schema = _chain(300, lambda ref: {"$ref": ref})
    root = write(tmp_path, definition(metrics_schema=schema), rows({"accuracy": 1}))
    [f] = measured(root).of("PL604")
    assert "more than 100 levels deep" in f["message"]


def test_recursive_schema_through_properties_is_accepted(tmp_path):
    tree = {"type": "object", "properties": {"name": {"type": "string"},
                                             "children": {"type": "array", "items": {"$ref": "#/$defs/tree"}}}}
    schema = {"$defs": {"tree": tree}, "type": "object",
              "properties": {"accuracy": {"type": "number"}, "tree": {"$ref": "#/$defs/tree"}}}
    value = {"name": "root", "children": [{"name": "a", "children": [{"name": 3}]}]}
    root = write(tmp_path, definition(metrics_schema=schema), rows({"accuracy": 1, "tree": value}))
    run = measured(root)
    assert run.of("PL604") == []
    [f] = run.of("PL605")
    assert "'metrics.tree.children[0].children[0].name' must be a string" in f["message"]


def test_recursion_that_multiplies_with_depth_is_stopped_by_the_step_budget(tmp_path):
    # each level applies the schema twice to the child: 2**depth, unseen by
    # the measure (it is bounded by the value's depth), stopped by the budget
    node = {"type": "object", "properties": {"c": {"allOf": [{"$ref": "#/$defs/n"}, {"$ref": "#/$defs/n"}]}}}
    schema = {"$defs": {"n": node}, "$ref": "#/$defs/n"}
    value = {}
    for _ in range(30):  # 2**30 applications; 90 keywords deep, under the nesting cap
        value = {"c": value}
    root = write(tmp_path, definition(metadata_schema=schema), rows({"accuracy": 1}, {"accuracy": 2}),)
    doc = rows({"accuracy": 1}, {"accuracy": 2}, metadata=value)
    (root / ROWS).write_text(json.dumps(doc), encoding="utf-8")
    run = measured(root)
    [f] = run.of("PL605")
    assert f["line"] == 1 and "row 1 (rows[0]): checking stopped" in f["message"]


# -- (3) uniqueItems on 20k objects ---------------------------------------------------------

def test_unique_items_on_20k_objects_is_linear(tmp_path):
    items = [{"run": i, "tags": ["x", i % 7], "ok": i % 2 == 0} for i in range(20_000)]
    items.append({"ok": True, "tags": ["x", 19_998 % 7 * 1.0], "run": 19_998.0})  # = item 19,999
    schema = {"type": "object", "properties": {"accuracy": {"type": "number"},
                                               "runs": {"type": "array", "uniqueItems": True}}}
    root = write(tmp_path, definition(metrics_schema=schema), rows({"accuracy": 1, "runs": items}))
    run = measured(root)
    [f] = run.of("PL605")
    assert "'metrics.runs' has repeated items: item 20001 repeats item 19999" in f["message"]


@pytest.mark.parametrize("items,unique", [
    ([1, True], True), ([0, False], True), ([1, 1.0], False), ([{"a": 1, "b": 2}, {"b": 2, "a": 1.0}], False),
    ([[1, 2], [2, 1]], True), ([None, 0, "", False, [], {}], True), ([10 ** 30, 1e30], True),
])
def test_unique_items_follows_json_equality(tmp_path, items, unique):
    schema = {"type": "object", "properties": {"accuracy": {"type": "number"},
                                               "v": {"type": "array", "uniqueItems": True}}}
    root = write(tmp_path, definition(metrics_schema=schema), rows({"accuracy": 1, "v": items}))
    assert (measured(root).of("PL605") == []) is unique


# -- (4) numbers that overflow ----------------------------------------------------------------

def test_multiple_of_against_a_400_digit_integer(tmp_path):
    big = "1" + "0" * 399
    schema = {"type": "object", "properties": {"half": {"multipleOf": 0.5}, "third": {"multipleOf": 0.3},
                                               "cent": {"multipleOf": 0.01}}}
    text = ('{"rows": [{"metadata": {}, "status": "display", "metrics": {\n'
            f'  "half": {big},\n  "third": {big}1,\n  "cent": 0.07}}}}]}}\n')
    root = write(tmp_path, definition(metrics_schema=schema), raw_rows=text)
    run = measured(root)
    found = run.of("PL605")
    assert [(f["path"], f["line"]) for f in found] == [(ROWS, 3)], found
    assert found[0]["message"].startswith("row 1 (rows[0]): 'metrics.third' must be a multiple of 0.3, not 1000")


def test_huge_numeric_keywords(tmp_path):
    huge = 10 ** 300
    schema = {"type": "object", "properties": {
        "s": {"type": "string", "minLength": huge}, "n": {"type": "number", "maximum": -huge},
        "a": {"type": "array", "maxItems": 0, "minItems": 0}, "m": {"multipleOf": 1e-300},
        "f": {"type": "string", "format": "regex"}, "g": {"format": "no-such-format"}}}
    root = write(tmp_path, definition(metrics_schema=schema),
                 rows({"s": "abc", "n": 1, "a": [], "m": 3, "f": "(a)\\1(?=", "g": 1}))
    run = measured(root)
    assert sorted(f["message"].split("'")[1] for f in run.of("PL605")) == ["metrics.n", "metrics.s"]
    assert run.of("PL604") == []


def test_lone_surrogate_key_against_patterns(tmp_path):
    # a lone surrogate in a key, in a pattern's text and as a \u escape (found by the fuzzer)
    schema = {"type": "object", "patternProperties": {"^x": {"type": "number"}, "\ud800": {}},
              "propertyNames": {"pattern": "^[a-z\\ud800-\\udfff\udc00]+$"}}
    text = '{"rows": [{"metadata": {}, "status": "display", "metrics": {"\\ud800": 1, "xy": "s"}}]}\n'
    root = write(tmp_path, definition(metrics_schema=schema, accessor="metrics.xy"), raw_rows=text)
    run = measured(root)
    assert any("'metrics.xy' must be a number" in f["message"] for f in run.of("PL605"))
    assert run.of("PL603") == []


# -- the fuzz campaign's Harbor inputs, a few of them -------------------------------------------

@pytest.mark.parametrize("seed", range(12))
def test_fuzzed_harbor_definitions(tmp_path, seed):
    import random

    from tests import fuzz, fuzz_harbor

    rng = random.Random(seed)
    tree, args, _ = fuzz_harbor.make_input(rng, fuzz.OUTPUT_FORMATS)
    assert any(p.startswith("leaderboard/leaderboard.") for p in tree)
    root = tmp_path / "repo"
    fuzz.write_tree(root, tree)
    for fmt in ("json", "text"):
        outcome = fuzz.run_cli(root, ["--format", fmt, *[str(root / a) if a != "--all" else a for a in args]],
                               hard_limit=60)
        # a shared machine is slow: the campaign itself holds the 2 s bound
        assert fuzz.judge(root, tree, fmt, outcome, cpu_limit=10.0) == []


def test_huge_enum_and_many_rows(tmp_path):
    # 100,000 allowed names, 500 rows: each value is looked up, not compared
    # with every name, and a failure does not print the whole list
    names = [f"model-{i}" for i in range(100_000)]
    schema = {"type": "object", "properties": {"accuracy": {"type": "number"}, "model": {"enum": names},
                                               "pair": {"const": {"a": [1, 2]}}}}
    metrics = [{"accuracy": 1, "model": f"model-{i * 7}", "pair": {"a": [1, 2.0]}} for i in range(499)]
    metrics.append({"accuracy": 1, "model": "model-x", "pair": {"a": [2, 1]}})
    root = write(tmp_path, definition(metrics_schema=schema), rows(*metrics))
    run = measured(root)
    found = run.of("PL605")
    assert sorted(f["message"].split(":")[1].split("'")[1] for f in found) == ["metrics.model", "metrics.pair"]
    [model] = [f for f in found if "metrics.model" in f["message"]]
    assert model["message"].startswith("row 500 (rows[499]): 'metrics.model' must be one of model-0, model-1, ")
    assert "… (100,000 in all), not 'model-x'" in model["message"] and len(model["message"]) < 400


def test_required_list_counts_toward_the_cost(tmp_path):
    # 40 schemas applied to each value, each requiring 2,000 names
    required = [f"k{i}" for i in range(2000)]
    node = lambda ref: {"allOf": [{"$ref": ref}], "required": required}  # noqa: E731
    schema = {"$defs": {f"d{i}": node(f"#/$defs/d{i + 1}") for i in range(40)}, "$ref": "#/$defs/d0"}
    schema["$defs"]["d40"] = {"type": "object"}
    root = write(tmp_path, definition(metadata_schema=schema), rows({"accuracy": 1}))
    [f] = measured(root).of("PL604")
    assert "more than 50,000 schema keywords" in f["message"]


# -- the pattern translation itself, in-process ---------------------------------------------------

def test_translation_to_re2_keeps_ecma_meaning():
    from penguin_lint.validation import patterns

    assert patterns.search("^[\\b]$", "\b") and not patterns.search("^[\\b]$", "b")
    assert patterns.search("^\\cJ$", "\n") and patterns.search("^a\\0$", "a\x00")
    assert patterns.search("^[^]$", "\n") and not patterns.search("[]", "anything")
    assert patterns.search("^\\u{1F600}$", "\U0001F600") and patterns.search("^x\\Z", "x")
    assert patterns.search("^\\S+$", "a\u00e9") and not patterns.search("\\S", "\u3000\v")
    assert patterns.search("(?<year>\\d{4})", "2026")
    assert patterns.search("[\\s]", "\u2029") and not patterns.search("^[^\\s]$", "\u00a0")
    assert not patterns.search("\\w", "\u00e9")  # ASCII, as in ECMA-262
    assert patterns.search("\\.", ".") and not patterns.search("^\\.$", "x")


def test_patterns_that_are_too_long_or_too_large_are_refused():
    from penguin_lint.validation import patterns

    assert "10,001 characters long" in str(patterns.check("a" * 10_001))
    assert "memory bound" in str(patterns.check("(\\p{L}|\\d){300}"))
    assert "lone backslash" in str(patterns.check("abc\\"))
    assert "\\u needs four hex digits" in str(patterns.check("\\u12"))
    assert patterns.check("a" * 10_000) is None
    assert not patterns.search("(", "(")  # a refused pattern matches nothing (PL604 reports it)


def test_errors_that_quote_a_large_value_spend_the_budget(tmp_path):
    # 2,000 failing keywords on a 50,000-item array: jsonschema quotes the
    # array in each message (2,000 x 300 KB); the budget stops it early
    schema = {"type": "object", "properties": {"accuracy": {"type": "number"},
                                               "big": {"allOf": [{"minItems": 10 ** 6 + i} for i in range(2000)]}}}
    root = write(tmp_path, definition(metrics_schema=schema), raw_rows=json.dumps(
        rows({"accuracy": 1, "big": list(range(50_000))})))
    run = measured(root)
    found = run.of("PL605")
    assert [f["message"][:29] for f in found] == ["row 1 (rows[0]): checking stopped: the "[:29]]
    assert run.rss_mb < 200


def test_recursion_deeper_than_the_nesting_cap_is_a_finding_not_a_panic(tmp_path):
    # $dynamicRef recursing with a 60-deep value nests keywords far deeper than
    # the schema is written; past the cap it is a finding on the row, before
    # Python's own recursion limit could be hit inside rpds (a Rust panic)
    schema = {"$dynamicAnchor": "node", "type": "object",
              "properties": {"c": {"allOf": [{"$dynamicRef": "#node"}]}}}
    value = {}
    for _ in range(60):
        value = {"c": value}
    root = write(tmp_path, definition(metadata_schema=schema), rows({"accuracy": 1}))
    (root / ROWS).write_text(json.dumps(rows({"accuracy": 1}, metadata=value)), encoding="utf-8")
    run = measured(root)
    [f] = run.of("PL605")
    assert f["line"] == 1 and "refers to itself without end" in f["message"]
    assert "panicked" not in run.stderr


def test_the_cap_leaves_recursion_that_real_rows_use(tmp_path):
    schema = {"$dynamicAnchor": "node", "type": "object",
              "properties": {"c": {"allOf": [{"$dynamicRef": "#node"}]}, "n": {"type": "integer"}}}
    value = {"n": "x"}
    for _ in range(10):
        value = {"c": value}
    root = write(tmp_path, definition(metadata_schema=schema), rows({"accuracy": 1}))
    (root / ROWS).write_text(json.dumps(rows({"accuracy": 1}, metadata=value)), encoding="utf-8")
    [f] = measured(root).of("PL605")
    assert "must be an integer" in f["message"] or "is not of type 'integer'" in f["message"], f["message"]
