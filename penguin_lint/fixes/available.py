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
from penguin_lint.fixes import FIX_BUGS, FIXERS, fixable_by_path, source_of


def mark_fixable(findings: List[Finding], repo, ctx, rules: Dict[str, object]) -> None:
    """Set ``finding.fix`` to "safe" (``--fix`` repairs it) or "unsafe" (only
    with ``--unsafe-fixes``) where a repair has an edit for it."""
    codes = {code for code, r in rules.items() if code in FIXERS and r.fixable}
    by_path = fixable_by_path(findings, codes)
    limit = repo.config.size_limit
    for path in sorted(by_path):
        raw = repo.read_bytes(path)
        source = source_of(path, raw) if raw is not None and len(raw) <= limit else None
        if source is None:
            continue
        for f in by_path[path]:
            try:
                edits = FIXERS[f.code](f, source, ctx)
            except FIX_BUGS:
                continue  # --fix says so when asked; a mark is only a mark
            if edits:
                f.fix = rules[f.code].fixable
