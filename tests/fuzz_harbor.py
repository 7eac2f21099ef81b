"""Harbor inputs for the fuzz campaign: definitions whose row schemas a
pull request wrote, and rows to check against them.

A schema is grown from hostile pieces: patterns that backtrack, patterns RE2
cannot compile, ECMA-262 escapes; ``$ref`` graphs that fan out, loop, chain
deep or point outside (http, file, urn, missing); ``anyOf``/``allOf``/
``oneOf``/``not``/``if`` and nested ``unevaluatedProperties``; ``uniqueItems``
over large arrays; ``multipleOf`` and the length and range keywords with
huge or tiny numbers; ``format`` with odd values. Rows carry values made to
hit them: long near-matches, huge integers, repeated objects, lone
surrogates in keys. tests/fuzz.py judges the runs as it judges every input.
"""
from __future__ import annotations

import json
import random
from typing import Any, Dict, List, Tuple

# The share of the campaign's inputs that are Harbor definitions with rows.
SHARE = 0.2

PATTERNS = [
    "^(a|a)*$", "^(a|aa)+$", "(.*a){12}x", "a*a*a*a*a*a*b", "(?:a{0,65535}){0,65535}b", "^(a+)+$",
    "(x+x+)+y", "^([a-z0-9]+-)*[a-z0-9]+$", "(a)\\1", "(?=a)a", "(?<!b)a", "(?<n>a)\\k<n>", "a++",
    "(?>a)", "[", "(", "\\", "a{2,1}", "a{1001}", "\\u00e9", "\\u{1F600}", "\\cA", "[^]", "[]", "\\Z",
    "^\\d+$", "^\\w+$", "^\\s*$", "\\S", ".", "^$", "\\p{L}", "\\P{Greek}", "(?i)abc", "\\b", "[\\b]",
    "\\0", "\ud800", "^[\ud800-\udfff]$", "((((((((((a))))))))))", "(" * 300 + ")" * 300, "a" * 20_000,
    "^metadata", "^x_", "^[A-Z]", "%0A::error::x", "\x1b[31m", "\n", "$^", "a|" * 500 + "b",
]
VALUES = [
    "a" * 30 + "!", "a" * 5000 + "!", "x" * 64 + "y", "aaaa", "", "\n", "abc\n", "\u0664\u0662", "\u00a0",
    "\u2028", "\ud800", "2026-10-29", "2026-10-29T12:00:00Z", "not a date", "http://" + "a" * 3000,
    "a@" + "." * 3000, "%0A::error::x", "\x1b]0;x\x07", 0, 1, -1, 0.5, 0.07, 1e308, -1e308, 10 ** 400,
    -(10 ** 399), 2 ** 63, 1e-300, True, False, None, [], {}, [1, 1.0], [1, True], [{"a": 1}, {"a": 1.0}],
]
FORMATS = ["date", "date-time", "uuid", "uri", "url", "email", "regex", "ipv4", "hostname", "", "x" * 300,
           123, None, ["date"], "\ud800"]
NUMBERS = [0, 1, -1, 0.5, 0.3, 0.01, 1e-300, 1e300, 10 ** 400, 2 ** 64, -(10 ** 30), 7, 1.5, 1e-7]
REFS = ["#", "#/$defs/d0", "#/$defs/missing", "#/properties", "https://example.com/s.json",
        "file:///etc/passwd", "http://169.254.169.254/latest/meta-data", "urn:x:y", "../x.json",
        "#/$defs/d0/anyOf/0", "#anchor", "https://json-schema.org/draft/2020-12/schema", "#/definitions/d0",
        "#%2F", "#/$defs/~0~1", ""]
KEYS = ["accuracy", "agent", "tag", "a" * 40 + "!", "x_1", "\ud800", "metadata.x", "", "%0A::error::x"]


def _valid_only(rng: random.Random, pieces: list, valid) -> Any:
    """A random piece; in a valid schema, one its meta-schema and RE2 accept
    (so that rows get checked against it)."""
    if not valid:
        return rng.choice(pieces)
    return rng.choice([p for p in pieces if valid(p)] or pieces)


def _ok_pattern(p) -> bool:
    from penguin_lint.validation import patterns

    return patterns.check(p) is None


def _schema(rng: random.Random, names: List[str], depth: int = 0, valid: bool = False) -> Any:
    """A random sub-schema from the hostile pieces."""
    pat = lambda: _valid_only(rng, PATTERNS, valid and _ok_pattern)  # noqa: E731
    if depth > 4 or rng.random() < 0.15:
        return rng.choice([True, False, {}, {"type": "string"}, {"$ref": "#/$defs/" + rng.choice(names)}])
    s: Dict[str, Any] = {}
    for _ in range(rng.randint(1, 4)):
        r = rng.random()
        if r < 0.14:
            s["pattern"] = pat()
        elif r < 0.22:
            s["patternProperties"] = {pat(): _schema(rng, names, depth + 1, valid)}
        elif r < 0.28:
            s["propertyNames"] = {"pattern": pat()}
        elif r < 0.38:
            s[rng.choice(["anyOf", "allOf", "oneOf"])] = [
                {"$ref": "#/$defs/" + rng.choice(names)} if rng.random() < 0.6 else _schema(rng, names, depth + 1, valid)
                for _ in range(rng.randint(1, 3))]
        elif r < 0.45:
            s["$ref"] = rng.choice(REFS) if rng.random() < 0.3 and not valid else "#/$defs/" + rng.choice(names)
        elif r < 0.5:
            s["unevaluatedProperties"] = rng.choice([False, True, _schema(rng, names, depth + 1, valid)])
        elif r < 0.56:
            s["uniqueItems"] = _valid_only(rng, [True, False, 1, "yes"], valid and (lambda v: isinstance(v, bool)))
        elif r < 0.62:
            s["multipleOf"] = _valid_only(rng, NUMBERS, valid and (lambda v: v > 0))
        elif r < 0.68:
            key = rng.choice(["minLength", "maxLength", "minItems", "maxItems", "minProperties",
                              "minimum", "maximum", "exclusiveMinimum"])
            s[key] = _valid_only(rng, NUMBERS, valid and key[0] == "m" and key[3] in "LIP"
                                 and (lambda v: isinstance(v, int) and v >= 0))
        elif r < 0.74:
            s["format"] = _valid_only(rng, FORMATS, valid and (lambda v: isinstance(v, str)))
        elif r < 0.8:
            s["properties"] = {rng.choice(KEYS): _schema(rng, names, depth + 1, valid)
                               for _ in range(rng.randint(1, 3))}
        elif r < 0.84:
            s["items"] = _schema(rng, names, depth + 1, valid)
        elif r < 0.88:
            s["if"], s["then"] = _schema(rng, names, depth + 1, valid), _schema(rng, names, depth + 1, valid)
        elif r < 0.91:
            s["not"] = _schema(rng, names, depth + 1, valid)
        elif r < 0.94:
            s["$dynamicRef"] = rng.choice(["#meta", "#", "#/$defs/" + rng.choice(names)])
        elif r < 0.97:
            s["$id"] = rng.choice(["https://example.com/x", "urn:a", "x", "#frag", "file:///etc/"])
        else:
            s["type"] = _valid_only(rng, ["object", "string", "number", "float", ["null", "integer"], 1],
                                    valid and (lambda v: v not in ("float", 1)))
    return s


def row_schema(rng: random.Random) -> Dict[str, Any]:
    """A row schema: a graph of $defs (chains, fans, loops) under a root."""
    n = rng.randint(1, 30)
    names = [f"d{i}" for i in range(n)]
    valid = rng.random() < 0.7
    shape = rng.random()
    defs: Dict[str, Any] = {}
    for i, name in enumerate(names):
        nxt = f"#/$defs/d{i + 1}" if i + 1 < n else "#/$defs/d0"
        if shape < 0.25:    # a fan: each level refers to the next twice
            kw = rng.choice(["anyOf", "allOf", "oneOf"])
            defs[name] = {kw: [{"$ref": nxt}, {"$ref": nxt}]}
        elif shape < 0.35:  # a chain, maybe a loop
            defs[name] = {"$ref": nxt} if rng.random() < 0.9 else {"properties": {"c": {"$ref": nxt}}}
        elif shape < 0.45:  # nested unevaluatedProperties
            defs[name] = {"allOf": [{"$ref": nxt}], "unevaluatedProperties": False}
        else:
            defs[name] = _schema(rng, names, valid=valid)
    if rng.random() < 0.5:
        defs[names[-1]] = {"type": "object"}  # the chain usually ends
    root = _schema(rng, names, valid=valid)
    if not isinstance(root, dict):
        root = {"allOf": [root]}
    root["$defs"] = defs
    if rng.random() < 0.3:
        root["$ref"] = "#/$defs/d0"
    if rng.random() < 0.1 and not valid:
        root["$schema"] = rng.choice(["http://json-schema.org/draft-07/schema#",
                                      "https://json-schema.org/draft/2019-09/schema", "https://evil/x"])
    return root


def _value(rng: random.Random, depth: int = 0) -> Any:
    r = rng.random()
    if depth < 3 and r < 0.15:
        return {rng.choice(KEYS): _value(rng, depth + 1) for _ in range(rng.randint(0, 3))}
    if depth < 3 and r < 0.25:
        if rng.random() < 0.3:  # a large array of repeated or distinct objects
            size = rng.choice([100, 2000, 20_000])
            return [{"i": i % rng.choice([size, 7])} for i in range(size)]
        return [_value(rng, depth + 1) for _ in range(rng.randint(0, 4))]
    return rng.choice(VALUES)


def _nested(rng: random.Random) -> Dict[str, Any]:
    value: Dict[str, Any] = {}
    for _ in range(rng.randint(1, 40)):
        value = {"c": value}
    return value


def harbor_tree(rng: random.Random) -> Dict[str, bytes]:
    """A leaderboard folder: a definition with random row schemas, and rows."""
    section = {"metadata_schema": row_schema(rng) if rng.random() < 0.7 else {"type": "object"},
               "metrics_schema": row_schema(rng) if rng.random() < 0.7 else {"type": "object"}}
    definition = {"package": "acme/my-dataset", "name": "main", "title": "T", "visibility": "private",
                  **section,
                  "columns": [{"id": "c", "header": "C", "accessor": "metrics." + rng.choice(
                      ["accuracy", "a" * 60 + "_", "x_1", "tag"]), "type": "number"}]}
    rows = {"rows": [{"metadata": _nested(rng) if rng.random() < 0.1 else
                      {rng.choice(KEYS): _value(rng) for _ in range(rng.randint(0, 4))},
                      "metrics": {rng.choice(KEYS): _value(rng) for _ in range(rng.randint(0, 4))},
                      "status": "display"} for _ in range(rng.randint(1, 5))]}
    as_yaml = rng.random() < 0.3
    return {
        "leaderboard/leaderboard." + ("yaml" if as_yaml else "json"): _dump(definition, as_yaml),
        "leaderboard/rows.json": _dump(rows, False),
    }


def _dump(doc, as_yaml: bool) -> bytes:
    # JSON (ASCII, with escapes) is valid YAML, in flow style on one line
    return json.dumps(doc, indent=None if as_yaml else 1).encode("ascii")


def make_input(rng: random.Random, formats: List[str]) -> Tuple[Dict[str, bytes], List[str], str]:
    """(tree, arguments, output format), as tests.fuzz.make_input gives."""
    tree = harbor_tree(rng)
    fmt = "json" if rng.random() < 0.7 else rng.choice(formats)
    return tree, ["--all"] if rng.random() < 0.8 else ["leaderboard/rows.json"], fmt
