"""Each rule's page (docs/rules/PL303.md) is where the tool points: `penguin-lint rules CODE`,
SARIF's helpUri and the job summary's rule column link it; `rules --write-docs` writes the pages."""
from __future__ import annotations

import io
import json
import re
import shutil
from pathlib import Path
from urllib.parse import unquote, urlsplit

from penguin_lint.engine.runner import Result
from penguin_lint.findings import Finding
from penguin_lint.github import annotations as github_reporter, summary as step_summary
from penguin_lint.rules import all_rules
from penguin_lint.address import PROJECT_URL
from tests.conftest import VALID, lint, write_repo

PROJECT = Path(__file__).resolve().parents[2]
# outside the Action and not installed from git: the page shipped with the copy in use (here,
# an editable install of this checkout)
PAGE = PAGE_URI = (PROJECT / "docs/rules").as_uri() + "/{}.md"


def _page_file(url):
    return Path(unquote(urlsplit(url).path))


def test_the_readme_placeholder_is_for_the_install_commands_only():
    readme = (PROJECT / "README.md").read_text(encoding="utf-8")
    assert f'pip install "git+{PROJECT_URL}@<commit-sha>"' in readme
    assert PROJECT_URL == "https://github.com/<owner>/penguin-lint"


def test_rules_code_ends_with_the_pages_address_and_the_page_exists():
    for code in ("PL303", "PL001", "PL607"):
        run = lint(None, "rules", code)
        assert run.code == 0
        last = run.output.rstrip("\n").split("\n")[-1]
        assert last == "Documentation: " + PAGE.format(code)
        assert _page_file(last.split(": ", 1)[1]).is_file()


def test_sarif_rules_carry_a_help_uri_to_their_page(tmp_path):
    root = write_repo(tmp_path / "r", {"packages/bench-a/CASE-001-one/task_config.toml": 'id = "CASE-001-one"\n'},
                      VALID)
    run = lint(root, "--all", fmt="sarif")
    rules = json.loads(run.output)["runs"][0]["tool"]["driver"]["rules"]
    assert len(rules) == len(all_rules())
    for entry in rules:
        uri = entry["helpUri"]
        assert uri == PAGE_URI.format(entry["id"])
        assert not re.search(r"[<>\s]", uri)  # a URI (SARIF's "format": "uri")
        assert _page_file(uri).is_file()


def _finding(code, name):
    return Finding(code=code, name=name, severity="error", path="a.yaml", message="m", line=3, column=5)


def test_the_job_summary_links_a_rule_code_to_its_page_and_the_annotation_title_stays_short():
    found = [_finding("PL303", "summary-mismatch"), _finding("PL999", "made-up")]
    md = step_summary.render(Result(found, 1), found)
    assert f"| [PL303]({PAGE_URI.format('PL303')}) summary-mismatch |" in md
    assert "| PL999 made-up |" in md and "PL999.md" not in md  # no page, no link
    out = io.StringIO()
    github_reporter.report(Result(found[:1], 1), out)
    (cmd,) = [ln for ln in out.getvalue().splitlines() if ln.startswith("::error")]
    assert ",title=PL303 summary-mismatch::" in cmd and "docs/rules" not in cmd


def test_write_docs_writes_every_page_updates_the_table_and_removes_pages_of_no_rule(tmp_path):
    docs = tmp_path / "docs"
    (docs / "rules").mkdir(parents=True)
    shutil.copy(PROJECT / "docs/rules.md", docs / "rules.md")
    index = (docs / "rules.md").read_text(encoding="utf-8")
    stale = re.sub(r"\| \[PL303\]\(rules/PL303\.md\) \| summary-mismatch \|[^\n]*\n", "", index)
    assert stale != index
    (docs / "rules.md").write_text(stale, encoding="utf-8")
    (docs / "rules/PL999.md").write_text("# a rule that is gone\n")
    (docs / "rules/notes.txt").write_text("not generated\n")
    run = lint(None, "rules", "--write-docs", str(docs))
    assert run.code == 0, run.stderr
    written = sorted(p.name for p in (docs / "rules").iterdir())
    assert written == sorted([f"{r.code}.md" for r in all_rules()] + ["notes.txt"])
    for r in all_rules():
        assert (docs / f"rules/{r.code}.md").read_bytes() == (PROJECT / f"docs/rules/{r.code}.md").read_bytes()
    assert (docs / "rules.md").read_text(encoding="utf-8") == index
    assert f"wrote {(docs / 'rules/PL999.md').as_posix()}" in run.output
    again = lint(None, "rules", "--write-docs", str(docs))
    assert again.code == 0 and again.output.strip() == "0 generated file(s) changed"


def test_write_docs_refuses_a_code_and_a_rules_md_without_its_block(tmp_path):
    run = lint(None, "rules", "PL303", "--write-docs", str(tmp_path))
    assert run.code == 2 and run.stderr.strip().startswith("penguin-lint: error: --write-docs")
    (tmp_path / "rules.md").write_text("# Rules\n\nno table here\n")
    run = lint(None, "rules", "--write-docs", str(tmp_path))
    assert run.code == 2 and "Traceback" not in run.stderr
    assert run.stderr.count("\n") == 1 and "rules:start" in run.stderr


def test_write_docs_never_writes_through_a_link(tmp_path):
    outside = tmp_path / "outside.txt"
    outside.write_text("keep\n")
    docs = tmp_path / "docs"
    (docs / "rules").mkdir(parents=True)
    (docs / "rules/PL303.md").symlink_to(outside)
    run = lint(None, "rules", "--write-docs", str(docs))
    assert run.code == 2 and "symbolic link" in run.stderr and run.stderr.count("\n") == 1
    assert outside.read_text() == "keep\n"


def test_rules_json_gives_each_rules_page():
    rules = json.loads(lint(None, "rules", "--format", "json").output)
    assert {r["code"]: r["url"] for r in rules} == {r.code: PAGE.format(r.code) for r in all_rules()}
