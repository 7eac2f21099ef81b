"""Harbor Hub leaderboards, as PL601–PL607 read them (a helper, not a rule).

A definition (``harbor hub leaderboard create --config``) declares two JSON
Schemas, ``metadata_schema`` and ``metrics_schema``; columns and rank rules
name values of a row as ``metadata.<property>`` / ``metrics.<property>``. A
rows file (``--rows``, ``row create --config``) holds rows whose metadata and
metrics Harbor's server validates against those schemas after upload.
"""
from __future__ import annotations

import re
import uuid
import warnings
from dataclasses import dataclass, field
from typing import Any, Dict, Iterator, List, Optional, Tuple

# jsonschema and referencing are imported where a Harbor file is checked, so
# that runs without Harbor files never load them.

from penguin_lint.loaders.yaml_aliases import expand_aliases
from penguin_lint.rules._harbor_paths import DEFINITION_KIND, DEFINITION_NAMES, folder_of as _folder, join as _join
from penguin_lint.validation import patterns, schema_cost
from penguin_lint.validation.formats import make_format_checker
from penguin_lint.validation.schema import dotted, show
from penguin_lint.validation.schema_cost import subschemas
from penguin_lint.validation.untrusted import BudgetExceeded, StepBudget, too_deep, validator_class

# Keyword steps (jsonschema applies some 100,000 a second): for PL604's
# probes of a schema, and for all the rows of one rows file (PL605), which
# get a base and more for each value they hold; beyond them the check stops
# with a finding.
PROBE_STEPS = 20_000
ROWS_STEPS = 100_000
STEPS_PER_VALUE = 2

ACCESSOR_RE = re.compile(r"(metadata|metrics)\.([A-Za-z0-9_.-]+)\Z")
SECTIONS = (("metadata", "metadata_schema"), ("metrics", "metrics_schema"))
SCHEMA_KEY = dict(SECTIONS)

Path_ = Tuple[Any, ...]


# -- accessors ------------------------------------------------------------------
def parse_accessor(value) -> Optional[Tuple[str, str]]:
    """``metrics.pass.at.1`` -> ("metrics", "pass.at.1"): Harbor reads one
    property of the row's metadata or metrics and never descends further."""
    if not isinstance(value, str):
        return None
    m = ACCESSOR_RE.match(value)
    return (m.group(1), m.group(2)) if m else None


def accessors(data: dict, rank_only: bool = False) -> Iterator[Tuple[Path_, str, str]]:
    """(path, accessor, what) for every accessor of a definition."""
    if not rank_only:
        columns = data.get("columns")
        for i, col in enumerate(columns if isinstance(columns, list) else ()):
            if not isinstance(col, dict):
                continue
            cid = col.get("id")
            label = f"column '{cid}'" if isinstance(cid, str) else f"column {i + 1} (columns[{i}])"
            for key in ("accessor", "display_accessor"):
                if isinstance(col.get(key), str):
                    yield ("columns", i, key), col[key], f"{label} {key}"
    rules = data.get("rank_by")
    for i, rule in enumerate(rules if isinstance(rules, list) else ()):
        if isinstance(rule, dict) and isinstance(rule.get("accessor"), str):
            # counted as a reader counts them, with the key path (as rows are)
            yield ("rank_by", i, "accessor"), rule["accessor"], f"rank rule {i + 1} (rank_by[{i}])"


def schema_properties(schema) -> Optional[Tuple[Dict[str, Any], List[str]]]:
    """The properties a row schema declares, and its property-name patterns;
    None when that cannot be told without resolving references."""
    if not isinstance(schema, dict):
        return None
    if "$ref" in schema or "$dynamicRef" in schema or "$recursiveRef" in schema:
        return None
    props: Dict[str, Any] = {}
    names: List[str] = []
    branches = [schema]
    for key in ("allOf", "anyOf", "oneOf"):
        if isinstance(schema.get(key), list):
            branches += [b for b in schema[key] if isinstance(b, dict)]
    for b in branches:
        if b is not schema and ("$ref" in b or "$dynamicRef" in b):
            return None
        if isinstance(b.get("properties"), dict):
            for name, sub in b["properties"].items():
                props.setdefault(name, sub)
        if isinstance(b.get("patternProperties"), dict):
            names += [p for p in b["patternProperties"] if isinstance(p, str)]
    return props, names


def matches_pattern(name: str, pattern_list: List[str]) -> bool:
    """Whether a property name matches one of the patterns, with RE2 (an
    invalid pattern matches nothing: it is PL604's finding)."""
    return patterns.search_any(pattern_list, name)


# -- which files belong together ----------------------------------------------
def definition_for(rows_path: str, ctx) -> Optional[str]:
    """The definition a rows file is checked against: ``--definition FILE``,
    else the definition of the board whose ``leaderboard/`` folder holds it,
    else ``leaderboard.yaml``/``.yml``/``.json`` beside it, else the one file
    beside it that ``[kinds]`` maps to a Harbor definition."""
    named = ctx.options.get("definition")
    if isinstance(named, str) and named:
        return named
    board = ctx.repo.harbor_board(rows_path)
    if board is not None:
        # a file under a board's leaderboard/ folder is the board's: judged by
        # the board's definition, never by a leaderboard.yaml that a change
        # puts beside it (in entries/, say)
        for name in DEFINITION_NAMES:
            path = _join(board, name)
            if ctx.repo.is_file(path) and (ctx.layout.classify_file(path) or ("",))[0] == DEFINITION_KIND:
                return path
    folder = _folder(rows_path)
    files = ctx.repo.files(folder)
    layout = ctx.layout
    for name in DEFINITION_NAMES:
        if name in files:
            path = _join(folder, name)
            kind = layout.classify_file(path)
            # leaderboards/<id>/leaderboard.yaml is a PenguinHarness leaderboard
            if kind is None or kind[0] == DEFINITION_KIND:
                return path
    mapped = [_join(folder, n) for n in files if n != rows_path.rpartition("/")[2]]
    mapped = [p for p in mapped if (layout.classify_file(p) or ("",))[0] == DEFINITION_KIND]
    if len(mapped) == 1:
        return mapped[0]
    return None


def trial_key(value: str) -> str:
    """Harbor compares trial ids as UUIDs: case does not make two ids differ."""
    try:
        return str(uuid.UUID(value))
    except ValueError:
        return value


# -- the row schemas, compiled once per definition ------------------------------
@dataclass
class SchemaProblem:
    """A problem of a definition's row schema, at its path in the definition."""

    path: Path_  # inside the definition document
    message: str
    hint: Optional[str] = None


@dataclass
class Section:
    """One of metadata_schema / metrics_schema: a validator when the schema is
    usable, and what is wrong with it otherwise."""

    key: str
    validator: Any = None
    problems: List[SchemaProblem] = field(default_factory=list)


def compiled(ctx, def_path: str) -> Optional[Dict[str, Section]]:
    """section ("metadata"/"metrics") -> Section for a definition, or None
    when the definition does not load as a mapping. Compiled once per
    definition however many rows files (and PL604) ask."""
    key = ("harbor-row-schemas", def_path)
    if key not in ctx.cache:
        named = ctx.doc(def_path)
        if named is not None:
            # a definition named with --definition is a Harbor file, whatever its path
            expand_aliases(named)
        doc = ctx.valid_doc(def_path)
        ctx.cache[key] = None if doc is None else {
            section: _compile(name, doc.data[name] if name in doc.data else {})
            for section, name in SECTIONS
        }
    return ctx.cache[key]


def _compile(key: str, schema) -> Section:
    import jsonschema
    import referencing
    import referencing.exceptions
    from jsonschema import Draft202012Validator
    from referencing.jsonschema import DRAFT202012, UnknownDialect, specification_with

    out = Section(key)
    if not isinstance(schema, dict):
        return out  # wrong type: the definition's own schema reports it (PL102)
    dialect = schema.get("$schema")
    spec = DRAFT202012
    cls = Draft202012Validator
    if isinstance(dialect, str):
        try:
            spec = specification_with(dialect)
        except UnknownDialect:
            out.problems.append(SchemaProblem(
                ("$schema",), f"'{key}.$schema' names no JSON Schema draft: {show(dialect)}",
                "leave $schema out (draft 2020-12) or name a published draft, "
                "e.g. https://json-schema.org/draft/2020-12/schema"))
            return out
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            cls = jsonschema.validators.validator_for(schema, default=Draft202012Validator)
    out.problems.extend(_meta_problems(key, schema, cls))
    if out.problems:
        return out
    out.problems.extend(_pattern_problems(key, schema))
    if out.problems:
        return out
    out.problems.extend(_reference_problems(key, schema, spec))
    if out.problems:
        return out
    out.problems.extend(_cost_problems(key, schema, spec))
    if out.problems:
        return out
    # An explicit, empty registry: jsonschema's default one fetches http(s)
    # references from the network; with this one a validator knows the
    # published meta-schemas and nothing else.
    budget = StepBudget(PROBE_STEPS)
    validator = validator_class(cls, budget)(schema, registry=referencing.Registry(),
                                             format_checker=make_format_checker())
    budget.start()  # one budget for all the probes
    for probe in ({}, [], "", 0, None):
        try:
            validator.is_valid(probe)
        except BudgetExceeded:
            out.problems.append(SchemaProblem(
                (), f"'{key}' is refused: checking empty values against it takes more than "
                    f"{PROBE_STEPS:,} steps"))
            return out
        except referencing.exceptions.Unresolvable as e:
            # before BaseException, which would otherwise take it
            out.problems.append(SchemaProblem((), f"'{key}' has a reference that cannot be resolved: {e}"))
            return out
        except BaseException as e:  # noqa: B036 - a recursion panic from rpds is a BaseException
            if not too_deep(e):
                raise
            out.problems.append(SchemaProblem(
                (), f"'{key}' refers to itself without end",
                "a $ref back to an enclosing schema must sit below a keyword that descends "
                "into the value (properties, items, ...)"))
            return out
    out.validator = validator
    return out


def _meta_problems(key: str, schema: dict, cls) -> List[SchemaProblem]:
    import referencing.exceptions
    from jsonschema import FormatChecker
    from jsonschema.exceptions import best_match

    # The meta-schema's "regex" format would compile the pull request's
    # patterns with Python's re; _pattern_problems judges them with RE2.
    formats = FormatChecker(formats=())
    formats.checkers = {k: v for k, v in cls.FORMAT_CHECKER.checkers.items() if k != "regex"}
    meta = cls(cls.META_SCHEMA, format_checker=formats)
    out = []
    try:
        errors = list(meta.iter_errors(schema))
    except (RecursionError, referencing.exceptions.Unresolvable):  # pragma: no cover - meta-schemas are local
        return [SchemaProblem((), f"'{key}' cannot be checked against its meta-schema")]
    for err in errors:
        best = best_match(err.context) if err.context else err
        path = tuple(best.absolute_path)
        where = f"{key}.{dotted(path)}" if path else key
        hint = None
        if path and path[-1] == "type" and best.validator in ("enum", "anyOf", "type"):
            message = f"'{where}' is not a JSON Schema type: {show(best.instance)}"
            hint = "types are string, number, integer, boolean, object, array and null"
        else:
            message = f"'{where}' is not valid JSON Schema: {best.message}"
        out.append(SchemaProblem(path, message, hint))
    out.sort(key=lambda p: [str(x) for x in p.path])
    return out


def _reference_problems(key: str, schema: dict, spec) -> List[SchemaProblem]:
    """Every ``$ref`` must resolve inside the schema (or to a published
    meta-schema): nothing is fetched, so a network reference is a finding."""
    import referencing.exceptions
    from jsonschema_specifications import REGISTRY as _META_SCHEMAS

    paths: Dict[int, Path_] = {}

    def index(node, path):
        # only the nodes a finding can name: a path per node would cost the
        # schema's size times its depth
        if isinstance(node, dict) and ("$ref" in node or "$dynamicRef" in node):
            paths[id(node)] = path
        if isinstance(node, dict):
            for k, v in node.items():
                if isinstance(v, (dict, list)):
                    index(v, path + (k,))
        elif isinstance(node, list):
            for i, v in enumerate(node):
                if isinstance(v, (dict, list)):
                    index(v, path + (i,))

    index(schema, ())
    root = spec.create_resource(schema)
    out: List[SchemaProblem] = []

    def walk(resource, resolver, depth):
        contents = resource.contents
        for keyword in ("$ref", "$dynamicRef"):
            ref = contents.get(keyword) if isinstance(contents, dict) else None
            if not isinstance(ref, str):
                continue
            try:
                resolver.lookup(ref)
            except referencing.exceptions.Unresolvable:
                path = paths.get(id(contents), ()) + (keyword,)
                remote = re.match(r"[A-Za-z][A-Za-z0-9+.-]*:", ref) is not None and not ref.startswith("urn:")
                out.append(SchemaProblem(
                    path, f"'{key}.{dotted(path)}' cannot be resolved: {show(ref)}",
                    "penguin-lint never fetches schemas from the network: define it under $defs"
                    if remote else "point it at a definition inside the schema, e.g. #/$defs/<name>"))
        if depth > 200:  # pragma: no cover - documents are at most 64 levels deep
            return
        for sub in resource.subresources():
            walk(sub, resolver.in_subresource(sub), depth + 1)

    try:
        walk(root, _META_SCHEMAS.resolver_with_root(root), 0)
    except (referencing.exceptions.Unresolvable, TypeError, ValueError) as e:
        out.append(SchemaProblem((), f"'{key}' has references that cannot be followed: {e}"))
    return out


def rows_steps(rows: list) -> int:
    """The steps the rows of a file may take: linear in what they hold."""
    count, stack = 0, [rows]
    while stack:
        node = stack.pop()
        count += 1
        if isinstance(node, dict):
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return ROWS_STEPS + STEPS_PER_VALUE * count


def iter_row_errors(validator, instance, budget: Optional[int] = None):
    """The validation errors of one row section; raises what the validator
    raises (RecursionError, Unresolvable, BudgetExceeded) for the caller to
    report. ``budget``: the keyword steps this check may take."""
    if budget is not None:
        validator.BUDGET.start(budget)
    return sorted(validator.iter_errors(instance), key=lambda e: [str(p) for p in e.absolute_path])


def _pattern_problems(key: str, schema) -> List[SchemaProblem]:
    """Patterns come from the pull request: each must compile for RE2, the
    linear-time engine rows are matched with, before any row is checked."""
    out: List[SchemaProblem] = []

    def check(pattern, path):
        if not isinstance(pattern, str):
            return
        problem = patterns.check(pattern)
        if problem is not None:
            out.append(SchemaProblem(path, f"'{key}.{dotted(path)}' cannot be used: {problem}: {show(pattern)}",
                                     problem.hint))

    def walk(node, path, depth):
        if depth > 64 or not isinstance(node, dict):
            return
        check(node.get("pattern"), path + ("pattern",))
        if isinstance(node.get("patternProperties"), dict):
            for name in node["patternProperties"]:
                check(name, path + ("patternProperties", name))
        for sub_path, sub, _ in subschemas(node):
            walk(sub, path + sub_path, depth + 1)
        for defs in ("$defs", "definitions"):
            if isinstance(node.get(defs), dict):
                for name, sub in node[defs].items():
                    walk(sub, path + (defs, name), depth + 1)

    walk(schema, (), 0)
    return out


def _cost_problems(key: str, schema, spec) -> List[SchemaProblem]:
    """A schema whose references fan out (or loop) is refused by what it
    would cost, measured before any row is checked."""
    import referencing.exceptions
    from jsonschema_specifications import REGISTRY as _META_SCHEMAS

    def resolve(resolver, ref):
        try:
            resolved = resolver.lookup(ref)
        except (referencing.exceptions.Unresolvable, TypeError, ValueError):
            return None
        return resolved.contents, resolved.resolver

    def enter(resolver, node):
        if isinstance(node.get("$id"), str):
            try:
                return resolver.in_subresource(spec.create_resource(node))
            except (TypeError, ValueError, referencing.exceptions.Unresolvable):
                return resolver
        return resolver

    root = spec.create_resource(schema)
    try:
        schema_cost.measure(schema, _META_SCHEMAS.resolver_with_root(root), resolve, enter)
    except schema_cost.TooCostly as e:
        return [SchemaProblem((), f"'{key}' is refused: {e}",
                              "define each sub-schema once and refer to it from one place; "
                              "a row schema rarely needs more than a few hundred keywords")]
    return []
