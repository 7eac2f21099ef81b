"""Format checks for the ``format`` keywords the schemas use.

jsonschema skips formats it has no checker for (``date-time`` without its
extras) and says nothing; these are explicit and strict.
"""
from __future__ import annotations

import datetime as _dt
import re

# Patterns, not compiled ones: re compiles (and keeps) each the first time a
# value of its format is checked, which most runs never ask for every format.
# ISO 8601 / RFC 3339 to the second, with an explicit offset; fractions allowed.
# ASCII digits only ((?a)): int() reads '２０２６' and '٢٠٢٦', which
# datetime.fromisoformat and every consumer of these files refuse.
_DATE_TIME = r"(?a)(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d+)?(Z|[+-](\d{2}):(\d{2}))\Z"
_DATE = r"(?a)(\d{4})-(\d{2})-(\d{2})\Z"
_UUID = r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\Z"
_URI = r"[A-Za-z][A-Za-z0-9+.-]*:[^\s]+\Z"
# These two read values from files, so they must not backtrack: two
# overlapping repeats before \Z (``[^\s/?#]+[^\s]*``, ``[^@\s]+\.[^@\s]+``)
# took quadratic time, seconds for a 20,000-character email or URL and
# hours for one of a few MiB. Same languages, written to match in linear time.
_HTTP = r"(?i)https?://[^\s/?#][^\s]*\Z"
_EMAIL = r"[^@\s]+@([^@\s]+)\Z"


def is_date_time(value) -> bool:
    if not isinstance(value, str):
        return True
    m = re.match(_DATE_TIME, value)
    if not m:
        return False
    try:
        _dt.datetime(int(m.group(1)), int(m.group(2)), int(m.group(3)),
                     int(m.group(4)), int(m.group(5)), min(int(m.group(6)), 59))
    except ValueError:
        return False
    if int(m.group(6)) > 60:
        return False
    if m.group(9) is not None and (int(m.group(9)) > 23 or int(m.group(10)) > 59):
        return False
    return True


def is_date(value) -> bool:
    if not isinstance(value, str):
        return True
    m = re.match(_DATE, value)
    if not m:
        return False
    try:
        _dt.date(int(m.group(1)), int(m.group(2)), int(m.group(3)))
    except ValueError:
        return False
    return True


def is_email(value) -> bool:
    """local@domain, where the domain has a dot with something on each side."""
    if not isinstance(value, str):
        return True
    m = re.match(_EMAIL, value)
    return m is not None and "." in m.group(1)[1:-1]


def _matches(rx):
    return lambda value: not isinstance(value, str) or re.match(rx, value) is not None


FORMAT_CHECKS = {
    "date-time": is_date_time,
    "date": is_date,
    "uuid": _matches(_UUID),
    "uri": _matches(_URI),
    "url": _matches(_HTTP),
    "email": is_email,
}


def make_format_checker():
    """The same checks as a jsonschema FormatChecker, for full validation."""
    from jsonschema import FormatChecker

    checker = FormatChecker(formats=())
    for name, fn in FORMAT_CHECKS.items():
        checker.checks(name)(fn)
    return checker


FORMAT_NAMES = {
    "date-time": "ISO 8601 date-time with seconds and an offset (2026-10-29T12:00:00Z)",
    "date": "date (YYYY-MM-DD)",
    "uuid": "UUID",
    "uri": "URI",
    "url": "http(s) URL",
    "email": "email address",
}
