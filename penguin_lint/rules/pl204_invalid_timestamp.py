"""PL204 invalid-timestamp: `last_update` is not ISO 8601 to the second with an offset."""
import re
from dataclasses import replace
from typing import Optional

from penguin_lint.rules.base import DATA_FILE_KINDS, ProblemRule
from penguin_lint.validation.formats import is_date_time

# What people write for a date-time: 2026-10-29, 2026-10-29 12:00, 2026-10-29T12:00:00,
# 2026-10-29T12:00Z, 2026-10-29 12:00:00 +0800, 2026-10-29T12:00:00 UTC.
_LOOSE = re.compile(
    r"(\d{4})-(\d{2})-(\d{2})"
    r"(?:([T ])(\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?)?"
    r" ?(Z|UTC|[+-]\d{2}:?\d{2})?\Z", re.I | re.ASCII)


def timestamp_hint(value: str, fmt: str, native: bool) -> Optional[str]:
    """A hint that names what ``value`` lacks and proposes it complete (with
    ``Z`` when it has no offset, saying so); None when it is no date-time."""
    if not isinstance(value, str) or len(value) > 60:
        return None
    m = _LOOSE.match(value.strip())
    if m is None:
        return None
    y, mo, d, sep, hh, mm, ss, frac, off = m.groups()
    fixes = []
    if hh is None:
        fixes.append("add the time")
        hh = mm = "00"
    elif sep == " ":
        fixes.append("put a T between the date and the time")
    if ss is None:
        if "add the time" not in fixes:
            fixes.append("add the seconds")
        ss = "00"
    if off is None:
        fixes.append("add an offset")
        offset = "Z"
    elif off.upper() == "UTC":
        fixes.append("write UTC as Z")
        offset = "Z"
    else:
        offset = off.upper() if off.upper() == "Z" else (off if ":" in off else f"{off[:3]}:{off[3:]}")
        if offset != off and off != "z":  # a lowercase z is said below
            fixes.append("write the offset as +HH:MM")
    if sep == "t" or off == "z":
        fixes.append("write " + " and ".join(c for c, low in (("T", sep == "t"), ("Z", off == "z")) if low)
                     + " in capitals")
    if native:
        fixes.append("quote it")
    proposal = f"{y}-{mo}-{d}T{hh}:{mm}:{ss}{frac or ''}{offset}"
    if not fixes or not is_date_time(proposal):
        return None  # a month 13 is not mended by adding seconds
    what = ", ".join(fixes[:-1]) + (" and " if len(fixes) > 1 else "") + fixes[-1]
    line = f'last_update: "{proposal}"' if fmt == "yaml" else f'last_update = "{proposal}"'
    hint = f"{what}: {line}"
    if off is None:
        hint += " (Z is UTC: if the time is local, write its offset instead, e.g. +08:00)"
    return hint


def is_about(finding, doc, key) -> bool:
    """Whether ``finding`` is about the top-level ``key`` (and no other value)."""
    pos = doc.value_pos((key,))
    return (finding.line, finding.column) == (pos.line, pos.column)


class InvalidTimestamp(ProblemRule):
    """``last_update`` is an ISO 8601 date-time to the second with an explicit
    offset, best as a quoted string. A native TOML/YAML date-time must meet the
    same rule: a local time without offset is refused, never taken as UTC.
    The hint names what the value lacks (the seconds, the offset, the ``T``)
    and writes the author's own time out in full.
    """

    code = "PL204"
    name = "invalid-timestamp"
    summary = '`last_update` is not ISO 8601 to the second with an offset'
    source = "schema"
    refines_problems = True  # check() only adds hints to the schema's findings
    kinds = DATA_FILE_KINDS
    bad = ('benchmark_config.toml', 'last_update = 2026-10-29T12:00:00\n')
    good = ('benchmark_config.toml', 'last_update = "2026-10-29T12:00:00Z"\n')

    def check(self, subject, ctx):
        doc = None
        for finding in super().check(subject, ctx):
            if doc is None:
                doc = ctx.doc(subject)
            value = doc.get("last_update") if doc is not None else None
            hint = None
            if isinstance(value, str) and is_about(finding, doc, "last_update"):
                imp = doc.implicit.get(("last_update",))
                hint = timestamp_hint(value, doc.fmt, native=imp is not None and imp[0] == "timestamp")
            yield finding if hint is None else replace(finding, hint=hint)
