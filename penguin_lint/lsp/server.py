"""``penguin-lint lsp``: a language server over standard input and output.

It publishes diagnostics for the files of the layout on open, change and
save, for the unsaved text of each buffer, the rest of the repository read
from disk or from other open buffers (:mod:`penguin_lint.lsp.overlay`);
a change re-lints the open files that read the changed one (an open
leaderboard when one of its experiments' ``meta_info.yaml`` or
``summary.yaml`` changes). Fixable findings offer the repair ``--fix``
makes, as a code action.
"""
from __future__ import annotations

import logging
import os
import sys
import time
from pathlib import Path
from typing import Dict, List, Optional, Tuple

from lsprotocol import types
from pygls.lsp.server import LanguageServer
from pygls.uris import to_fs_path

from penguin_lint.address import rule_docs
from penguin_lint.core.config import CONFIG_FILE
from penguin_lint.engine.runner import ToolError
from penguin_lint.findings import ERROR, Finding
from penguin_lint.lsp.features import disk_changed, register, start_workspace, stop_workspace
from penguin_lint.lsp.messages import BadMessage, DropTraceback, Protocol
from penguin_lint.lsp.project import Project
from penguin_lint.lsp.textmap import TextMap
from penguin_lint.pipeline import find_root
from penguin_lint.rules import get_rule
from penguin_lint.version import __version__

SOURCE = "penguin-lint"
FIX_ALL = "source.fixAll.penguin-lint"
log = logging.getLogger("penguin_lint.lsp")
# Line maps kept of the texts requests read last (a text is held while its
# map is: a few buffers' worth)
KEPT_TEXTMAPS = 4


class PenguinServer(LanguageServer):
    def __init__(self):
        super().__init__("penguin-lint", __version__,
                         text_document_sync_kind=types.TextDocumentSyncKind.Incremental,
                         protocol_cls=Protocol)
        self.projects: Dict[Path, Project] = {}
        #: uri -> (project, repository path) of each open document
        self.open_docs: Dict[str, Tuple[Project, str]] = {}
        #: uri -> the text linted last and its (diagnostic, finding) pairs
        self.published: Dict[str, Tuple[str, List[Tuple[types.Diagnostic, Finding]]]] = {}
        #: seconds the last lint took (the server's own log says it)
        self.last_lint = 0.0
        #: counts changes (edits, saves, closes, files changed on disk): what
        #: hover computed of a board is kept while it stays the same
        self.generation = 0
        self.workspace_findings: Dict[Path, object] = {}
        #: (id of a text, encoding) -> (the text, its TextMap), oldest first
        self._textmaps: Dict[Tuple[int, str], Tuple[str, TextMap]] = {}
        #: (select, ignore): the rule codes of ``penguin-lint lsp --select/--ignore``
        self.rule_options: Tuple[List[str], List[str]] = ([], [])

    # -- documents --------------------------------------------------------------
    def locate(self, uri: str, create: bool = True) -> Optional[Tuple[Project, str]]:
        """The project and repository path of a document, None for one that
        is not a file or lies in no repository folder (or, without
        ``create``, in none the server has opened a document of)."""
        if not uri.startswith("file:"):
            return None
        path = to_fs_path(uri)
        if not path:
            return None
        # not resolved: a link on the way must stay a link for the walk
        path = os.path.abspath(path)
        root = find_root(Path(os.path.dirname(path)))
        rel = os.path.relpath(path, root).replace(os.sep, "/")
        if rel.startswith("../") or rel in ("..", "."):
            return None
        project = self.projects.get(root)
        if project is None:
            if not create:
                return None
            project = self.projects[root] = self.new_project(root)
        return project, rel

    def new_project(self, root: Path) -> Project:
        return Project(root, *self.rule_options)

    def text_of(self, uri: str) -> str:
        return self.workspace.get_text_document(uri).source

    def textmap(self, text: str) -> TextMap:
        """``text`` with columns counted in the position encoding agreed on.
        The maps of the last few texts are kept: every request on a big
        buffer would otherwise find its lines again."""
        encoding = self.workspace.position_encoding
        encoding = str(getattr(encoding, "value", encoding) or "utf-16")
        key = (id(text), encoding)
        kept = self._textmaps.get(key)
        if kept is not None and kept[0] is text:
            return kept[1]
        out = TextMap(text, encoding)
        if len(self._textmaps) >= KEPT_TEXTMAPS:
            self._textmaps.pop(next(iter(self._textmaps)))
        self._textmaps[key] = (text, out)
        return out

    def sync(self, uri: str) -> Optional[Tuple[Project, str]]:
        """Put the document's current text over its file."""
        where = self.open_docs.get(uri)
        if where is None:
            where = self.locate(uri)
            if where is None:
                return None
            self.open_docs[uri] = where
        project, rel = where
        project.set_buffer(rel, self.text_of(uri))
        self.generation += 1
        return where

    def close(self, uri: str) -> None:
        where = self.open_docs.pop(uri, None)
        self.published.pop(uri, None)
        self.generation += 1
        self.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=uri, diagnostics=[]))
        if where is not None:
            project, rel = where
            saved = project.buffer_is_saved(rel)
            project.drop_buffer(rel)
            if not saved:
                # what read the buffer now reads the file on disk
                self.relint(project, rel, include_self=False)

    # -- linting ----------------------------------------------------------------
    def open_in(self, project: Project) -> Dict[str, str]:
        """Repository path -> uri of the documents open in ``project``."""
        return {r: u for u, (p, r) in self.open_docs.items() if p is project}

    def relint(self, project: Project, rel: str, include_self: bool = True, dependents: bool = True) -> None:
        """Lint ``rel`` and (``dependents``) the open documents of ``project``
        that a change to it can affect, and publish their diagnostics."""
        uris = self.open_in(project)
        targets = set(project.affected(rel, (r for r in uris if r != rel))) if dependents else set()
        if include_self and rel in uris:
            targets.add(rel)
        self.lint_open(project, targets)

    def lint_open(self, project: Project, paths) -> None:
        """Lint the open documents ``paths`` of ``project`` together and
        publish their diagnostics."""
        uris = self.open_in(project)
        targets = {t for t in paths if t in uris and project.lints(t)}
        if project.error is not None and project.error != project.error_shown:
            # once per error: nothing is linted until the configuration is fixed
            project.error_shown = project.error
            self.window_show_message(types.ShowMessageParams(
                type=types.MessageType.Error, message=f"penguin-lint: {project.error}"))
        for path in set(paths) - targets:
            if path in uris:
                self.publish(uris[path], [])  # not a file penguin-lint checks (now)
        if not targets:
            return
        started = time.perf_counter()
        try:
            found = project.lint(targets)
        except ToolError as e:
            self.window_log_message(types.LogMessageParams(type=types.MessageType.Error,
                                                           message=f"penguin-lint: {e}"))
            return
        self.last_lint = time.perf_counter() - started
        log.debug("linted %s in %.1f ms", sorted(targets), self.last_lint * 1000)
        for path in sorted(targets):
            self.publish(uris[path], found.get(path, []))

    def publish(self, uri: str, findings: List[Finding]) -> None:
        text = self.text_of(uri)
        textmap = self.textmap(text)
        pairs = [(diagnostic(f, textmap), f) for f in findings]
        self.published[uri] = (text, pairs)
        version = self.workspace.get_text_document(uri).version
        self.text_document_publish_diagnostics(types.PublishDiagnosticsParams(
            uri=uri, diagnostics=[d for d, _ in pairs], version=version))

    # -- code actions -----------------------------------------------------------
    def code_actions(self, params: types.CodeActionParams) -> List[types.CodeAction]:
        uri = params.text_document.uri
        where = self.open_docs.get(uri)
        if where is None:
            return []
        project, rel = where
        text = self.text_of(uri)
        linted = self.published.get(uri)
        if linted is None or linted[0] != text:
            # a request before the diagnostics of the last change
            self.sync(uri)
            self.relint(project, rel)
            linted = self.published.get(uri)
            if linted is None:
                return []
        pairs = linted[1]
        only = params.context.only
        wanted = [d for d in params.context.diagnostics if d.source == SOURCE]
        actions: List[types.CodeAction] = []
        if only is None or any(types.CodeActionKind.QuickFix.value.startswith(k) or k == "quickfix"
                               for k in only):
            for d, f in pairs:
                rule = get_rule(f.code)
                if not rule.fixable:
                    continue
                if wanted:
                    if not any(_same(d, w) for w in wanted):
                        continue
                elif not _overlaps(d.range, params.range):
                    continue
                edits = self.edits(project, rel, text, [f], unsafe=rule.fixable == "unsafe")
                if not edits:
                    continue
                title = f"Fix {f.code} ({rule.name})" + (" - unsafe: review it" if rule.fixable == "unsafe" else "")
                actions.append(types.CodeAction(
                    title=title, kind=types.CodeActionKind.QuickFix, diagnostics=[d],
                    is_preferred=rule.fixable == "safe",
                    edit=types.WorkspaceEdit(changes={uri: edits})))
        if only is None or any(FIX_ALL.startswith(k) for k in only):
            safe = [f for _, f in pairs if get_rule(f.code).fixable == "safe"]
            edits = self.edits(project, rel, text, safe, unsafe=False) if safe else []
            if edits:
                actions.append(types.CodeAction(
                    title="penguin-lint: fix all (as --fix)", kind=FIX_ALL,
                    diagnostics=[d for d, f in pairs if f in safe],
                    edit=types.WorkspaceEdit(changes={uri: edits})))
        return actions

    def edits(self, project: Project, rel: str, text: str, findings: List[Finding],
              unsafe: bool) -> List[types.TextEdit]:
        fix = project.plan_fixes(rel, findings, unsafe=unsafe)
        if fix is None:
            return []
        textmap = self.textmap(text)
        out = []
        for e in fix.edits:
            start, end = textmap.offset_position(e.start), textmap.offset_position(e.end)
            if e.mark:
                start = (0, 0)  # the mark is before the loader's text, in the editor's
            out.append(types.TextEdit(range=types.Range(start=types.Position(*start), end=types.Position(*end)),
                                      new_text=e.new))
        return out


def diagnostic(f: Finding, textmap: TextMap) -> types.Diagnostic:
    (sl, sc), (el, ec) = textmap.range(f.line, f.column, f.end_line, f.end_column)
    message = f.message + (f"\nhint: {f.hint}" if f.hint else "")
    return types.Diagnostic(
        range=types.Range(start=types.Position(line=sl, character=sc), end=types.Position(line=el, character=ec)),
        message=message,
        severity=types.DiagnosticSeverity.Error if f.severity == ERROR else types.DiagnosticSeverity.Warning,
        code=f.code,
        code_description=types.CodeDescription(href=rule_docs(f.code, uri=True)),
        source=SOURCE,
    )


def _same(a: types.Diagnostic, b: types.Diagnostic) -> bool:
    return a.code == b.code and a.range == b.range and a.message == b.message


def _overlaps(a: types.Range, b: types.Range) -> bool:
    def key(p: types.Position):
        return p.line, p.character

    return key(a.start) <= key(b.end) and key(b.start) <= key(a.end)


def _watch_files(server: PenguinServer) -> None:
    """The features of files changed on disk: the watch asked for once the
    client is ready, and what a change re-lints."""

    @server.feature(types.INITIALIZED)
    def initialized(ls: PenguinServer, params: types.InitializedParams):
        # Files changed on disk (a checkout, another program) re-lint the open
        # documents that read them, where the client can watch files for us.
        workspace = ls.client_capabilities.workspace
        watched = workspace.did_change_watched_files if workspace is not None else None
        if watched is not None and watched.dynamic_registration:
            ls.client_register_capability(types.RegistrationParams(registrations=[types.Registration(
                id="penguin-lint-files", method=types.WORKSPACE_DID_CHANGE_WATCHED_FILES,
                register_options=types.DidChangeWatchedFilesRegistrationOptions(watchers=[
                    types.FileSystemWatcher(glob_pattern="**/*.{yaml,yml,toml,json}"),
                    types.FileSystemWatcher(glob_pattern="**/" + CONFIG_FILE)]))]))
        start_workspace(ls)

    @server.feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
    def did_change_watched_files(ls: PenguinServer, params: types.DidChangeWatchedFilesParams):
        todo: Dict[Project, set] = {}
        ls.generation += 1
        changed = False
        for change in params.changes:
            where = ls.locate(change.uri, create=False)
            if where is None:
                continue
            project, rel = where
            if project.in_cache(rel):
                continue  # the whole run's own records: no change to the repository
            changed = True
            uris = ls.open_in(project)
            if rel == CONFIG_FILE:
                project.load_config()
                todo.setdefault(project, set()).update(uris)
            else:
                todo.setdefault(project, set()).update(project.affected(rel, (r for r in uris if r != rel)))
        if changed:
            disk_changed(ls)
        for project, paths in todo.items():
            ls.lint_open(project, paths)


def make_server() -> PenguinServer:
    server = PenguinServer()

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: PenguinServer, params: types.DidOpenTextDocumentParams):
        where = ls.sync(params.text_document.uri)
        if where is not None:
            # opening a file as it is saved changes nothing for the others
            ls.relint(*where, dependents=not where[0].buffer_is_saved(where[1]))

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: PenguinServer, params: types.DidChangeTextDocumentParams):
        where = ls.sync(params.text_document.uri)
        if where is not None:
            ls.relint(*where)

    @server.feature(types.TEXT_DOCUMENT_DID_SAVE)
    def did_save(ls: PenguinServer, params: types.DidSaveTextDocumentParams):
        disk_changed(ls)
        where = ls.sync(params.text_document.uri)
        if where is None:
            return
        project, rel = where
        if rel == CONFIG_FILE:
            # the configuration decides what every open file is checked for
            project.load_config()
            ls.lint_open(project, ls.open_in(project))
            return
        ls.relint(project, rel)

    _watch_files(server)

    @server.feature(types.SHUTDOWN)
    def shutdown(ls: PenguinServer, params: None):
        stop_workspace(ls)

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: PenguinServer, params: types.DidCloseTextDocumentParams):
        ls.close(params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_CODE_ACTION, types.CodeActionOptions(
        code_action_kinds=[types.CodeActionKind.QuickFix, FIX_ALL]))
    def code_action(ls: PenguinServer, params: types.CodeActionParams):
        return ls.code_actions(params)

    register(server, diagnostic)  # completion, definition, hover, workspace diagnostics
    return server


class _OneLine(logging.Formatter):
    """The server's log (standard error, which editors show): one line a
    record, never a traceback."""

    def format(self, record: logging.LogRecord) -> str:
        message = " ".join(record.getMessage().split())
        e = record.exc_info[1] if record.exc_info else None
        if isinstance(e, BadMessage):
            message = str(e)  # already one line saying what was wrong
        elif e is not None:
            message += f" ({type(e).__name__}: {' '.join(str(e).split())})"
        return f"penguin-lint lsp: {record.levelname.lower()}: {message}"


def serve(select: List[str] = (), ignore: List[str] = ()) -> None:
    """Serve on standard input and output until the client says exit, with
    the rules ``select``/``ignore`` leave (codes, over the configuration's)."""
    # The protocol owns standard output: anything printed by mistake goes to
    # standard error instead of corrupting a message.
    stdin, stdout = sys.stdin.buffer, sys.__stdout__.buffer
    sys.stdout = sys.stderr
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(_OneLine())
    handler.addFilter(DropTraceback())
    logging.basicConfig(level=logging.WARNING, handlers=[handler], force=True)
    server = make_server()
    server.rule_options = (list(select), list(ignore))
    server.start_io(stdin, stdout)
