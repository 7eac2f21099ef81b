"""What every kind of run supplies to the engine (``execute.py``).

A kind of run says where its configuration comes from and opens its base
and its change (:meth:`RunKind.open`), gives the repository the rules read
(:meth:`RunKind.repository`) and lints it (:meth:`RunKind.lint`, twice with
``--fix``). What it opens it enters in ``resources``, the run's one
``ExitStack``, which closes everything once, whatever happens."""
from __future__ import annotations

from contextlib import ExitStack
from pathlib import Path
from typing import Callable, List, Mapping, Optional

from penguin_lint.core.config import Config, load_config
from penguin_lint.core.layout import FILE_KINDS
from penguin_lint.core.repo import Repository
from penguin_lint.rules import rule_codes
from penguin_lint.run.cache import status_cache
from penguin_lint.run.options import Options
from penguin_lint.run.request import Request


class RunKind:
    def __init__(self, req: Request, options: Options, root: Path, cwd: Path, env: Mapping[str, str],
                 warn: Callable[[str], None], resources: ExitStack):
        self.req, self.options, self.root, self.cwd, self.env = req, options, root, cwd, env
        self.warn, self.resources = warn, resources
        #: the paths asked for, as given (relative to ``cwd``)
        self.paths: List[str] = list(req.paths)
        #: where git may keep what it knows of untracked files
        self.status_cache = status_cache(root, req.cache_dir, not req.cache)
        # set by the engine once known: what lint() runs with
        self.config: Optional[Config] = None
        self.rules: list = []
        self.forced: dict = {}

    # -- what the kind supplies ------------------------------------------------
    def open(self) -> Config:
        """The configuration to run with; the base and the change opened."""
        return load_config(self.root, FILE_KINDS, rule_codes())

    def repository(self, config: Config):
        """The repository the rules read."""
        return Repository(self.root, config)

    def consent(self, config: Config):
        """Which suppressions a reviewed change adds apply all the same
        (``consent.Consent``), or None: none, until merged."""
        return None

    def deleted(self) -> frozenset:
        """Paths the change deletes: given as paths, they are not missing."""
        return frozenset()

    def targets(self, rel_paths: List[str]) -> List[str]:
        """What the run lints, from the paths given (root-relative)."""
        return rel_paths

    def prepare(self, engine, rel_paths: List[str]) -> None:
        """The engine told what it cannot find on its own (submodules)."""

    def walks(self, rel_paths: List[str]) -> bool:
        """Whether the run walks the layout's folders (then a root without
        them is an error, not a green check on nothing)."""
        return "" in rel_paths

    def base_tree(self):
        """The base tree whose layout counts as the repository's, or None."""
        return None

    def lint(self, engine, rel_paths: List[str]):
        raise NotImplementedError

    def finish(self, result, rel_paths: List[str]) -> None:
        """What the result says of the kind of run."""

    def after(self, outcome, rel_paths: List[str]) -> None:
        """Last words, once the result is known."""
