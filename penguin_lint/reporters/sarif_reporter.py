"""SARIF 2.1.0 for code scanning: one rule entry per code, one result per finding."""
from __future__ import annotations

import hashlib
import json
from urllib.parse import quote

from penguin_lint.reporters.wording import files_checked
from penguin_lint.rules.docs import rule_url
from penguin_lint.version import __version__

SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"


def _level(severity: str) -> str:
    return "error" if severity == "error" else "warning"


def _utf8(text: str) -> bytes:
    """UTF-8 of any text: a file name that is not UTF-8 keeps its bytes
    (surrogateescape), and a lone surrogate from a JSON string ("\\ud800")
    is encoded as it stands instead of raising."""
    try:
        return text.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:
        return text.encode("utf-8", "surrogatepass")


def _uri(path: str) -> str:
    # A relative URI reference: spaces and non-ASCII characters are
    # percent-encoded (file names that are not UTF-8 keep their bytes).
    return quote(_utf8(path), safe="/")


def _rule_entry(code: str, rule=None, finding=None) -> dict:
    if rule is None:
        # A code without a registered rule still needs its entry.
        return {"id": code, "name": finding.name if finding else code,
                "shortDescription": {"text": finding.name if finding else code},
                "defaultConfiguration": {"level": _level(finding.severity if finding else "error")}}
    doc = rule.doc() or rule.summary
    entry = {
        "id": rule.code,
        "name": rule.name,
        "shortDescription": {"text": rule.summary or rule.name},
        "fullDescription": {"text": doc},
        "defaultConfiguration": {"level": _level(rule.severity)},
        "help": {"text": f"{doc}\n\nExplain locally: penguin-lint rules {rule.code}"},
        "helpUri": rule_url(rule.code, uri=True),
        "properties": {"tags": ["penguin-lint"]},
    }
    return entry


def _result(f, index: int) -> dict:
    text = f.message + (f"\nhint: {f.hint}" if f.hint else "")
    res = {
        "ruleId": f.code,
        "ruleIndex": index,
        "level": _level(f.severity),
        "message": {"text": text},
        # Stable across line moves: the same problem in the same file is the same alert.
        "partialFingerprints": {
            "penguinLint/v1": hashlib.sha256(
                _utf8("\0".join((f.code, f.path, f.message)))).hexdigest(),
        },
    }
    if f.new is not None:  # compared with a base: SARIF's own word for it
        res["baselineState"] = "new" if f.new else "unchanged"
    if f.caused_by:
        res["properties"] = {"caused_by": list(f.caused_by)}
    if f.path:
        phys = {"artifactLocation": {"uri": _uri(f.path), "uriBaseId": "%SRCROOT%"}}
        if f.line is not None:
            region = {"startLine": int(f.line)}
            if f.column is not None:
                region["startColumn"] = int(f.column)
            if f.end_line is not None:
                region["endLine"] = int(f.end_line)
            if f.end_column is not None and f.column is not None:
                region["endColumn"] = int(f.end_column)
            phys["region"] = region
        res["locations"] = [{"physicalLocation": phys}]
    return res


def build(result, rules=None) -> dict:
    rules = rules or {}
    codes = sorted(set(rules) | {f.code for f in result.findings})
    first = {}
    for f in result.findings:
        first.setdefault(f.code, f)
    entries = [_rule_entry(c, rules.get(c), first.get(c)) for c in codes]
    index = {c: i for i, c in enumerate(codes)}
    return {
        "$schema": SCHEMA,
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {
                "name": "penguin-lint",
                "version": __version__,
                "semanticVersion": __version__,
                "rules": entries,
            }},
            "columnKind": "unicodeCodePoints",
            "results": [_result(f, index[f.code]) for f in result.findings],
            **_invocations(result),
        }],
    }


def _invocations(result) -> dict:
    """A run that checked nothing says so where SARIF says how a run went."""
    if not getattr(result, "nothing_checked", False):
        return {}
    return {"invocations": [{
        "executionSuccessful": False,
        "toolExecutionNotifications": [{"level": "error",
                                        "message": {"text": f"Nothing checked ({files_checked(result)})"}}],
    }]}


def report(result, stream, rules=None, **_):
    stream.write(json.dumps(build(result, rules), indent=2, ensure_ascii=True) + "\n")
