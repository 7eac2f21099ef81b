"""The maintainers' consent a run honours (``consent.Consent``): from the
base's configuration in a pull request, and, for ``approval-label``, from
GitHub's event for the run, never from the checkout (a pull request can
write any file, but only people with triage rights can set a label)."""
from __future__ import annotations

import json
import os
import re
import stat
from pathlib import Path
from typing import Callable, Mapping, Optional, Tuple

from penguin_lint.consent import Consent
from penguin_lint.core.config import Config

#: GitHub caps a webhook's payload at 25 MB; an event file past this is not read
MAX_EVENT = 32 * 1024 * 1024
PULL_REQUEST_EVENTS = ("pull_request", "pull_request_target")


def review_consent(config: Config, root: Path, env: Mapping[str, str],
                   warn: Callable[[str], None]) -> Consent:
    """The consent of a run that reviews a pull request; ``config`` is the
    base's."""
    label = config.approval_label
    got = label_event(root, env, warn) if label is not None else None
    approved = (got is not None and same_label(got[0], label)
                and covers_checkout(root, got[1], label, warn))
    return Consent(tuple(config.allow_added_suppressions), label, approved=approved)


def same_label(a: str, b: str) -> bool:
    """Whether two label names are one label to GitHub: case-insensitive
    in ASCII only. Unicode folding (``casefold``) would make the long s
    an s, the sharp s "ss" and the Kelvin sign a k, and let a look-alike
    label approve."""
    return a.translate(_ASCII_LOWER) == b.translate(_ASCII_LOWER)


_ASCII_LOWER = {c: c + 32 for c in range(ord("A"), ord("Z") + 1)}


def own_consent(config: Config) -> Consent:
    """The hook's: the author's own commit; it says what the pull request
    will need, by ``config`` (the one the commit is judged by)."""
    return Consent(tuple(config.allow_added_suppressions), config.approval_label, own=True)


def label_event(root: Path, env: Mapping[str, str], warn: Callable[[str], None]
                ) -> Optional[Tuple[str, Optional[str]]]:
    """(the name of the label whose setting on the pull request is GitHub's
    event for this run, the pull request's head commit the event names), or
    None: another event (a later push, ``synchronize``, does not inherit an
    approval), another action, or a run outside the event's checkout."""
    if env.get("GITHUB_EVENT_NAME") not in PULL_REQUEST_EVENTS:
        return None
    path, workspace = env.get("GITHUB_EVENT_PATH", ""), env.get("GITHUB_WORKSPACE", "")
    if not path or not workspace:
        return None
    try:
        Path(os.path.realpath(root)).relative_to(os.path.realpath(workspace))
    except ValueError:
        return None  # a folder outside the checkout is not what the event describes
    try:
        event = json.loads(_read(path))
    except (OSError, ValueError, RecursionError):
        event = None
    if not isinstance(event, dict):
        warn("GitHub's event payload (GITHUB_EVENT_PATH) cannot be read: no approval label applies")
        return None
    pr = event.get("pull_request")
    if event.get("action") != "labeled" or not isinstance(pr, dict):
        return None
    label = event.get("label")
    name = label.get("name") if isinstance(label, dict) else None
    if not isinstance(name, str):
        return None
    head = pr.get("head")
    sha = head.get("sha") if isinstance(head, dict) else None
    return name, sha if isinstance(sha, str) and _SHA.fullmatch(sha) else None


_SHA = re.compile(r"[0-9a-f]{40}|[0-9a-f]{64}")


def covers_checkout(root: Path, head: Optional[str], label: str, warn: Callable[[str], None]) -> bool:
    """Whether the approval given for the commit ``head`` covers the commit
    checked out at ``root``: that commit itself, or the merge commit whose
    second parent it is (the merge ref a pull_request workflow checks out).
    A workflow that checks out a later push must not inherit it."""
    from contextlib import closing

    from penguin_lint.pr.git import GitError, GitRepo

    if head is None:
        warn(f"the label '{label}' was set, but GitHub's event names no head commit of the pull request: "
             "no approval applies")
        return False
    try:
        with closing(GitRepo(root)) as g:
            here = g.rev("HEAD^{commit}")
            if here == head:
                return True
            second, third = g.rev("HEAD^2^{commit}"), g.rev("HEAD^3^{commit}")
    except GitError:
        here = second = third = None
    if here is not None and second == head and third is None:
        return True
    warn(f"the label '{label}' was set for commit {head[:12]}, but {(here or 'no commit')[:12]} is checked "
         "out: no approval applies (set the label again for this commit)")
    return False


def _read(path: str) -> bytes:
    """The event file's bytes: a regular file only (a FIFO would block the
    run), and never past MAX_EVENT."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError("not a regular file")
        chunks, size = [], 0
        while size <= MAX_EVENT:
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    finally:
        os.close(fd)
    if size > MAX_EVENT:
        raise ValueError("too large")
    return b"".join(chunks)
