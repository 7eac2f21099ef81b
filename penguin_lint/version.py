"""penguin-lint's version (cache records and SARIF reports name it), and the
build that ``--version`` names: the commit it was installed from."""
from __future__ import annotations

import json
import os
import re
import sys
from typing import Optional

__version__ = "0.1.0"

_SHA = re.compile(r"[0-9a-f]{7,64}\Z")


def build_version(dist=None) -> str:
    """``0.1.0 (commit 3c05718ab1cd)`` when installed from git (``pip install
    git+...@COMMIT``: PEP 610's direct_url.json records the commit), or in
    editable mode from a git checkout; else ``0.1.0``. Read only when asked
    (``--version``): a run never pays for it."""
    found = installed_commit(dist)
    if found is None:
        return __version__
    commit, editable = found
    return f"{__version__} ({'editable, ' if editable else ''}commit {commit[:12]})"


def installed_commit(dist=None):
    """(commit, editable) of the installed distribution, or None."""
    try:
        text = dist.read_text("direct_url.json") if dist is not None else _direct_url()
        info = json.loads(text) if text else None
    except Exception:  # no metadata, unreadable or malformed: the plain version
        return None
    if not isinstance(info, dict):
        return None
    vcs = info.get("vcs_info")
    if isinstance(vcs, dict):
        commit = vcs.get("commit_id")
        if isinstance(commit, str) and _SHA.match(commit):
            return commit, False
        return None
    folder = info.get("dir_info")
    url = info.get("url")
    if isinstance(folder, dict) and folder.get("editable") and isinstance(url, str) and url.startswith("file://"):
        # the code runs from that checkout: its HEAD is the build
        from urllib.parse import unquote, urlsplit

        commit = git_head(unquote(urlsplit(url).path))
        return (commit, True) if commit else None
    return None


def _direct_url() -> Optional[str]:
    """The installed distribution's direct_url.json, found as
    importlib.metadata finds it (the first ``penguin_lint-*.dist-info`` on
    sys.path) without importing it: --version stays as quick as a start."""
    for entry in sys.path:
        try:
            names = os.listdir(entry or ".")
        except OSError:
            continue
        for name in names:
            low = name.lower()
            if low.endswith(".dist-info") and low.startswith(("penguin_lint-", "penguin-lint-")):
                try:
                    with open(os.path.join(entry or ".", name, "direct_url.json"), encoding="utf-8") as f:
                        return f.read(65536)
                except OSError:
                    return None  # that distribution is the one installed: it says nothing
    return None


def git_head(folder: str) -> Optional[str]:
    """The commit HEAD names in the git checkout ``folder`` (a work tree or
    a linked one), read from its files; None when it cannot be told."""
    try:
        git = os.path.join(folder, ".git")
        if os.path.isfile(git):
            with open(git, encoding="utf-8") as f:
                line = f.read(4096).strip()
            if not line.startswith("gitdir:"):
                return None
            git = os.path.join(folder, line[len("gitdir:"):].strip())
        common = git
        if os.path.isfile(os.path.join(git, "commondir")):
            with open(os.path.join(git, "commondir"), encoding="utf-8") as f:
                common = os.path.join(git, f.read(4096).strip())
        with open(os.path.join(git, "HEAD"), encoding="utf-8") as f:
            head = f.read(4096).strip()
        if _SHA.match(head):
            return head
        if not head.startswith("ref: refs/"):
            return None
        ref = head[len("ref: "):]
        for base in (git, common):
            path = os.path.join(base, *ref.split("/"))
            if os.path.isfile(path):
                with open(path, encoding="utf-8") as f:
                    value = f.read(4096).strip()
                return value if _SHA.match(value) else None
        with open(os.path.join(common, "packed-refs"), encoding="utf-8") as f:
            for line in f:
                sha, _, name = line.strip().partition(" ")
                if name == ref and _SHA.match(sha):
                    return sha
    except (OSError, UnicodeDecodeError, ValueError):
        return None
    return None
