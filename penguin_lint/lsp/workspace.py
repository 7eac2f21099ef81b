"""``workspace/diagnostic``: the repository's findings, not only the open
files', for an editor's problems panel.

The whole repository is linted as ``--all`` lints it (one process: a
server forks no workers), buffers standing over their files. The findings
are kept until something changes (an edit, a save, a file changed on disk,
the configuration): asked again with nothing changed, the server answers
from what it kept, and a file whose report the client already holds (its
``resultId``) is answered "unchanged". Open documents are left out: their
diagnostics are pushed as they are edited.
"""
from __future__ import annotations

import hashlib
from typing import Callable, Dict, List

from lsprotocol import types

from penguin_lint.engine.runner import Engine
from penguin_lint.findings import Finding
from penguin_lint.lsp.project import Project


class WorkspaceFindings:
    """The findings of one project's last whole run, by path."""

    def __init__(self):
        self.generation = -1
        self.by_path: Dict[str, List[Finding]] = {}
        #: paths reported with findings last time (a file fixed since gets an empty report)
        self.reported: set = set()

    def refresh(self, project: Project, generation: int) -> Dict[str, List[Finding]]:
        if generation != self.generation or not self.by_path and not self.reported:
            self.by_path = {}
            if project.error is None:
                project.repo.refresh()
                result = Engine(project.repo, project.config, project.rules).run_all(jobs=1)
                for f in result.findings:
                    self.by_path.setdefault(f.path, []).append(f)
            self.generation = generation
        return self.by_path


def result_id(findings: List[Finding]) -> str:
    key = repr([(f.code, f.line, f.column, f.end_line, f.end_column, f.message) for f in findings])
    return hashlib.sha1(key.encode("utf-8", "surrogatepass")).hexdigest()[:16]


def reports(project: Project, kept: WorkspaceFindings, generation: int, open_paths: set,
            previous: Dict[str, str], uri_of: Callable[[str], str],
            diagnostics_of: Callable[[str, List[Finding]], List[types.Diagnostic]]) -> list:
    """A report for each file with findings (and each that had some before),
    open documents left out."""
    by_path = kept.refresh(project, generation)
    out: list = []
    for path in sorted(set(by_path) | kept.reported):
        if path in open_paths:
            continue
        found = by_path.get(path, [])
        uri = uri_of(path)
        rid = result_id(found)
        if previous.get(uri) == rid:
            out.append(types.WorkspaceUnchangedDocumentDiagnosticReport(uri=uri, version=None, result_id=rid))
        else:
            out.append(types.WorkspaceFullDocumentDiagnosticReport(
                uri=uri, version=None, items=diagnostics_of(path, found), result_id=rid))
    kept.reported = set(by_path)
    return out


def text_of(project: Project, path: str) -> str:
    data = project.repo.read_bytes(path) or b""
    return data.decode("utf-8", "replace")

