"""``penguin-lint merge``: the JSON reports of ``--all --shard K/N`` runs
joined into the result ``--all`` gives.

A shard's JSON report carries one key more than ``--all``'s, ``shard``
(see :func:`shard_stamp`): which part it is, the commit and the settings it
was run with, the fingerprint of the split, where the root sits in the
repository and which of its findings' files do not exist (GitHub's
annotations rank those last). Parts join only when they are of one commit,
one set of settings and one split, and every part is there exactly once.

Reports come from other jobs, downloaded as artifacts: they are read as
untrusted input, each within a size bound, every value checked for its
type; anything else is one :class:`MergeError` line, never a traceback.
"""
from __future__ import annotations

import hashlib
import itertools
import json
from dataclasses import dataclass
from typing import Dict, FrozenSet, Iterable, List, Optional, Sequence, Tuple

from penguin_lint.engine.result import Result
from penguin_lint.findings import ERROR, WARNING, Finding

#: a report bigger than this is refused (``--all`` on 43k files with a
#: finding in each is a few tens of MiB)
MAX_REPORT_BYTES = 256 * 1024 * 1024
#: GitHub runs at most 256 jobs of one matrix
MAX_REPORTS = 256


class MergeError(Exception):
    """Reports that cannot be joined: ``str()`` is the one line to print."""


@dataclass
class Merged:
    """Shards' reports merged into one result."""

    result: Result
    #: the root's folder in the repository ("" or "bench/"), as the shards found it
    prefix: str
    #: root-relative paths of findings whose file does not exist
    missing: FrozenSet[str]
    commit: Optional[str]
    count: int


# -- what a shard writes ------------------------------------------------------

def settings_key(version: str, config, rule_codes: Iterable[str], options: dict) -> str:
    """What decides a run's verdicts apart from the files: penguin-lint's
    version, the configuration, the rules that ran and the run's options.
    Unlike the cache's key it leaves out file times of the installed code,
    which differ between the runners of one matrix."""
    h = hashlib.blake2b(digest_size=16)
    for part in (f"version {version}", repr(config), " ".join(sorted(rule_codes)),
                 repr(sorted((k, repr(v)) for k, v in options.items() if not k.startswith("_")))):
        h.update(part.encode("utf-8", "surrogatepass"))
        h.update(b"\0")
    return h.hexdigest()


def shard_stamp(index: int, count: int, commit: Optional[str], settings: str, plan: str, prefix: str,
                missing: Iterable[str]) -> dict:
    """The JSON report's ``shard`` key."""
    return {"index": index, "count": count, "commit": commit, "settings": settings, "plan": plan,
            "prefix": prefix, "missing": sorted(set(missing))}


# -- reading ------------------------------------------------------------------

def read_report(path: str) -> dict:
    """A report file, parsed; MergeError when unreadable, too big or not JSON."""
    try:
        with open(path, "rb") as fh:
            raw = fh.read(MAX_REPORT_BYTES + 1)
    except OSError as e:
        raise MergeError(f"cannot read {path}: {e.strerror or e}") from None
    if len(raw) > MAX_REPORT_BYTES:
        raise MergeError(f"{path}: larger than {MAX_REPORT_BYTES >> 20} MiB: not a report penguin-lint wrote")
    try:
        doc = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError) as e:
        raise MergeError(f"{path}: not a JSON report ({_why(e)})") from None
    if not isinstance(doc, dict):
        raise MergeError(f"{path}: not a JSON report (an object is expected)")
    return doc


def _why(e: Exception) -> str:
    if isinstance(e, RecursionError):
        return "nested too deep"
    return str(e).splitlines()[0][:200] if str(e) else type(e).__name__


def _int(v, nullable: bool = False) -> bool:
    if v is None:
        return nullable
    return isinstance(v, int) and not isinstance(v, bool) and 0 <= v < 1 << 62


def _str(v, nullable: bool = False) -> bool:
    return (v is None and nullable) or isinstance(v, str)


_FINDING_INTS = ("line", "column", "end_line", "end_column")
_FINDING_STRS = ("path", "code", "name", "message")


def _inside(path: str) -> bool:
    """Whether ``path`` names a place inside the repository as a run names
    it: relative, no '..' part, and text a file name decodes to
    (a name that was not UTF-8 comes as surrogate escapes, nothing else)."""
    if path.startswith("/") or "\0" in path:
        return False
    if any(part in ("..", ".") for part in path.split("/")):
        return False
    try:
        path.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:
        return False
    return True


def _finding(d, where: str) -> Finding:
    if not isinstance(d, dict):
        raise MergeError(f"{where}: a finding is not an object")
    for k in _FINDING_STRS:
        if not _str(d.get(k)):
            raise MergeError(f"{where}: a finding's '{k}' is not a string")
    if not _inside(d["path"]):
        raise MergeError(f"{where}: a finding's path is not a path inside the repository")
    for k in _FINDING_INTS:
        if not _int(d.get(k), nullable=True):
            raise MergeError(f"{where}: a finding's '{k}' is not a line or column number")
    for k in ("hint", "scope"):
        if not _str(d.get(k), nullable=True):
            raise MergeError(f"{where}: a finding's '{k}' is not a string")
    if d.get("new") not in (None, True, False):
        raise MergeError(f"{where}: a finding's 'new' is not true, false or null")
    caused = d.get("caused_by")
    if caused is not None and not (isinstance(caused, list) and all(isinstance(c, str) and _inside(c) for c in caused)):
        raise MergeError(f"{where}: a finding's 'caused_by' is not a list of paths inside the repository")
    if d.get("severity") not in (ERROR, WARNING):
        raise MergeError(f"{where}: a finding's 'severity' is neither 'error' nor 'warning'")
    return Finding(code=d["code"], name=d["name"], severity=d["severity"], path=d["path"],
                   message=d["message"], line=d.get("line"), column=d.get("column"),
                   end_line=d.get("end_line"), end_column=d.get("end_column"), hint=d.get("hint"),
                   scope=d.get("scope"), new=d.get("new"), caused_by=caused)


@dataclass
class _Part:
    """One shard's report, as read from its file."""

    path: str
    index: int
    count: int
    commit: Optional[str]
    settings: str
    plan: str
    prefix: str
    missing: List[str]
    findings: List[Finding]
    files: int
    omitted: int
    suppressed: int
    added: List[dict]
    #: findings the baseline left out, and how many it records (None: no baseline)
    baselined: int = 0
    baseline: Optional[int] = None
    #: a part of a diff run (--diff-base --shard): what it compared with, and the summary's own keys
    diff: Optional[dict] = None
    #: a part of a diff run with a baseline: (entries of the touched files, those it matched)
    baseline_within: Optional[Tuple[int, int]] = None


def _part(doc: dict, where: str) -> _Part:
    if doc.get("version") != 1:
        raise MergeError(f"{where}: not a report of this penguin-lint (its 'version' is not 1)")
    stamp = doc.get("shard")
    if stamp is None:
        raise MergeError(f"{where}: not the report of a shard: merge joins the JSON reports of "
                         f"`penguin-lint --all --shard K/N --format json`")
    if not isinstance(stamp, dict):
        raise MergeError(f"{where}: its 'shard' is not an object")
    index, count = stamp.get("index"), stamp.get("count")
    if not (_int(index) and _int(count) and 1 <= index <= count):
        raise MergeError(f"{where}: its shard is not K/N with K between 1 and N")
    if count > MAX_REPORTS:
        # no split of more parts can be merged whole; a forged N must not
        # make the parts' check below count (or list) that many
        raise MergeError(f"{where}: its shard is {index}/{count}: at most {MAX_REPORTS} shards are merged")
    if not _str(stamp.get("commit"), nullable=True) or not _str(stamp.get("settings")) \
            or not _str(stamp.get("plan")) or not _str(stamp.get("prefix")):
        raise MergeError(f"{where}: its shard's 'commit', 'settings', 'plan' or 'prefix' is not a string")
    prefix = stamp["prefix"]
    if not _inside(prefix) or (prefix and not prefix.endswith("/")):
        raise MergeError(f"{where}: its shard's 'prefix' is not a folder inside the repository")
    missing = stamp.get("missing")
    if not isinstance(missing, list) or not all(isinstance(p, str) for p in missing):
        raise MergeError(f"{where}: its shard's 'missing' is not a list of paths")
    if not all(_inside(p) for p in missing):
        raise MergeError(f"{where}: a path of its shard's 'missing' is not a path inside the repository")
    findings = doc.get("findings")
    if not isinstance(findings, list):
        raise MergeError(f"{where}: its 'findings' is not a list")
    summary = doc.get("summary")
    if not isinstance(summary, dict):
        raise MergeError(f"{where}: its 'summary' is not an object")
    counts = {}
    for k in ("files", "omitted", "suppressed", "baselined"):
        v = summary.get(k, 0)
        if not _int(v):
            raise MergeError(f"{where}: its summary's '{k}' is not a count")
        counts[k] = v
    diff = _diff_part(stamp, summary, where)
    if "fixed" in summary or ("compared_with" in summary and diff is None):
        raise MergeError(f"{where}: the report of a --fix or pull-request run, not of a shard of --all")
    added = doc.get("suppressions_added", [])
    if not isinstance(added, list):
        raise MergeError(f"{where}: its 'suppressions_added' is not a list")
    parsed = [_finding(f, where) for f in findings]
    fixable = stamp.get("fixable", [])
    if not isinstance(fixable, list) or not all(
            isinstance(x, list) and len(x) == 5 and _str(x[0]) and _int(x[1], nullable=True)
            and _int(x[2], nullable=True) and _str(x[3]) and x[4] in ("safe", "unsafe") for x in fixable):
        raise MergeError(f"{where}: its shard's 'fixable' is not a list of findings --fix repairs")
    if not all(_inside(x[0]) for x in fixable):
        raise MergeError(f"{where}: a path of its shard's 'fixable' is not a path inside the repository")
    baseline = stamp.get("baseline")
    if not _int(baseline, nullable=True):
        raise MergeError(f"{where}: its shard's 'baseline' is not a count")
    within = stamp.get("baseline_within")
    if within is not None and not (isinstance(within, list) and len(within) == 2
                                   and all(_int(n) for n in within) and within[1] <= within[0]):
        raise MergeError(f"{where}: its shard's 'baseline_within' is not two counts")
    fixes = {tuple(x[:4]): x[4] for x in fixable}
    for f in parsed:
        f.fix = fixes.get((f.path, f.line, f.column, f.code))
    return _Part(where, index, count, stamp.get("commit"), stamp["settings"], stamp["plan"], stamp["prefix"],
                 missing, parsed, counts["files"], counts["omitted"], counts["suppressed"],
                 [_added(a, where) for a in added], counts["baselined"], baseline, diff,
                 tuple(within) if within is not None else None)


def _diff_part(stamp: dict, summary: dict, where: str) -> Optional[dict]:
    """What a part of a diff run adds to its summary, checked; None for a part of --all."""
    touched = stamp.get("touched")
    if touched is None:
        return None
    if not isinstance(touched, list) or not all(isinstance(p, str) and _inside(p) for p in touched):
        raise MergeError(f"{where}: its shard's 'touched' is not a list of paths inside the repository")
    if not _str(summary.get("compared_with")) or not isinstance(summary.get("no_changes"), bool):
        raise MergeError(f"{where}: the summary of a part of a diff run lacks 'compared_with' or 'no_changes'")
    for k in ("hidden", "dependents"):
        if not _int(summary.get(k, 0)):
            raise MergeError(f"{where}: its summary's '{k}' is not a count")
    unchecked = summary.get("unchecked", [])
    if not isinstance(unchecked, list) or not all(isinstance(p, str) and _inside(p) for p in unchecked):
        raise MergeError(f"{where}: its summary's 'unchecked' is not a list of paths inside the repository")
    return {"touched": touched, "compared_with": summary["compared_with"], "no_changes": summary["no_changes"],
            "hidden": summary.get("hidden", 0), "dependents": summary.get("dependents", 0), "unchecked": unchecked}


def _added(d, where: str) -> dict:
    if not isinstance(d, dict) or not _str(d.get("path")) or not _int(d.get("line")) \
            or not _int(d.get("column")) or not _int(d.get("end_column"), nullable=True) \
            or not _int(d.get("held", 0)) or not isinstance(d.get("codes"), list) \
            or not all(isinstance(c, str) for c in d["codes"]) or not _str(d.get("scope")):
        raise MergeError(f"{where}: an entry of 'suppressions_added' is not a suppression")
    # a link in the job summary and an annotation's file=, as a finding's path
    if not _inside(d["path"]):
        raise MergeError(f"{where}: a path of 'suppressions_added' is not a path inside the repository")
    return d


# -- joining ------------------------------------------------------------------

def merge_files(paths: Sequence[str]) -> Merged:
    if not paths:
        raise MergeError("no report to merge: give the JSON report of every shard")
    if len(paths) > MAX_REPORTS:
        raise MergeError(f"{len(paths)} reports: at most {MAX_REPORTS} shards are merged")
    return merge([(p, read_report(p)) for p in paths])


def merge(docs: Sequence[Tuple[str, dict]]) -> Merged:
    """(name, parsed report) of every shard -> the result of ``--all``."""
    parts = [_part(doc, name) for name, doc in docs]
    if not parts:
        raise MergeError("no report to merge: give the JSON report of every shard")
    first = parts[0]
    for p in parts[1:]:
        if p.count != first.count:
            raise MergeError(f"{first.path} is shard {first.index}/{first.count} and {p.path} is "
                             f"{p.index}/{p.count}: parts of different splits")
        if (p.diff is None) != (first.diff is None) or (p.diff is not None and (
                p.diff["compared_with"], p.diff["touched"]) != (first.diff["compared_with"], first.diff["touched"])):
            raise MergeError(f"{first.path} and {p.path} are parts of different runs (--all, or a diff run "
                             f"against another base)")
        if p.commit != first.commit:
            raise MergeError(f"{first.path} and {p.path} are reports of different commits "
                             f"({_short(first.commit)}, {_short(p.commit)})")
        if p.settings != first.settings:
            raise MergeError(f"{first.path} and {p.path} were run with different settings "
                             f"(configuration, rules, options or penguin-lint version)")
        if p.plan != first.plan:
            # same commit, other units: the jobs' work trees differed
            raise MergeError(f"{first.path} and {p.path} split the repository differently (their work "
                             f"trees differed: files that are not committed?)")
        if p.baseline != first.baseline or (p.baseline_within or (None,))[0] != (first.baseline_within or (None,))[0]:
            raise MergeError(f"{first.path} and {p.path} were run with different baselines")
        if p.prefix != first.prefix:
            raise MergeError(f"{first.path} and {p.path} linted different folders of the repository")
    seen: Dict[int, str] = {}
    for p in parts:
        if p.index in seen:
            raise MergeError(f"shard {p.index}/{p.count} is given twice ({seen[p.index]}, {p.path})")
        seen[p.index] = p.path
    n_absent = first.count - len(seen)
    if n_absent:
        # the first few named, found without a list of them all
        absent = list(itertools.islice((k for k in range(1, first.count + 1) if k not in seen), 10))
        listed = ", ".join(f"{k}/{first.count}" for k in absent) + (", ..." if n_absent > 10 else "")
        raise MergeError(f"{plural_shards(n_absent)} missing: {listed} (every part of the split is needed)")
    return Merged(_join(parts), first.prefix, frozenset(m for p in parts for m in p.missing),
                  first.commit, first.count)


def plural_shards(n: int) -> str:
    return "1 shard is" if n == 1 else f"{n} shards are"


def _short(commit: Optional[str]) -> str:
    return commit[:12] if commit else "no commit"


def _join(parts: List[_Part]) -> Result:
    """The parts' findings as ``--all`` reports them: one of each (a check
    that reads across units may find the same thing in two parts), in
    report order; counts added up."""
    out: List[Finding] = []
    seen = set()
    for p in parts:
        for f in p.findings:
            key = (f.path, f.line, f.column, f.code, f.message)
            if key not in seen:
                seen.add(key)
                out.append(f)
    out.sort(key=Finding.sort_key)
    result = Result(out, sum(p.files for p in parts), omitted=sum(p.omitted for p in parts),
                    suppressed=sum(p.suppressed for p in parts))
    result.suppressions_added = _added_suppressions(parts)
    if parts[0].diff is not None:  # parts of one diff run: its summary, added up
        d = parts[0].diff
        result.compared_with, result.no_changes = d["compared_with"], d["no_changes"]
        result.touched = frozenset(d["touched"])
        result.hidden = sum(p.diff["hidden"] for p in parts)
        result.dependents = sum(p.diff["dependents"] for p in parts)
        result.unchecked = sorted({u for p in parts for u in p.diff["unchecked"]})
    result.baseline_entries = parts[0].baseline
    if result.baseline_entries is not None:
        result.baselined = sum(p.baselined for p in parts)
        if parts[0].diff is None:  # --all: every entry is matched in one part or stale
            result.baseline_within = (result.baseline_entries, result.baselined)
        elif all(p.baseline_within is not None for p in parts):
            # a diff run: entries of the touched files, matched across the parts
            result.baseline_within = (parts[0].baseline_within[0], sum(p.baseline_within[1] for p in parts))
    return result


def _added_suppressions(parts: List[_Part]):
    from dataclasses import replace

    from penguin_lint.suppressions import AddedSuppression

    joined: Dict[tuple, AddedSuppression] = {}
    for p in parts:
        for d in p.added:
            try:
                a = AddedSuppression.from_dict(d)
            except (KeyError, TypeError, ValueError):
                raise MergeError(f"{p.path}: an entry of 'suppressions_added' is not a suppression") from None
            key = (a.path, a.line, a.column, a.scope, a.codes)
            if key in joined:  # read by two parts: what it holds in each adds up
                prev = joined[key]
                a = replace(a, held=prev.held + a.held)
            joined[key] = a
    return sorted(joined.values(), key=lambda a: (a.path, a.line, a.column))
