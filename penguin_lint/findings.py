"""The one thing every layer agrees on: a finding.

Loaders, validation and rules produce findings; reporters consume them and
never learn where they came from.
"""
from __future__ import annotations

import re
from dataclasses import field
from typing import Optional

from penguin_lint.records import record

ERROR = "error"
WARNING = "warning"


@record(frozen=True)
class Position:
    """1-based line/column span of a key or value in a file."""

    line: int
    column: int
    end_line: Optional[int] = None
    end_column: Optional[int] = None


@record
class Finding:
    """One problem a rule found, where it is and what to do about it."""

    code: str
    name: str
    severity: str
    path: str  # repository-relative, "/" separated
    message: str
    line: Optional[int] = None
    column: Optional[int] = None
    end_line: Optional[int] = None
    end_column: Optional[int] = None
    hint: Optional[str] = None
    # The file or folder whose check produced this finding. Diff mode uses it
    # to keep a finding about a missing file that belongs to a changed folder.
    subject: Optional[str] = field(default=None, compare=False, repr=False)
    # Why a change is blamed for it (set by pull-request runs, None for --all):
    # "touched" - in a file the change adds, modifies or renames;
    # "dependent" - elsewhere, in a file whose verdict the change altered.
    scope: Optional[str] = field(default=None, compare=False, repr=False)
    # Whether the change introduced it (set by pull-request and hook runs,
    # which compare with a base; None where nothing is compared: --all).
    new: Optional[bool] = field(default=None, compare=False, repr=False)
    # For a dependent finding: the changed paths (touched or deleted) whose
    # change re-checked the file it is in.
    caused_by: Optional[list] = field(default=None, compare=False, repr=False)
    # What --fix would do with it: "safe" (repaired by --fix), "unsafe"
    # (only with --unsafe-fixes), None (nothing; or not asked: --fix runs)
    fix: Optional[str] = field(default=None, compare=False, repr=False)
    # The text --fix would write for it, where ``fix`` is set: a list of
    # ``(start_line, start_column, end_line, end_column, text)``, 1-based,
    # the end exclusive, columns counted in UTF-8 bytes (reviewdog's rdjson)
    replacements: Optional[list] = field(default=None, compare=False, repr=False)
    # An inline suppression carried to the end of the run (suppressions.py);
    # set only on the carriers the engine removes before reporting.
    directive: Optional[object] = field(default=None, compare=False, repr=False)

    def sort_key(self):
        return (self.path, self.line or 0, self.column or 0, self.code, self.message)

    def to_dict(self) -> dict:
        return {
            "path": self.path,
            "line": self.line,
            "column": self.column,
            "end_line": self.end_line,
            "end_column": self.end_column,
            "code": self.code,
            "name": self.name,
            "severity": self.severity,
            "message": self.message,
            "hint": self.hint,
            "scope": self.scope,
            "new": self.new,
            "caused_by": list(self.caused_by) if self.caused_by is not None else None,
        }


@record
class Problem:
    """A rule-less observation made by a lower layer (loader, schema).

    Rules turn problems into findings: the loader knows that a key repeats,
    the rule PL002 knows its code, name and severity.
    """

    code: str
    message: str
    pos: Optional[Position] = None
    hint: Optional[str] = None
    path: Optional[str] = None  # defaults to the document's path
    #: the key path the problem is about, when a rule words it further
    #: (PL101: the missing key, whose value the rule may know better)
    key: Optional[tuple] = None


# What in a message says where, not what: a line or column, a value's or an
# item's place in its list. A change that only moves a finding (lines added
# above it, an entry inserted before it) keeps the finding it was; every
# other number is what the finding is about (an id's digits, a score, a
# count), and a finding whose number changed is another finding.
# (a pattern, compiled by re on first use: a run without findings never asks)
_PLACE = r"\b(lines?|columns?|values?|rows?|items?|entry|entries) \d+(?:-\d+)?|\[\d+\]"


def placeless(message: str) -> str:
    """``message`` without the numbers that only say where (pull-request
    runs tell old findings from new by it, a baseline records it)."""
    return re.sub(_PLACE, _place, message)


def _place(m) -> str:
    return "[#]" if m.group(0)[0] == "[" else m.group(1) + " #"
