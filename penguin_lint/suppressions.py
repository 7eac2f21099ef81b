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

In a run that reviews a change (a pull request, the hook against ``HEAD``)
only the base's suppressions apply: the codes a change adds to a file's
comments are listed for the reviewer and hide nothing until merged
(:func:`added_codes`), unless the maintainers consent, or the run is the
author's own hook (``consent.py``). Some codes no comment suppresses (``UNSUPPRESSIBLE``).
"""
from __future__ import annotations

import re
from bisect import bisect_left
from collections import Counter
from dataclasses import field, replace
from typing import Dict, Iterable, List, Optional, Set, Tuple

from penguin_lint.findings import Finding
from penguin_lint.records import record

MARK = "penguin-lint:"
LINE, FILE = "disable", "disable-file"
# A comment that speaks to penguin-lint. What follows the directive's name
# is parsed loosely, so that a typo becomes a PL008 finding, not a silence.
# Compiled when a file first mentions ``penguin-lint:`` (most files never do).
_DIRECTIVE = r"#[ \t]*penguin-lint:[ \t]*(?P<body>[^\r\n]*)"
# ``disable=PL104,PL303`` and, after white space, a free explanation.
FORM = (r"(?P<kind>disable-file|disable)[ \t]*=[ \t]*"
        r"(?P<codes>[A-Za-z0-9]+(?:[ \t]*,[ \t]*[A-Za-z0-9]+)*)?(?P<rest>.*)\Z")
_CODE = r"[A-Z]{2}[0-9]{3}\Z"
# More directives than this in one file are not hand-written suppressions
# (and more candidates than this are not looked at).
MAX_DIRECTIVES = 200
MAX_CANDIDATES = 1000


@record(frozen=True)
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
    # the text after the codes: the author's reason, which an added
    # suppression of an allowed code needs (consent.py)
    reason: str = field(default="", compare=False)


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
            m = re.compile(_DIRECTIVE).match(line, col)
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
    m = re.match(FORM, body)
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
    bad = [c for c in codes if not re.match(_CODE, c)]
    good = tuple(c for c in codes if re.match(_CODE, c))
    if bad:
        # the good codes still apply; the bad ones are reported
        word = "is not a rule code" if len(bad) == 1 else "are not rule codes"
        return Directive(line, col + 1, end + 1, scope, good,
                         f"names {', '.join(_quoted(b) for b in bad)}, which {word} (such as PL104)")
    return Directive(line, col + 1, end + 1, scope, codes, reason=_reason(rest))


def _quoted(code: str, limit: int = 40) -> str:
    """A code that is not one, quoted as every message quotes a value: a
    line of megabytes names it in a few words."""
    text = repr(code)
    return text if len(text) <= limit else text[: limit - 4] + "...'"


def _reason(rest: str) -> str:
    """The explanation after the codes, or "" when it says nothing (only
    punctuation, such as a lone ``--``)."""
    text = rest.strip()
    return text if any(c.isalnum() for c in text) else ""


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


# -- what can never be suppressed --------------------------------------------------
#: Codes no comment suppresses, and why. A file that does not parse, is too
#: large or is not UTF-8 was never checked (and a comment in it may be data
#: the parser never reached); PL008 is the report that keeps suppressions
#: honest; PL502 says that a change to the configuration does not apply to the
#: run reviewing it. ``[per-file-ignores]`` in the configuration still applies.
UNSUPPRESSIBLE = {
    "PL001": "a file that does not parse was not checked at all",
    "PL004": "a file too large to read was not checked at all",
    "PL005": "a file that is not UTF-8 text was not checked at all",
    "PL008": "it is the report that keeps suppressions honest",
    "PL502": "a configuration change never applies to the run that reviews it",
}


# -- suppressions a change adds -----------------------------------------------------
#: ``Finding.directive`` of a finding an added suppression would hide: --fix
#: leaves it alone (the author chose to keep it)
HELD = "held"
HELD_NOTE = "suppressed by the comment on line {line}, which this change adds; it applies once merged"


#: how an added suppression applies in the run that reviews it (consent.py):
#: the base allows its code and it gives a reason, the maintainers' label was
#: set for this commit, or it is the author's own commit (the hook)
REASON, LABEL, OWN = "reason", "label", "own"


@record
class AddedSuppression:
    """A suppression that the head has and the base has not (some of the
    codes of one directive). Reported for the reviewer to see; in the run
    that reviews the change it suppresses nothing, except the codes the
    maintainers consented to (``applied``, and ``how``)."""

    path: str
    line: int
    column: int
    end_column: Optional[int]
    scope: str                  # LINE or FILE
    codes: Tuple[str, ...]      # the codes the change adds
    held: int = 0               # findings it would hide in this run (kept, with a note)
    applied: Tuple[str, ...] = ()  # the codes that apply in this run nonetheless
    how: str = ""               # REASON, LABEL or OWN when some apply
    reason: str = ""            # the comment's reason (shown for REASON)
    label: str = ""             # the approval label (LABEL)
    needs: str = ""             # what the pull request will need (OWN)

    @property
    def message(self) -> str:
        where = "on this line" if self.scope == LINE else "in this file"
        whose = "commit" if self.how == OWN else "change"
        text = f"suppression of {', '.join(self.codes)} {where} is added by this {whose}"
        never = [c for c in self.codes if c in UNSUPPRESSIBLE]
        if len(never) == len(self.codes):
            return text + f"; {', '.join(never)} cannot be suppressed by a comment"
        rest = [c for c in self.codes if c not in self.applied]
        if self.how == OWN:
            text += " and applies to it" if not rest else f": {', '.join(self.applied)} applies to it"
            if self.needs:
                return text + f"; the pull request will need {self.needs}"
            return text + "; the pull request allows it too (a listed code and a reason)"
        if not self.applied:
            text += ": it applies once merged, not in this run"
        else:
            text += f": {', '.join(self.applied)} {'applies' if len(self.applied) == 1 else 'apply'} in this run"
            text += {REASON: f", as allow-added-suppressions lists it, for the reason: {self.reason}",
                     LABEL: f", approved by the label '{self.label}'"}.get(self.how, "")
            if rest:
                text += f"; {', '.join(rest)} once merged"
        if self.held:
            text += f", where it would hide {self.held} finding{'s' if self.held != 1 else ''}"
        return text

    def to_dict(self) -> dict:
        d = {"path": self.path, "line": self.line, "column": self.column,
             "end_column": self.end_column, "scope": self.scope,
             "codes": list(self.codes), "held": self.held, "message": self.message}
        if self.applied:
            d.update(applied=list(self.applied), how=self.how, reason=self.reason, label=self.label)
        return d

    @classmethod
    def from_dict(cls, d: dict) -> "AddedSuppression":
        how = d.get("how") if d.get("how") in (REASON, LABEL, OWN) else ""
        return cls(str(d["path"]), int(d["line"]), int(d["column"]),
                   int(d["end_column"]) if d.get("end_column") is not None else None,
                   FILE if d.get("scope") == FILE else LINE,
                   tuple(str(c) for c in d.get("codes") or ()), int(d.get("held") or 0),
                   tuple(str(c) for c in d.get("applied") or ()), how,
                   str(d.get("reason") or ""), str(d.get("label") or ""))


def added_codes(head: Iterable[Directive], base: Iterable[Directive]) -> Dict[Tuple[int, int], frozenset]:
    """(line, column) of each directive of ``head`` -> the codes the base
    does not have. Directives are matched by kind and code, not by line, so
    an edit above an old suppression does not make it new. A ``disable``
    covers its own line, so it matches only with the same code before the
    comment: moved to another line, or its line edited, it covers what the
    base's did not, and is new. A ``disable-file`` is matched first with
    the code before it, then without."""
    exact: Counter = Counter()
    loose: Counter = Counter()
    for d in base:
        for c in d.codes:
            exact[(d.scope, d.before, c)] += 1
            loose[(d.scope, c)] += 1
    head = [d for d in head if d.codes]
    pending = []
    for d in head:
        for c in d.codes:
            if exact[(d.scope, d.before, c)] > 0:
                exact[(d.scope, d.before, c)] -= 1
                loose[(d.scope, c)] -= 1
            else:
                pending.append((d, c))
    out: Dict[Tuple[int, int], set] = {}
    for d, c in pending:
        if d.scope == FILE and loose[(d.scope, c)] > 0:
            loose[(d.scope, c)] -= 1
        else:
            out.setdefault((d.line, d.column), set()).add(c)
    return {k: frozenset(v) for k, v in out.items()}


class AddedIndex:
    """The suppressions a pull request adds, found before an ``--all`` run
    on it starts: repository path -> (line, column) of a directive -> the
    codes the base does not have. Files the pull request did not change add
    none. Plain data, so that worker processes and shards use it as it is."""

    def __init__(self, added: Dict[str, Dict[Tuple[int, int], frozenset]]):
        self.added = added

    @property
    def paths(self) -> frozenset:
        return frozenset(self.added)

    def added_suppressions(self, path: str, directives, content_id=None) -> Dict[Tuple[int, int], frozenset]:
        return self.added.get(path) or {}


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

    In a run that reviews a change, the codes a directive has and the base
    has not (``added`` of :meth:`note`) suppress nothing: the findings they
    would hide are kept, with a note, and :meth:`added` lists them.
    """

    def __init__(self, consent=None):
        #: the maintainers' consent (consent.Consent): which added codes apply
        self.consent = consent
        # (path, line, column) -> [path, directive, codes it suppressed,
        #                          codes the change adds, findings those held]
        self._uses: Dict[Tuple[str, int, int], list] = {}
        self._by_path: Dict[str, Tuple[Dict[int, List[list]], List[list]]] = {}
        self._suppressed: Set[tuple] = set()
        # (path, line, column, code) that PL008 reported as suppressing nothing
        self._unused: Set[tuple] = set()

    @property
    def suppressed(self) -> int:
        return len(self._suppressed)

    def _entry(self, path: str, d: Directive) -> list:
        return self._uses.setdefault((path, d.line, d.column), [path, d, set(), frozenset(), [0]])

    def note(self, path: str, directives: Iterable[Directive],
             added: Optional[Dict[Tuple[int, int], frozenset]] = None) -> None:
        """Know the directives of the file at ``path`` (once per file);
        ``added``: (line, column) -> the codes of that directive a change adds."""
        if path in self._by_path:
            return
        by_line: Dict[int, List[list]] = {}
        whole: List[list] = []
        for d in directives:
            if not d.codes:
                continue
            entry = self._entry(path, d)
            if added:
                entry[3] = added.get((d.line, d.column), frozenset())
            (whole if d.scope == FILE else by_line.setdefault(d.line, [])).append(entry)
        self._by_path[path] = (by_line, whole)

    def filter(self, findings: List[Finding]) -> List[Finding]:
        """``findings`` without those a noted directive suppresses."""
        kept = []
        for f in findings:
            known = self._by_path.get(f.path)
            hit = held = None
            if known is not None and f.code not in UNSUPPRESSIBLE:
                by_line, whole = known
                near = by_line.get(f.line, ()) if f.line is not None else ()
                for entry in list(near) + whole:
                    if f.code in entry[1].codes:
                        if f.code not in entry[3] or self._granted(entry[1], f.code):
                            hit = entry
                            break
                        if held is None:
                            held = entry
            if hit is None:
                if held is not None:
                    held[2].add(f.code)
                    held[4][0] += 1
                    note = HELD_NOTE.format(line=held[1].line)
                    f = replace(f, hint=f"{note}; {f.hint}" if f.hint else note, directive=HELD)
                kept.append(f)
            else:
                hit[2].add(f.code)
                self._suppressed.add((f.path, f.line, f.column, f.code, f.message))
        return kept

    def _granted(self, d: Directive, code: str) -> bool:
        return self.consent is not None and self.consent.grant(d, code) is not None

    def carriers(self) -> List[Finding]:
        """The ledger as findings of code CARRIER (and emptied), to travel
        back from a worker process with its findings."""
        out = [Finding(code=CARRIER, name="", severity="", path=path, message="",
                       line=d.line, column=d.column, directive=(d, frozenset(used), added, held[0]))
               for path, d, used, added, held in self._uses.values()]
        out += [Finding(code=CARRIER, name="", severity="", path=key[0], message="",
                        directive=("suppressed", key)) for key in self._suppressed]
        self.__init__(self.consent)
        return out

    def absorb(self, findings: List[Finding]) -> List[Finding]:
        """Take carriers back into the ledger; the other findings are returned."""
        rest = []
        for f in findings:
            if f.code != CARRIER:
                rest.append(f)
                continue
            first, second = f.directive[:2]
            if first == "suppressed":
                self._suppressed.add(second)
                continue
            entry = self._entry(f.path, first)
            entry[2].update(second)
            if len(f.directive) == 4:  # what a change adds, and what that held
                entry[3] = entry[3] | f.directive[2]
                entry[4][0] += f.directive[3]
        return rest

    def added(self, report=None) -> List[AddedSuppression]:
        """The suppressions the change adds, in the files ``report`` accepts;
        a code PL008 reported (:meth:`unused`, called first) is left out: one
        comment gets one verdict, "suppresses nothing"."""
        out = []
        for path, d, _used, codes, held in self._uses.values():
            if codes and (report is None or report(path)):
                added = tuple(c for c in d.codes if c in codes and (path, d.line, d.column, c) not in self._unused)
                if not added:
                    continue
                a = AddedSuppression(path, d.line, d.column, d.end_column, d.scope, added, held[0])
                if self.consent is not None:
                    self.consent.describe(a, d)
                out.append(a)
        out.sort(key=lambda a: (a.path, a.line, a.column))
        return out

    def unused(self, enabled: Set[str], rule, report=None) -> List[Finding]:
        """One ``rule`` (PL008) finding per directive with codes that ran
        (``enabled``) and suppressed nothing, in the files ``report`` accepts
        (a pull-request run: the files it reports in full). Codes that no
        comment can suppress are reported by the rule itself."""
        out = []
        if rule is None or rule.code not in enabled:
            return out
        for path, d, used, _added, _held in self._uses.values():
            if report is not None and not report(path):
                continue
            judged = [code for code in d.codes
                      if code in enabled and code not in used and code not in UNSUPPRESSIBLE]
            if not judged:
                continue
            self._unused.update((path, d.line, d.column, code) for code in judged)
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
