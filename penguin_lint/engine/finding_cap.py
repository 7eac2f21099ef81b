"""At most MAX_PER_FILE_AND_CODE findings of one code in one file.

A pull request can write a file with 50,000 unknown keys in a few hundred
KiB; listed one by one they are 15 MB of JSON and 40 MB of SARIF that no
reviewer reads, and one fix (the file's structure) answers them all. Past
the cap, the rest of that code in that file become one finding that counts
them, at the first one's place, in every format; ``Result.omitted`` (the
JSON summary's ``omitted``) says how many findings were folded so.
"""
from __future__ import annotations

from typing import Dict, List, Optional, Tuple

from penguin_lint.findings import Finding
from penguin_lint.suppressions import CARRIER

MAX_PER_FILE_AND_CODE = 100


def cap_findings(findings: List[Finding], limit: int = MAX_PER_FILE_AND_CODE,
                 more: Optional[Dict[Tuple[str, str], int]] = None) -> Tuple[List[Finding], int]:
    """``findings`` (sorted) with each file's and code's beyond ``limit``
    folded into one counting finding; and how many were folded. ``more``:
    findings of a file and code that a ``Collector`` counted and let go."""
    counts: Dict[Tuple[str, str], int] = {}
    for f in findings:
        key = (f.path, f.code)
        counts[key] = counts.get(key, 0) + 1
    if more:
        for key, n in more.items():
            if key in counts:  # else its file or code is ignored
                counts[key] += n
    # One over the limit is left alone: a loader that capped its own
    # problems already added the one that counts the rest.
    over = {key for key, n in counts.items() if n > limit + 1}
    if not over:
        return findings, 0
    out: List[Finding] = []
    seen: Dict[Tuple[str, str], int] = {}
    omitted = 0
    for f in findings:
        key = (f.path, f.code)
        if key not in over:
            out.append(f)
            continue
        n = seen.get(key, 0) + 1
        seen[key] = n
        if n <= limit:
            out.append(f)
        elif n == limit + 1:
            more = counts[key] - limit
            omitted += more
            out.append(Finding(
                code=f.code, name=f.name, severity=f.severity, path=f.path,
                message=f"{more} more {f.code} finding{'s' if more != 1 else ''} in this file, not listed one by one "
                        f"(at most {limit} of a code per file are)",
                line=f.line, column=f.column, end_line=f.end_line, end_column=f.end_column,
                hint=None, subject=f.subject, scope=f.scope))
    return out, omitted


class Collector:
    """Findings as a run makes them, capped as they come.

    A run keeps, per file and code, only the ``limit + 1`` first findings in
    report order (the ones ``cap_findings`` lists, and the place of the one
    that counts the rest); the others are counted and let go, so that a file
    with 100,000 findings costs the memory of 101. ``findings()`` and
    ``more`` give ``cap_findings`` what it needs to make the same report as
    from every finding.
    """

    def __init__(self, limit: int = MAX_PER_FILE_AND_CODE):
        self.limit = limit
        self._kept: Dict[Tuple[str, str], List[Finding]] = {}
        #: (path, code) -> how many distinct findings were let go
        self.more: Dict[Tuple[str, str], int] = {}
        # identities (hashed) of the findings let go, so that one made twice
        # (by two subjects) is counted once, as the report's deduplication would
        self._gone: Dict[Tuple[str, str], set] = {}
        self._carriers: List[Finding] = []

    def add(self, findings) -> None:
        keep = self.limit + 1
        for f in findings:
            if f.code == CARRIER:  # a suppression ledger's record, not a finding
                self._carriers.append(f)
                continue
            key = (f.path, f.code)
            group = self._kept.get(key)
            if group is None:
                self._kept[key] = [f]
                continue
            group.append(f)
            if len(group) > 2 * keep:
                self._trim(key, group, keep)

    def add_counts(self, more: Dict[Tuple[str, str], int]) -> None:
        """Counts of findings let go elsewhere (a worker process)."""
        for key, n in more.items():
            self.more[key] = self.more.get(key, 0) + n

    def _trim(self, key, group: List[Finding], keep: int) -> None:
        uniq: Dict[tuple, Finding] = {}
        for f in group:
            uniq.setdefault(_identity(f), f)
        group[:] = sorted(uniq.values(), key=Finding.sort_key)
        gone = self._gone.setdefault(key, set())
        for f in group[keep:]:
            h = hash(_identity(f))
            if h not in gone:
                gone.add(h)
                self.more[key] = self.more.get(key, 0) + 1
        del group[keep:]

    def findings(self) -> List[Finding]:
        """What was kept (unsorted); ``more`` counts the rest."""
        keep = self.limit + 1
        out: List[Finding] = list(self._carriers)
        for key, group in self._kept.items():
            if len(group) > keep:
                self._trim(key, group, keep)
            out.extend(group)
        return out


def _identity(f: Finding) -> tuple:
    return (f.path, f.line, f.column, f.code, f.message)
