"""The rule registry: every module ``plNNN_*.py`` in this package defines one
rule class; they are discovered, not listed by hand."""
from __future__ import annotations

import importlib
import pkgutil
from typing import Dict, List

from penguin_lint.rules.base import Rule

_REGISTRY: Dict[str, Rule] = {}
_ORDERED: List[Rule] = []


def all_rules() -> List[Rule]:
    if _ORDERED:
        return list(_ORDERED)  # a copy: callers may filter it in place
    if not _REGISTRY:
        for mod in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
            if not mod.name.startswith("pl"):
                continue
            module = importlib.import_module(f"{__name__}.{mod.name}")
            for obj in vars(module).values():
                if isinstance(obj, type) and issubclass(obj, Rule) and obj.code and obj.__module__ == module.__name__:
                    _REGISTRY[obj.code] = obj()
    _ORDERED[:] = [_REGISTRY[c] for c in sorted(_REGISTRY)]
    return list(_ORDERED)


def rule_codes() -> Dict[str, str]:
    """Every registered rule's code, in order, with its name (what a
    configuration or --select may name: a code, a prefix or a name)."""
    return {r.code: r.name for r in all_rules()}


def get_rule(code: str) -> Rule:
    """The rule with this code, or this name (``summary-mismatch``)."""
    all_rules()
    rule = _REGISTRY.get(code.upper())
    if rule is None:
        rule = next((r for r in _ORDERED if r.name == code.lower()), None)
    if rule is None:
        raise KeyError(code)
    return rule
