"""A run, from the top: request -> kind of run -> engine -> result.

The command line, the Action and the Python API all come through here.
The options are checked together (``run/options.py``), the root found
(``run/root.py``); the request is one kind of run (``run/whole.py``,
``paths.py``, ``diff.py``, ``staged.py``, ``stdin.py``), which supplies the
repository, the configuration, the base and the change; one engine
(``run/execute.py``) runs them all. What a run opens (git processes, base
trees) is held by one ``ExitStack`` and closed once, on every path. It prints
nothing: warnings go to the ``warn`` callback, and a run that cannot be made
raises :class:`PenguinLintError` with one line.
"""
from __future__ import annotations

import gc
import os
from contextlib import ExitStack
from pathlib import Path
from typing import Callable, List, Optional

from penguin_lint.run.base import compared
from penguin_lint.run.config import pull_request_base
from penguin_lint.run.execute import execute
from penguin_lint.run.options import DIFF, PATHS, STAGED, STDIN, WHOLE, check_options
from penguin_lint.run.preview import open_preview, open_repository
from penguin_lint.run.request import Outcome, PenguinLintError, Request
from penguin_lint.run.root import find_root, holds_layout, root_for, run_root

__all__ = ["Outcome", "PenguinLintError", "Request", "compared", "find_root", "holds_layout", "open_preview",
           "open_repository", "pull_request_base", "root_for", "run"]

#: each kind of run, by the name check_options gives it: (module, class), imported
#: when run (the hook does not pay for the others)
KINDS = {WHOLE: ("whole", "WholeRun"), PATHS: ("paths", "PathsRun"), DIFF: ("diff", "DiffRun"),
         STAGED: ("staged", "StagedRun"), STDIN: ("stdin", "StdinRun")}


def kind_class(mode: str):
    """The class of the kind of run named ``mode``."""
    import importlib

    module, name = KINDS[mode]
    return getattr(importlib.import_module(f"penguin_lint.run.{module}"), name)


def run(request: Request, warn: Optional[Callable[[str], None]] = None) -> Outcome:
    """Run what ``request`` asks; ``warn`` receives each warning line (the
    command line prints them as they come)."""
    warnings: List[str] = []

    def say(message: str) -> None:
        warnings.append(message)
        if warn is not None:
            warn(message)

    was_enabled = gc.isenabled()
    # Documents are plain trees that die with their unit: the cyclic
    # collector finds nothing in them, yet its passes over everything alive
    # (listings of tens of thousands of files) made big runs superlinear.
    gc.disable()
    try:
        outcome = _run(request, say)
    finally:
        if was_enabled:
            gc.enable()
    outcome.warnings = warnings
    return outcome


def _run(req: Request, warn: Callable[[str], None]) -> Outcome:
    cwd = req.cwd if req.cwd is not None else Path.cwd()
    root = run_root(req, cwd)
    options = check_options(req, cwd)
    env = os.environ if req.env is None else req.env
    with ExitStack() as resources:  # every git process and tree of the run, closed once
        kind = kind_class(options.mode)(req, options, root, cwd, env, warn, resources)
        return execute(kind)
