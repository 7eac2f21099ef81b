"""The rule registry: every module ``plNNN_*.py`` in this package defines one
rule class. What a run needs to know of a rule before it runs it (code, name,
kinds, which other paths affect it) is read from ``_index.py``, generated
from the modules and held to them by a test (``index_build.py``), so that a
run imports only the rules it runs: a hook on one attempt file does not pay
for the Harbor rules."""
from __future__ import annotations

import importlib
from typing import Dict, List, Optional, Tuple

from penguin_lint.rules._affects import may_affect
from penguin_lint.rules._index import RULES
from penguin_lint.rules.base import Rule


class LazyRule:
    """A rule whose module is imported the first time anything but its
    index entry is asked of it; everything else is the rule's own."""

    def __init__(self, code: str, name: str, severity: str, kinds: Tuple[str, ...], fixable: str,
                 problem_source: Optional[str], cross_file: bool, module: str, cls: str,
                 affects: Optional[Tuple[tuple, ...]]):
        self.code, self.name, self.severity, self.kinds = code, name, severity, kinds
        self.fixable, self.problem_source, self.cross_file = fixable, problem_source, cross_file
        self._where = (module, cls)
        self.affects = affects
        self._rule: Optional[Rule] = None

    def load(self) -> Rule:
        if self._rule is None:
            module, cls = self._where
            rule = self._rule = getattr(importlib.import_module(f"{__name__}.{module}"), cls)()
            # what a run calls for every subject, found at once from now on
            # (not through __getattr__, which a lookup reaches only by failing)
            vars(self).setdefault("check", rule.check)
        return self._rule

    def __getattr__(self, attr: str):
        if attr.startswith("__") or attr in ("_rule", "_where"):
            raise AttributeError(attr)  # copy and pickle probe these on a bare instance
        return getattr(self.load(), attr)

    def affected_by(self, changed: str, ctx) -> "object":
        # most rules read their own subject only, and a cross-file rule is
        # affected by few paths: the index says which, with nothing imported
        if not self.cross_file or not may_affect(self.affects, changed, ctx):
            return ()
        return self.load().affected_by(changed, ctx)

    def __repr__(self) -> str:
        return f"<rule {self.code} {self.name}>"


_ORDERED: List[LazyRule] = [LazyRule(*entry) for entry in RULES]
_REGISTRY: Dict[str, LazyRule] = {r.code: r for r in _ORDERED}


def all_rules() -> List[Rule]:
    return list(_ORDERED)  # a copy: callers may filter it in place


def rule_codes() -> Dict[str, str]:
    """Every registered rule's code, in order, with its name (what a
    configuration or --select may name: a code, a prefix or a name)."""
    return {r.code: r.name for r in _ORDERED}


def get_rule(code: str) -> Rule:
    """The rule with this code, or this name (``summary-mismatch``)."""
    rule = _REGISTRY.get(code.upper())
    if rule is None:
        rule = next((r for r in _ORDERED if r.name == code.lower()), None)
    if rule is None:
        raise KeyError(code)
    return rule
