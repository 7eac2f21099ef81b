"""`penguin-lint preview` of a Harbor Hub board: rows ranked by the
definition's rank_by (direction, nulls, ties by the next rule), hidden rows
left out, the definition's columns with their headers and display values,
in every format, before -> after, and in the Action's summary and page."""
from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import git, write_repo
from tests.fuzz import html_problems, render_markdown
from tests.preview.cdp import Browser
from tests.real_programs import need

DEFINITION = """\
package: acme/my-dataset
name: main
title: My <b>board</b>
metadata_schema:
  type: object
  properties:
    agent: {type: string}
    verified: {type: boolean}
    date: {type: string, format: date}
    notes: {type: string}
    report: {}
metrics_schema:
  type: object
  properties:
    score: {type: [number, "null"]}
    score_display: {type: string}
    cost: {type: number}
columns:
  - {id: agent, header: Agent, accessor: metadata.agent, type: text}
  - {id: score, header: Score, accessor: metrics.score, display_accessor: metrics.score_display,
     display_type: text, type: number, align: right}
  - {id: cost, header: Cost, accessor: metrics.cost, type: number}
  - {id: verified, header: Verified, accessor: metadata.verified, type: boolean}
  - {id: date, header: Date, accessor: metadata.date, type: date}
  - {id: notes, header: Notes, accessor: metadata.notes, type: markdown}
  - {id: report, header: Report, accessor: metadata.report, type: link}
rank_by:
  - {accessor: metrics.score, direction: desc, nulls: first}
  - {accessor: metrics.cost, direction: asc, nulls: last}
"""


def _entry(agent, score, cost=None, display=None, status="display", **meta):
    metrics = {"score": score}
    if display is not None:
        metrics["score_display"] = display
    if cost is not None:
        metrics["cost"] = cost
    return json.dumps({"rows": [{"metadata": {"agent": agent, **meta}, "metrics": metrics, "status": status}]})


ENTRIES = {
    "leaderboard/entries/a.json": _entry("alpha", 0.5, 2, "50.0%", verified=True, date="2026-07-24",
                                         notes="**bold** [x](https://evil.example) @someone",
                                         report={"url": "javascript:alert(1)", "label": "<script>x</script>"}),
    "leaderboard/entries/b.json": _entry("bravo", 0.5, 1, "50.0%", verified=False, date="2026-07-25"),
    "leaderboard/entries/c.json": _entry("charlie", None, 3),
    "leaderboard/entries/d.json": _entry("delta", 0.9, 1, "90.0%", status="hide"),
    "leaderboard/entries/sub/e.json": _entry("echo", 0.7, None, "70.0%", report="https://example.com/r"),
}
# nulls first, then score descending, the tie by cost ascending; delta hidden
ORDER = ["charlie", "echo", "bravo", "alpha"]


def board_repo(root: Path, entries=None) -> Path:
    return write_repo(root, {"leaderboard/leaderboard.yaml": DEFINITION, **(ENTRIES if entries is None else entries)},
                      base={})


def preview(root, *args, fmt="text"):
    proc = subprocess.run([sys.executable, "-m", "penguin_lint", "preview", f"--root={root}", "--format", fmt,
                           *args], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def test_text_ranks_rows_by_the_rank_rules_under_the_definitions_columns(tmp_path):
    out = preview(board_repo(tmp_path / "r")).splitlines()
    assert out[0] == "harbor leaderboard My <b>board</b> (leaderboard/leaderboard.yaml)"
    assert out[1] == "  1 row hidden (status hide), not shown"
    assert out[2].split() == ["rank", "Agent", "Score", "Cost", "Verified", "Date", "Notes", "Report"]
    rows = out[3:]
    assert [r.split()[1] for r in rows] == ORDER and [r.split()[0] for r in rows] == ["1", "2", "3", "4"]
    # display values, the type's formatting, missing values as missing
    assert rows[0].split()[:4] == ["1", "charlie", "-", "3"]
    assert rows[1].split()[:4] == ["2", "echo", "70.0%", "-"] and rows[1].endswith("https://example.com/r")
    assert rows[2].split()[:6] == ["3", "bravo", "50.0%", "1", "no", "2026-07-25"]
    assert rows[3].split()[:6] == ["4", "alpha", "50.0%", "2", "yes", "2026-07-24"]
    assert rows[3].endswith("  **bold** [x](https://evil.example) @someone  <script>x</script> (javascript:alert(1))")


def test_markdown_is_inert_as_github_renders_it(tmp_path):
    text = preview(board_repo(tmp_path / "r"), fmt="markdown")
    html = render_markdown(text)
    assert html is not None, "cmarkgfm is not installed: pip install -e '.[test]'"
    assert html_problems(html) == []
    assert "<a " not in html and "<script>" not in html and "<b>" not in html
    body = html.split("<tbody>")[1]
    names = re.findall(r"<tr>\s*<td[^>]*>(\d+)</td>\s*<td>([a-z]+)</td>", body)
    assert [n for _, n in names] == ORDER
    assert "<th>Agent</th>" in html and "70.0%" in body


def test_json_has_the_columns_and_the_ranked_rows(tmp_path):
    report = json.loads(preview(board_repo(tmp_path / "r"), fmt="json"))
    assert report["leaderboards"] == []
    (b,) = report["harbor_leaderboards"]
    assert [c["header"] for c in b["columns"]] == ["Agent", "Score", "Cost", "Verified", "Date", "Notes", "Report"]
    assert [r["cells"]["agent"]["text"] for r in b["rows"]] == ORDER and b["hidden"] == 1
    assert [r["rank"] for r in b["rows"]] == [1, 2, 3, 4]
    assert b["rows"][0]["cells"]["score"] is None
    assert b["rows"][3]["cells"]["report"] == {"text": "<script>x</script>", "url": "javascript:alert(1)"}


def test_the_page_shows_the_rows_in_rank_order_in_chromium(tmp_path):
    exe = need("chromium", "chromium-browser", package="chromium")
    page = tmp_path / "board.html"
    page.write_text(preview(board_repo(tmp_path / "r"), fmt="html"), encoding="utf-8")
    browser = Browser(exe)
    try:
        browser.open(page.as_uri())
        rows = browser.select("section.harbor tbody tr")
        text = [re.sub(r"<[^>]+>", "|", browser.send("DOM.getOuterHTML", nodeId=n)["outerHTML"]) for n in rows]
        cells = [[c for c in t.split("|") if c] for t in text]
        assert [c[1] for c in cells] == ORDER
        assert [c[0] for c in cells] == ["1", "2", "3", "4"]
        assert cells[1][:3] == ["2", "echo", "70.0%"] and cells[0][2] == "—"
        assert "&lt;script&gt;x&lt;/script&gt;" in text[3]
        assert browser.select("section.harbor a") == [] and browser.select("script") == []
        heads = browser.select("section.harbor th")
        assert [browser.send("DOM.getOuterHTML", nodeId=n)["outerHTML"].split(">")[1].split("<")[0]
                for n in heads] == ["Rank", "Agent", "Score", "Cost", "Verified", "Date", "Notes", "Report"]
        assert all(browser.style(n, "display") != "none" for n in rows)
        requests = [e for e in browser.events if e.get("method") == "Network.requestWillBeSent"
                    and e["params"]["request"]["url"] != page.as_uri()]
        assert requests == []
    finally:
        browser.close()


def test_before_shows_new_moved_and_changed_rows(tmp_path, git_env):
    root = board_repo(tmp_path / "r")
    git(root, "init", "-q")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "base")
    (root / "leaderboard/entries/f.json").write_text(_entry("foxtrot", 0.8, 1, "80.0%"))
    (root / "leaderboard/entries/b.json").write_text(_entry("bravo", 0.5, 1, "50.5%", verified=False,
                                                            date="2026-07-25"))
    out = preview(root, "--diff-base", "HEAD")
    assert "  added     leaderboard/entries/f.json  rank - → 2" in out
    assert "  changed   leaderboard/entries/b.json  rank 3 → 4 (▼1)  (Score 50.0% → 50.5%)" in out
    assert "  changed   leaderboard/entries/sub/e.json  rank 2 → 3 (▼1)" in out
    md = preview(root, "--diff-base", "HEAD", fmt="markdown")
    assert html_problems(render_markdown(md)) == [] and "Score 50.0% → 50.5%" in md
    changes = json.loads(preview(root, "--diff-base", "HEAD", fmt="json"))["harbor_leaderboards"][0]["changes"]
    assert {(c["kind"], c["key"]) for c in changes} >= {("added", "leaderboard/entries/f.json"),
                                                       ("changed", "leaderboard/entries/b.json")}
    page = preview(root, "--diff-base", "HEAD", fmt="html")
    assert '<span class="badge">new</span>' in page and "50.0% → 50.5%" in page
    # another checkout as the base, like the PenguinHarness boards
    base = board_repo(tmp_path / "base")
    assert "  added     leaderboard/entries/f.json  rank - → 2" in preview(root, "--before", str(base))


def test_the_action_puts_the_board_in_the_summary_and_the_page(tmp_path):
    from tests.github.test_action import pull_request, runner

    harbor = {"leaderboard/leaderboard.yaml": DEFINITION,
              **{k: v for k, v in ENTRIES.items() if k != "leaderboard/entries/a.json"}}
    ws, write = pull_request(tmp_path, base_files=harbor)
    write({"leaderboard/entries/a.json": ENTRIES["leaderboard/entries/a.json"]})
    run = runner(ws, tmp_path).lint()
    summary = run.summary
    assert "### `My <b>board</b>`" in summary  # repository text is inert there
    assert "| change | entry | rank | what changed |" in summary
    assert html_problems(render_markdown(summary)) == []
    table = summary[summary.index("### Leaderboard Table after this pull request"):]
    names = re.findall(r"^\| [^|]+ \| ([a-z]+) \|", table, re.M)
    assert names == ORDER, table
    assert "| new → 4 | alpha |" in table
    page = Path(run.outputs["leaderboard-page"]).read_text(encoding="utf-8")
    assert 'class="board harbor"' in page and "<script>" not in page


def test_hostile_rows_are_shown_or_named_never_a_crash(tmp_path):
    deep = "[" * 3000 + "]" * 3000
    entries = {
        "leaderboard/entries/broken.yaml": "rows: [\n",
        "leaderboard/entries/odd.yaml": "rows:\n  - 7\n  - {metadata: 3, metrics: {score: .nan}}\n"
                                        "  - {metadata: {agent: [1, {a: b}]}, metrics: {score: .inf}}\n",
        "leaderboard/entries/deep.json": '{"rows": [{"metadata": {"agent": %s}, "metrics": {"score": 1}}]}' % deep,
        "leaderboard/entries/b.json": ENTRIES["leaderboard/entries/b.json"],
    }
    root = board_repo(tmp_path / "r", entries)
    out = preview(root)
    assert "leaderboard/entries/broken.yaml does not load" in out  # and the file too deep to read
    assert "leaderboard/entries/deep.json does not load" in out
    report = json.loads(preview(root, fmt="json"))["harbor_leaderboards"][0]
    # NaN ranks as missing (nulls first), then the infinite score; metadata that is no
    # mapping has no agent: missing
    keys = [r["key"] for r in report["rows"]]
    assert keys[:2] == ["leaderboard/entries/odd.yaml rows[1]", "leaderboard/entries/odd.yaml rows[2]"]
    assert report["rows"][0]["cells"]["agent"] is None
    assert report["rows"][1]["cells"]["agent"]["text"] == '[1, {"a": "b"}]'
    assert keys[2:] == ["leaderboard/entries/b.json"]
    assert preview(root, fmt="html").startswith("<!DOCTYPE html>")
