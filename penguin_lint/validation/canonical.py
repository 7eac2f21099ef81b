"""JSON values in a form that hashes as JSON Schema compares them.

``uniqueItems`` asks whether two items are equal as JSON: numbers by value
(``1 == 1.0``), booleans apart from numbers (``true != 1``), objects without
regard to key order. Comparing every pair is quadratic (20,000 objects took
minutes); the canonical forms of the items go into a set instead, in time
linear in the array's size.
"""
from __future__ import annotations

from typing import Any, Dict, Hashable, Optional, Tuple


def canonical(value) -> Hashable:
    """A hashable form of a JSON value; equal forms are equal JSON values.
    Python already hashes ``1`` and ``1.0`` (and exact big integers) alike."""
    if isinstance(value, bool) or value is None:
        return ("b", value)
    if isinstance(value, (int, float)):
        return ("n", value)
    if isinstance(value, str):
        return ("s", value)
    if isinstance(value, (list, tuple)):
        return ("l", tuple(canonical(v) for v in value))
    if isinstance(value, dict):
        return ("o", frozenset((k, canonical(v)) for k, v in value.items()))
    return ("?", repr(value))


def first_repeat(items) -> Optional[Tuple[int, int]]:
    """(earlier, later) 0-based indexes of the first item equal to an
    earlier one, or None when all items differ."""
    seen: Dict[Any, int] = {}
    for i, item in enumerate(items):
        form = canonical(item)
        if form in seen:
            return seen[form], i
        seen[form] = i
    return None
