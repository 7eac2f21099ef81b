"""Rule documentation, generated from the rules themselves (CLI and README)."""
from __future__ import annotations

import json
from typing import List

from penguin_lint.rules.base import Rule


def rules_table(rules: List[Rule], markdown: bool = False) -> str:
    if markdown:
        lines = ["| code | name | severity | what it finds |", "|---|---|---|---|"]
        for r in rules:
            lines.append(f"| {r.code} | {r.name} | {r.severity} | {r.summary} |")
        return "\n".join(lines)
    width = max(len(r.name) for r in rules)
    return "\n".join(f"{r.code}  {r.name:<{width}}  {r.severity:<7}  {r.summary}" for r in rules)


def rules_json(rules: List[Rule]) -> str:
    return json.dumps([
        {"code": r.code, "name": r.name, "severity": r.severity, "summary": r.summary,
         "doc": r.doc(), "bad": {"file": r.bad[0], "text": r.bad[1]},
         "good": {"file": r.good[0], "text": r.good[1]}}
        for r in rules], indent=2)


def explain(rule: Rule) -> str:
    out = [f"{rule.code} {rule.name} ({rule.severity})", "", rule.summary]
    doc = rule.doc()
    if doc:
        out += ["", doc]
    for label, (fname, text) in (("Bad", rule.bad), ("Good", rule.good)):
        if text:
            out += ["", f"{label} ({fname}):", ""] + ["    " + line for line in text.rstrip("\n").split("\n")]
    return "\n".join(out)
