"""Which changed paths a cross-file rule can answer anything for, told from
the clauses of its ``affects`` (copied into ``_index.py``) without importing
the rule: a run asks each cross-file rule what every changed path affects,
and most rules can say nothing of most paths.

A clause is one of:

- ``("under", root, least, most, name)``: a path below the layout's ``root``
  folder (``"experiments"``...) with ``least`` to ``most`` segments after it
  (``most`` None: any number; the folder itself has 0), and, unless ``name``
  is None, that last segment;
- ``("kind", kind)``: a file the layout classifies as ``kind``;
- ``("walk_root",)``: a top folder that ``--all`` walks;
- ``("harbor_definition",)``: a Harbor leaderboard definition's path.

A clause may match more than the rule answers for (it only spares work),
never less (tests/rules/test_rule_index.py holds each rule to its clauses).
"""
from __future__ import annotations

from typing import Optional, Tuple


def may_affect(clauses: Optional[Tuple[tuple, ...]], changed: str, ctx) -> bool:
    """Whether ``affected_by(changed, ctx)`` of a rule with these clauses can
    yield anything."""
    if clauses is None:
        return True
    return any(_matches(clause, changed, ctx) for clause in clauses)


def _matches(clause: tuple, changed: str, ctx) -> bool:
    what = clause[0]
    if what == "under":
        _, root, least, most, name = clause
        base = ctx.layout.roots[root]
        if changed == base:
            n = 0
        elif changed.startswith(base + "/"):
            n = changed.count("/") - base.count("/")
        else:
            return False
        return least <= n and (most is None or n <= most) and (name is None or changed.rpartition("/")[2] == name)
    if what == "kind":
        kind = ctx.layout.classify_file(changed)
        return kind is not None and kind[0] == clause[1]
    if what == "walk_root":
        return changed in ctx.repo.walk_roots()
    if what == "harbor_definition":
        from penguin_lint.rules._harbor_paths import is_definition_path

        return is_definition_path(changed, ctx)
    raise ValueError(f"unknown clause {clause!r}")
