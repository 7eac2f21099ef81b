"""PL203 invalid-version: `version` is not SemVer 2.0.0."""
import re
from dataclasses import replace
from typing import List, Optional, Tuple

from penguin_lint.rules.base import DATA_FILE_KINDS, ProblemRule
from penguin_lint.rules.pl204_invalid_timestamp import is_about

# semver.org's own regular expression (the schema carries the same pattern).
SEMVER = re.compile(
    r"(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)"
    r"(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?"
    r"(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?\Z", re.ASCII)
# 2026.10.09, 2026-10-09.1, 20261009: a year first, then a month.
_DATE = re.compile(r"(?:19|20)\d\d(?:[.\-_/]?)(?:0[1-9]|1[0-2])(?:[.\-_/]?)(?:0[1-9]|[12]\d|3[01])(?:[^0-9][0-9A-Za-z.+\-]*)?\Z")
_CORE = re.compile(r"([0-9]+)(?:\.([0-9]+))?(?:\.([0-9]+))?((?:[-+].*)?)\Z", re.S)
_LONGEST = 60  # a longer value is not a version anyone mistyped
_ASCII_DIGITS = re.compile(r"[0-9]+\Z")


def _digits(text: str) -> bool:
    """ASCII digits only (str.isdigit takes '²', which int() refuses)."""
    return _ASCII_DIGITS.match(text) is not None


def _unpad(part: str) -> str:
    return str(int(part)) if part else part


def _prerelease(rest: str) -> str:
    """Numeric pre-release identifiers lose their leading zeros (1.0.0-01)."""
    if not rest.startswith("-"):
        return rest
    body, plus, build = rest[1:].partition("+")
    ids = [str(int(i)) if _digits(i) else i for i in body.split(".")]
    return "-" + ".".join(ids) + plus + build


def repair(version: str) -> Tuple[Optional[str], List[str]]:
    """(a SemVer spelling of ``version``, the mistakes it fixes), or
    (None, []) when no mechanical fix applies. Date versions are not repaired:
    a date is not a MAJOR.MINOR.PATCH, whatever its spelling."""
    fixes = []
    text = version
    if text != text.strip():
        fixes.append("remove the spaces")
        text = text.strip()
    if text[:1] in ("v", "V") and _digits(text[1:2]):
        fixes.append(f"drop the '{text[0]}' prefix")
        text = text[1:]
    m = _CORE.match(text)
    if m is None:
        return None, []
    major, minor, patch, rest = m.groups()
    if any(p and len(p) > 1 and p[0] == "0" for p in (major, minor, patch)):
        fixes.append("remove the leading zeros")
    if minor is None:
        fixes.append("add the minor and patch numbers")
    elif patch is None:
        fixes.append("add the patch number")
    core = ".".join((_unpad(major), _unpad(minor) or "0", _unpad(patch) or "0"))
    fixed_rest = _prerelease(rest)
    if fixed_rest != rest and "remove the leading zeros" not in fixes:
        fixes.append("remove the leading zeros")
    candidate = core + fixed_rest
    if not fixes or not SEMVER.match(candidate):
        return None, []
    return candidate, fixes


def version_hint(version: str, fmt: str) -> Optional[str]:
    """A hint that names the mistake in ``version`` and, where one follows,
    proposes the SemVer spelling; None when nothing specific applies."""
    if not isinstance(version, str) or len(version) > _LONGEST or version.isspace():
        return None
    bare = version.strip().lstrip("vV")
    if _DATE.match(bare):
        return (f"{version.strip()} is a date version, not SemVer: number releases "
                'MAJOR.MINOR.PATCH such as "1.0.0" (the date belongs in last_update)')
    fixed, fixes = repair(version)
    if fixed is None:
        parts = bare.split(".")
        if len(parts) > 3 and all(_digits(p) for p in parts):
            return ("SemVer has three numbers, MAJOR.MINOR.PATCH: put the rest in a pre-release "
                    f"or build suffix, e.g. {_assign(fmt, '.'.join(str(int(p)) for p in parts[:3]) + '+' + '.'.join(parts[3:]))}")
        return None
    what = ", ".join(fixes[:-1]) + (" and " if len(fixes) > 1 else "") + fixes[-1]
    return f"{what}: {_assign(fmt, fixed)}"


def _assign(fmt: str, value: str) -> str:
    return f'version: "{value}"' if fmt == "yaml" else f'version = "{value}"'


class InvalidVersion(ProblemRule):
    """``version`` is Semantic Versioning 2.0.0: ``MAJOR.MINOR.PATCH`` without
    leading zeros, with an optional pre-release and build. ``2026.10.09.1``
    is a date version, not SemVer. The hint names the mistake in front of
    it: a ``v`` prefix (``v1.2.0``), a missing patch number (``1.2``), a
    leading zero (``1.02.0``), a date version, and proposes the SemVer
    spelling where one follows.
    """

    code = "PL203"
    name = "invalid-version"
    summary = '`version` is not SemVer 2.0.0'
    source = "schema"
    refines_problems = True  # check() only adds hints to the schema's findings
    kinds = DATA_FILE_KINDS
    bad = ('benchmark_config.toml', 'version = "2026.10.09.1"\n')
    good = ('benchmark_config.toml', 'version = "1.2.0"\n')

    def check(self, subject, ctx):
        doc = None
        for finding in super().check(subject, ctx):
            if doc is None:
                doc = ctx.doc(subject)
            version = doc.get("version") if doc is not None else None
            hint = None
            if isinstance(version, str) and is_about(finding, doc, "version"):
                hint = version_hint(version, doc.fmt)
            yield finding if hint is None else replace(finding, hint=hint)
