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
                f.replacements = [replacement(source, e) for e in edits]


def replacement(source, edit) -> tuple:
    """An edit as ``(line, column, end_line, end_column, text)``, columns
    in UTF-8 bytes of the line (what reviewdog counts)."""
    if edit.mark:
        return (1, 1, 1, 4, "")  # the mark's three bytes
    return (*_position(source, edit.start), *_position(source, edit.end), edit.new)


def _position(source, offset: int) -> tuple:
    # lines as the loaders count them: LF ends one (CR LF keeps its CR before it)
    text = source.text
    start = text.rfind("\n", 0, offset) + 1
    line = text.count("\n", 0, offset) + 1
    bom = 3 if source.bom and line == 1 else 0  # the file's bytes hold it
    return line, bom + len(text[start:offset].encode("utf-8", "surrogatepass")) + 1
