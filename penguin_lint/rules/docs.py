"""Rule documentation, generated from the rules themselves: `penguin-lint
rules`, the index table of docs/rules.md and one page per rule in
docs/rules/ (``penguin-lint rules --write-docs docs``)."""
from __future__ import annotations

import inspect
import json
import re
from pathlib import Path
from typing import Dict, List

from penguin_lint.address import rule_docs
from penguin_lint.rules.base import Rule

#: Rule pages, relative to the docs folder.
RULES_DIR = "rules"
#: The generated block of docs/rules.md.
INDEX_START = "<!-- rules:start (generated: penguin-lint rules --write-docs docs) -->"
INDEX_END = "<!-- rules:end -->"
_INDEX_BLOCK = re.compile(r"<!-- rules:start[^\n]*-->\n.*?<!-- rules:end -->", re.S)
_PAGE_NAME = re.compile(r"PL\d{3}\.md")
_LANGUAGES = {"yaml": "yaml", "yml": "yaml", "toml": "toml", "json": "json"}


# one address for the pages, whoever links them (address.py)
rule_url = rule_docs


FIX_WORDS = {"": "", "safe": "fix", "unsafe": "unsafe fix"}


PAGE_FIX = {
    "safe": "`penguin-lint --fix` repairs these findings where there is one right answer.",
    "unsafe": "`penguin-lint --fix --unsafe-fixes` repairs these findings: the repair changes what "
              "the file means, so review it.",
    "": "None: the finding needs a decision only the author can make.",
}


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
         "good": {"file": r.good[0], "text": r.good[1]},
         "url": rule_url(r.code)}
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
    out += ["", f"Documentation: {rule_url(rule.code)}"]
    return "\n".join(out)


def _fence(text: str, language: str) -> str:
    ticks = "`" * max(3, 1 + max((len(m) for m in re.findall(r"`+", text)), default=0))
    return f"{ticks}{language}\n{text.rstrip()}\n{ticks}"


def rule_page(rule: Rule) -> str:
    """docs/rules/CODE.md: everything the rule's module says about it."""
    module = inspect.getmodule(rule.load()).__name__.replace(".", "/") + ".py"
    out = [f"# {rule.code} {rule.name}", "",
           f"<!-- generated from {module} by `penguin-lint rules --write-docs docs`: edit the rule, not this page -->",
           "", f"**{rule.severity}**: {rule.summary}", ""]
    doc = rule.doc()
    if doc:
        out += [doc, ""]
        if "RFC-0005" in doc:
            # cited by name (it has no address to link): the manual restates it
            out += ["RFC-0005 is the PenguinHarness leaderboard RFC: see what penguin-lint takes from it in "
                    "[Leaderboard preview: RFC-0005](../preview.md#rfc-0005).", ""]
    out += ["## Fix", "", PAGE_FIX[rule.fixable] + " See [Fixing findings](../fix.md).", ""]
    out += ["## Example", ""]
    for label, (fname, text) in (("Bad", rule.bad), ("Good", rule.good)):
        if text:
            language = _LANGUAGES.get(fname.rsplit(".", 1)[-1], "text")
            out += [f"{label}, `{fname}`:", "", _fence(text, language), ""]
    out += [f"`penguin-lint rules {rule.code}` explains this rule in a terminal. "
            "[All rules](../rules.md)", ""]
    return "\n".join(out)


def rules_index(rules: List[Rule]) -> str:
    """The table of docs/rules.md, each code linking its page."""
    lines = ["| code | name | severity | fix | what it finds |", "|---|---|---|---|---|"]
    for r in rules:
        lines.append(f"| [{r.code}]({RULES_DIR}/{r.code}.md) | {r.name} | {r.severity} | "
                     f"{FIX_WORDS[r.fixable]} | {r.summary} |")
    return "\n".join(lines)


def docs_pages(rules: List[Rule]) -> Dict[str, str]:
    """Every generated page, by its path relative to the docs folder."""
    return {f"{RULES_DIR}/{r.code}.md": rule_page(r) for r in rules}


def with_index(text: str, rules: List[Rule]) -> str:
    """docs/rules.md's text with its generated block brought up to date."""
    block = f"{INDEX_START}\n{rules_index(rules)}\n{INDEX_END}"
    if not _INDEX_BLOCK.search(text):
        raise ValueError(f"no {INDEX_START.split(' (')[0]} ... {INDEX_END} block")
    return _INDEX_BLOCK.sub(lambda _: block, text, count=1)


def write_docs(docs: Path, rules: List[Rule]) -> List[str]:
    """Bring the generated documentation in ``docs`` up to date: one page per
    rule (pages of rules that no longer exist are removed) and the table of
    rules.md. Returns the paths it changed, relative to ``docs``."""
    changed = []
    pages = docs_pages(rules)
    # A checkout may hold links where pages go: never write through one.
    for path in (docs, docs / RULES_DIR, docs / "rules.md", *(docs / rel for rel in pages)):
        if path.is_symlink():
            raise ValueError(f"{path.as_posix()} is a symbolic link: not written through")
    (docs / RULES_DIR).mkdir(parents=True, exist_ok=True)
    for old in sorted((docs / RULES_DIR).iterdir()):
        rel = f"{RULES_DIR}/{old.name}"
        if _PAGE_NAME.fullmatch(old.name) and rel not in pages:
            old.unlink()
            changed.append(rel)
    index = docs / "rules.md"
    if index.is_file():
        pages["rules.md"] = with_index(index.read_text(encoding="utf-8"), rules)
    for rel, text in pages.items():
        target = docs / rel
        if not target.is_file() or target.read_text(encoding="utf-8") != text:
            with open(target, "w", encoding="utf-8", newline="\n") as out:  # (no write_text(newline=) before 3.10)
                out.write(text)
            changed.append(rel)
    return changed
