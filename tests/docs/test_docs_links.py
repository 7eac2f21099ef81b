"""Every relative link in the README and docs/ leads somewhere: a file of the project, and a
heading of it when the link names one, with the pages rendered as GitHub renders them."""
from __future__ import annotations

import html
import re
from pathlib import Path
from typing import Dict, List, Set
from urllib.parse import unquote, urlsplit

import cmarkgfm

PROJECT = Path(__file__).resolve().parents[2]
# Pages that other branches add: links to them are kept, and checked once they exist.
WRITTEN_ELSEWHERE = {"docs/editors.md", "docs/sharding.md"}


def pages() -> List[Path]:
    return [PROJECT / "README.md", *sorted((PROJECT / "docs").rglob("*.md"))]


def render(text: str) -> str:
    return cmarkgfm.github_flavored_markdown_to_html(text)


def anchors(rendered: str) -> Set[str]:
    """The ids GitHub gives the headings: the text lowercased, punctuation
    dropped, spaces as hyphens, a repeated one numbered."""
    seen: Dict[str, int] = {}
    out = set()
    for inner in re.findall(r"<h[1-6][^>]*>(.*?)</h[1-6]>", rendered, re.S):
        text = html.unescape(re.sub(r"<[^>]+>", "", inner)).strip().lower()
        slug = re.sub(r"[^\w\- ]", "", text).replace(" ", "-")
        n = seen.get(slug, 0)
        seen[slug] = n + 1
        out.add(slug if n == 0 else f"{slug}-{n}")
    return out


def links(rendered: str) -> List[str]:
    return [html.unescape(h) for h in re.findall(r'<(?:a|img)\b[^>]*?(?:href|src)="([^"]*)"', rendered)]


def broken_links(page: Path, text: str) -> List[str]:
    rendered = render(text)
    problems = []
    for href in links(rendered):
        parts = urlsplit(href)
        if parts.scheme or href.startswith("//"):
            continue  # an address on the web: not this project's to check
        target = (page.parent / unquote(parts.path)).resolve() if parts.path else page
        rel = target.relative_to(PROJECT).as_posix() if target.is_relative_to(PROJECT) else str(target)
        if not target.exists():
            if rel not in WRITTEN_ELSEWHERE:
                problems.append(f"{href}: no file {rel}")
            continue
        if parts.fragment:
            if target.suffix != ".md" or not target.is_file():
                problems.append(f"{href}: an anchor into {rel}, which is no Markdown page")
            elif unquote(parts.fragment) not in anchors(render(target.read_text(encoding="utf-8"))):
                problems.append(f"{href}: no heading #{parts.fragment} in {rel}")
    return problems


def test_every_relative_link_and_anchor_resolves():
    problems = {}
    for page in pages():
        found = broken_links(page, page.read_text(encoding="utf-8"))
        if found:
            problems[page.relative_to(PROJECT).as_posix()] = found
    assert problems == {}


def test_the_check_finds_a_missing_file_and_a_missing_heading():
    page = PROJECT / "docs" / "README.md"
    text = ("[ok](rules.md#the-rules) [ok too](#penguin-lint-documentation) [gone](nowhere.md) "
            "[no such heading](rules.md#no-such-heading) [web](https://example.com/x.md)\n\n"
            "# penguin-lint documentation\n")
    assert broken_links(page, text) == ["nowhere.md: no file docs/nowhere.md",
                                        "rules.md#no-such-heading: no heading #no-such-heading in docs/rules.md"]


def test_headings_get_githubs_ids():
    rendered = render("# The gate's promise\n\n## Sharding `--all` in a CI matrix\n\n## Notes\n\n## Notes\n")
    assert anchors(rendered) == {"the-gates-promise", "sharding---all-in-a-ci-matrix", "notes", "notes-1"}


def test_every_topic_is_one_click_from_the_readme_and_the_docs_index():
    topics = {p.name for p in (PROJECT / "docs").glob("*.md") if p.name != "README.md"}
    topics |= {Path(p).name for p in WRITTEN_ELSEWHERE}
    for index in ("README.md", "docs/README.md"):
        page = PROJECT / index
        targets = {Path(urlsplit(h).path).name for h in links(render(page.read_text(encoding="utf-8")))
                   if not urlsplit(h).scheme}
        assert sorted(topics - targets) == [], index
