"""What a pull request is blamed for.

A pull request is blamed for what it touches and for what it breaks, never
for old debt elsewhere:

- every finding in a file the change touches (adds, modifies, renames to)
  is reported, old or new — the contributor has the file open;
- a finding anywhere else (a leaderboard re-checked because one of its
  experiments changed, the attempts naming a task that was removed, a file
  missing from a folder the change touched) is reported only when the change
  introduced it: the same subject, checked against the base, has no finding
  with the same fingerprint;
- with ``--new-only`` the same subtraction applies to touched files too, for
  repositories that adopt penguin-lint with old debt; what it hides is
  counted.

A fingerprint is stable under edits elsewhere in the file: the rule code,
the path (followed back through a rename), the key path of the location
instead of its line, and the message with its numbers left out (a value
that moved from ``values[2]`` to ``values[3]`` is the same finding).
"""
from __future__ import annotations

from collections import Counter
from dataclasses import replace
from typing import Any, Dict, Iterable, List, Optional, Protocol, Set, Tuple

from penguin_lint.findings import Finding, placeless
from penguin_lint.loaders.document import Document

from penguin_lint.engine.subject import Subject
from penguin_lint.pr.unchanged import SameInputs

TOUCHED, DEPENDENT = "touched", "dependent"
MAX_CAUSES = 20  # changed paths named on one dependent finding


class Checker(Protocol):
    """What blame asks of an engine (``engine.runner.Engine``): the tree it
    reads, and the findings of one subject there. Blame is below the engine:
    the engine hands it one for the base and one for the change."""

    repo: Any
    ctx: Any

    def subject(self, path: str, is_dir: bool) -> Subject: ...

    def check(self, subject: Subject, codes: Optional[Set[str]] = None) -> List[Finding]: ...


class Change:
    """The paths a run is about, relative to the repository root.

    ``touched``: files or folders that exist and changed (added, modified,
    renamed to; for a path run, the paths given). ``deleted``: paths that
    are gone (deleted, renamed from). ``renames``: new path -> old path.

    Written out rather than a dataclass: every hook makes one, and making
    the class would compile its methods from source on each run. Made by
    :meth:`of`; nothing compares two."""

    def __init__(self, renames: Dict[str, str]) -> None:
        self.touched: Set[str] = set()
        self.deleted: Set[str] = set()
        self.renames = renames

    @property
    def paths(self) -> List[str]:
        return sorted(self.touched | self.deleted)

    def __len__(self) -> int:
        return len(self.touched) + len(self.deleted)

    @classmethod
    def of(cls, repo, paths: Iterable[str], renames: Optional[Dict[str, str]] = None) -> "Change":
        """Split ``paths`` (relative, as the run kinds and the language
        server make them: no slash at either end) by whether they exist in
        ``repo`` now."""
        ch = cls(dict(renames or {}))
        for p in paths:
            if p == "" or repo.entry(p) is not None:
                ch.touched.add(p)
            else:
                ch.deleted.add(p)
        for new, old in ch.renames.items():
            if new in ch.touched and repo.entry(old) is None:
                ch.deleted.add(old)
        return ch

    def base_path(self, path: str) -> str:
        """Where ``path`` was in the base (renames followed back)."""
        return self.renames.get(path, path)


def _positions(doc: Document) -> Dict[Tuple[int, int], tuple]:
    """(line, column) -> the deepest key path whose key or value starts there,
    in a parsed document (every loader gives one its positions' tree:
    loaders/positions.py, loaders/toml_positions.py)."""
    out: Dict[Tuple[int, int], tuple] = {}
    for path, (line, column) in doc._tree.starts():
        key = (line, column)
        if key not in out or len(path) > len(out[key]):
            out[key] = path
    return out


class Fingerprints:
    """Fingerprints of findings, with the documents' key paths looked up
    once per file."""

    def __init__(self):
        self._maps: Dict[int, Dict[Tuple[int, int], tuple]] = {}

    def of(self, f: Finding, path: str, doc: Optional[Document]) -> tuple:
        where = None
        if f.line is not None and doc is not None and doc.parsed:
            m = self._maps.get(id(doc))
            if m is None:
                m = self._maps[id(doc)] = _positions(doc)
            where = m.get((f.line, f.column))  # a finding with a line has a column (Position)
        return (f.code, path, where, placeless(f.message))

    def clear(self) -> None:
        self._maps.clear()


class Scope:
    """Decides, finding by finding, what a change is blamed for.

    ``base`` is an engine over the base tree with the same rules and
    configuration (None when there is no base: outside git, or before the
    first commit — then every finding is new)."""

    def __init__(self, change: Change, base: Optional[Checker] = None, new_only: bool = False,
                 folders: Iterable[str] = (), focus: bool = False):
        self.change = change
        self.base = base
        self.new_only = new_only
        # Whether a dependent leaderboard is checked only for the values the
        # change can affect (focus.py): in pull-request runs, where the base
        # subtracts the rest anyway. Path runs check it whole.
        self.focus = focus
        # folders given on the command line: everything below them is touched
        self.folders = [d for d in folders]
        #: older findings in touched files that --new-only left out (the
        #: engine counts those a report would have shown: engine.runner)
        self.held: List[Finding] = []
        #: subject path -> the changed paths that made it checked (a
        #: leaderboard -> the meta_info.yaml whose change re-checks it)
        self.causes: Dict[str, Set[str]] = {}
        self._fp = Fingerprints()
        self._base_prints: Dict[tuple, Dict[tuple, List[Finding]]] = {}
        self._inputs = SameInputs()

    def touches(self, path: str) -> bool:
        ch = self.change
        if path in ch.touched or path in ch.deleted:
            return True
        return any(d == "" or path.startswith(d + "/") for d in self.folders)

    # -- the base side ---------------------------------------------------------
    def read(self, reads) -> None:
        """Take in what a check of the working tree read (``core.repo.ReadLog``)."""
        self._inputs.add(reads)

    def _alike(self, subject: Subject, engine: Checker) -> bool:
        """Whether the base would find on ``subject`` exactly what ``engine``
        found: the same rules, settings and suppressions on both sides, and
        everything the run read so far the same in the base (pr/unchanged.py).
        Then no base file is parsed and every finding is old."""
        base = self.base
        if (self.change.renames or engine.ledger is None or base.ledger is None
                or engine.rules != base.rules or engine.config != base.config
                or engine.forced_kinds != base.forced_kinds or engine.ctx.options != base.ctx.options
                or engine.ctx.gitlinks != base.ctx.gitlinks):
            return False
        if not all(r.alike_on_base(subject.kind) for r in engine.by_kind.get(subject.kind, ())):
            return False
        path = subject.path
        if path and (engine.repo.entry(path) or (None,))[:5] != (base.repo.entry(path) or (None,))[:5]:
            return False
        return self._inputs.hold(engine.repo, base.repo)

    def _base_found(self, subject: Subject, codes: frozenset) -> Dict[tuple, List[Finding]]:
        """The base's findings on ``subject`` by the rules of ``codes`` (those
        the working tree found something with: no other finding of the base
        decides a verdict), by fingerprint without the key path (:func:`_loose`)."""
        base_path = self.change.base_path(subject.path)
        got = self._base_prints.get((base_path, codes))
        if got is None:
            got = {}
            base = self.base
            entry = base.repo.entry(base_path) if base_path else None
            if base_path == "" or (entry is not None and (entry.is_dir == subject.is_dir)):
                # the same part as on this side (focus.py): like with like
                s = replace(base.subject(base_path, subject.is_dir), focus=subject.focus)
                for f in base.check(s, codes):
                    got.setdefault(_loose(f, f.path), []).append(f)
            self._base_prints[(base_path, codes)] = got
        return got

    def _print(self, engine: Checker, f: Finding, path: str) -> tuple:
        # the document the rules read, whatever its name ([kinds] can give
        # any file a kind): None where there is no file
        return self._fp.of(f, path, engine.repo.load(f.path))

    def _old(self, findings: List[Finding], group: List[int], theirs: List[Finding],
             engine: Checker, old: List[bool]) -> None:
        """Which findings of ``group`` (indexes of ``findings`` with one
        fingerprint without key path) the base had, when it had fewer of them
        than there are: those with the same key path first, then the first of
        the rest, as many as the base has left."""
        base = self.base
        exact = Counter(self._print(base, f, f.path) for f in theirs)
        unmatched = []
        for i in group:
            fp = self._print(engine, findings[i], self.change.base_path(findings[i].path))
            if exact[fp] > 0:
                exact[fp] -= 1  # it was there before the change
                old[i] = True
            else:
                unmatched.append(i)
        left = sum(exact.values())  # a count is only lowered while above 0
        for i in unmatched[:left]:
            old[i] = True

    # -- the verdict -----------------------------------------------------------
    def report(self, subject: Subject, findings: List[Finding], engine: Checker) -> List[Finding]:
        """The findings of ``subject`` that the change is blamed for, each
        with its ``scope`` set, its verdict (``new``: True or False; None
        without a base) and, outside the touched files, ``caused_by``.

        A finding is old when the base has one with the same fingerprint
        (code, path, key path, message without the numbers that only say
        where: lines, columns, places in a list). Those left over
        on both sides are then paired without the key path: a value that
        moved (a new entry above it in a list) keeps its old findings old,
        while of two equal messages the one the base had stays old and the
        other is new. Key paths are looked up only where they decide: for
        findings the base has fewer of than the working tree (without the
        key path); when the base has none, or as many or more, all are new,
        or all old."""
        old = [False] * len(findings)
        touched_at = [self.touches(f.path) for f in findings]
        causes = None
        for f, touched in zip(findings, touched_at):
            f.scope = TOUCHED if touched else DEPENDENT
            if not touched:
                if causes is None:
                    causes = sorted(self.causes.get(subject.path, ())) or sorted(self.change.paths)
                f.caused_by = causes[:MAX_CAUSES]
        if self.base is not None and findings:
            if self._alike(subject, engine):
                old = [True] * len(findings)
            else:
                groups: Dict[tuple, List[int]] = {}
                for i, f in enumerate(findings):
                    groups.setdefault(_loose(f, self.change.base_path(f.path)), []).append(i)
                base_found = self._base_found(subject, frozenset(f.code for f in findings))
                for key, group in groups.items():
                    theirs = base_found.get(key, ())
                    if len(theirs) >= len(group):
                        for i in group:
                            old[i] = True
                    elif theirs:
                        self._old(findings, group, theirs, engine, old)
            for i, f in enumerate(findings):
                # the verdict, recorded for the reports ("already in main")
                f.new = not old[i]
                if old[i] and touched_at[i] and self.new_only:
                    self.held.append(f)
        # old findings are reported in touched files (the contributor has
        # them open) unless --new-only; elsewhere never
        return [f for i, f in enumerate(findings)
                if not old[i] or (touched_at[i] and not self.new_only)]

    def added_suppressions(self, path: str, directives, content_id: Optional[str] = None
                           ) -> Dict[Tuple[int, int], frozenset]:
        """(line, column) of each directive of ``path`` -> the codes the base
        does not have at the same place (a directive's kind and codes, not its
        line). ``content_id``: the blob id of the bytes ``directives`` were
        read from; the same blob in the base (at the path, or the one it was
        renamed from) adds nothing, and is not parsed. A file renamed with its
        content changed is new to the board: every directive it holds is
        added (a base suppression is the base's only in that file)."""
        from penguin_lint.suppressions import added_codes

        base = self.base
        base_path = self.change.base_path(path)
        if content_id is not None and content_id == base.repo.blob_id(base_path):
            return {}
        if base_path != path:
            return added_codes(directives, ())
        doc = base.repo.load(base_path)  # None where the base has no file
        return added_codes(directives, doc.directives if doc is not None else ())

    def forget(self) -> None:
        """Drop what was looked up for the last unit (keeps memory flat)."""
        self._fp.clear()
        self._base_prints.clear()
        if self.base is not None:
            self.base.ctx.reset()


def _loose(f: Finding, path: str) -> tuple:
    """A finding's fingerprint without its key path."""
    return f.code, path, placeless(f.message)
