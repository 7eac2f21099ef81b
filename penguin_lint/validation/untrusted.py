"""A jsonschema validator for schemas a pull request writes.

jsonschema trusts its schemas; Harbor row schemas come from the pull request.
The validator class made here is jsonschema's, with the keywords that could
be turned against the run replaced:

- ``pattern``, ``patternProperties``, ``additionalProperties`` and
  ``unevaluatedProperties`` match with RE2 (``patterns.py``), in linear time;
- ``uniqueItems``, ``enum`` and ``const`` compare canonical forms by hash,
  not every pair (and word their errors without the whole value);
- ``multipleOf`` divides exactly: a 400-digit integer against ``0.5`` does
  not overflow a float, and ``0.07`` is a multiple of ``0.01`` (the decimals
  as written, not their binary approximations);

and every keyword it applies spends steps of a budget, so that no schema
and value can take longer than the budget allows.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Dict

from penguin_lint.validation import patterns
from penguin_lint.validation.canonical import canonical, first_repeat

if TYPE_CHECKING:  # pragma: no cover
    from fractions import Fraction


def too_deep(e: BaseException) -> bool:
    """A RecursionError, or the panic that a Rust extension under jsonschema
    (rpds, behind referencing) makes of one: a pyo3 PanicException, which
    derives from BaseException and has no importable type."""
    return isinstance(e, RecursionError) or (
        type(e).__name__ == "PanicException" and "RecursionError" in str(e))


class BudgetExceeded(Exception):
    """The steps a check was allowed are spent."""


# Keywords applied inside one another at once. A $ref that recurses with the
# value can nest far deeper than the schema is written; stopping here, in
# Python, keeps the interpreter's own recursion limit out of reach, which
# would otherwise be hit inside rpds (under referencing) and turn into a Rust
# panic instead of a RecursionError.
MAX_NESTING = 120


class StepBudget:
    """Keyword applications left; ``start`` before each check."""

    def __init__(self, limit: int):
        self.limit = limit
        self.left = limit
        self.depth = 0

    def start(self, limit: int = 0) -> None:
        self.left = limit or self.limit
        self.depth = 0

    def spend(self, steps: int = 1) -> None:
        self.left -= steps
        if self.left < 0:
            raise BudgetExceeded(self.limit)


def exact(number) -> "Fraction":
    """The number as written: a float by its shortest decimal form."""
    from fractions import Fraction  # only for the numbers of a rows schema

    if isinstance(number, float):
        return Fraction(repr(number))
    return Fraction(number)


# -- keywords -------------------------------------------------------------------

def _error(message: str):
    from jsonschema.exceptions import ValidationError

    return ValidationError(message)


# Keywords whose work grows with the value spend a step for so much of it:
# RE2 scans some 256 characters with a large pattern, or a set takes some 8
# items, in the time jsonschema applies one keyword.
def pattern(validator, patrn, instance, schema):
    if validator.is_type(instance, "string"):
        validator.BUDGET.spend(len(instance) >> 8)
        if not patterns.search(patrn, instance):
            yield _error(f"does not match {patrn!r}")


def pattern_properties(validator, pattern_props, instance, schema):
    if not validator.is_type(instance, "object"):
        return
    validator.BUDGET.spend((len(instance) * len(pattern_props)) >> 3)
    for patrn, subschema in pattern_props.items():
        for k, v in instance.items():
            if patterns.search(patrn, k):
                yield from validator.descend(v, subschema, path=k, schema_path=patrn)


def _additional(instance, schema):
    props = schema.get("properties", {})
    pats = list(schema.get("patternProperties", {}))
    for key in instance:
        if key not in props and not patterns.search_any(pats, key):
            yield key


def additional_properties(validator, aP, instance, schema):
    if not validator.is_type(instance, "object"):
        return
    validator.BUDGET.spend((len(instance) * (1 + len(schema.get("patternProperties", ())))) >> 3)
    extras = list(_additional(instance, schema))
    if validator.is_type(aP, "object"):
        for extra in extras:
            yield from validator.descend(instance[extra], aP, path=extra)
    elif not aP and extras:
        yield _error("unexpected properties: " + ", ".join(sorted(map(repr, extras))[:20]))


def _evaluated_keys(validator, instance, schema) -> set:
    """The keys of ``instance`` that ``schema`` evaluates in place (JSON
    Schema 2020-12, ``unevaluatedProperties``): jsonschema's walk, with RE2
    and steps counted."""
    if not isinstance(schema, dict):
        return set()
    budget = validator.BUDGET
    budget.spend()
    keys: set = set()
    for keyword in ("$ref", "$dynamicRef"):
        ref = schema.get(keyword)
        if isinstance(ref, str):
            resolved = validator._resolver.lookup(ref)
            sub = validator.evolve(schema=resolved.contents, _resolver=resolved.resolver)
            keys |= _evaluated_keys(sub, instance, resolved.contents)
    props = schema.get("properties")
    if isinstance(props, dict):
        keys |= props.keys() & instance.keys()
    for keyword in ("additionalProperties", "unevaluatedProperties"):
        sub = schema.get(keyword)
        if sub is not None:
            keys |= {k for k, v in instance.items() if next(validator.descend(v, sub, path=k), None) is None}
    pats = schema.get("patternProperties")
    if isinstance(pats, dict):
        budget.spend((len(instance) * len(pats)) >> 3)
        keys |= {k for k in instance if patterns.search_any(pats, k)}
    deps = schema.get("dependentSchemas")
    if isinstance(deps, dict):
        for name, sub in deps.items():
            if name in instance:
                keys |= _evaluated_keys(validator, instance, sub)
    for keyword in ("allOf", "oneOf", "anyOf"):
        for sub in schema.get(keyword, ()):
            if next(validator.descend(instance, sub), None) is None:
                keys |= _evaluated_keys(validator, instance, sub)
    if "if" in schema:
        if validator.evolve(schema=schema["if"]).is_valid(instance):
            keys |= _evaluated_keys(validator, instance, schema["if"])
            if "then" in schema:
                keys |= _evaluated_keys(validator, instance, schema["then"])
        elif "else" in schema:
            keys |= _evaluated_keys(validator, instance, schema["else"])
    return keys


def unevaluated_properties(validator, uP, instance, schema):
    if not validator.is_type(instance, "object"):
        return
    evaluated = _evaluated_keys(validator, instance, schema)
    bad = [k for k in instance if k not in evaluated
           and next(validator.descend(instance[k], uP, path=k, schema_path=k), None) is not None]
    if bad:
        yield _error("unevaluated properties: " + ", ".join(sorted(map(repr, bad))[:20]))


def unique_items(validator, uI, instance, schema):
    if uI and validator.is_type(instance, "array"):
        validator.BUDGET.spend(len(instance) >> 3)
        repeat = first_repeat(instance)
        if repeat is not None:
            yield _error(f"item {repeat[1] + 1} repeats item {repeat[0] + 1}")


def _forms(validator, schema, keyword: str, values) -> frozenset:
    """The canonical forms of an enum's (or const's) values, once per schema
    (kept with the schema, so that its id is not reused while cached)."""
    cache = validator.ENUM_FORMS
    key = (id(schema), keyword)
    if key not in cache:
        cache[key] = (schema, frozenset(canonical(v) for v in values))
    return cache[key][1]


def enum(validator, enums, instance, schema):
    if not isinstance(enums, list):
        return
    if isinstance(instance, (list, dict)):
        validator.BUDGET.spend(len(instance) >> 3)
    if canonical(instance) not in _forms(validator, schema, "enum", enums):
        yield _error("is not one of the allowed values")


def const(validator, value, instance, schema):
    if isinstance(instance, (list, dict)):
        validator.BUDGET.spend(len(instance) >> 3)
    if canonical(instance) not in _forms(validator, schema, "const", [value]):
        yield _error("is not the constant value")


def multiple_of(validator, dB, instance, schema):
    if not validator.is_type(instance, "number") or not validator.is_type(dB, "number") or dB == 0:
        return
    try:
        quotient = exact(instance) / exact(dB)
    except (ValueError, OverflowError):  # inf/nan: not a number the rows may hold (PL103)
        return
    if quotient.denominator != 1:
        yield _error(f"is not a multiple of {dB}")


OVERRIDES = {
    "pattern": pattern,
    "patternProperties": pattern_properties,
    "additionalProperties": additional_properties,
    "unevaluatedProperties": unevaluated_properties,
    "uniqueItems": unique_items,
    "enum": enum,
    "const": const,
    "multipleOf": multiple_of,
    "divisibleBy": multiple_of,
}


def _counted(fn, budget: StepBudget):
    def keyword(validator, value, instance, schema):
        budget.spend()
        errors = fn(validator, value, instance, schema)
        return None if errors is None else _charged(errors, budget)
    return keyword


def _charged(errors, budget: StepBudget):
    # jsonschema words its errors with the whole value ("{instance!r} is not
    # valid under any of the given schemas"): the message's length is the
    # work it took, spent by the budget.
    budget.depth += 1
    try:
        if budget.depth > MAX_NESTING:
            raise RecursionError(f"schemas applied more than {MAX_NESTING} deep")
        for err in errors:
            budget.spend(len(err.message) >> 8)
            yield err
    finally:
        budget.depth -= 1


def validator_class(base, budget: StepBudget):
    """``base`` (a jsonschema validator class) for an untrusted schema: the
    keywords above replace jsonschema's, and every keyword spends a step."""
    import jsonschema

    keywords: Dict[str, Any] = {}
    for name, fn in base.VALIDATORS.items():
        keywords[name] = _counted(OVERRIDES.get(name, fn), budget)
    cls = jsonschema.validators.extend(base, keywords)
    cls.BUDGET = budget
    cls.ENUM_FORMS = {}  # id(enum list) -> (the list, kept alive; its canonical forms)
    return cls
