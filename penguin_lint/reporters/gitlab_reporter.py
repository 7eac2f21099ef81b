"""``--format gitlab``: a GitLab Code Quality report, a JSON array of issues.

GitLab requires ``description``, ``check_name``, ``fingerprint``,
``location.path`` and ``location.lines.begin`` of each issue, and shows
``severity`` (``info``, ``minor``, ``major``, ``critical``, ``blocker``). The
fingerprint tells GitLab which issues a merge request added or fixed: it
hashes the rule, the file and the message, not the line (a finding that
moves is the same finding), and findings that share all three are told
apart by their order in the file.
"""
from __future__ import annotations

import hashlib
import json
from typing import Dict

from penguin_lint.reporters.wording import files_checked

SEVERITY = {"error": "major", "warning": "minor"}


def _utf8(text: str) -> bytes:
    # a file name that is not UTF-8 keeps its bytes; a lone surrogate too
    try:
        return text.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:
        return text.encode("utf-8", "surrogatepass")


def _fingerprint(f, seen: Dict[str, int]) -> str:
    key = hashlib.sha256(_utf8("\0".join((f.code, f.path or "", f.message)))).hexdigest()
    n = seen.get(key, 0)
    seen[key] = n + 1
    return key if n == 0 else hashlib.sha256(f"{key}\0{n}".encode("ascii")).hexdigest()


def issue(f, fingerprint: str) -> dict:
    text = f"{f.code} {f.message}" + (f" (hint: {f.hint})" if f.hint else "")
    return {
        "type": "issue",
        "check_name": f.code,
        "description": text,
        "categories": ["Bug Risk"] if f.severity == "error" else ["Style"],
        "severity": SEVERITY.get(f.severity, "minor"),
        "fingerprint": fingerprint,
        "location": {
            # a finding about the repository itself (no file) is shown at its top
            "path": f.path or ".",
            "lines": {"begin": int(f.line or 1)},
        },
    }


def build(result) -> list:
    seen: Dict[str, int] = {}
    issues = [issue(f, _fingerprint(f, seen)) for f in sorted(result.findings, key=lambda f: f.sort_key())]
    if getattr(result, "nothing_checked", False):
        # no green widget on nothing: the run read none of what it was given
        text = f"Nothing checked ({files_checked(result)})"
        issues.append({"type": "issue", "check_name": "penguin-lint", "description": text,
                       "categories": ["Bug Risk"], "severity": "major",
                       "fingerprint": hashlib.sha256(_utf8(text)).hexdigest(),
                       "location": {"path": ".", "lines": {"begin": 1}}})
    return issues


def report(result, stream, **_):
    stream.write(json.dumps(build(result), indent=2, ensure_ascii=True) + "\n")
