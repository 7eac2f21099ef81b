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


def rule_codes() -> List[str]:
    """Every registered rule's code (what a configuration may name)."""
    return [r.code for r in all_rules()]


def get_rule(code: str) -> Rule:
    all_rules()
    return _REGISTRY[code.upper()]
