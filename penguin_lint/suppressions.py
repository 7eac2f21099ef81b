"""Inline suppressions: ``# penguin-lint: disable=PL104`` and ``disable-file``.

A comment ``# penguin-lint: disable=CODE[,CODE...]`` at the end of a line
suppresses those codes for findings that start on that line; a comment
``# penguin-lint: disable-file=CODE[,...]`` anywhere in a YAML or TOML file
suppresses them for the whole file. JSON has no comments: per-file ignores in
``.penguin-lint.toml`` serve there.

Directives are found when a file is loaded (only files whose text mentions
``penguin-lint:`` are scanned, so clean files cost one substring search),
and only in comments: a ``#`` inside a quoted or block scalar, or inside a
TOML string, is text, not a directive. The engine applies them once, when
it finishes a run (:func:`apply`); a directive that suppressed nothing is
itself reported (PL008), so suppressions do not rot.
"""
from __future__ import annotations

import re
from bisect import bisect_left
from collections import Counter
from dataclasses import dataclass, field, replace
from typing import Dict, Iterable, List, Optional, Set, Tuple

from penguin_lint.findings import Finding

MARK = "penguin-lint:"
LINE, FILE = "disable", "disable-file"
# A comment that speaks to penguin-lint. What follows the directive's name
# is parsed loosely, so that a typo becomes a PL008 finding, not a silence.
_DIRECTIVE = re.compile(r"#[ \t]*penguin-lint:[ \t]*(?P<body>[^\r\n]*)")
# ``disable=PL104,PL303`` and, after white space, a free explanation.
_FORM = re.compile(r"(?P<kind>disable-file|disable)[ \t]*=[ \t]*"
                   r"(?P<codes>[A-Za-z0-9]+(?:[ \t]*,[ \t]*[A-Za-z0-9]+)*)?(?P<rest>.*)\Z")
_CODE = re.compile(r"[A-Z]{2}[0-9]{3}\Z")
# More directives than this in one file are not hand-written suppressions
# (and more candidates than this are not looked at).
MAX_DIRECTIVES = 200
MAX_CANDIDATES = 1000


@dataclass(frozen=True)
class Directive:
    """One ``penguin-lint:`` comment: where it is, what it disables."""

    line: int
    column: int
    end_column: int
    scope: str                 # LINE or FILE
    codes: Tuple[str, ...]
    problem: Optional[str] = None  # why it cannot work (malformed), if so
    own_line: bool = False         # the comment is alone on its line
    # the code before the comment on its line, stripped: with the codes it
    # tells a suppression in the base from one a change adds, whatever its line
    before: str = field(default="", compare=False)


# -- finding directives in a file's text ------------------------------------------
def find_directives(text: str, fmt: str) -> Tuple[Directive, ...]:
    """The directives in the comments of ``text`` (a YAML or TOML file)."""
    if MARK not in text or fmt not in ("yaml", "toml"):
        return ()
    from penguin_lint.loaders.positions import split_lines  # (the loaders import this module)

    # (line, column, match, text before it, offset) of each candidate comment;
    # lines are the loaders' lines (loaders/positions.py: LF or CR LF only)
    candidates = []
    in_multiline: Optional[str] = None
    offset = 0
    for ln, line in enumerate(split_lines(text, keep_cr=True), start=1):
        at, offset = offset, offset + len(line) + 1
        if fmt == "toml":
            start, in_multiline = _toml_comment_start(line, in_multiline)
            starts = [start] if start is not None else []
        elif MARK in line:
            # YAML: '#' starts a comment only at the start or after white space
            starts = [i for i in range(len(line)) if line[i] == "#" and (i == 0 or line[i - 1] in " \t")]
        else:
            continue
        for col in starts:
            m = _DIRECTIVE.match(line, col)
            if m is not None:
                candidates.append((ln, col, m, line[:col], at + col))
                break  # the rest of the line is this comment
        if len(candidates) >= MAX_CANDIDATES:
            break
    if fmt == "yaml" and candidates:
        inside = _yaml_inside(text, [c[4] for c in candidates])
        candidates = [c for c, hidden in zip(candidates, inside) if not hidden]
    out: List[Directive] = []
    for ln, col, m, before, _ in candidates[:MAX_DIRECTIVES]:
        d = _parse(ln, col, m.end(), m.group("body"))
        out.append(replace(d, own_line=not before.strip(), before=before.strip()))
    return tuple(out)


def _parse(line: int, col: int, end: int, body: str) -> Directive:
    body = body.rstrip()
    m = _FORM.match(body)
    if m is None:
        return Directive(line, col + 1, end + 1, LINE, (),
                         "is not 'disable=CODE,...' or 'disable-file=CODE,...'")
    scope = FILE if m.group("kind") == FILE else LINE
    rest = m.group("rest")
    if rest and rest[0] not in " \t":
        return Directive(line, col + 1, end + 1, scope, (),
                         "is not 'disable=CODE,...' or 'disable-file=CODE,...'")
    raw = [c.strip() for c in (m.group("codes") or "").split(",")]
    codes = tuple(c.upper() for c in raw if c)
    if not codes:
        return Directive(line, col + 1, end + 1, scope, (), "names no rule code")
    bad = [c for c in codes if not _CODE.match(c)]
    good = tuple(c for c in codes if _CODE.match(c))
    if bad:
        # the good codes still apply; the bad ones are reported
        word = "is not a rule code" if len(bad) == 1 else "are not rule codes"
        return Directive(line, col + 1, end + 1, scope, good,
                         f"names {', '.join(repr(b) for b in bad)}, which {word} (such as PL104)")
    return Directive(line, col + 1, end + 1, scope, codes)


def _yaml_inside(text: str, points: List[int]) -> List[bool]:
    """For each character offset in ``points`` (ascending): whether it lies
    inside a scalar (then a '#' there is text, not a comment), or past a
    syntax error (nothing is known there; PL001 reports the file). Offsets,
    not libyaml's line numbers: libyaml also breaks lines at a lone CR, NEL,
    U+2028 and U+2029, which are characters inside a line here. Memory stays
    with the points, however many tokens the file has."""
    import yaml

    try:
        loader = yaml.CSafeLoader
    except AttributeError:  # pragma: no cover
        loader = yaml.SafeLoader
    hidden = [False] * len(points)
    try:
        for tok in yaml.scan(text, Loader=loader):
            if tok.__class__ is not yaml.ScalarToken:
                continue
            s, e = tok.start_mark.index, tok.end_mark.index
            i = bisect_left(points, s)
            while i < len(points) and points[i] < e:
                hidden[i] = True
                i += 1
    except yaml.YAMLError as err:
        mark = getattr(err, "problem_mark", None)
        # from the start of the line (as the loaders count) of the error on
        stop = text.rfind("\n", 0, mark.index) + 1 if mark is not None else 0
        for i, p in enumerate(points):
            if p >= stop:
                hidden[i] = True
    return hidden


def _toml_comment_start(line: str, multiline: Optional[str]) -> Tuple[Optional[int], Optional[str]]:
    """Offset of the comment on a TOML line (None if none), and the
    multi-line string delimiter still open at its end."""
    i, n = 0, len(line)
    while i < n:
        if multiline is not None:
            j = line.find(multiline, i)
            if j == -1:
                return None, multiline
            i = j + 3
            while i < n and line[i] == multiline[0]:
                i += 1
            multiline = None
            continue
        c = line[i]
        if line.startswith('"""', i) or line.startswith("'''", i):
            multiline = line[i:i + 3]
            i += 3
        elif c == '"':
            i += 1
            while i < n and line[i] != '"':
                i += 2 if line[i] == "\\" else 1
            i += 1
        elif c == "'":
            j = line.find("'", i + 1)
            i = n if j == -1 else j + 1
        elif c == "#":
            return i, None
        else:
            i += 1
    return None, multiline


# -- applying them ------------------------------------------------------------------
CARRIER = "directive"


class Ledger:
    """The suppressions of one run.

    Findings are suppressed as soon as a check produces them (before a
    pull-request run decides which findings it reports, so that old and new
    are compared without the suppressed ones), and the ledger remembers
    which directive suppressed what. At the end of the run
    (:meth:`unused`), a directive that suppressed nothing becomes a PL008
    finding. Worker processes send their ledger back as carriers
    (:meth:`carriers`, :meth:`absorb`) among their findings.
    """

    def __init__(self):
        # (path, line, column) -> [path, directive, codes it suppressed]
        self._uses: Dict[Tuple[str, int, int], list] = {}
        self._by_path: Dict[str, Tuple[Dict[int, List[list]], List[list]]] = {}
        self._suppressed: Set[tuple] = set()

    @property
    def suppressed(self) -> int:
        return len(self._suppressed)

    def note(self, path: str, directives: Iterable[Directive]) -> None:
        """Know the directives of the file at ``path`` (once per file)."""
        if path in self._by_path:
            return
        by_line: Dict[int, List[list]] = {}
        whole: List[list] = []
        for d in directives:
            if not d.codes:
                continue
            entry = self._uses.setdefault((path, d.line, d.column), [path, d, set()])
            (whole if d.scope == FILE else by_line.setdefault(d.line, [])).append(entry)
        self._by_path[path] = (by_line, whole)

    def filter(self, findings: List[Finding]) -> List[Finding]:
        """``findings`` without those a noted directive suppresses."""
        kept = []
        for f in findings:
            known = self._by_path.get(f.path)
            hit = None
            if known is not None:
                by_line, whole = known
                for entry in by_line.get(f.line, ()) if f.line is not None else ():
                    if f.code in entry[1].codes:
                        hit = entry
                        break
                if hit is None:
                    hit = next((e for e in whole if f.code in e[1].codes), None)
            if hit is None:
                kept.append(f)
            else:
                hit[2].add(f.code)
                self._suppressed.add((f.path, f.line, f.column, f.code, f.message))
        return kept

    def carriers(self) -> List[Finding]:
        """The ledger as findings of code CARRIER (and emptied), to travel
        back from a worker process with its findings."""
        out = [Finding(code=CARRIER, name="", severity="", path=path, message="",
                       line=d.line, column=d.column, directive=(d, frozenset(used)))
               for path, d, used in self._uses.values()]
        out += [Finding(code=CARRIER, name="", severity="", path=key[0], message="",
                        directive=("suppressed", key)) for key in self._suppressed]
        self.__init__()
        return out

    def absorb(self, findings: List[Finding]) -> List[Finding]:
        """Take carriers back into the ledger; the other findings are returned."""
        rest = []
        for f in findings:
            if f.code != CARRIER:
                rest.append(f)
                continue
            first, second = f.directive
            if first == "suppressed":
                self._suppressed.add(second)
                continue
            entry = self._uses.setdefault((f.path, first.line, first.column), [f.path, first, set()])
            entry[2].update(second)
        return rest

    def unused(self, enabled: Set[str], rule, report=None) -> List[Finding]:
        """One ``rule`` (PL008) finding per directive with codes that ran
        (``enabled``) and suppressed nothing, in the files ``report`` accepts
        (a pull-request run: the files it reports in full)."""
        out = []
        if rule is None or rule.code not in enabled:
            return out
        for path, d, used in self._uses.values():
            if report is not None and not report(path):
                continue
            judged = [code for code in d.codes if code in enabled and code not in used]
            if not judged:
                continue
            where = "on this line" if d.scope == LINE else "in this file"
            if d.scope == LINE and d.own_line:
                hint = ("a 'disable' comment applies to the line it ends: move it to the end "
                        "of the line with the finding, or remove it")
            else:
                hint = "remove it" if len(judged) == len(d.codes) else f"remove {', '.join(judged)} from it"
            out.append(Finding(
                code=rule.code, name=rule.name, severity=rule.severity, path=path,
                message=f"suppression of {', '.join(judged)} suppresses nothing {where}",
                line=d.line, column=d.column, end_line=d.line, end_column=d.end_column,
                hint=hint, subject=path))
        return out
