"""What checking one value against a schema a pull request wrote may cost.

A schema is a graph: ``$ref`` points back into it, so 26 ``$defs`` that each
``anyOf`` two references to the next are 1 KB of text and 2**26 schemas to
apply to one value. Before any row is checked, the schema is measured as it
would be applied: every keyword counts once (``required`` once per name),
references are followed (and expanded, as a validator expands them),
``unevaluatedProperties`` / ``unevaluatedItems`` count their schema's
in-place part twice (a validator walks it again to learn what was
evaluated). Over ``MAX_COST`` the schema is refused with the reason.

A reference back to a schema that encloses it costs one step when a keyword
that descends into the value (``properties``, ``items``, ...) lies between:
such recursion ends with the value's own depth. Without one it never ends.
What the measure cannot see (recursion that multiplies with the value's
depth) the validator's step budget stops.
"""
from __future__ import annotations

from typing import Any, Callable, Dict, Iterator, Optional, Tuple

# Keyword applications for one value; real row schemas need a few hundred.
MAX_COST = 50_000
# Schemas applied inside each other, through references included; beyond
# it a validator runs out of stack.
MAX_DEPTH = 100

IN_PLACE_ONE = ("not", "if", "then", "else")
IN_PLACE_LIST = ("allOf", "anyOf", "oneOf")
IN_PLACE_MAP = ("dependentSchemas", "dependencies")
DESCEND_ONE = ("additionalItems", "contains", "additionalProperties", "propertyNames",
               "unevaluatedItems", "unevaluatedProperties")
DESCEND_MAP = ("properties", "patternProperties")
REFERENCES = ("$ref", "$dynamicRef", "$recursiveRef")
_UNEVALUATED = ("unevaluatedProperties", "unevaluatedItems")
# Keywords a validator walks in full each time it applies them.
_SIZED = ("required", "dependentRequired", "dependencies", "type")


class TooCostly(Exception):
    """The reason a schema is refused, worded for a finding."""


def subschemas(node) -> Iterator[Tuple[Tuple[Any, ...], Any, bool]]:
    """(path below node, subschema, descends into the value) for every schema
    that ``node`` applies; ``$defs``, ``enum``, ``const`` and the like hold
    no schemas that apply, so they are not visited."""
    if not isinstance(node, dict):
        return
    for key, val in node.items():
        if key in IN_PLACE_ONE and isinstance(val, (dict, bool)):
            yield (key,), val, False
        elif key in IN_PLACE_LIST and isinstance(val, list):
            for i, sub in enumerate(val):
                yield (key, i), sub, False
        elif key in IN_PLACE_MAP and isinstance(val, dict):
            for name, sub in val.items():
                if isinstance(sub, (dict, bool)):  # dependencies may hold lists of names
                    yield (key, name), sub, False
        elif key in DESCEND_ONE and isinstance(val, (dict, bool)):
            yield (key,), val, True
        elif key in DESCEND_MAP and isinstance(val, dict):
            for name, sub in val.items():
                yield (key, name), sub, True
        elif key in ("items", "prefixItems"):
            if isinstance(val, (dict, bool)):
                yield (key,), val, True
            elif isinstance(val, list):
                for i, sub in enumerate(val):
                    yield (key, i), sub, True


def measure(schema, resolver, resolve: Callable[[Any, str], Optional[Tuple[Any, Any]]],
            enter: Callable[[Any, dict], Any] = lambda res, node: res) -> int:
    """The cost of ``schema``; raises TooCostly. ``resolve(resolver, ref)``
    gives (target, its resolver), or None when the reference does not
    resolve (reported on its own); ``enter(resolver, node)`` is the resolver
    inside ``node`` (which may set a new base URI with ``$id``)."""
    memo: Dict[int, int] = {}
    on_path: Dict[int, int] = {}  # node -> descents before it on the current path

    def cost(node, res, depth: int, descents: int) -> int:
        if not isinstance(node, dict):
            return 1
        key = id(node)
        if key in memo:
            return memo[key]
        if key in on_path:
            if on_path[key] == descents:
                raise TooCostly("it refers to itself without end (a $ref back to an enclosing schema "
                                "with no properties/items keyword between)")
            return 1  # recursion bounded by the value's depth
        if depth > MAX_DEPTH:
            raise TooCostly(f"it applies schemas more than {MAX_DEPTH} levels deep (through $ref)")
        on_path[key] = descents
        res = enter(res, node)
        total = max(1, len(node))
        for keyword in _SIZED:
            if isinstance(node.get(keyword), (list, dict)):
                total += len(node[keyword])
        for _, sub, down in subschemas(node):
            total += cost(sub, res, depth + 1, descents + down)
            if total > MAX_COST:
                break
        for keyword in REFERENCES:
            ref = node.get(keyword)
            if isinstance(ref, str) and total <= MAX_COST:
                target = resolve(res, ref)
                if target is not None:
                    total += cost(target[0], target[1], depth + 1, descents)
        if any(k in node for k in _UNEVALUATED):
            total *= 2
        del on_path[key]
        if total > MAX_COST:
            raise TooCostly(f"checking one value against it applies more than {MAX_COST:,} schema "
                            "keywords (references expanded): anyOf/allOf over $refs that fan out again")
        memo[key] = total
        return total

    return cost(schema, resolver, 0, 0)
