"""What GitHub tells a step about its run, read from the step's environment:
the step-summary file, the commit that links should point at, and where
the linted folder sits in the repository (annotations and SARIF name files
from the repository root, not from a subfolder).
"""
from __future__ import annotations

import json
import os
import re
import subprocess
from dataclasses import replace
from pathlib import Path
from typing import Dict, Optional

_SHA = re.compile(r"[0-9a-f]{40}|[0-9a-f]{64}")
_SERVER = re.compile(r"https?://[A-Za-z0-9.-]+(:[0-9]{1,5})?")
_REPOSITORY = re.compile(r"[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+")
_EVENT_MAX = 32 * 1024 * 1024  # event payloads are far smaller; never read an unbounded file


def event(env: Dict[str, str]) -> dict:
    """The webhook payload of the run ({} when absent or unreadable)."""
    path = env.get("GITHUB_EVENT_PATH")
    if not path:
        return {}
    try:
        with open(path, "rb") as fh:
            data = fh.read(_EVENT_MAX + 1)
        doc = json.loads(data) if len(data) <= _EVENT_MAX else {}
    except (OSError, ValueError):
        return {}
    return doc if isinstance(doc, dict) else {}


def head_sha(env: Dict[str, str]) -> Optional[str]:
    """The pull request's head commit (GITHUB_SHA of a pull_request event is
    the merge commit GitHub made, which a reviewer never sees), else GITHUB_SHA."""
    pr = event(env).get("pull_request")
    sha = pr.get("head", {}).get("sha") if isinstance(pr, dict) and isinstance(pr.get("head"), dict) else None
    for candidate in (sha, env.get("GITHUB_SHA")):
        if isinstance(candidate, str) and _SHA.fullmatch(candidate):
            return candidate
    return None


def blob_base(env: Dict[str, str]) -> Optional[str]:
    """``<server>/<owner>/<repo>/blob/<sha>``, or None when the run does not
    say (or says something that is not a plain server, repository and sha)."""
    server = env.get("GITHUB_SERVER_URL", "").rstrip("/")
    repository = env.get("GITHUB_REPOSITORY", "")
    sha = head_sha(env)
    if not (sha and _SERVER.fullmatch(server) and _REPOSITORY.fullmatch(repository)):
        return None
    return f"{server}/{repository}/blob/{sha}"


def change_options(env: Dict[str, str]) -> list:
    """How a diff run of the step (lint or preview) finds the change: what
    the checked-out commits change, unless the ``uncommitted`` input asks
    for the work tree too (files an earlier step wrote). A checkout has no
    other change, and git would stat and list every file of the repository
    to say so, which no pull request's run should wait for."""
    if env.get("PENGUIN_LINT_UNCOMMITTED", "").strip().lower() in ("1", "true", "yes", "on"):
        return []
    return ["--committed"]


def summary_path(env: Dict[str, str]) -> Optional[str]:
    return env.get("GITHUB_STEP_SUMMARY") or None


def _git_toplevel(root: Path) -> Optional[Path]:
    try:
        proc = subprocess.run(["git", "-C", str(root), "rev-parse", "--show-toplevel"], capture_output=True,
                              stdin=subprocess.DEVNULL, timeout=60)
    except (OSError, subprocess.SubprocessError):
        return None
    out = os.fsdecode(proc.stdout.rstrip(b"\n"))
    return Path(out) if proc.returncode == 0 and out else None


def repository_prefix(root: Path, env: Dict[str, str]) -> str:
    """The linted root's folder inside the repository ("" at the top, else
    "bench/" with a slash): the git work tree's top, else the workspace."""
    root = Path(os.path.realpath(root))
    for top in (_git_toplevel(root), env.get("GITHUB_WORKSPACE")):
        if not top:
            continue
        try:
            rel = root.relative_to(os.path.realpath(top)).as_posix()
        except ValueError:
            continue
        return "" if rel == "." else rel + "/"
    return ""


def relocate(result, prefix: str):
    """The result with every path named from the repository root."""
    if not prefix:
        return result
    findings = [replace(f, path=prefix + f.path if f.path else prefix.rstrip("/")) for f in result.findings]
    added = [replace(a, path=prefix + a.path) for a in getattr(result, "suppressions_added", ())]
    return replace(result, findings=findings, suppressions_added=added)
