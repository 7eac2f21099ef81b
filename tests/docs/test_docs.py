"""The rules' documentation is generated from the rules: the table of
docs/rules.md and one page per rule in docs/rules/; neither may drift."""
import re
from pathlib import Path

from penguin_lint.rules import all_rules
from penguin_lint.rules.docs import docs_pages, explain, rules_index

ROOT = Path(__file__).resolve().parents[2]
SPEC_CODES = [
    "PL001", "PL002", "PL003", "PL004", "PL005", "PL006", "PL007",
    "PL101", "PL102", "PL103", "PL104",
    "PL201", "PL202", "PL203", "PL204", "PL205", "PL206", "PL207",
    "PL301", "PL302", "PL303", "PL304", "PL305", "PL306", "PL307", "PL308",
    "PL401", "PL402", "PL403", "PL404", "PL405", "PL406", "PL407", "PL408",
    "PL501", "PL601", "PL602", "PL603", "PL604", "PL605", "PL606", "PL607",
]
# Codes the spec does not list yet, added since by issues.
ADDED_CODES = ["PL008", "PL009", "PL502", "PL608"]


DOCS = ROOT / "docs"
REGENERATE = "regenerate with `penguin-lint rules --write-docs docs`"


def test_rules_index_table_is_generated_from_rules():
    text = (DOCS / "rules.md").read_text(encoding="utf-8")
    m = re.search(r"<!-- rules:start[^\n]*-->\n(.*?)<!-- rules:end -->", text, re.S)
    assert m, "docs/rules.md lacks the rules block"
    assert m.group(1).strip() == rules_index(all_rules()).strip(), f"docs/rules.md's table is stale: {REGENERATE}"


def test_every_rule_page_is_generated_none_stale_missing_or_extra():
    expected = docs_pages(all_rules())
    on_disk = {f"rules/{p.name}": p.read_text(encoding="utf-8") for p in (DOCS / "rules").iterdir()}
    assert sorted(set(expected) - set(on_disk)) == [], f"missing rule pages: {REGENERATE}"
    assert sorted(set(on_disk) - set(expected)) == [], f"pages of no rule in docs/rules/: {REGENERATE}"
    stale = sorted(rel for rel, text in expected.items() if on_disk[rel] != text)
    assert stale == [], f"stale rule pages: {REGENERATE}"


def test_readme_counts_the_rules_there_are():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    (count,) = re.findall(r"(\d+)\s+rules\s+report", readme)
    assert int(count) == len(all_rules())


def test_every_spec_rule_exists_with_docs_and_examples():
    rules = {r.code: r for r in all_rules()}
    assert sorted(rules) == sorted(SPEC_CODES + ADDED_CODES)
    for r in rules.values():
        assert r.name and r.summary and r.doc(), r.code
        assert r.bad[1] and r.good[1], r.code
        assert r.kinds, r.code
        assert r.code in explain(r)


def test_every_page_citing_rfc_0005_links_the_section_that_restates_it():
    """RFC-0005 has no address the manual can vouch for: it is cited by name,
    and each page that cites it links the section of the manual that says
    what penguin-lint takes from it (never an address of its own)."""
    pages = [ROOT / "README.md", *DOCS.glob("*.md"), *DOCS.glob("rules/*.md")]
    citing = [p for p in pages if "RFC-0005" in p.read_text(encoding="utf-8")]
    assert len(citing) >= 4
    for page in citing:
        text = page.read_text(encoding="utf-8")
        target = "#rfc-0005" if page.name == "preview.md" else "preview.md#rfc-0005"
        assert f"]({target})" in text or f"](../{target})" in text, page
        assert not re.search(r"\]\(https?://[^)]*rfc", text, re.I), page
    preview = (DOCS / "preview.md").read_text(encoding="utf-8")
    assert "\n## RFC-0005\n" in preview and "without a link" in preview
