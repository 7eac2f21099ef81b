"""Every documented GitHub workflow that lints pull requests (the Action, or
penguin-lint itself) runs again when a label is set or removed: the base's
approval-label is read from GitHub's event, so a run on ``labeled`` honours
it and a run on ``unlabeled`` judges the pull request again without it."""
from __future__ import annotations

import re
from pathlib import Path

import yaml

PROJECT = Path(__file__).resolve().parents[2]
FENCE = re.compile(r"^```yaml\n(.*?)^```$", re.S | re.M)
WANTED = {"opened", "synchronize", "reopened", "labeled", "unlabeled"}


def workflows():
    pages = [PROJECT / "README.md", *sorted((PROJECT / "docs").glob("*.md"))]
    for page in pages:
        for m in FENCE.finditer(page.read_text(encoding="utf-8")):
            doc = yaml.safe_load(m.group(1))
            if isinstance(doc, dict) and "jobs" in doc:
                yield page.relative_to(PROJECT).as_posix(), m.group(1), doc


def lints_pull_requests(text: str, doc: dict) -> bool:
    on = doc.get("on", doc.get(True))  # YAML 1.1 reads a bare `on` as true
    return "pull_request" in (on or {}) and ("/penguin-lint@" in text or re.search(r"\bpenguin-lint --", text))


def test_every_pull_request_workflow_runs_on_labeled_and_unlabeled():
    found = [(page, doc) for page, text, doc in workflows() if lints_pull_requests(text, doc)]
    assert {page for page, _ in found} >= {"README.md", "docs/github-action.md", "docs/sharding.md",
                                           "docs/reviewdog.md"}
    for page, doc in found:
        on = doc.get("on", doc.get(True))
        types = set((on["pull_request"] or {}).get("types", ()))
        assert types >= WANTED, (page, sorted(WANTED - types))
