"""A cache record as plain JSON data, and its strict reading back: a record
that is not exactly what ``UnitCache.store`` writes is not used.
"""
from __future__ import annotations

from typing import Optional

from penguin_lint.core.repo import _plain_rel as _plain
from penguin_lint.findings import ERROR, WARNING, Finding
from penguin_lint.suppressions import CARRIER

# the version of the record format; a record of another is not read
FORMAT = 3
FIELDS = ("code", "name", "severity", "path", "message", "line", "column",
           "end_line", "end_column", "hint", "subject")


def _opt_int(v) -> bool:
    return v is None or (type(v) is int and 0 <= v < 1 << 31)


def _opt_str(v) -> bool:
    return v is None or type(v) is str


def carrier_out(f: Finding) -> list:
    """A suppression-ledger carrier (suppressions.Ledger.carriers) as plain data."""
    # (never one with codes a change adds: a unit that read such a file is not stored)
    first, second = f.directive[:2]
    if first == "suppressed":
        return ["s", list(second)]
    d = first
    return ["d", f.path, d.line, d.column, d.end_column, d.scope, list(d.codes), d.problem, d.own_line,
            sorted(second)]


def _carrier_in(item) -> Optional[Finding]:
    """The carrier ``carrier_out`` wrote, or None when it is not well formed."""
    from penguin_lint.suppressions import FILE, LINE, Directive

    if not isinstance(item, list) or not item:
        return None
    if item[0] == "s" and len(item) == 2 and isinstance(item[1], list) and len(item[1]) == 5:
        path, line, column, code, message = item[1]
        if type(path) is str and _opt_int(line) and _opt_int(column) and type(code) is str \
                and type(message) is str:
            return Finding(code=CARRIER, name="", severity="", path=path, message="",
                           directive=("suppressed", (path, line, column, code, message)))
        return None
    if item[0] == "d" and len(item) == 10:
        _, path, line, column, end_column, scope, codes, problem, own_line, used = item
        if (type(path) is str and all(type(v) is int for v in (line, column, end_column))
                and scope in (LINE, FILE) and isinstance(codes, list) and all(type(c) is str for c in codes)
                and _opt_str(problem) and type(own_line) is bool
                and isinstance(used, list) and all(type(c) is str for c in used)):
            d = Directive(line, column, end_column, scope, tuple(codes), problem, own_line)
            return Finding(code=CARRIER, name="", severity="", path=path, message="",
                           line=line, column=column, directive=(d, frozenset(used)))
    return None


def _stamp_ok(a, b, c) -> bool:
    # written out, not all(...) over a generator: a record holds a stamp per folder
    return (type(a) is int and type(b) is int and type(c) is int
            and 0 <= a < 1 << 63 and 0 <= b < 1 << 63 and 0 <= c < 1 << 63)


def _sig_ok(a, b, c, d) -> bool:
    return type(a) is int and type(b) is int and type(c) is int and type(d) is int


def parse_record(rec, codes):
    """(findings, file count, listings, files read) of a well-formed record, else None."""
    if not isinstance(rec, dict):
        return None
    raw = rec.get("findings")
    n = rec.get("count")
    listings = rec.get("listings")
    files = rec.get("read")
    if type(n) is not int or not isinstance(raw, list) or not isinstance(listings, dict) \
            or not isinstance(files, dict):
        return None
    findings = []
    for item in raw:
        if not isinstance(item, list) or len(item) != len(FIELDS):
            return None
        code, name, severity, path, message, line, column, end_line, end_column, hint, subject = item
        if (code not in codes or type(name) is not str or severity not in (ERROR, WARNING)
                or type(path) is not str or type(message) is not str
                or not all(_opt_int(v) for v in (line, column, end_line, end_column))
                or not _opt_str(hint) or not _opt_str(subject)):
            return None
        findings.append(Finding(code=code, name=name, severity=severity, path=path, message=message,
                                line=line, column=column, end_line=end_line, end_column=end_column,
                                hint=hint, subject=subject))
    for item in rec.get("suppressions", ()):
        f = _carrier_in(item)
        if f is None:
            return None
        findings.append(f)
    parsed_listings = {}
    depth = -1
    # (what json.loads makes is a list, never a subclass: type() is the check)
    for rel, v in listings.items():
        # parents first (as written): a folder swapped for a link fails its
        # parent's check before any time stamp below it is read
        d = rel.count("/") + (rel != "")
        if d < depth or type(v) is not list or len(v) != 3:
            return None
        depth = d
        stamp, lid, children = v
        if type(lid) is not str or (stamp is not None and not (
                type(stamp) is list and len(stamp) == 3 and _stamp_ok(*stamp))):
            return None
        if children is not None and type(children) is not list:
            return None
        if rel and (not _plain(rel) or rel.rpartition("/")[0] not in parsed_listings):
            return None  # every folder comes with the folders above it
        parsed_listings[rel] = (stamp, lid, children)
    parsed_files = {}
    for rel, item in files.items():
        if type(item) is not list or len(item) != 2:
            return None
        fid, sig = item
        if type(fid) is not str or not _plain(rel) or (sig is not None and not (
                type(sig) is list and len(sig) == 4 and _sig_ok(*sig))):
            return None
        parsed_files[rel] = (fid, sig)
    return findings, n, parsed_listings, parsed_files
