"""What a rule sees while it runs: the repository and shared, cached results."""
from __future__ import annotations

from typing import Dict, List, Optional, Set

from penguin_lint.core.config import Config
from penguin_lint.findings import Problem
from penguin_lint.core.layout import FILE_KINDS
from penguin_lint.loaders.document import Document
from penguin_lint.core.repo import Repository
from penguin_lint.engine.subject import Subject
from penguin_lint.validation.schema import validate


class Context:
    def __init__(self, repo: Repository, config: Config):
        self.repo = repo
        self.config = config
        self.layout = repo.layout
        self._schema: Dict[str, List[Problem]] = {}
        # Named definition files for Harbor rows files (--definition).
        self.options: Dict[str, object] = {}
        # The tree a change is compared with (a BaseRepository), in
        # pull-request runs and path runs inside git; None otherwise.
        self.base = None
        # whether the configuration was read from the base (diff mode)
        self.config_from_base = False
        self.renames: Dict[str, str] = {}  # new path -> old path, in the change
        #: paths the change made submodules (gitlinks): folders whose files it never shows
        self.gitlinks: Set[str] = set()
        #: when git last committed a folder (``pr.history.FolderHistory``,
        #: handed by the run: the engine runs no git), or None
        self.history = None
        # Results that several rules share (e.g. a leaderboard's resolved
        # expressions), keyed by the caller; lives as long as one run.
        self.cache: dict = {}

    def base_path(self, path: str) -> str:
        """Where ``path`` was in the base (a rename followed back)."""
        return self.renames.get(path, path)

    def doc(self, subject_or_path) -> Optional[Document]:
        path = subject_or_path.path if isinstance(subject_or_path, Subject) else subject_or_path
        return self.repo.load(path)

    def load_problems(self, subject: Subject) -> List[Problem]:
        doc = self.repo.load(subject.path)
        return doc.problems if doc is not None else []

    def schema_problems(self, subject: Subject) -> List[Problem]:
        """Schema problems of a data file, validated once however many rules ask."""
        cached = self._schema.get(subject.path)
        if cached is None:
            doc = self.repo.load(subject.path)
            schema = FILE_KINDS.get(subject.kind)
            cached = validate(doc, schema) if doc is not None and schema else []
            self._schema[subject.path] = cached
        return cached

    def unrepeatable(self) -> None:
        """Say that the verdict being made rests on more than the files read
        (the time of a commit, a file's modification time): the cache keeps
        no record of it."""
        reads = getattr(self.repo, "reads", None)
        if reads is not None:
            reads.unrepeatable = True

    def valid_doc(self, path: str) -> Optional[Document]:
        """A document that parsed and whose top level is a mapping."""
        doc = self.repo.load(path)
        if doc is None or not doc.parsed or not isinstance(doc.data, dict):
            return None
        return doc

    def reset(self) -> None:
        """Drop every document and cached result (listings stay)."""
        self.repo.forget("")
        self._schema.clear()
        self.cache.clear()

    def forget(self, prefix: str) -> None:
        self.repo.forget(prefix)
        for key in [k for k in self._schema if k.startswith(prefix)]:
            del self._schema[key]
        # shared results are keyed (what, path, ...); a leaderboard's
        # expressions hold its document, which must go with the rest
        for key in [k for k in self.cache if isinstance(k, tuple) and len(k) > 1
                    and isinstance(k[1], str) and k[1].startswith(prefix)]:
            del self.cache[key]
