"""The requests that answer from what the repository knows: completion,
go to definition, hover, and the workspace's diagnostics (pull). Each reads
the buffer's line at the cursor, the server's overlay of open buffers over
the repository, and only the folders and files the name at the cursor
leads to. What answers them is imported on the first request of its kind:
the server's start (to an open file's first diagnostics) does not wait for
it.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import List, Optional

from lsprotocol import types
from pygls.uris import from_fs_path, to_fs_path

from penguin_lint.lsp import workspace
from penguin_lint.lsp.cursor import Spot, char_index, spot
from penguin_lint.lsp.project import Project
from penguin_lint.lsp.textmap import TextMap
from penguin_lint.pipeline import find_root


@dataclass
class At:
    """A document of the project, as a request about it finds it."""

    project: Project
    rel: str
    kind: str
    groups: dict
    text: str
    textmap: TextMap
    line: int           # 0-based
    column: int         # 0-based, in characters
    spot: Optional[Spot]

    def units(self, chars: int) -> int:
        return self.textmap._lsp(self.line, chars)[1]


def at(ls, uri: str, position: types.Position) -> Optional[At]:
    where = ls.open_docs.get(uri) or ls.locate(uri)
    if where is None:
        return None
    project, rel = where
    if uri in ls.open_docs:
        text = ls.text_of(uri)
    else:
        text = workspace.text_of(project, rel)
    project.repo.refresh()
    kind, groups = project.repo.layout.classify_file(rel) or ("", {})
    textmap = ls.textmap(text)
    lines = [textmap.line(i) for i in range(max(0, position.line - 60), min(textmap.lines, position.line + 60))]
    first = max(0, position.line - 60)
    # units before the character: the position encoding's (TextMap's measure)
    column = char_index(textmap.line(position.line), position.character, textmap._units)
    here = spot(lines, position.line - first, column) if kind else None
    return At(project, rel, kind, groups, text, textmap, position.line, column, here)


def uri_in(project: Project, path: str) -> str:
    return from_fs_path(str(Path(project.root) / path))


def register(server, diagnostic) -> None:
    """Add the requests to ``server``; ``diagnostic(finding, textmap)`` is
    the server's own conversion of a finding (the one it publishes)."""
    server.to_diagnostic = diagnostic
    #: project root -> leaderboard id -> (generation, its numbers), for hover
    server.boards = {}
    #: counts changes on disk (saves, changes the client reports): the
    #: workspace's findings (from the files as saved) are kept while it stays
    server.disk_generation = 0

    @server.feature(types.TEXT_DOCUMENT_COMPLETION,
                    types.CompletionOptions(trigger_characters=['"', "'", " "]))
    def complete(ls, params: types.CompletionParams):
        a = at(ls, params.text_document.uri, params.position)
        if a is None:
            return None
        from penguin_lint.lsp import completion
        from penguin_lint.lsp.knowledge import Knowledge

        return completion.complete(Knowledge(a.project.repo), a.kind, a.groups, a.spot, a.line, a.units)

    @server.feature(types.TEXT_DOCUMENT_DEFINITION)
    def define(ls, params: types.DefinitionParams):
        a = at(ls, params.text_document.uri, params.position)
        if a is None:
            return None
        from penguin_lint.lsp import definition
        from penguin_lint.lsp.knowledge import Knowledge

        found = definition.targets(Knowledge(a.project.repo), a.kind, a.groups, a.spot)
        return [types.Location(uri=uri_in(a.project, p), range=types.Range(
            start=types.Position(line=line, character=0), end=types.Position(line=line, character=0)))
            for p, line in found] or None

    @server.feature(types.TEXT_DOCUMENT_HOVER)
    def on_hover(ls, params: types.HoverParams):
        a = at(ls, params.text_document.uri, params.position)
        if a is None:
            return None
        text = hover_text(ls, a, params)
        if not text:
            return None
        return types.Hover(contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value=text))

    @server.feature(types.TEXT_DOCUMENT_DIAGNOSTIC, types.DiagnosticOptions(
        identifier="penguin-lint", inter_file_dependencies=True, workspace_diagnostics=True))
    def document_diagnostic(ls, params: types.DocumentDiagnosticParams):
        a = at(ls, params.text_document.uri, types.Position(line=0, character=0))
        items: List[types.Diagnostic] = []
        if a is not None and a.project.lints(a.rel):
            if params.text_document.uri in ls.open_docs:
                ls.sync(params.text_document.uri)
            items = diagnostics_of(ls, a.project, a.rel, a.project.lint([a.rel]).get(a.rel, []), a.text)
        return types.RelatedFullDocumentDiagnosticReport(items=items)

    @server.feature(types.WORKSPACE_DIAGNOSTIC)
    async def workspace_diagnostic(ls, params: types.WorkspaceDiagnosticParams):
        previous = {p.uri: p.value for p in params.previous_result_ids or ()}
        token = params.partial_result_token
        items: list = []
        for project in projects(ls):
            open_paths = set(ls.open_in(project))
            uri_of = lambda p, pr=project: uri_in(pr, p)  # noqa: E731
            of = lambda p, found, pr=project: diagnostics_of(ls, pr, p, found)  # noqa: E731
            kept = kept_findings(ls, project)
            if token is None:
                items += await workspace.reports(kept, open_paths, previous, uri_of, of)
            else:
                # LSP's partial results: every report goes out as $/progress,
                # as the run finds it, and the answer itself is empty
                await workspace.reports_streamed(kept, open_paths, previous, uri_of, of, lambda found: ls.progress(
                    types.ProgressParams(token=token, value=types.WorkspaceDiagnosticReportPartialResult(items=found))))
        return types.WorkspaceDiagnosticReport(items=items)


def stop_workspace(ls) -> None:
    """End the whole runs under way: the server is shutting down."""
    for kept in ls.workspace_findings.values():
        kept.stop()


def start_workspace(ls) -> None:
    """Lint the workspace's repositories in the background, for a client
    that pulls diagnostics: its first pull then finds them done, or under way."""
    text_document = ls.client_capabilities.text_document
    if text_document is None or text_document.diagnostic is None:
        return  # a client that never asks would only pay for the run
    for project in projects(ls):
        kept_findings(ls, project).start()


def disk_changed(ls) -> None:
    """A file changed on disk: the kept workspace findings are brought up
    to date in the background."""
    ls.disk_generation += 1
    for kept in ls.workspace_findings.values():
        kept.start()


def kept_findings(ls, project: Project) -> workspace.WorkspaceFindings:
    kept = ls.workspace_findings.get(project.root)
    if kept is None:
        kept = ls.workspace_findings[project.root] = workspace.WorkspaceFindings(
            project, lambda: ls.disk_generation, lambda: _pull_again(ls))
    return kept


def _pull_again(ls) -> None:
    """Ask the client to pull diagnostics again (what it holds is out of
    date), where it says it can be asked."""
    space = ls.client_capabilities.workspace
    support = space.diagnostics if space is not None else None
    if support is not None and support.refresh_support:
        ls.workspace_diagnostic_refresh(None)


def projects(ls) -> List[Project]:
    """The projects of the workspace's folders (made on first use) and any
    the server has opened a document of."""
    folders = [f.uri for f in (ls.workspace.folders or {}).values()]
    if not folders and ls.workspace.root_uri:
        folders = [ls.workspace.root_uri]
    for uri in folders:
        path = Path(to_fs_path(uri) or "")
        if uri.startswith("file:") and path.is_dir():
            root = find_root(path)
            if root not in ls.projects:
                ls.projects[root] = ls.new_project(root)
    return list(ls.projects.values())


def diagnostics_of(ls, project: Project, path: str, findings, text: Optional[str] = None) -> List[types.Diagnostic]:
    textmap = ls.textmap(text if text is not None else workspace.text_of(project, path))
    return [ls.to_diagnostic(f, textmap) for f in findings]


def hover_text(ls, a: At, params: types.HoverParams) -> Optional[str]:
    from penguin_lint.lsp import hover
    from penguin_lint.lsp.knowledge import Knowledge

    parts: List[str] = []
    board = a.groups.get("leaderboard")
    if a.kind == "leaderboard":
        know = Knowledge(a.project.repo)
        parts.append(hover.leaf(know, board, a.spot))
        parts.append(hover.entry(know, board, a.line + 1, ls.boards.setdefault(a.project.root, {}),
                                 ls.generation))
    published = ls.published.get(params.text_document.uri)
    if published is not None and published[0] == a.text:
        pos = (params.position.line, params.position.character)
        parts.append(hover.finding([f for d, f in published[1]
                                    if (d.range.start.line, d.range.start.character) <= pos
                                    <= (d.range.end.line, d.range.end.character)]))
    fmt = "toml" if a.rel.endswith(".toml") else "yaml"
    parts.append(hover.suppression(a.text, fmt, a.line + 1, a.column, a.textmap.line(a.line)))
    return "\n\n---\n\n".join(p for p in parts if p) or None
