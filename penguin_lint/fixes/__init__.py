"""``--fix``: repairs that have exactly one right answer, applied in place.

One module per repair (``summary`` for PL303, ``ids`` for PL201,
``quoting`` for PL102, ``unused_suppression`` for PL008, ``mark`` for
PL005, ``status`` for PL501, which is unsafe); a rule says
that it can be fixed with its ``fixable`` attribute. A repair turns a
finding into an :class:`~penguin_lint.fixes.source.Edit` of one value; the
edits of a file are spliced into its bytes, checked by reloading the result,
and written atomically (``writer``). ``--fix --diff`` shows the same edits
as a unified diff and writes nothing.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Dict, List, Optional

from penguin_lint.findings import Finding
from penguin_lint.fixes import ids, mark, quoting, status, summary, unused_suppression
from penguin_lint.fixes.source import Edit, Source
from penguin_lint.fixes.writer import WriteRefused, read_current, unified_diff, write_atomic
from penguin_lint.suppressions import HELD

FIXERS: Dict[str, Callable] = {
    "PL303": summary.fix,
    "PL201": ids.fix,
    "PL102": quoting.fix,
    "PL501": status.fix,
    "PL008": unused_suppression.fix,
    "PL005": mark.fix,
}
# A fix can make another one possible (rarely); a few passes settle it.
MAX_PASSES = 4


@dataclass
class FileFix:
    """One file's repairs: its bytes before and after."""

    path: str
    old: bytes
    new: bytes
    edits: List[Edit]


@dataclass
class Outcome:
    """What a fix run repaired, changed and refused."""

    fixed: int = 0                                     # findings repaired
    files: List[str] = field(default_factory=list)     # files changed
    diff: List[str] = field(default_factory=list)      # --diff: the unified diff
    refused: List[str] = field(default_factory=list)   # one line per file not written


#: what a repair that fails on odd input raises: said, never a traceback
FIX_BUGS = (RecursionError, ArithmeticError, ValueError, TypeError, KeyError, IndexError)


def fixable_by_path(findings: List[Finding], codes) -> Dict[str, List[Finding]]:
    """The findings of ``codes`` a repair can be asked for, by file: placed
    on a line, and not named by a suppression this change adds (the
    author's to keep)."""
    by_path: Dict[str, List[Finding]] = {}
    for f in findings:
        if f.code in codes and f.line is not None and f.directive != HELD:
            by_path.setdefault(f.path, []).append(f)
    return by_path


def source_of(path: str, raw: Optional[bytes]) -> Optional[Source]:
    """The text a repair edits, or None where none can be made (not read,
    not UTF-8, not parsed)."""
    if raw is None:
        return None
    try:
        source = Source(path, raw)
    except UnicodeDecodeError:
        return None
    return source if source.ok else None


def plan(findings: List[Finding], root: str, ctx, rules: Dict[str, object],
         unsafe: bool, size_limit: int,
         read: Optional[Callable[[str], bytes]] = None) -> "tuple[List[FileFix], List[str]]":
    """The fixes for ``findings``, file by file, and why files were left alone.
    ``read``: the bytes of a file to fix (default: the file under ``root``;
    an editor's buffer for the language server); raises WriteRefused."""
    allowed = {code for code, r in rules.items()
               if code in FIXERS and (r.fixable == "safe" or (unsafe and r.fixable == "unsafe"))}
    by_path = fixable_by_path(findings, allowed)
    out: List[FileFix] = []
    refused: List[str] = []
    for path in sorted(by_path):
        try:
            raw = read(path) if read is not None else read_current(root, path, size_limit)
        except WriteRefused as e:
            refused.append(str(e))
            continue
        source = source_of(path, raw)
        if source is None:
            continue
        edits: List[Edit] = []
        for f in by_path[path]:
            try:
                edits.extend(FIXERS[f.code](f, source, ctx))
            except FIX_BUGS as e:
                # a bug in one repair must not become a traceback, nor stop the others
                refused.append(f"{path}: internal error in the {f.code} fix ({type(e).__name__}); not fixed")
        if not edits:
            continue
        new, applied = source.apply(edits)
        if not applied:
            continue
        if not source.verify(new, applied):
            refused.append(f"{path}: the fix would change more than the values it repairs; not written")
            continue
        out.append(FileFix(path, raw, new, applied))
    return out, refused


def fix_run(result, relint: Callable[[], object], root: str, ctx_of: Callable[[], object],
            rules: Dict[str, object], unsafe: bool, show_diff: bool, size_limit: int):
    """Apply the fixes for ``result``'s findings (``show_diff``: only show
    them); returns the final result (re-linted after writing) and the
    :class:`Outcome`."""
    outcome = Outcome()
    if show_diff:
        fixes, refused = plan(result.findings, root, ctx_of(), rules, unsafe, size_limit)
        outcome.refused = refused
        for fx in fixes:
            outcome.diff.extend(unified_diff(fx.path, fx.old, fx.new))
            outcome.fixed += len(fx.edits)
            outcome.files.append(fx.path)
        return result, outcome
    for _ in range(MAX_PASSES):
        fixes, refused = plan(result.findings, root, ctx_of(), rules, unsafe, size_limit)
        outcome.refused = refused
        wrote = False
        for fx in fixes:
            try:
                write_atomic(root, fx.path, fx.old, fx.new)
            except WriteRefused as e:
                outcome.refused.append(str(e))
                continue
            except OSError as e:
                outcome.refused.append(f"{fx.path}: cannot write: {e.strerror}")
                continue
            wrote = True
            outcome.fixed += len(fx.edits)
            if fx.path not in outcome.files:
                outcome.files.append(fx.path)
        if not wrote:
            break
        result = relint()
    return result, outcome


__all__ = ["FIXERS", "Outcome", "fix_run", "plan", "Source", "Edit", "WriteRefused"]
