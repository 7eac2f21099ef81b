"""penguin-lint's version (cache records, the JSON and SARIF reports name it),
and the build that ``--version`` names: the commit it runs from."""
from __future__ import annotations

import json
import os
import re
from typing import Optional

#: the one place the version is written: pyproject.toml reads it (dynamic), and
#: CHANGELOG.md's top entry, the docs' pins and the reports are held to it by tests
__version__ = "0.5.0"

_SHA = re.compile(r"[0-9a-f]{7,64}\Z")


def build_version(dist=None) -> str:
    """What ``--version`` names: ``0.5.0 (commit 3c05718ab1cd)`` when pip
    installed this copy from git (``pip install git+...@REF``: PEP 610's
    direct_url.json records the commit); ``0.5.0 (checkout, commit
    3c05718ab1cd)`` when the code runs from a git checkout (an editable
    install, or the source tree on the path): that checkout's HEAD, read from
    its files (no git process: the checkout may be anyone's); else
    ``0.5.0``. Read only when asked: a run never pays for it. ``dist`` (an
    importlib.metadata distribution) is asked instead of the copy running."""
    found = installed_commit(dist) if dist is not None else running_commit()
    if found is None:
        return __version__
    commit, checkout = found
    return f"{__version__} ({'checkout, ' if checkout else ''}commit {commit[:12]})"


def running_commit(package: Optional[str] = None):
    """(commit, from_checkout) of the copy of penguin-lint that runs, or None.
    ``package``: the folder of the package (this one's by default)."""
    package = package or os.path.dirname(os.path.abspath(__file__))
    top = os.path.dirname(package)
    if os.path.lexists(os.path.join(top, ".git")):
        commit = git_head(top)
        return (commit, True) if commit else None
    return installed_commit(text=_direct_url(top))


def installed_commit(dist=None, text: Optional[str] = None):
    """(commit, from_checkout) that a distribution's direct_url.json names
    (``dist``'s, or the ``text`` given), or None."""
    try:
        if dist is not None:
            text = dist.read_text("direct_url.json")
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


def _direct_url(site: str) -> Optional[str]:
    """The direct_url.json of the distribution installed beside the package
    (its ``penguin_lint-*.dist-info`` in the same folder), found without
    importlib.metadata, which --version would pay for; never one of another
    folder on the path (the current one may be anyone's)."""
    try:
        names = os.listdir(site)
    except OSError:
        return None
    for name in names:
        low = name.lower()
        if low.endswith(".dist-info") and low.startswith(("penguin_lint-", "penguin-lint-")):
            try:
                with open(os.path.join(site, name, "direct_url.json"), encoding="utf-8") as f:
                    return f.read(65536)
            except OSError:
                return None  # installed from an index or a wheel: it says nothing
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
            packed = f.read(1 << 22)  # bounded: a checkout of many tags is well below 4 MiB
        for line in packed.splitlines():
            sha, _, name = line.strip().partition(" ")
            if name == ref and _SHA.match(sha):
                return sha
    except (OSError, UnicodeDecodeError, ValueError):
        return None
    return None
