"""Rule documentation, generated from the rules themselves (CLI and README)."""
from __future__ import annotations

import json
from typing import List

from penguin_lint.rules.base import Rule


FIX_WORDS = {"": "", "safe": "fix", "unsafe": "unsafe fix"}


def fix_note(rule: Rule) -> str:
    """How ``--fix`` treats a rule, in words for `rules CODE`."""
    if rule.fixable == "safe":
        return "Fix: penguin-lint --fix repairs these findings where there is one right answer."
    if rule.fixable == "unsafe":
        return "Fix: penguin-lint --fix --unsafe-fixes repairs these findings (a change of meaning: review it)."
    return "Fix: none; the finding needs a decision only the author can make."


def rules_table(rules: List[Rule], markdown: bool = False) -> str:
    if markdown:
        lines = ["| code | name | severity | fix | what it finds |", "|---|---|---|---|---|"]
        for r in rules:
            lines.append(f"| {r.code} | {r.name} | {r.severity} | {FIX_WORDS[r.fixable]} | {r.summary} |")
        return "\n".join(lines)
    width = max(len(r.name) for r in rules)
    return "\n".join(f"{r.code}  {r.name:<{width}}  {r.severity:<7}  {FIX_WORDS[r.fixable]:<10}  {r.summary}"
                     for r in rules)


def rules_json(rules: List[Rule]) -> str:
    return json.dumps([
        {"code": r.code, "name": r.name, "severity": r.severity, "summary": r.summary,
         "fixable": r.fixable or None,
         "doc": r.doc(), "bad": {"file": r.bad[0], "text": r.bad[1]},
         "good": {"file": r.good[0], "text": r.good[1]}}
        for r in rules], indent=2)


def explain(rule: Rule) -> str:
    out = [f"{rule.code} {rule.name} ({rule.severity})", "", rule.summary]
    doc = rule.doc()
    if doc:
        out += ["", doc]
    out += ["", fix_note(rule)]
    for label, (fname, text) in (("Bad", rule.bad), ("Good", rule.good)):
        if text:
            out += ["", f"{label} ({fname}):", ""] + ["    " + line for line in text.rstrip("\n").split("\n")]
    return "\n".join(out)
