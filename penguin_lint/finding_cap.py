"""At most MAX_PER_FILE_AND_CODE findings of one code in one file.

A pull request can write a file with 50,000 unknown keys in a few hundred
KiB; listed one by one they are 15 MB of JSON and 40 MB of SARIF that no
reviewer reads, and one fix (the file's structure) answers them all. Past
the cap, the rest of that code in that file become one finding that counts
them, at the first one's place, in every format; ``Result.omitted`` (the
JSON summary's ``omitted``) says how many findings were folded so.
"""
from __future__ import annotations

from typing import Dict, List, Tuple

from penguin_lint.findings import Finding

MAX_PER_FILE_AND_CODE = 100


def cap_findings(findings: List[Finding], limit: int = MAX_PER_FILE_AND_CODE) -> Tuple[List[Finding], int]:
    """``findings`` (sorted) with each file's and code's beyond ``limit``
    folded into one counting finding; and how many were folded."""
    counts: Dict[Tuple[str, str], int] = {}
    for f in findings:
        key = (f.path, f.code)
        counts[key] = counts.get(key, 0) + 1
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
                message=f"{more} more {f.code} findings in this file, not listed one by one "
                        f"(at most {limit} of a code per file are)",
                line=f.line, column=f.column, end_line=f.end_line, end_column=f.end_column,
                hint=None, subject=f.subject, scope=f.scope))
    return out, omitted
