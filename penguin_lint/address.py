"""Where the documentation a finding links to lives: derived from the copy of
penguin-lint in use, never a placeholder.

In order: the GitHub Action's own repository at its ref (the step's
``GITHUB_ACTION_REPOSITORY`` and ``GITHUB_ACTION_REF``, else the
``_actions/OWNER/REPO/REF`` folder of ``GITHUB_ACTION_PATH``); a copy pip
installed from git (the address and commit pip recorded in
``direct_url.json``); otherwise the rule's page shipped inside the installed
package, as a ``file:`` URI.

``PROJECT_URL`` is only the README's install placeholder (``<owner>`` stands
for the account that will host the project); no output uses it.
"""
from __future__ import annotations

import json
import os
import re
from functools import lru_cache
from pathlib import Path
from typing import Mapping, Optional
from urllib.parse import quote, urlsplit

PROJECT_URL = "https://github.com/<owner>/penguin-lint"
#: a JSON Schema's ``$id`` is SCHEMA_ID_PREFIX + its file name: a name, not an
#: address that could be dead (editors and validators read the files themselves)
SCHEMA_ID_PREFIX = "urn:penguin-lint:schema:"
#: where the rule pages live in the repository (and, as package data, inside
#: the installed package ``penguin_lint.rule_pages``)
RULE_PAGES = "docs/rules"

_SERVER = re.compile(r"https?://[A-Za-z0-9.-]+(:[0-9]{1,5})?")
_NAME = r"[A-Za-z0-9_.-]+"
_REPOSITORY = re.compile(rf"{_NAME}/{_NAME}")
# a ref as it may appear in a link: a branch, a tag or a commit, no ``..``
_REF = re.compile(r"[A-Za-z0-9_.-]+(/[A-Za-z0-9_.-]+)*")
_COMMIT = re.compile(r"[0-9a-f]{7,64}")


def _safe(repository: str, ref: str) -> bool:
    return bool(_REPOSITORY.fullmatch(repository) and ".." not in repository
                and _REF.fullmatch(ref) and ".." not in ref)


def action_base(env: Mapping[str, str]) -> Optional[str]:
    """``<server>/<owner>/<repo>/blob/<ref>`` of the Action in use, or None
    outside an Action (or an Action used from the workflow's own checkout)."""
    server = env.get("GITHUB_SERVER_URL", "").rstrip("/") or "https://github.com"
    if not _SERVER.fullmatch(server):
        return None
    repository, ref = env.get("GITHUB_ACTION_REPOSITORY", ""), env.get("GITHUB_ACTION_REF", "")
    if not (repository and ref):
        # a composite action's steps may see neither; its folder names both
        parts = Path(env.get("GITHUB_ACTION_PATH", "")).parts
        if "_actions" not in parts:
            return None
        rest = parts[len(parts) - parts[::-1].index("_actions"):]
        if len(rest) < 3:
            return None
        repository, ref = "/".join(rest[:2]), "/".join(rest[2:])
    return f"{server}/{repository}/blob/{ref}" if _safe(repository, ref) else None


@lru_cache(maxsize=None)
def installed_base() -> Optional[str]:
    """``https://github.com/<owner>/<repo>/blob/<commit>`` when pip installed
    this copy from a GitHub repository (its ``direct_url.json``), else None."""
    try:
        from importlib.metadata import PackageNotFoundError, distribution

        text = distribution("penguin-lint").read_text("direct_url.json")
        record = json.loads(text) if text else {}
    except (PackageNotFoundError, OSError, ValueError):
        return None
    vcs = record.get("vcs_info") if isinstance(record, dict) else None
    url = record.get("url") if isinstance(record, dict) else None
    if not (isinstance(vcs, dict) and vcs.get("vcs") == "git" and isinstance(url, str)):
        return None
    commit = vcs.get("commit_id")
    parts = urlsplit(url)
    path = parts.path[:-4] if parts.path.endswith(".git") else parts.path
    if parts.hostname != "github.com" or not (isinstance(commit, str) and _COMMIT.fullmatch(commit)):
        return None
    repository = path.strip("/")
    return f"https://github.com/{repository}/blob/{commit}" if _safe(repository, commit) else None


@lru_cache(maxsize=None)
def _pages_folder() -> Optional[Path]:
    # the installed package data, else the checkout's docs/rules (a copy run
    # from its source tree without being installed)
    from importlib.util import find_spec

    try:
        spec = find_spec("penguin_lint.rule_pages")
    except (ImportError, ValueError):
        spec = None
    folders = [Path(p) for p in (spec.submodule_search_locations or ())] if spec is not None else []
    folders.append(Path(__file__).resolve().parent.parent / RULE_PAGES)
    return next((f for f in folders if (f / "PL001.md").is_file()), None)


@lru_cache(maxsize=None)
def shipped_page(code: str) -> Optional[str]:
    """The ``file:`` URI of rule ``code``'s page inside the installed package."""
    folder = _pages_folder()
    if folder is None or not re.fullmatch(r"PL\d{3}", code) or not (folder / f"{code}.md").is_file():
        return None
    return (folder / f"{code}.md").resolve().as_uri()


def rule_docs(code: str, uri: bool = False, env: Optional[Mapping[str, str]] = None) -> str:
    """The address of rule ``code``'s documentation page, for the copy in use.
    ``uri``: percent-encoded, as SARIF's ``helpUri`` and Markdown links need."""
    base = action_base(os.environ if env is None else env) or installed_base()
    if base:
        url = f"{base}/{RULE_PAGES}/{code}.md"
    else:
        url = shipped_page(code) or f"{RULE_PAGES}/{code}.md"
    return quote(url, safe=":/%") if uri else url
