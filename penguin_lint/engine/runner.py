"""Runs rules over subjects and narrows the report.

``--all`` runs every subject. A run over some paths (command-line paths, a
pre-commit batch, a git diff) runs the subjects those paths are, the folders
that hold them, and the subjects that cross-file rules say the paths affect;
it reports findings in those paths, findings of the affected subjects, and
findings about files missing from the touched folders.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Dict, Iterable, List, Optional, Set, Tuple

from penguin_lint.core.config import CONFIG_FILE, Config, matches_any
from penguin_lint.engine.change_subjects import change_subjects, reporting_in
from penguin_lint.engine.context import Context
from penguin_lint.engine.errors import ToolError
from penguin_lint.engine.finding_cap import Collector, cap_findings
from penguin_lint.engine.gitlinks import gitlink_findings
from penguin_lint.engine.result import Result
from penguin_lint.findings import Finding
from penguin_lint.pr.blame import Change, Scope
from penguin_lint.core.repo import SKIPPED_DIRS, ReadLog, Repository
from penguin_lint.core.layout import FILE_KINDS
from penguin_lint.rules import all_rules, get_rule
from penguin_lint.suppressions import CARRIER, Ledger
from penguin_lint.engine.subject import Subject
from penguin_lint.rules.base import Rule

if TYPE_CHECKING:
    from penguin_lint.engine.unit import Unit


def enabled_rules(config: Config, select: Optional[List[str]] = None,
                  ignore: Optional[List[str]] = None) -> List[Rule]:
    sel = [s.upper() for s in (select if select else config.select)]
    ign = [s.upper() for s in list(config.ignore) + list(ignore or [])]
    return [r for r in all_rules() if matches_any(r.code, sel) and not matches_any(r.code, ign)]


def subject_for(repo: Repository, path: str, is_dir: bool) -> Subject:
    lay = repo.layout
    k = lay.classify_dir(path) if is_dir else lay.classify_file(path)
    if k is None:
        return Subject(path, "folder" if is_dir else "file", {}, is_dir)
    return Subject(path, k[0], k[1], is_dir)


class Engine:
    def __init__(self, repo: Repository, config: Config, rules: List[Rule], forced_kinds=None,
                 suppress: bool = True, consent=None):
        self.repo = repo
        # which suppressions a reviewed change adds apply all the same
        # (consent.Consent, decided by the kind of run), or None: none
        self.consent = consent
        # None (--no-suppress): inline suppressions are ignored, every finding shown
        self.ledger = Ledger(consent) if suppress else None
        self.config = config
        self.ctx = Context(repo, config)
        self.rules = rules
        self.by_kind: Dict[str, List[Rule]] = {}
        for r in rules:
            for k in r.kinds:
                self.by_kind.setdefault(k, []).append(r)
        # kind -> (rule, where a plain ProblemRule's findings come from, else None)
        self._plan: Dict[str, List[Tuple[Rule, Optional[str]]]] = {
            k: [(r, r.problem_source) for r in rs]
            for k, rs in self.by_kind.items()}
        # kind -> the plan's runs of rules of one source (a whole run's plan)
        self._groups: Dict[str, List[Tuple[Optional[str], List[Rule]]]] = {}
        # path -> kind given with --kind for command-line files
        self.forced_kinds: Dict[str, str] = dict(forced_kinds or {})
        # the repository reads a file given as a Harbor file as Harbor does
        repo.forced_kinds = self.forced_kinds
        # the Scope of a run that reviews a change against a base: the
        # suppressions the change adds do not apply in it
        self._review = None
        #: called with each part of a whole run's findings as the run finds
        #: them (the language server streams them): not final, since unused
        #: suppressions (PL008) and the cap on a file's findings come at the end
        self.on_unit: Optional[Callable[[List[Finding]], None]] = None
        #: called by ``run_unit`` with the findings of each folder of the unit
        #: under way, when they are streamed (a unit may take a while)
        self.unit_part: Optional[Callable[[List[Finding]], None]] = None

    # -- subjects -------------------------------------------------------------
    def subject(self, path: str, is_dir: bool) -> Subject:
        if not is_dir and path == CONFIG_FILE:
            return Subject(path, "config", {}, False)
        if is_dir and path == "":
            return Subject("", "repo", {}, True)
        if not is_dir and path in self.forced_kinds:
            return Subject(path, self.forced_kinds[path], {}, False)
        return subject_for(self.repo, path, is_dir)

    def counted(self, s: Subject) -> bool:
        """Whether a subject is a file the run counts as checked: one of a
        kind, or one of none that its folder's checks judge (a package's
        statement); not a data file nothing reads (``Layout.unread_data_file``),
        which a run over a change names as not checked. Every kind of run
        counts alike."""
        return not s.is_dir and (s.kind != "file" or not self.repo.layout.unread_data_file(s.path))

    def all_subjects(self) -> Iterable[Subject]:
        yield Subject("", "repo", {}, True)
        for top in self.repo.walk_roots():
            if top and not self.repo.is_dir(top):
                continue
            if top:
                yield self.subject(top, True)
            for path, entry in self.repo.walk(top):
                if entry.is_symlink:
                    continue  # reported by PL006 on the folder that holds it
                if entry.is_dir:
                    yield self.subject(path, True)
                elif entry.is_file:
                    yield self.subject(path, False)

    def check(self, subject: Subject, codes: Optional[Set[str]] = None) -> List[Finding]:
        """The findings of ``subject``; with ``codes``, of those rules only."""
        out: List[Finding] = []
        # a file without loader (or schema) problems: the rules that only
        # report those are not run, finding nothing in an empty list
        quiet: Dict[str, bool] = {}
        if codes is None and not subject.edited_below and subject.wanted_below is None:
            groups = self._groups.get(subject.kind)
            if groups is None:
                groups = self._groups[subject.kind] = _grouped(self._plan.get(subject.kind, ()))
        else:
            groups = [(source, (rule,)) for rule, source in self._plan.get(subject.kind, ())
                      if self._wanted(rule, subject, codes)]
        ctx = self.ctx
        for source, rules in groups:
            if source is not None:
                q = quiet.get(source)
                if q is None:
                    q = quiet[source] = self._no_problems(subject, source)
                if q:
                    continue
            for rule in rules:
                try:
                    out.extend(rule.check(subject, ctx))
                except BaseException as e:  # noqa: B036 - worded by _rule_failed, or raised again
                    raise _rule_failed(rule, subject, e) from None
        if self.ledger is not None:
            # Suppressed at once, before a pull-request run tells old
            # findings from new: the directives of the file checked and of
            # the files its findings are in (a folder's finding can sit in
            # one of its files).
            paths = {f.path for f in out if f.line is not None} if out else set()
            if not subject.is_dir and subject.kind in FILE_KINDS:
                paths.add(subject.path)
            for p in sorted(paths) if len(paths) > 1 else paths:
                if p == subject.path or self.subject(p, False).kind in FILE_KINDS:
                    doc = self.repo.load(p)
                    directives = doc.directives if doc is not None else ()
                    added = None
                    if directives and self._review is not None:
                        added = self._review.added_suppressions(p, directives, doc.content_id)
                    self.ledger.note(p, directives, added)
            if out:
                out = self.ledger.filter(out)
        return out

    def _no_problems(self, subject: Subject, source: str) -> bool:
        try:
            got = self.ctx.load_problems(subject) if source == "load" else self.ctx.schema_problems(subject)
        except BaseException as e:  # noqa: B036 - said by the first rule that asks, as it always was
            if isinstance(e, Exception) or type(e).__name__ == "PanicException":
                return False
            raise
        return not got

    @staticmethod
    def _wanted(rule: Rule, subject: Subject, codes: Optional[Set[str]]) -> bool:
        if codes is not None and rule.code not in codes:
            return False
        if subject.edited_below and not rule.reads_contents_below:
            return False  # what it finds there cannot have changed
        # it reports nowhere the findings are wanted
        return not (subject.wanted_below is not None and rule.reports_below is not None
                    and subject.wanted_below.isdisjoint(rule.reports_below))

    # -- runs -----------------------------------------------------------------
    def run_all(self, jobs: Optional[int] = None, cache=None, shard=None, review=None,
                gitlinks=None) -> Result:
        """Every subject of the repository, unit by unit.

        A unit is a part of the tree whose checks read (almost) nothing
        outside it: a package, a data folder, a leaderboard with its
        experiments; a big one is cut into chunks (``engine.unit``).
        Documents are dropped after each folder and each unit, which keeps
        memory flat, and units are spread over processes when there are
        enough of them to pay for the start-up.

        With ``cache`` (a ``cache.UnitCache``), a unit whose inputs are all
        unchanged since a cached run is not run again; with ``shard`` (a
        ``shard.Shard``), only that shard's units (and, in the first shard,
        the subjects above the units) are run. With ``review`` (a
        ``suppressions.AddedIndex``: a pull request's own run), the
        suppressions the pull request adds hide nothing, as in a diff run.
        ``gitlinks`` (a ``pr.worktree_gitlinks.WorkTreeGitlinks``) says which
        empty or absent folders are submodules; without it, none are.
        """
        self._review = review
        try:
            return self._run_all(jobs, cache, shard, gitlinks)
        finally:
            self._review = None

    def _run_all(self, jobs, cache, shard, gitlinks) -> Result:
        # capped as units finish: a file's findings past the cap are
        # counted and let go, not held to the end of the run
        findings = Collector()
        units: List[Unit] = []
        # empty folders seen by the walk: a gitlink (a submodule not checked
        # out) looks like one, and git alone tells them apart
        empty: Set[str] = set()
        files, top = self._run_top(units, shard, findings, empty)
        loads = self.repo.loads
        self.ctx.reset()
        # (imported here: a run over paths, the hook's, runs no workers)
        from penguin_lint.engine.parallel import NoParallel, default_jobs, run_parallel

        if shard is not None:
            from penguin_lint.engine.shard import shard_units

            whole, (units, plan_key) = units, shard_units(self.repo, units, shard)
        run, units, cached_files = self._unit_runner(units, cache, findings, empty)
        files += cached_files
        if jobs is None:
            jobs = default_jobs(len(units))
        streams = self.on_unit is not None
        sent = [0]  # findings of the unit under way streamed in parts
        total = [files, loads]  # files checked, files parsed

        def take(r, streamed: bool = False) -> None:
            """A unit's result, taken in as it comes: nothing of it is kept
            but its findings (a cached run writes its record here)."""
            unit_findings, unit_files, unit_loads, unit_empty = r[:4]
            findings.add(unit_findings)
            if not streamed:
                self._stream(unit_findings[sent[0]:])
            sent[0] = 0
            total[0] += unit_files
            total[1] += unit_loads
            empty.update(unit_empty)
            if cache is not None and r[4] is not None:  # (None: a cached verdict)
                cache.stored(*r[5])  # written where the unit ran

        def each(r, parts: int) -> None:
            self._stream(r[0][parts:])
            take(r, streamed=True)

        results = None
        if jobs > 1:
            try:
                # streamed, or records to write: each result is taken in as a
                # worker sends it, not gathered to the end of the run
                results = run_parallel(self, units, jobs, run, each if streams or cache is not None else None,
                                       self._stream if streams else None, keep=False)
            except NoParallel:
                results = None
        if results is None:
            if streams:
                def part(found: List[Finding]) -> None:
                    self._stream(found)
                    sent[0] += len(found)
                self.unit_part = part
            results = (run(u) for u in units)
        try:
            for r in results:
                take(r)
        finally:
            self.unit_part = None
        files, loads = total
        if shard is None or shard.takes_top or empty:  # absent submodules: in one shard only
            findings.add(gitlink_findings(self, empty, gitlinks, absent=shard is None or shard.takes_top,
                                          memo_dir=cache.dir if cache is not None else None))
        result = self._finish(findings.findings(), files, more=findings.more)
        result.loads = loads
        # the whole repository and not one file to check (a board without its definition, empty folders)
        result.checked_none = shard is None and not files
        if shard is not None:
            result.shard = {"plan": plan_key}
            if not files:  # a part that holds none says of how many (listed, none opened)
                result.shard_of = self._files_of(top, whole)
        return result

    def _files_of(self, top, units) -> int:
        """How many files ``--all`` checks: the top subjects' and the units'
        (as ``run_unit`` counts them), from listings: no file is opened."""
        from penguin_lint.engine.unit import Pending, chunks

        n = sum(1 for s in top if self.counted(s))
        for unit in units:
            items = unit if not isinstance(unit, Pending) else [
                item for c in chunks(self.repo, unit.head, unit.folder) for item in c]
            for folder, recursive in items:
                if recursive:
                    walked = self.repo.walk(folder)
                else:
                    walked = ((f"{folder}/{name}", e) for name, e in (self.repo.entries(folder) or {}).items())
                n += sum(1 for path, e in walked
                         if e.is_file and not e.is_symlink and self.counted(self.subject(path, False)))
        return n

    def _run_top(self, units: List[Unit], shard, findings, empty: Set[str]):
        """The subjects above the units (in the first shard only), checked;
        ``units`` filled as the walk finds them. Returns the files checked,
        and the top subjects."""
        files = 0
        top = list(self._top_subjects(units, lazy=shard is not None))
        if shard is None or shard.takes_top:
            for s in top:
                if self.counted(s):
                    files += 1
                elif s.is_dir and s.path and self.repo.listed_empty(s.path):
                    empty.add(s.path)
                found = self.check(s)
                findings.add(found)
                self._stream(found)
        if self.ledger is not None:
            # out of the ledger before worker processes are forked: each
            # would send a copy back (and a count of held findings twice)
            findings.add(self.ledger.carriers())
        return files, top

    def _unit_runner(self, units: List[Unit], cache, findings, empty: Set[str]):
        """How each unit is run, and which: with a cache, the units whose
        verdicts it holds are taken from it (their findings and empty folders
        added here) unless the run streams, which looks them up as it goes.
        Returns (run, the units to run, the files of cached units)."""
        run, files = self._run_unit_released, 0
        if cache is None:
            return run, units, files
        # verdicts that read a file with suppressions the change adds
        # are this run's own: neither taken from the cache nor put in it
        avoid = self._review.paths if self._review is not None else frozenset()
        if self.on_unit is not None:
            return self._cached_runner(units, cache, avoid), units, files
        todo = []
        for u in units:
            hit = cache.lookup(u, avoid)
            if hit is None:
                todo.append(u)
            else:
                findings.add(hit[0])
                files += hit[1]
                empty.update(hit[2])

        def run(u):
            return self._run_unit_recorded(u, cache, avoid)
        return run, todo, files

    def _cached_runner(self, units, cache, avoid):
        """How a streamed run runs a unit with a cache: looked up where it is
        run (in the workers, biggest first), so that cached findings are
        handed out as each unit is proven unchanged, not after every unit
        was looked up; run and recorded when it is not."""
        for u in units:
            cache.mark_used(u)

        def run(u):
            hit = cache.lookup(u, avoid)
            if hit is None:
                return self._run_unit_recorded(u, cache, avoid)
            return hit[0], hit[1], 0, hit[2], None, None
        return run

    def _stream(self, found: List[Finding]) -> None:
        """Hand ``on_unit`` a part of the findings as the report would have
        them: no suppression ledger's records, no finding a per-file
        ignore drops."""
        if self.on_unit is None:
            return
        out = []
        for f in found:
            if f.code == CARRIER:
                continue
            ign = self.config.ignored_for(f.path)
            if ign and matches_any(f.code, ign):
                continue
            out.append(f)
        if out:
            self.on_unit(out)

    def units(self, lazy: bool = False) -> List["Unit"]:
        """The units of ``run_all``, without checking anything (``lazy``: as
        a shard's run finds them, folders to cut as ``Pending`` ones)."""
        units: List[Unit] = []
        for _ in self._top_subjects(units, lazy):
            pass
        return units

    def _run_unit_released(self, unit: "Unit"):
        """``run_unit``, the listings of the unit's folders let go after it."""
        mark = self.repo.listings_held()
        out = self.run_unit(unit)
        self.repo.release(mark, [top for top, recursive in unit if recursive])
        return out

    def _run_unit_recorded(self, unit: "Unit", cache, avoid: frozenset):
        """``run_unit`` noting what the unit read, its cache record written
        where it ran (by a worker too: the record, a few kB per folder, does
        not travel back); the last item says what ``cache.stored`` needs."""
        mark = self.repo.listings_held()
        self.repo.reads = cache.reader()
        try:
            unit_findings, files, loads, empty = self.run_unit(unit)
            reads = self.repo.reads
        finally:
            self.repo.reads = None
        inputs = cache.inputs(reads)  # reads the listings: let go after it
        self.repo.release(mark, [top for top, recursive in unit if recursive])
        return unit_findings, files, loads, empty, unit, cache.store(unit, unit_findings, files, inputs, avoid)

    def _top_subjects(self, units: List["Unit"], lazy: bool = False) -> Iterable[Subject]:
        """The subjects above the units (repository, top folders and files
        directly in them), collecting the units on the way; ``lazy`` (a
        shard's run): a folder to cut into chunks as a ``Pending`` one, not
        listed (``engine.shard`` lists those it owns a part of)."""
        # (imported here: a run over paths, the hook's, has no units)
        from penguin_lint.engine.unit import Pending, chunks

        repo = self.repo

        def cut(head, folder: str) -> None:
            if lazy:
                units.append(Pending(tuple(head), folder))
            else:
                units.extend(chunks(repo, head, folder))
        yield Subject("", "repo", {}, True)
        lb_root = self.repo.layout.roots["leaderboards"]
        exp_root = self.repo.layout.roots["experiments"]
        paired: Dict[str, List[str]] = {}
        for top in repo.walk_roots():
            if top and not repo.is_dir(top):
                continue
            if top:
                yield self.subject(top, True)
            ents = repo.entries(top) or {}
            for name in sorted(ents):
                e = ents[name]
                path = f"{top}/{name}" if top else name
                if e.is_symlink:
                    continue
                if e.is_file:
                    yield self.subject(path, False)
                elif e.is_dir and name not in SKIPPED_DIRS and not repo.is_cache(path):
                    if top in (lb_root, exp_root):
                        # a leaderboard and its experiments read each other
                        paired.setdefault(name, []).append(path)
                    else:
                        cut([], path)
        for _, tops in sorted(paired.items()):
            # the leaderboard file first: it reads every experiment's summary,
            # which its experiments' own checks then reuse
            head = [(t, True) for t in tops if t.startswith(lb_root + "/")]
            for t in tops:
                if not t.startswith(lb_root + "/"):
                    cut(head, t)
                    head = []
            if head:
                units.append(tuple(head))

    def run_unit(self, unit: "Unit") -> Tuple[List[Finding], int, int, List[str]]:
        """The unit's findings, files checked, files loaded and empty folders."""
        findings: List[Finding] = []
        files = 0
        sent = 0  # findings handed to unit_part so far
        empty: List[str] = []
        before = self.repo.loads
        lb_root = self.repo.layout.roots["leaderboards"] + "/"
        for top, recursive in unit:
            subjects = [self.subject(top, True)]
            if recursive:
                walked = self.repo.walk(top)
            else:  # the folder and the files directly in it
                ents = self.repo.entries(top) or {}
                walked = ((f"{top}/{n}", e) for n, e in sorted(ents.items()) if not e.is_dir)
            for path, entry in walked:
                if entry.is_symlink:
                    continue
                if entry.is_dir or entry.is_file:
                    subjects.append(self.subject(path, entry.is_dir))
            for s in subjects:
                if self.counted(s):
                    files += 1
                elif s.is_dir and self.repo.listed_empty(s.path):
                    empty.append(s.path)
                findings.extend(self.check(s))
            if self.unit_part is not None and len(findings) > sent:
                self.unit_part(findings[sent:])
                sent = len(findings)
            if recursive and top.count("/") > 0 and not top.startswith(lb_root):
                # one experiment, task or data folder is done: drop its
                # documents. A leaderboard's are kept to the end of its unit:
                # its experiments' checks read it again (PL306).
                self.ctx.forget(top + "/")
        loads = self.repo.loads - before
        self.ctx.reset()
        if self.ledger is not None:
            # from a worker process, the ledger travels with the findings
            findings.extend(self.ledger.carriers())
        return findings, files, loads, empty

    def run_paths(self, changed: Iterable[str], report_in: Optional[Iterable[str]] = None) -> Result:
        """Lint what ``changed`` (repository paths, existing or deleted)
        touches, with no base to compare with: every finding of a re-checked
        subject that the change can have caused is reported. With
        ``report_in`` (an editor's open files), only the findings in those
        paths are wanted, and only what can report in them is checked."""
        change = Change.of(self.repo, changed)
        folders = [p for p in change.touched if p == "" or self.repo.is_dir(p)]
        return self.run_change(change, Scope(change, folders=folders), report_in=report_in)

    def run_change(self, change: Change, scope: Scope, shard=None, report_in=None) -> Result:
        """Lint what ``change`` touches and what it can break; ``scope``
        decides which of the findings the change is blamed for.

        The subjects are those ``change_subjects`` gathers: the touched
        paths, the folders that hold them, and what cross-file rules say
        the change affects. They are checked folder by folder in path order, documents dropped after each
        one, so memory stays that of the largest folder. With ``shard``, only
        the subjects of the folders that part owns (``engine.shard.change_units``)."""
        # what each check reads, for scope to tell whether the base would find the same
        track = scope.base is not None
        self.repo.reads = ReadLog() if track else None
        gathered = change_subjects(self, change, scope)
        subjects, own = gathered.subjects, gathered.own
        if report_in is not None:
            subjects = reporting_in(subjects, report_in)
        plan = None
        if shard is not None:
            from penguin_lint.engine.shard import change_units

            mine, plan = change_units([_unit_of(p) for p in subjects], shard)
            whole, subjects = subjects, {p: s for p, s in subjects.items() if _unit_of(p) in mine}
        dependents, touched_dirs = gathered.dependents, gathered.touched_dirs
        findings = Collector()  # capped as subjects finish, as in run_all
        files = dependent_files = 0
        unchecked: List[str] = []
        units = _Units(self, scope)
        self._review = scope if scope.base is not None else None
        for path in sorted(subjects):
            s = subjects[path]
            units.enter(_unit_of(path))
            if not s.is_dir and s.kind != "file":
                files += 1
                dependent_files += path not in own
            elif not s.is_dir and path in own:
                # A file of no data kind that the change holds is judged with
                # its folder and counts as checked, unless it is a data file
                # nothing parses (summary.yml): that is said, not counted.
                if self.repo.layout.unread_data_file(path):
                    unchecked.append(path)
                else:
                    files += 1
            # Every finding of a subject the change touches, holds or affects
            # is a candidate; scope decides which the change is blamed for.
            found = self.check(s)
            if track:
                scope.read(self.repo.reads)
                self.repo.reads = ReadLog()
            candidates = [
                f for f in found
                if scope.touches(f.path) or s.path in dependents
                or s.path in change.touched or s.path in touched_dirs
            ]
            if candidates:
                findings.add(scope.report(s, candidates, self))
        units.close()
        self.repo.reads = None
        # Unused suppressions are judged where every finding is reported.
        result = self._finish(findings.findings(), files, report_unused=scope.touches,
                              more=findings.more)
        self._review = None
        result.touched = frozenset(change.paths)
        result.unchecked = unchecked
        result.dependents = dependent_files
        result.held = self._unshown(scope.held, result.findings)
        result.hidden = len(result.held)
        result.base_loads = scope.base.repo.loads if scope.base is not None else 0
        if plan is not None:
            result.shard = {"plan": plan}
            if not files and not unchecked:  # a part that holds none says of how many
                result.shard_of = sum(1 for p, s in whole.items() if not s.is_dir and (
                    s.kind != "file" or (p in own and not self.repo.layout.unread_data_file(p))))
        return result

    def _drop(self, unit: str, scope) -> None:
        # one experiment, task or data folder is done: drop its documents
        self.ctx.forget(unit + "/")
        self.ctx.forget(unit)
        scope.forget()

    def _unshown(self, held: List[Finding], shown: List[Finding]) -> List[Finding]:
        """Of the findings --new-only held back, those a report would have
        shown: per-file ignores and duplicates (of each other, or of a
        shown one: two subjects can find the same) count for nothing."""
        seen = {(f.path, f.line, f.column, f.code, f.message) for f in shown}
        out = []
        for f in held:
            ign = self.config.ignored_for(f.path)
            key = (f.path, f.line, f.column, f.code, f.message)
            if (ign and matches_any(f.code, ign)) or key in seen:
                continue
            seen.add(key)
            out.append(f)
        return out

    def _finish(self, findings: List[Finding], files: int, report_unused=None,
                more=None) -> Result:
        """The result: findings filtered by per-file ignores and deduplicated,
        with PL008 for suppressions that suppressed nothing in the files
        ``report_unused`` accepts (default: all)."""
        suppressed = 0
        added = []
        if self.ledger is not None:
            findings = self.ledger.absorb(findings)
            findings += self.ledger.unused({r.code for r in self.rules}, get_rule("PL008"), report_unused)
            suppressed = self.ledger.suppressed
            if self._review is not None:
                added = self.ledger.added(report_unused)
            self.ledger = Ledger(self.consent)
        out = []
        seen = set()
        for f in findings:
            ign = self.config.ignored_for(f.path)
            if ign and matches_any(f.code, ign):
                continue
            key = (f.path, f.line, f.column, f.code, f.message)
            if key in seen:
                continue
            seen.add(key)
            out.append(f)
        out.sort(key=Finding.sort_key)
        out, omitted = cap_findings(out, more=more)
        return Result(out, files, self.repo.loads, omitted=omitted, suppressed=suppressed,
                      suppressions_added=added)


class _Units:
    """The units of a change run, their documents dropped as each is left.

    A unit nested in the one before it (``leaderboards`` then
    ``leaderboards/lb``) is still inside it: the outer unit's documents are
    dropped when the walk leaves it, not before the nested unit reads them
    (a dependent experiment loads its leaderboard, then the board itself is
    checked: one parse, not two)."""

    def __init__(self, engine, scope):
        self._engine, self._scope = engine, scope
        self._stack: List[str] = []  # the current unit last, the units around it before

    def enter(self, here: str) -> None:
        stack = self._stack
        if stack and stack[-1] == here:
            return
        while stack and not here.startswith(stack[-1] + "/"):
            self._engine._drop(stack.pop(), self._scope)
        stack.append(here)

    def close(self) -> None:
        while self._stack:
            self._engine._drop(self._stack.pop(), self._scope)


def _unit_of(path: str) -> str:
    """The folder whose documents a check of ``path`` mostly reads: the
    experiment, task or data folder (three levels down), else the path."""
    parts = path.split("/")
    return "/".join(parts[:3])


def _grouped(plan) -> List[Tuple[Optional[str], List[Rule]]]:
    """A kind's plan as runs of consecutive rules of one source, in order:
    whether a file has problems of that source is asked once per run."""
    groups: List[Tuple[Optional[str], List[Rule]]] = []
    for rule, source in plan:
        if groups and groups[-1][0] == source:
            groups[-1][1].append(rule)
        else:
            groups.append((source, [rule]))
    return groups


def _rule_failed(rule: Rule, subject: Subject, e: BaseException) -> BaseException:
    """What a rule's exception becomes: a bug in a rule is one error line, not a traceback."""
    where = subject.path or "."
    if isinstance(e, RecursionError):
        return ToolError(f"internal error: {rule.code} recursed too deep on {where}")
    if isinstance(e, Exception):
        return ToolError(f"internal error: {rule.code} failed on {where}: {type(e).__name__}: {e}")
    if type(e).__name__ == "PanicException":  # a Rust extension's panic (pyo3)
        return ToolError(f"internal error: {rule.code} failed on {where}: "
                         f"{str(e).splitlines()[0] if str(e) else 'a panic'}")
    return e
