"""Schema validation: one compiled validator per schema, reused for every file.

Errors become problems with a rule code: ``required`` -> PL101, ``type`` ->
PL102, unknown keys -> PL104, anything else -> the ``x-rule`` of the schema
node that failed, else PL103. Schemas may carry ``x-message`` and ``x-hint``
to word a failure for people; the code never needs to know which field is
which, so a schema change needs no code change.
"""
from __future__ import annotations

import json
import os
import re
from functools import lru_cache
from typing import Any, Dict, List, Optional

from penguin_lint.findings import Position, Problem
from penguin_lint.loaders.document import MAX_PROBLEMS_PER_CODE, Document, too_big
from penguin_lint.loaders.positions import line_starts, split_lines
from penguin_lint.loaders.numbers import yaml11_number_hint
from penguin_lint.loaders.scalars import did_you_mean, quoted, read_scalar, same
from penguin_lint.validation import patterns
from penguin_lint.validation.fast import compile_check
from penguin_lint.validation.formats import FORMAT_CHECKS, FORMAT_NAMES, make_format_checker

# jsonschema is imported only when a file fails the compiled check: a clean
# run (and `--version`) never pays for it.

_TYPE_NAMES = {
    "string": "a string", "integer": "an integer", "number": "a number", "boolean": "true or false",
    "object": "a mapping", "array": "a list", "null": "null",
}


def _load_schema_text(name: str) -> str:
    # The folder of the installed package penguin_lint.schemas (found without
    # importing importlib.resources, which costs more than the read), else the
    # source tree's schemas/ when running from a checkout that is not installed.
    from importlib.util import find_spec

    try:
        spec = find_spec("penguin_lint.schemas")
    except ModuleNotFoundError:
        spec = None
    folders = list(spec.submodule_search_locations or ()) if spec is not None else []
    folders.append(os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                                "schemas"))
    for folder in folders:
        try:
            with open(os.path.join(folder, f"{name}.json"), encoding="utf-8") as f:
                return f.read()
        except FileNotFoundError:
            continue
    raise FileNotFoundError(f"schema {name}.json is not installed")


@lru_cache(maxsize=None)
def load_schema(name: str) -> Dict[str, Any]:
    return json.loads(_load_schema_text(name))


def pattern_ok(pattern: str, instance: str) -> bool:
    """``pattern`` as a full match: ``re.search`` with ``$`` accepts a
    trailing newline, which would let ``"my-id\\n"`` pass as an id."""
    if _compiled(pattern).search(instance) is None:
        return False
    return not (pattern.endswith("$") and instance.endswith("\n"))


def _full_pattern(validator, pattern, instance, schema):
    from jsonschema.exceptions import ValidationError

    if validator.is_type(instance, "string") and not pattern_ok(pattern, instance):
        yield ValidationError(f"{instance!r} does not match {pattern!r}")


@lru_cache(maxsize=None)
def _compiled(pattern: str):
    return re.compile(pattern)


@lru_cache(maxsize=None)
def validator_for(name: str):
    """The full validator of a schema, compiled once and reused."""
    import jsonschema
    from jsonschema import Draft202012Validator

    schema = load_schema(name)
    Draft202012Validator.check_schema(schema)
    cls = jsonschema.validators.extend(Draft202012Validator, {"pattern": _full_pattern})
    return cls(schema, format_checker=make_format_checker())


@lru_cache(maxsize=None)
def fast_check_for(name: str):
    """The compiled yes/no check for a schema (None: always validate fully)."""
    return compile_check(load_schema(name), pattern_ok, FORMAT_CHECKS)


def dotted(path) -> str:
    out = ""
    for p in path:
        if isinstance(p, int):
            out += f"[{p}]"
        else:
            out += ("." if out else "") + str(p)
    return out or "(top level)"


def row_label(i: int) -> str:
    """How every message names the row at index ``i`` of a Harbor rows file:
    counted from 1 as a reader counts them, with its key path beside it."""
    return f"row {i + 1} (rows[{i}])"


# The schema whose list items are rows that messages name as such.
_ROWS_SCHEMA = "harbor_rows"


def _in_row(problems: List[Problem], path) -> List[Problem]:
    """Problems under ``rows[i]`` of a rows file named the way PL605 and
    PL606 name them: ``row 2 (rows[1]): 'status' ...``, the key path within
    the row."""
    if len(path) < 2 or path[0] != "rows" or not isinstance(path[1], int) or isinstance(path[1], bool):
        return problems
    i = path[1]
    whole, inner = f"'rows[{i}]'", f"'rows[{i}]."
    for p in problems:
        if inner in p.message:
            p.message = f"{row_label(i)}: " + p.message.replace(inner, "'", 1)
        elif whole in p.message:
            p.message = p.message.replace(whole, row_label(i), 1)
        else:
            p.message = f"{row_label(i)}: {p.message}"
    return problems


def show(value, limit: int = 60) -> str:
    """A value as a finding quotes it, cut at ``limit`` characters; only that
    much of it is rendered (a row value may be megabytes)."""
    if isinstance(value, str):
        text = repr(value[: limit + 1])
    else:
        text = ""
        for chunk in json.JSONEncoder(ensure_ascii=False, default=str).iterencode(value):
            text += chunk
            if len(text) > limit:
                break
    return text if len(text) <= limit else text[: limit - 1] + "…"


# A YAML node's anchor (&a) and tag (!!float) written before its value
_PROPERTIES = re.compile(r"\A(?:[&!]\S*\s+)+")


def as_written(doc: Document, path, value, starts: Optional[dict] = None) -> str:
    """A value as a message quotes it: a number, boolean or null as the file
    writes it (YAML's ``yes``, ``~``, ``0x1A``; TOML's ``1_000``; JSON's
    ``1.50``), a string quoted (``show``). ``starts``: where the file's
    lines start, kept across the errors of one file (a rows file may have
    thousands)."""
    if value is None or isinstance(value, (bool, int, float)):
        imp = doc.implicit.get(tuple(path))
        src = imp[1] if imp is not None else _one_line_text(doc, path, starts if starts is not None else {})
        src = _PROPERTIES.sub("", src) if src else src
        if src and len(src) <= 60 and src[0] != "*":  # an alias is not what it stands for
            return src
        if isinstance(value, float) and not (value == value and value not in (_INF, -_INF)):
            return repr(value)  # inf, -inf, nan: as the message's other findings name them
    return show(value)


def _one_line_text(doc: Document, path, starts: dict) -> str:
    """The text of a one-line value as written ('' if unknown), its line
    found through the file's line starts, computed once per ``starts``."""
    text = getattr(doc, "text", None)
    if not text:
        return ""
    pos = doc.value_pos(path)
    if pos.end_line != pos.line or pos.end_column is None:
        return ""
    if "lines" not in starts:
        starts["lines"] = line_starts(text)
    at = starts["lines"]
    if not 0 < pos.line <= len(at):
        return ""
    begin = at[pos.line - 1]
    line = text[begin:at[pos.line] - 1 if pos.line < len(at) else len(text)]
    src = line.rstrip("\r")[pos.column - 1:pos.end_column - 1].strip()
    src = _PROPERTIES.sub("", src)  # an anchor or a tag before a YAML value is not the value
    return src if 0 < len(src) <= 60 else ""


def _json_type(value) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int):
        return "an integer"
    if isinstance(value, float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a mapping"
    return type(value).__name__


_INF = float("inf")


def validate(doc: Document, schema_name: str) -> List[Problem]:
    if not doc.parsed:
        return []
    out: List[Problem] = []
    fast = fast_check_for(schema_name)
    if fast is None or not fast(doc.data):
        validator = validator_for(schema_name)
        starts: dict = {}  # the file's line starts, found once for all its errors
        for err in validator.iter_errors(doc.data):
            found = _convert(err, doc, validator.schema, starts)
            out.extend(_in_row(found, tuple(err.absolute_path)) if schema_name == _ROWS_SCHEMA else found)
    for path in doc.nonfinite:
        value = doc.get(*path)
        if not (isinstance(value, float) and (value != value or value in (_INF, -_INF)) or too_big(value)):
            continue  # what a later duplicate key put in its place is what the consumer reads
        # an int here is one beyond any float (the loaders mark those too)
        what = (f"an integer of {len(str(abs(value)))} digits, too large to compute with"
                if isinstance(value, int) else f"{value}, not a finite number")
        found = [Problem("PL103", f"'{dotted(path)}' is {what}", doc.value_pos(path), "write a real number")]
        out.extend(_in_row(found, path) if schema_name == _ROWS_SCHEMA else found)
    return out


def _convert(err, doc: Document, root=None, starts: Optional[dict] = None) -> List[Problem]:
    """Problems for one validation error; ``root`` is the whole schema (to
    find what a missing key holds when a branch such as ``then`` requires it)."""
    path = tuple(err.absolute_path)
    kind = err.validator
    schema = err.schema if isinstance(err.schema, dict) else {}
    inst = err.instance
    where = dotted(path)
    fmt = getattr(doc, "fmt", "yaml")
    if kind == "required":
        missing = [r for r in err.validator_value if isinstance(inst, dict) and r not in inst]
        out = []
        for name in missing:
            sub = f"{where}.{name}" if path else name
            pos = doc.key_pos(path) if path else Position(1, 1)
            hint = None
            if isinstance(inst, dict):
                import difflib  # only when a finding is worded

                close = difflib.get_close_matches(name, [k for k in inst if isinstance(k, str)], n=1, cutoff=0.75)
                if close:
                    meant = did_you_mean(name, fmt)
                    hint = f"'{close[0]}' is there: {meant}" if meant else None
            if hint is None:
                # the key with a placeholder of its type, in the file's format
                line = placeholder_member(name, property_schema(schema, root, path, name), fmt, root)
                if line is not None:
                    hint = f"add {line}" + (f" under {where}" if path else "")
            out.append(Problem("PL101", f"missing required field '{sub}'", pos, hint, key=path + (name,)))
        return out
    if kind == "type" and path == () and inst is None:
        # YAML reads an empty file (or one of comments only) as null
        required = [r for r in schema.get("required", ()) if isinstance(r, str)]
        empty = _blank(getattr(doc, "text", None))
        what = "the file is empty" if empty else "the file holds only null"
        message = f"{what}: it needs a mapping" + (f" with {', '.join(required)}" if required else "")
        members = [placeholder_member(r, property_schema(schema, root, (), r), fmt, root) for r in required]
        hint = ("write at least these keys, one per line: " + " / ".join(members)
                if required and None not in members else None)
        return [Problem("PL102", message, Position(1, 1), hint)]
    if kind in ("additionalProperties", "unevaluatedProperties"):
        if not isinstance(inst, dict):
            return []
        props = schema.get("properties", {})
        # the project's schemas have none; a Harbor row schema's come from the
        # pull request, so they are matched with RE2
        pats = [p for p in schema.get("patternProperties", {}) if isinstance(p, str)]
        # A format that forbids unknown keys (Harbor's) marks the node with x-rule.
        code = schema.get("x-rule", "PL104")
        out = []
        flood_pos = None
        for key in inst:
            if key in props or (pats and patterns.search_any(pats, key)):
                continue
            if len(out) >= 2 * MAX_PROBLEMS_PER_CODE:
                # A flood: finding_cap lists the first ones and counts the
                # rest, which are not worded or placed one by one (placed at
                # the mapping's end, they sort after those listed).
                if flood_pos is None:
                    whole = doc.value_pos(path)
                    flood_pos = Position(whole.end_line or whole.line, whole.end_column or whole.column)
                out.append(Problem(code, f"unknown field '{key}'", flood_pos))
                continue
            # YAML 1.1 types keys (on: is True, ~: None): only text is a near miss
            import difflib  # only when a finding is worded

            close = difflib.get_close_matches(key, list(props), n=1, cutoff=0.7) if isinstance(key, str) else None
            hint = did_you_mean(close[0], fmt) if close else None
            label = f"{where}.{key}" if path else str(key)
            out.append(Problem(code, f"unknown field '{label}'", doc.key_pos(path + (key,)), hint))
        return out
    if kind == "type":
        expected = err.validator_value
        expected = [expected] if isinstance(expected, str) else list(expected)
        names = " or ".join(_TYPE_NAMES.get(t, t) for t in expected)
        hint = None
        imp = doc.implicit.get(path)
        if imp is None and doc.fmt == "toml" and "string" in expected and isinstance(inst, (bool, int, float)):
            # TOML typed a bare value: quote its source text, as written
            src = _source_text(doc, path)
            if src:
                imp = ({bool: "bool", int: "int", float: "float"}[type(inst)], src)
        if imp is not None and "string" in expected:
            tag, src = imp
            what = {"timestamp": "a date", "bool": "a boolean", "int": "a number",
                    "float": "a number", "null": "null"}.get(tag, tag)
            key = path[-1] if path and isinstance(path[-1], str) else None
            value = quoted(src, doc.fmt)
            hint = (f"{doc.fmt.upper()} read {src} as {what}; quote it: "
                    + (f"{key_text(key, 'yaml')}: {value}" if doc.fmt == "yaml" and key else
                       f"{key_text(key, 'toml')} = {value}" if doc.fmt == "toml" and key else value))
        elif isinstance(inst, str) and ("number" in expected or "integer" in expected):
            try:
                float(inst)
                if imp is not None and imp[0] == "str":
                    hint = yaml11_number_hint(imp[1], integer="number" not in expected)
                else:
                    hint = "write the number without quotes"
            except ValueError:
                pass
        return [Problem("PL102", f"'{where}' must be {names}, not {_json_type(inst)}",
                        doc.value_pos(path), hint)]
    code = schema.get("x-rule", "PL103")
    msg = schema.get("x-message")
    shown = as_written(doc, path, inst, starts)
    near = None
    if msg:
        message = f"'{where}' {msg}: {shown}"
    elif kind == "enum":
        options = list(err.validator_value)
        listed = ", ".join(str(o)[:40] for o in options[:10]) + (
            f", … ({len(options):,} in all)" if len(options) > 10 else "")
        message = f"'{where}' must be one of {listed}, not {shown}"
        near = _near_option(inst, options)
    elif kind == "const":
        message = f"'{where}' must be {show(err.validator_value)}, not {shown}"
    elif kind == "pattern":
        message = f"'{where}' does not match {err.validator_value}: {shown}"
    elif kind == "format":
        message = f"'{where}' is not a valid {FORMAT_NAMES.get(err.validator_value, err.validator_value)}: {shown}"
    elif kind in ("minimum", "exclusiveMinimum", "maximum", "exclusiveMaximum"):
        word = {"minimum": "at least", "exclusiveMinimum": "greater than",
                "maximum": "at most", "exclusiveMaximum": "less than"}[kind]
        message = f"'{where}' must be {word} {err.validator_value}, not {shown}"
    elif kind in ("minItems", "maxItems", "minLength", "maxLength", "minProperties", "maxProperties"):
        what = "items" if "Items" in kind else "characters" if "Length" in kind else "keys"
        word = "at least" if kind.startswith("min") else "at most"
        message = f"'{where}' must have {word} {err.validator_value} {what}"
    elif kind == "uniqueItems":
        detail = err.message if err.message.startswith("item ") else ""
        message = f"'{where}' has repeated items" + (f": {detail}" if detail else "")
    elif kind == "multipleOf":
        message = f"'{where}' must be a multiple of {err.validator_value}, not {shown}"
    else:
        message = f"'{where}': {err.message}"
    pos = doc.value_pos(path)
    if "propertyNames" in err.schema_path and isinstance(inst, str):
        # propertyNames judges the keys: the finding sits on the key
        pos = doc.key_pos(path + (inst,))
        message = message.replace(f"'{where}'", f"'{where}' key", 1)
    hint = schema.get("x-hint")
    meant = did_you_mean(near, fmt) if kind == "enum" and near is not None else None
    if meant is not None:
        hint = meant + (f" ({hint})" if hint else "")
    return [Problem(code, message, pos, hint)]


# A near miss is looked for among this many options at most, each this long
# (a schema from a pull request may list thousands).
_NEAR_OPTIONS, _NEAR_LENGTH = 100, 64


def _near_option(value, options):
    """The option a misspelt enum value was likely meant to be (``publised``
    -> ``published``), as PL104 offers a key; None when none is close."""
    if not isinstance(value, str) or len(value) > _NEAR_LENGTH or len(options) > _NEAR_OPTIONS:
        return None
    texts = [o for o in options if isinstance(o, str) and len(o) <= _NEAR_LENGTH]
    import difflib  # only when a finding is worded

    close = difflib.get_close_matches(value, texts, n=1, cutoff=0.7)
    if not close:
        # a slip of case only (Published, DRAFT)
        close = [o for o in texts if o.lower() == value.lower()][:1]
    return close[0] if close else None


# -- placeholders for missing keys ------------------------------------------------

_EXAMPLE_FORMATS = {"date-time": "2026-01-01T00:00:00Z", "date": "2026-01-01", "uri": "https://example.com",
                    "email": "name@example.com", "uuid": "00000000-0000-0000-0000-000000000000"}
_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+\Z")


def _blank(text) -> bool:
    """Whether a file's text holds nothing but blank lines and comments."""
    if not text:
        return True
    return all(not ln.strip() or ln.lstrip().startswith("#") or ln.strip() in ("---", "...")
               for ln in text.splitlines())


def _resolved(schema, root):
    """``schema`` with a local ``$ref`` (``#/$defs/x``) followed, a few times at most."""
    for _ in range(8):
        ref = schema.get("$ref") if isinstance(schema, dict) else None
        if not isinstance(ref, str) or not ref.startswith("#/") or not isinstance(root, dict):
            return schema
        node = root
        for part in ref[2:].split("/"):
            node = node.get(part) if isinstance(node, dict) else None
        schema = node
    return schema


def property_schema(schema, root, path, name):
    """The schema of key ``name`` of the mapping at ``path``: from the node
    that failed, else found from the root along ``path``."""
    props = schema.get("properties") if isinstance(schema, dict) else None
    if isinstance(props, dict) and name in props:
        return props[name]
    node = _resolved(root, root)
    for step in path:
        if not isinstance(node, dict):
            return None
        if isinstance(step, int):
            node = node.get("items")
        else:
            node = (node.get("properties") or {}).get(step)
        node = _resolved(node, root)
    if not isinstance(node, dict):
        return None
    return (node.get("properties") or {}).get(name)


def placeholder(schema, fmt: str, root=None, depth: int = 0):
    """A value of the type ``schema`` asks for, written in ``fmt`` (yaml,
    toml, json): what a hint proposes for a missing key; None when the
    schema does not say."""
    schema = _resolved(schema, root)
    if not isinstance(schema, dict) or depth > 4:
        return None
    if "const" in schema:
        return _literal(schema["const"], fmt)
    enum = schema.get("enum")
    if isinstance(enum, list) and enum:
        return _literal(enum[0], fmt)
    kind = schema.get("type")
    if isinstance(kind, list):
        kind = next((k for k in kind if k != "null"), None)
    low = schema.get("minimum", schema.get("exclusiveMinimum"))
    low = low if isinstance(low, (int, float)) and not isinstance(low, bool) else None
    if kind == "string":
        return _literal(_EXAMPLE_FORMATS.get(schema.get("format"), "..."), fmt)
    if kind == "integer":
        n = 0 if low is None else int(low) + ("exclusiveMinimum" in schema)
        return str(max(n, 0) if low is None else n)
    if kind == "number":
        x = 0.0 if low is None else float(low) + ("exclusiveMinimum" in schema)
        return repr(x)
    if kind == "boolean":
        return "false"
    if kind == "array":
        return "[]"
    if kind == "object":
        members = []
        for name in schema.get("required", ()):
            text = placeholder_member(name, (schema.get("properties") or {}).get(name), fmt, root, depth + 1)
            if text is None:
                return None
            members.append(text)
        if not members:
            return "{}"
        return "{ " + ", ".join(members) + " }" if fmt == "toml" else "{" + ", ".join(members) + "}"
    return None


def placeholder_member(name: str, schema, fmt: str, root=None, depth: int = 0):
    """``name`` with a placeholder value, as a line of a ``fmt`` file:
    ``score_mean: 0.0``, ``score_mean = 0.0``, ``"score_mean": 0.0``."""
    value = placeholder(schema, fmt, root, depth)
    if value is None:
        return None
    if fmt == "toml":
        return f"{key_text(name, fmt)} = {value}"
    if fmt == "json":
        return f"{json.dumps(name)}: {value}"
    return f"{key_text(name, fmt)}: {value}"


def key_text(name: str, fmt: str) -> str:
    """The key ``name`` as a hint writes it in a ``fmt`` file: bare where the
    file's parser reads it back as that text (YAML reads ``yes:`` as True),
    else quoted."""
    if _BARE_KEY.match(name) and (fmt == "toml" or same(read_scalar(name, "yaml"), name)):
        return name
    return quoted(name, fmt)


def _literal(value, fmt: str) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value)  # a double-quoted string in YAML, TOML and JSON alike
    return json.dumps(value)


def _source_text(doc: Document, path) -> str:
    """The text of a one-line value as written in the file ('' if unknown)."""
    if not doc.text:
        return ""
    pos = doc.value_pos(path)
    if pos.end_line != pos.line or pos.end_column is None:
        return ""
    lines = split_lines(doc.text)  # LF only, as the positions count
    if not 0 < pos.line <= len(lines):
        return ""
    src = lines[pos.line - 1][pos.column - 1:pos.end_column - 1].strip()
    src = _PROPERTIES.sub("", src)
    return src if 0 < len(src) <= 60 else ""
