"""What a rule is.

One rule, one module under ``penguin_lint/rules/``: the class carries its
code, name, severity, documentation (the docstring) and a bad and a good
example; ``check`` yields findings for one subject (a file or a folder of the
kinds it names). Cross-file rules say which other paths can change their
verdict (``affected_by``), which is what pull-request mode follows.
"""
from __future__ import annotations

import inspect
import re
from typing import TYPE_CHECKING, Iterable, Iterator, Optional, Tuple

from penguin_lint.engine.subject import Subject
from penguin_lint.findings import ERROR, WARNING, Finding, Position, Problem

if TYPE_CHECKING:  # pragma: no cover
    from penguin_lint.engine.context import Context


class Rule:
    code: str = ""
    name: str = ""
    severity: str = ERROR
    summary: str = ""
    #: subject kinds this rule runs on (file kinds and folder kinds of layout.py)
    kinds: Tuple[str, ...] = ()
    #: (file name, text) examples for `penguin-lint rules CODE`
    bad: Tuple[str, str] = ("", "")
    good: Tuple[str, str] = ("", "")
    #: whether ``--fix`` repairs this rule's findings (fixes/): "" no,
    #: "safe" with --fix, "unsafe" only with --fix --unsafe-fixes
    fixable: str = ""
    #: for a rule on folders: whether what it finds on a folder can change
    #: when only the contents of files below it change (their names and types
    #: staying). A rule that reads only names, types and files elsewhere says
    #: no, and is not run again on a folder a change merely edits files in.
    reads_contents_below: bool = True
    #: for a rule on folders: the paths below the folder (relative to it)
    #: where its findings can be, besides the folder itself; None: anywhere
    #: below. An editor that wants the findings of other files only does not
    #: run it there.
    reports_below: Optional[Tuple[str, ...]] = None
    #: for a cross-file rule: the changed paths ``affected_by`` can answer
    #: anything for (``rules/_affects.py`` says what each clause matches),
    #: copied into the index so that a run asks only the rules a path can
    #: affect and imports no other; None: any path.
    affects: Optional[Tuple[tuple, ...]] = None

    @classmethod
    def doc(cls) -> str:
        # Docstrings quote code reST-style (``x``); readers of the CLI, SARIF
        # and the README get Markdown's `x`.
        return re.sub(r"``(.+?)``", r"`\1`", inspect.cleandoc(cls.__doc__ or ""), flags=re.S)

    def check(self, subject: Subject, ctx: "Context") -> Iterable[Finding]:
        raise NotImplementedError

    def load(self) -> "Rule":
        """The rule itself (the registry hands out rules that load on use)."""
        return self

    @property
    def problem_source(self) -> Optional[str]:
        """Where a plain ProblemRule's findings come from ("load" or
        "schema"), else None: such a rule finds nothing in a file without
        problems of that source, and the engine need not run it there."""
        if not isinstance(self, ProblemRule):
            return None
        return self.source if type(self).check is ProblemRule.check or self.refines_problems else None

    @property
    def cross_file(self) -> bool:
        """Whether other paths can change this rule's verdict (it overrides
        ``affected_by``)."""
        return type(self).affected_by is not Rule.affected_by

    def alike_on_base(self, kind: str) -> bool:
        """Whether this rule finds on a ``kind`` subject of the base tree what
        it finds in the working tree when every listing and file it reads is
        the same in both: not when it reads the base itself (``ctx.base``),
        or what only the file system says (a file's size)."""
        return True

    def affected_by(self, changed: str, ctx: "Context") -> Iterable[str]:
        """Subjects whose verdict under this rule may change when ``changed``
        (a repository path, possibly deleted) changes. Rules that read only
        their own subject need not override this."""
        return ()

    # -- helpers -------------------------------------------------------------
    def finding(self, subject: Subject, message: str, path: Optional[str] = None,
                pos: Optional[Position] = None, hint: Optional[str] = None) -> Finding:
        return Finding(
            code=self.code, name=self.name, severity=self.severity,
            path=path or subject.path, message=message,
            line=pos.line if pos else None, column=pos.column if pos else None,
            end_line=pos.end_line if pos else None, end_column=pos.end_column if pos else None,
            hint=hint, subject=subject.path,
        )

    @staticmethod
    def misnamed(ctx: "Context", path: str) -> Optional[str]:
        """For a file that is missing at ``path``: a hint naming a sibling that
        is probably it under another name (``leaderboard.yml``,
        ``Summary.yaml``), which penguin-lint does not read."""
        folder, _, name = path.rpartition("/")
        stem = name.rsplit(".", 1)[0].lower()
        for other in ctx.repo.files(folder):
            if other != name and other.rsplit(".", 1)[0].lower() == stem:
                return f"found {other}: rename it to {name} (only that name is read)"
        return None

    def from_problem(self, subject: Subject, p: Problem) -> Finding:
        return self.finding(subject, p.message, path=p.path, pos=p.pos, hint=p.hint)


class ProblemRule(Rule):
    """A rule whose findings are observed by a lower layer (a loader or the
    schema validation) while it reads a file; the rule gives them their code,
    name and severity."""

    source = "load"  # "load": loader problems; "schema": schema problems
    #: True when ``check`` is overridden only to word or give hints to the
    #: findings of its source: it still finds nothing in a file without any
    refines_problems = False

    def check(self, subject: Subject, ctx: "Context") -> Iterator[Finding]:
        problems = ctx.load_problems(subject) if self.source == "load" else ctx.schema_problems(subject)
        for p in problems:
            if p.code == self.code:
                yield self.from_problem(subject, p)


DATA_FILE_KINDS = ("benchmark_config", "task_config", "leaderboard", "meta_info",
                   "summary", "attempt", "harbor_leaderboard", "harbor_rows")
__all__ = ["Rule", "ProblemRule", "ERROR", "WARNING", "DATA_FILE_KINDS"]
