"""Which findings ``--fix`` would repair: each marked before it is reported
(``[*]`` in the text report, "N fixable with `--fix`" in its summary).

The repairs are asked, file by file, exactly as ``--fix`` asks them, on the
bytes the run linted (the working tree, the index of ``--staged``, standard
input): a finding is fixable when its repair has an edit to make, not merely
when its rule can sometimes be fixed. Nothing is written.
"""
from __future__ import annotations

from typing import Dict, List

from penguin_lint.findings import Finding
from penguin_lint.fixes import FIXERS
from penguin_lint.fixes.source import Source
from penguin_lint.suppressions import HELD


def mark_fixable(findings: List[Finding], repo, ctx, rules: Dict[str, object]) -> None:
    """Set ``finding.fix`` to "safe" (``--fix`` repairs it) or "unsafe" (only
    with ``--unsafe-fixes``) where a repair has an edit for it."""
    by_path: Dict[str, List[Finding]] = {}
    for f in findings:
        rule = rules.get(f.code)
        if f.code in FIXERS and rule is not None and rule.fixable and f.line is not None \
                and f.directive != HELD:
            by_path.setdefault(f.path, []).append(f)
    limit = repo.config.size_limit
    for path in sorted(by_path):
        raw = repo.read_bytes(path)
        if raw is None or len(raw) > limit:
            continue
        try:
            source = Source(path, raw)
        except UnicodeDecodeError:
            continue
        if not source.ok:
            continue
        for f in by_path[path]:
            try:
                edits = FIXERS[f.code](f, source, ctx)
            except (RecursionError, ArithmeticError, ValueError, TypeError, KeyError, IndexError):
                continue  # --fix says so when asked; a mark is only a mark
            if edits:
                f.fix = rules[f.code].fixable
