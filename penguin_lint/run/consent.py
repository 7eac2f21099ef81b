"""The maintainers' consent a run honours (``consent.Consent``): from the
base's configuration in a pull request, and, for ``approval-label``, from
GitHub's event for the run, never from the checkout (a pull request can
write any file, but only people with triage rights can set a label)."""
from __future__ import annotations

import json
import os
import stat
from pathlib import Path
from typing import Callable, Mapping, Optional

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
    approved = label is not None and labeled(root, env, warn) == label.casefold()
    return Consent(tuple(config.allow_added_suppressions), label, approved=approved)


def own_consent(config: Config) -> Consent:
    """The hook's: the author's own commit; it says what the pull request
    will need, by ``config`` (the one the commit is judged by)."""
    return Consent(tuple(config.allow_added_suppressions), config.approval_label, own=True)


def labeled(root: Path, env: Mapping[str, str], warn: Callable[[str], None]) -> Optional[str]:
    """The name (case-folded, as GitHub compares labels) of the label whose
    setting on the pull request is GitHub's event for this run, or None:
    another event (a later push, ``synchronize``, does not inherit an
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
    if event.get("action") != "labeled" or not isinstance(event.get("pull_request"), dict):
        return None
    label = event.get("label")
    name = label.get("name") if isinstance(label, dict) else None
    return name.casefold() if isinstance(name, str) else None


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
