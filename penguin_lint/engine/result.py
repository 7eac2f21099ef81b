"""What a run found: its findings and what they were checked against."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import List, Optional, Tuple

from penguin_lint.findings import ERROR, Finding
from penguin_lint.version import __version__


@dataclass
class Result:
    """A run's findings and its counts, as every reporter reads them."""

    findings: List[Finding]
    files: int
    loads: int = 0
    #: of ``files``, those checked only because they read what a change
    #: touched (a leaderboard whose summary changed)
    dependents: int = 0
    #: repository paths the change touched (added, modified, renamed to,
    #: deleted); None for --all. Reporters use it to order what a reviewer
    #: sees first (findings in touched files before dependents).
    touched: Optional[frozenset] = None
    #: older findings in touched files that --new-only left out, and would
    #: have been reported without it (``held``, once ignores, duplicates
    #: and the baseline had their say)
    hidden: int = 0
    #: those findings themselves, until the baseline is applied
    held: List[Finding] = field(default_factory=list, compare=False, repr=False)
    #: what a pull-request run compared with: "origin/main (3f2a1c9)"; None otherwise
    compared_with: Optional[str] = None
    #: files parsed from the base to tell old findings from new
    base_loads: int = 0
    #: a pull-request run that found no change at all
    no_changes: bool = False
    #: paths the run was asked to judge that nothing parses: data files of no
    #: known kind where the harness reads files by name (``summary.yml``)
    unchecked: List[str] = field(default_factory=list)
    #: a whole run (not a shard) that found no file to check: no green check on nothing
    checked_none: bool = False
    #: findings folded into "N more" findings (finding_cap.py)
    omitted: int = 0
    #: findings an inline "penguin-lint: disable" comment suppressed
    suppressed: int = 0
    #: findings the baseline recorded, left out (run/baseline.py)
    baselined: int = 0
    #: how many findings the baseline records (None: no baseline)
    baseline_entries: Optional[int] = None
    #: (entries of the paths whose every finding the run reports, how many of
    #: them it matched): what ``baseline_stale`` is told from; None where the
    #: run cannot tell (a path run, the hook), and the key is left out
    baseline_within: Optional[Tuple[int, int]] = None
    #: the baseline file --write-baseline wrote, relative to the root
    baseline_written: Optional[str] = None
    #: findings --fix repaired before this result was made (None: no --fix)
    fixed: Optional[int] = None
    #: inline suppressions the change adds (suppressions.AddedSuppression);
    #: they suppress nothing in the run that reviews the change
    suppressions_added: List = field(default_factory=list)
    #: a run of --staged (the hook): a repair is made in the working tree, then staged
    staged: bool = False
    #: the root as the command line would name it from where the run
    #: started, when it is not there (the hook at the top of a repository
    #: that keeps its benchmarks in a folder): a command to repeat needs it
    root_arg: Optional[str] = None
    #: the run is pre-commit's hook (it sets PRE_COMMIT=1): penguin-lint may
    #: not be on the user's PATH, the penguin-lint-fix hook is
    pre_commit: bool = False
    #: under pre-commit, whether its configuration names the penguin-lint-fix hook
    pre_commit_fix: bool = True
    #: warnings of the tool itself (a cache it cannot use, a base whose
    #: configuration is invalid): what the command line prints as
    #: "penguin-lint: warning: ..."
    tool_warnings: List[str] = field(default_factory=list, compare=False)
    #: a ``--shard K/N`` run: what ``penguin-lint merge`` needs to join the
    #: parts (engine.merge.shard_stamp); the JSON report's ``shard`` key
    shard: Optional[dict] = field(default=None, compare=False)
    #: a part that holds no file of its run: how many files the whole run
    #: (every part) checks; None otherwise
    shard_of: Optional[int] = field(default=None, compare=False)

    @property
    def nothing_checked(self) -> bool:
        """Whether the run checked none of the files it was asked to judge and
        some of them are read by nothing: said so and failed, never a green
        check (files it re-checked because they read what changed are not
        what it was asked to judge)."""
        return (bool(self.unchecked) and self.files - self.dependents <= 0) or self.checked_none

    @property
    def baseline_stale(self) -> int:
        """Findings the baseline records that no longer occur (writing it
        again removes them), among the paths the run reports whole."""
        within = self.baseline_within
        return max(0, within[0] - within[1]) if within is not None else 0

    @property
    def errors(self) -> int:
        return sum(1 for f in self.findings if f.severity == ERROR)

    @property
    def warnings(self) -> int:
        return sum(1 for f in self.findings if f.severity != ERROR)

    def to_dict(self) -> dict:
        """The report of ``--format json``: ``{"version": 1, "tool": {...},
        "findings": [...], "summary": {...}}`` (and ``suppressions_added`` in pull-request runs)."""
        summary = {"files": self.files, "errors": self.errors, "warnings": self.warnings}
        if self.dependents:
            summary["dependents"] = self.dependents
        if self.compared_with:
            # a pull-request run: what it compared with, and what --new-only hid
            summary["compared_with"] = self.compared_with
            summary["hidden"] = self.hidden
            summary["no_changes"] = self.no_changes
        doc = {
            "version": 1,  # the report's format; the tool's own version is below
            "tool": {"name": "penguin-lint", "version": __version__},
            "findings": [f.to_dict() for f in self.findings],
            "summary": summary,
        }
        if self.suppressions_added or self.compared_with:
            # a pull-request run: the inline suppressions the change adds (they
            # apply once merged; here they suppress nothing)
            doc["suppressions_added"] = [a.to_dict() for a in self.suppressions_added]
        if self.unchecked:
            summary["unchecked"] = list(self.unchecked)
        if self.unchecked or self.checked_none:
            summary["nothing_checked"] = self.nothing_checked
        if self.omitted:  # findings folded into "N more" ones, past the cap per file and code
            summary["omitted"] = self.omitted
        summary["suppressed"] = self.suppressed
        if self.baseline_entries is not None:
            summary["baselined"] = self.baselined
            if self.shard is None and self.baseline_within is not None:
                # a shard sees part of the findings: merge counts these
                summary["baseline_stale"] = self.baseline_stale
        if self.fixed is not None:
            summary["fixed"] = self.fixed
        if self.shard is not None:
            doc["shard"] = self.shard
        return doc
