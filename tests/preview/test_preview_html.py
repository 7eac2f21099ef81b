"""preview --format html: the page's structure, its numbers (those of the
JSON), and untrusted text kept as text."""
from __future__ import annotations

import json
import re
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

from tests.conftest import write_repo
from tests.preview.board_sample import ENTRIES, TASKS, sample_files, sample_repo

TAGS = {"html", "head", "meta", "title", "style", "body", "header", "h1", "h2", "h3", "p", "main", "section",
        "div", "span", "input", "label", "table", "thead", "tbody", "tr", "th", "td", "svg", "rect", "line",
        "path", "polyline", "circle", "text", "g"}
HOSTILE = '<img src=x onerror=alert(1)></style><script>alert(2)</script>]]><!--'


def preview(root: Path, *args: str, fmt: str = "html") -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "penguin_lint", "preview", f"--root={root}", "--format", fmt,
                           *args], capture_output=True, text=True, timeout=120)


class Page(HTMLParser):
    """Every element with its attributes, and the text in each element."""

    def __init__(self, text: str):
        super().__init__(convert_charrefs=True)
        self.elements, self.texts, self._open = [], [], []
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        self.elements.append((tag, dict(attrs)))
        self._open.append(tag)

    def handle_endtag(self, tag):
        if self._open and self._open[-1] == tag:
            self._open.pop()

    def handle_data(self, data):
        self.texts.append((self._open[-1] if self._open else None, data))

    def classed(self, tag, *classes):
        return [a for t, a in self.elements if t == tag and set(classes) <= set((a.get("class") or "").split())]


def test_the_page_has_the_three_views_from_the_numbers_of_the_json(tmp_path):
    root = sample_repo(tmp_path / "r")
    proc = preview(root)
    assert proc.returncode == 0, proc.stderr
    page = Page(proc.stdout)
    rows = json.loads(preview(root, fmt="json").stdout)["leaderboards"][0]["rows"]
    for axis in ("cost", "duration_ms", "token"):
        # one point per entry with a positive value, the front's marked
        plotted = [r for r in rows if r[axis] is not None and r[axis] > 0]
        section = proc.stdout.split(f'class="plot p-{axis}"')[1].split('class="plot ')[0]
        sub = Page(section)
        assert len(sub.classed("circle", "pt")) == len(plotted)
        assert len(sub.classed("circle", "pt", "front")) == sum(r["pareto"][axis] for r in rows)
        tips = [d for t, d in sub.texts if t == "title" and "(on the Pareto front)" in d]
        assert sorted(t.split(":")[0].split(" ", 1)[1] for t in tips) == \
            sorted(r["model_name"] for r in rows if r["pareto"][axis])
    assert len(page.classed("rect", "cell")) == len(ENTRIES) * len(TASKS)
    assert len([a for t, a in page.elements if t == "tr"]) == len(ENTRIES) + 1  # the head, a row each
    # each cell's value is the JSON's task mean
    cell_titles = [d for t, d in page.texts if t == "title" and "(attempts:" in d]
    means = sorted(f"{t['mean']:.4g}" for r in rows for t in r["tasks"])
    assert sorted(re.search(r": (\S+) \(attempts", d).group(1) for d in cell_titles) == means
    # the axis switch: three radios, cost checked, each with its label
    radios = [a for t, a in page.elements if t == "input"]
    assert [(a["type"], a["id"], "checked" in a) for a in radios] == [
        ("radio", "b0-cost", True), ("radio", "b0-duration_ms", False), ("radio", "b0-token", False)]
    assert {a["for"] for t, a in page.elements if t == "label"} == {"b0-cost", "b0-duration_ms", "b0-token"}


def test_the_page_loads_and_runs_nothing(tmp_path):
    text = preview(sample_repo(tmp_path / "r")).stdout
    page = Page(text)
    # the policy comes before anything it governs (the style sheet, the body)
    assert page.elements[3] == ("meta", {"http-equiv": "Content-Security-Policy", "content": (
        "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'")})
    assert {t for t, _ in page.elements} <= TAGS
    for _, attrs in page.elements:
        assert not any(k.startswith("on") or k in ("src", "href", "xlink:href", "action") for k in attrs)
    style = text.split("<style>")[1].split("</style>")[0]
    assert "url(" not in style and "@import" not in style and "@font-face" not in style
    assert "://" not in text  # no address of anything anywhere


def test_untrusted_titles_ids_model_names_and_tasks_are_text(tmp_path):
    entries = {HOSTILE: (60.0, 1.0, 10, 10), '"><svg onload=alert(3)>': (50.0, 0.5, 10, 10)}
    files = sample_files(entries=entries, title=HOSTILE + "\x00\x1b[31m")
    for k in list(files):
        if k.endswith("attempt-1.yaml"):
            files[k] = files[k].replace('source: "CASE-001-parse-duration"',
                                        'source: "CASE-<img src=x onerror=alert(4)>"')
    proc = preview(write_repo(tmp_path / "r", files))
    assert proc.returncode == 0, proc.stderr
    page = Page(proc.stdout)
    assert {t for t, _ in page.elements} <= TAGS
    assert not any(k.startswith("on") or k == "src" for _, a in page.elements for k in a)
    # the payloads are shown as the text they are, where they belong
    texts = [d for _, d in page.texts]
    assert any(HOSTILE in d for t, d in page.texts if t == "h2")
    assert any(d.startswith(HOSTILE) for t, d in page.texts if t == "div")
    assert any('"><svg onload=alert(3)>' in d for d in texts)
    assert any("CASE-<img src=x onerror=alert(4)>" in d for d in texts)
    assert "\x00" not in proc.stdout and "\x1b" not in proc.stdout
    assert "<script" not in proc.stdout and "</style><" not in proc.stdout.split("</style>", 1)[1]
    style = proc.stdout.split("<style>")[1].split("</style>")[0]
    assert "alert" not in style and "<" not in style


def test_a_change_marks_moved_ranks_changed_values_and_the_front(tmp_path):
    before = sample_repo(tmp_path / "before")
    entries = dict(ENTRIES)
    entries["qwen-coder-32b"] = (80.0, 0.30, 900_000, 300_000)   # jumps to first
    del entries["local-model"]
    entries["new-model-3b"] = (30.0, 0.02, 400_000, 80_000)
    after = write_repo(tmp_path / "after", sample_files(entries=entries))
    proc = preview(after, f"--before={before}")
    assert proc.returncode == 0, proc.stderr
    page = Page(proc.stdout)
    rows = {d.strip() for t, d in page.texts if t == "span" and "→" in d}
    assert "4 → 1 (▲3)" in rows                      # qwen's rank
    assert "1 → 2 (▼1)" in rows                      # gpt-large-2026, passed by it
    assert any(d.startswith("50.5000 ± 3.0000 → ") for d in rows)  # its mean, before → after
    assert [a for t, a in page.elements if t == "tr" and a.get("class") == "added"]
    removed = [a for t, a in page.elements if t == "tr" and a.get("class") == "removed"]
    assert len(removed) == 1
    assert len(page.classed("circle", "ghost")) >= 1
    assert any("(joined the front)" in d for t, d in page.texts if t == "title")


def test_diff_base_html_is_the_changed_boards(tmp_path, git_env):
    from tests.conftest import git

    root = sample_repo(tmp_path / "r")
    git(root, "init", "-q", "-b", "main")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "base")
    git(root, "checkout", "-qb", "pr")
    entries = dict(ENTRIES)
    entries["tiny-model-1b"] = (90.0, 0.05, 1_200_000, 90_000)
    write_repo(tmp_path / "r2", sample_files(entries=entries))
    for p in (tmp_path / "r2").rglob("*.yaml"):
        (root / p.relative_to(tmp_path / "r2")).write_text(p.read_text())
    proc = preview(root, "--diff-base=main")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("<!DOCTYPE html>")
    assert "7 → 1 (▲6)" in proc.stdout
