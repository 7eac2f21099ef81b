"""``workspace/diagnostic``: the repository's findings, not only the open
files', for an editor's problems panel.

The whole repository is linted by ``penguin-lint --all`` (its cache, its
workers), in a process of its own, so that the server goes on answering
the editor meanwhile; it reads the files as saved (the open documents,
whose buffers may differ, are not in the report). The findings are kept
until a file changes on disk (a save, a change the client reports, the
configuration): asked again meanwhile, the server answers from what it kept, and a file whose report the client already holds (its
``resultId``) is answered "unchanged". Open documents are left out: their
diagnostics are pushed as they are edited.
"""
from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import sys
from typing import Callable, Dict, List, Optional

from lsprotocol import types

from penguin_lint.engine.merge import MergeError, _finding
from penguin_lint.findings import Finding
from penguin_lint.lsp.project import Project

log = logging.getLogger("penguin_lint.lsp")


class WorkspaceFindings:
    """The findings of one project's last whole run, by path."""

    def __init__(self):
        self.generation = -1
        self.by_path: Dict[str, List[Finding]] = {}
        #: paths reported with findings last time (a file fixed since gets an empty report)
        self.reported: set = set()
        self.lock = asyncio.Lock()

    async def refresh(self, project: Project, generation: int) -> Dict[str, List[Finding]]:
        """The findings of ``penguin-lint --all`` on the files as saved, run
        again when ``generation`` (the server's count of changes on disk)
        moved. The run is a process of its own: the server goes on answering
        while it runs, and it uses the ``--all`` cache and its workers."""
        async with self.lock:
            if generation != self.generation:
                found = await _run_all(project)
                if found is not None:
                    self.by_path = {}
                    for f in found:
                        self.by_path.setdefault(f.path, []).append(f)
                    self.generation = generation
            return self.by_path


async def _run_all(project: Project) -> Optional[List[Finding]]:
    """The findings of ``--all`` (None when the run fails: said in the log)."""
    if project.error is not None:
        return []
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "penguin_lint", "--all", "--format", "json", "--root", str(project.root),
        cwd=str(project.root), stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE)
    out, err = await proc.communicate()
    try:
        if proc.returncode not in (0, 1):
            raise ValueError(err.decode("utf-8", "replace").strip().splitlines()[-1:] or "no output")
        return [_finding(d, "penguin-lint --all") for d in json.loads(out)["findings"]]
    except (ValueError, KeyError, TypeError, IndexError, MergeError) as e:
        log.warning("workspace diagnostics: penguin-lint --all failed: %s", e)
        return None


def result_id(findings: List[Finding]) -> str:
    key = repr([(f.code, f.line, f.column, f.end_line, f.end_column, f.message) for f in findings])
    return hashlib.sha1(key.encode("utf-8", "surrogatepass")).hexdigest()[:16]


async def reports(project: Project, kept: WorkspaceFindings, generation: int, open_paths: set,
                  previous: Dict[str, str], uri_of: Callable[[str], str],
                  diagnostics_of: Callable[[str, List[Finding]], List[types.Diagnostic]]) -> list:
    """A report for each file with findings (and each that had some before),
    open documents left out."""
    by_path = await kept.refresh(project, generation)
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

