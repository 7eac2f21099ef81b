"""What a change makes the engine check, and why.

The subjects are the touched paths, the folders that hold them (a new file
can complete or break them), and the subjects that cross-file rules say a
touched or deleted path affects (``Rule.affected_by``); ``Scope.causes``
notes, for each, the changed paths behind it.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Dict, Iterable, Set

from penguin_lint.core.config import CONFIG_FILE
from penguin_lint.engine.subject import Subject
from penguin_lint.pr.blame import Change, Scope


class ChangeSubjects:
    """What a change makes a run check, and why each subject is in it. (A
    plain class: nothing compares or prints it, and a dataclass costs every
    hook its making.)"""

    __slots__ = ("subjects", "own", "dependents", "touched_dirs")

    def __init__(self, subjects: Dict[str, Subject], own: Set[str], dependents: Set[str],
                 touched_dirs: Set[str]) -> None:
        self.subjects = subjects          # path -> subject, every one to check
        self.own = own                    # what the change names (and the folders holding it)
        self.dependents = dependents      # what cross-file rules say the change affects
        self.touched_dirs = touched_dirs  # data folders holding a changed path


def change_subjects(engine, change: Change, scope: Scope) -> ChangeSubjects:
    """The subjects ``engine`` checks for ``change``."""
    repo = engine.repo
    subjects: Dict[str, Subject] = {}
    touched_dirs: Set[str] = set()

    def add(path: str, is_dir: bool):
        if path not in subjects:
            subjects[path] = engine.subject(path, is_dir)

    causes: Dict[str, Set[str]] = scope.causes  # subject -> the changed paths behind it
    # folders holding only edits to files that were there before, and the
    # paths whose listing the change alters (or that it names otherwise)
    edited: Set[str] = set()
    reshaped: Set[str] = set()
    for p in change.paths:
        if p == "":
            for s in engine.all_subjects():
                subjects.setdefault(s.path, s)
        entry = repo.entry(p) if p else None
        if entry is not None and entry.is_dir:
            add(p, True)
            for sub, e in repo.walk(p):
                if not e.is_symlink and (e.is_dir or e.is_file):
                    add(sub, e.is_dir)
                    reshaped.add(sub)  # named, if only as part of the folder
        if p == "" or (entry is not None and entry.is_dir):
            # submodules below it, checked out or not: no walk sees the absent ones
            for link in engine.ctx.gitlinks:
                if p == "" or link.startswith(p + "/"):
                    add(link, True)
            if p == "":
                continue
        elif entry is not None and entry.is_file:
            add(p, False)
        elif p in engine.forced_kinds or p == CONFIG_FILE:
            add(p, False)
        elif p in engine.ctx.gitlinks:
            add(p, True)  # a submodule absent from the work tree: PL007 on its path
        edit = _edited(p, entry, change, scope)
        parent = p.rpartition("/")[0]
        while parent:
            if repo.is_dir(parent) and repo.layout.classify_dir(parent) is not None:
                touched_dirs.add(parent)
                add(parent, True)
                causes.setdefault(parent, set()).add(p)
                (edited if edit else reshaped).add(parent)
            parent = parent.rpartition("/")[0]
        if not edit:
            reshaped.add(p)
    own = set(subjects)  # what the change names; the rest is checked as its dependents
    dependents: Set[str] = set()
    for p in change.paths:
        for rule in engine.rules:
            for dep in rule.affected_by(p, engine.ctx):
                dependents.add(dep)
                causes.setdefault(dep, set()).add(p)
    for dep in dependents:
        e = repo.entry(dep)
        if dep == "":
            add("", True)  # the repository itself (its top folders)
        elif e is not None and (e.is_dir or e.is_file):
            add(dep, e.is_dir)
            if scope.focus and scope.base is not None and dep not in change.touched:
                # Checked only for what the change can affect, here and
                # in the base alike (focus.py).
                from penguin_lint.pr.focus import leaderboard_focus

                s = subjects[dep]
                subjects[dep] = replace(s, focus=leaderboard_focus(
                    s, change, repo.layout, repo, scope.base.repo))
    for path in () if "" in change.paths else edited - reshaped - dependents:
        subjects[path] = replace(subjects[path], edited_below=True)
    return ChangeSubjects(subjects, own, dependents, touched_dirs)


def _edited(path: str, entry, change: Change, scope: Scope) -> bool:
    """Whether the change only edits the contents of ``path``: a regular
    file, at this path in the base too (not renamed), of the same type."""
    if scope.base is None or entry is None or not entry.is_file or entry.is_symlink or path in change.renames:
        return False
    before = scope.base.repo.entry(path)
    return before is not None and before.is_file and not before.is_symlink


def reporting_in(subjects: Dict[str, Subject], wanted: Iterable[str]) -> Dict[str, Subject]:
    """The subjects whose findings can be in ``wanted`` (an editor's open
    files): a check reports on its subject or below it, so those are the
    wanted paths themselves and the folders above them, each told which of
    its paths are wanted (``Subject.wanted_below``)."""
    wanted = set(wanted)
    out: Dict[str, Subject] = {}
    for path, s in subjects.items():
        if path in wanted:
            out[path] = s
            continue
        prefix = path + "/" if path else ""
        below = frozenset(w[len(prefix):] for w in wanted if w.startswith(prefix))
        if below:
            out[path] = replace(s, wanted_below=below)
    return out
