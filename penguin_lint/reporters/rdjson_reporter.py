"""``--format rdjson``: reviewdog's diagnostic format (``reviewdog -f=rdjson``).

Each finding is a diagnostic at its file and lines, with its rule's code and
page; one that ``--fix`` repairs carries the text the repair writes as
``suggestions`` (exact ranges, columns in UTF-8 bytes as reviewdog counts
them), which reviewdog posts as suggested changes on the pull request. The
diagnostic's own range is given by lines: penguin-lint counts columns in
characters, reviewdog in bytes.
"""
from __future__ import annotations

import json

from penguin_lint.reporters.wording import NOT_READ
from penguin_lint.rules.docs import rule_url

SEVERITY = {"error": "ERROR", "warning": "WARNING"}


def _suggestion(r) -> dict:
    line, column, end_line, end_column, text = r
    return {"range": {"start": {"line": line, "column": column}, "end": {"line": end_line, "column": end_column}},
            "text": text}


def diagnostic(f) -> dict:
    d = {
        "message": f.message + (f"\nhint: {f.hint}" if f.hint else ""),
        "location": {"path": f.path or "."},
        "severity": SEVERITY.get(f.severity, "WARNING"),
        "code": {"value": f.code, "url": rule_url(f.code, uri=True)},
    }
    if f.line is not None:
        d["location"]["range"] = {"start": {"line": int(f.line)}, "end": {"line": int(f.end_line or f.line)}}
    if f.fix == "safe" and f.replacements:
        d["suggestions"] = [_suggestion(r) for r in f.replacements]
    return d


def build(result) -> dict:
    diagnostics = [diagnostic(f) for f in result.findings]
    nothing = getattr(result, "nothing_checked", False)
    if nothing:
        # no green check on nothing: each file the run was given is said
        # not checked where reviewdog shows it, on the change
        diagnostics += [{"message": f"not checked: {NOT_READ} (nothing else was checked, so the run fails)",
                         "location": {"path": p}, "severity": "ERROR"} for p in result.unchecked]
    return {
        "source": {"name": "penguin-lint"},
        "severity": "ERROR" if result.errors or nothing else "WARNING" if result.warnings else "INFO",
        "diagnostics": diagnostics,
    }


def report(result, stream, **_):
    stream.write(json.dumps(build(result), indent=2, ensure_ascii=True) + "\n")
