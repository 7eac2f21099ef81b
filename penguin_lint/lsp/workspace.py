"""``workspace/diagnostic``: the repository's findings, not only the open
files', for an editor's problems panel.

The whole repository is linted by ``penguin-lint --all`` (its cache, its
workers), in a process of its own and at a lower priority, so that the
server goes on answering the editor (and linting the open documents first)
meanwhile; it reads the files as saved (the open documents, whose buffers
may differ, are not in the report). The run starts when the client says
``initialized`` (a client that pulls diagnostics asks soon after), and
again, in the background, after each change on disk (a save, a change the
client reports, the configuration): several changes while a run is under
way make one more run, not one each. A pull answers from the last run that
saw every change it was told of, waiting for it when it is still under way;
a file whose report the client already holds (its ``resultId``) is
answered "unchanged". A client that gives a ``partialResultToken`` gets
the reports as the run finds them, folder by folder (``reports_streamed``),
instead of once it is over. When a run changes what a client that can be
asked to pull again holds, it is asked to (``workspace/diagnostic/refresh``).
Open documents are left out: their diagnostics are pushed as they are
edited.
"""
from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import os
import signal
import sys
import warnings
from typing import Callable, Dict, List, Optional

from lsprotocol import types

from penguin_lint.engine.pipes import read_message, write_message
from penguin_lint.findings import Finding
from penguin_lint.lsp.project import Project

log = logging.getLogger("penguin_lint.lsp")
# How much lower the whole run's priority is than the server's (nice(2)):
# the open documents' diagnostics come first.
NICENESS = 10


class WorkspaceFindings:
    """The findings of one project's last whole run, by path, and the run
    that brings them up to date."""

    def __init__(self, project: Project, generation: Callable[[], int],
                 changed: Optional[Callable[[], None]] = None):
        self.project = project
        #: the server's count of changes on disk, now
        self.current = generation
        #: called when a run's findings differ from those before it
        self.changed = changed
        #: the count of changes the kept findings saw (-1: none yet)
        self.generation = -1
        self.by_path: Dict[str, List[Finding]] = {}
        #: paths reported with findings last time (a file fixed since gets an empty report)
        self.reported: set = set()
        #: the count of changes a run failed at (said in the log; not run again for it)
        self.failed: Optional[int] = None
        self._task: Optional["asyncio.Future"] = None
        #: the findings the run under way has handed out so far, by path
        #: (not final: see reports_streamed), and who wants to hear of more
        self.partial: Dict[str, List[Finding]] = {}
        self._listeners: List[Callable[[set], None]] = []

    def start(self) -> None:
        """Bring the findings up to date in the background (a run under way
        runs again once it is over, if a change came meanwhile)."""
        if self._task is None or self._task.done():
            self._task = asyncio.ensure_future(self._runs())

    async def _runs(self) -> None:
        while not self.up_to_date():
            generation = self.current()
            self.partial = {}
            found = await _run_all(self.project, self._partial_batch)
            if found is None:
                self.failed = generation
                self.partial = {}
                continue
            by_path: Dict[str, List[Finding]] = {}
            for f in found:
                by_path.setdefault(f.path, []).append(f)
            differs = self.generation >= 0 and _ids(by_path) != _ids(self.by_path)
            self.by_path, self.generation = by_path, generation
            self.partial = {}  # only ever the parts of a run under way
            if differs and self.changed is not None:
                self.changed()

    def _partial_batch(self, found: List[Finding]) -> None:
        paths = set()
        for f in found:
            self.partial.setdefault(f.path, []).append(f)
            paths.add(f.path)
        for listen in list(self._listeners):
            listen(paths)

    def listen(self, listener: Callable[[set], None]) -> Callable[[], None]:
        """Call ``listener`` with the paths of each batch the run under way
        hands out; returns what stops it."""
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener)

    def up_to_date(self) -> bool:
        return self.generation == self.current() or self.failed == self.current()

    def stop(self) -> None:
        """End the run under way (the server is shutting down)."""
        if self._task is not None and not self._task.done():
            self._task.cancel()

    async def refresh(self) -> Dict[str, List[Finding]]:
        """The findings from the files as they are after every change the
        server was told of: what the run under way gives, or a new one."""
        while not self.up_to_date():
            self.start()
            # a pull the client cancels leaves the run going, for the next
            await asyncio.shield(self._task)
        return self.by_path


async def _run_all(project: Project, partial: Optional[Callable[[List[Finding]], None]] = None
                   ) -> Optional[List[Finding]]:
    """The findings of ``--all`` (None when the run fails: said in the log);
    ``partial`` is called with the parts the run hands out as it goes."""
    if project.error is not None:
        return []
    if hasattr(os, "fork"):
        return await _run_forked(project, partial)
    return await _run_process(project)


async def _run_forked(project: Project, partial=None) -> Optional[List[Finding]]:
    """``--all`` in a child forked from the server: no interpreter to start
    and nothing to import again (on a small repository, most of what a new
    process costs). The child has no part in the protocol (its standard
    input and output are closed to it) and sends its findings back
    (engine/pipes.py): each part as the run hands it out (``part``), then
    all of them (``all``)."""
    loop = asyncio.get_running_loop()
    try:
        read_end, write_end = os.pipe()
    except OSError as e:
        log.warning("workspace diagnostics: penguin-lint --all could not start: %s", e)
        return None
    try:
        with warnings.catch_warnings():
            # (Python 3.12 warns of any fork in a process with threads: the
            # child touches nothing the server's other threads hold)
            warnings.simplefilter("ignore", DeprecationWarning)
            pid = os.fork()
    except OSError as e:  # out of processes or memory
        os.close(read_end)
        os.close(write_end)
        log.warning("workspace diagnostics: penguin-lint --all could not start: %s", e)
        return None
    if pid == 0:  # the child: never returns
        os.close(read_end)
        _child(project, write_end)
    os.close(write_end)
    try:
        def part(found: List[Finding]) -> None:  # (in the reading thread)
            if partial is not None:
                loop.call_soon_threadsafe(partial, found)

        found = await loop.run_in_executor(None, _read_messages, read_end, part)
        _, status = await loop.run_in_executor(None, os.waitpid, pid, 0)
    except asyncio.CancelledError:
        _kill(pid)  # the server is going: its run goes with it
        raise
    code = os.waitstatus_to_exitcode(status)
    if code != 0 or found is None:
        log.warning("workspace diagnostics: penguin-lint --all failed: %s",
                    f"exit status {code}" if code != 0 else "it ended without its findings")
        return None
    return found


def _child(project: Project, write_end: int) -> None:
    status = 1
    try:
        devnull = os.open(os.devnull, os.O_RDWR)
        os.dup2(devnull, 0)
        os.dup2(devnull, 1)
        _lower_priority(0)
        from penguin_lint.api import lint

        with os.fdopen(write_end, "wb") as out:
            result = lint(project.root, select=project.select or None, ignore=project.ignore or None,
                          progress=lambda found: write_message(out, ("part", found)))
            write_message(out, ("all", list(result.findings)))
        status = 0
    except BaseException as e:  # said on standard error, the server's log
        try:
            os.write(2, f"penguin-lint lsp: warning: workspace diagnostics: {type(e).__name__}: {e}\n"
                     .encode("utf-8", "replace"))
        except OSError:
            pass
    finally:
        os._exit(status)


def _read_messages(fd: int, part: Callable[[List[Finding]], None]) -> Optional[List[Finding]]:
    """What the child sends, message by message, to its end: each part
    handed to ``part``, all the findings returned (None when they never
    came whole). The pipe is closed here, by the one thread that reads it
    (a run cancelled meanwhile ends it with the child)."""
    with os.fdopen(fd, "rb") as stream:
        while True:
            message = read_message(stream)
            if not (isinstance(message, tuple) and len(message) == 2 and isinstance(message[1], list)
                    and all(isinstance(f, Finding) for f in message[1])):
                return None
            if message[0] == "all":
                return message[1]
            part(message[1])


def _kill(pid: int) -> None:
    try:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
    except OSError:
        pass


async def _run_process(project: Project) -> Optional[List[Finding]]:
    """``penguin-lint --all`` as a process of its own (where there is no fork)."""
    from penguin_lint.engine.merge import MergeError, _finding

    try:
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "penguin_lint", "--all", "--format", "json", "--root", str(project.root),
            *(f"--{name}={','.join(codes)}" for name, codes in (("select", project.select),
                                                                  ("ignore", project.ignore)) if codes),
            cwd=str(project.root), stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE)
    except OSError as e:
        log.warning("workspace diagnostics: penguin-lint --all could not start: %s", e)
        return None
    _lower_priority(proc.pid)
    try:
        out, err = await proc.communicate()
    except asyncio.CancelledError:
        proc.kill()
        raise
    try:
        if proc.returncode not in (0, 1):
            raise ValueError(err.decode("utf-8", "replace").strip().splitlines()[-1:] or "no output")
        return [_finding(d, "penguin-lint --all") for d in json.loads(out)["findings"]]
    except (ValueError, KeyError, TypeError, IndexError, MergeError) as e:
        log.warning("workspace diagnostics: penguin-lint --all failed: %s", e)
        return None


def _lower_priority(pid: int) -> None:
    """The run (and the workers it forks after this; ``pid`` 0: this
    process) yields the processor to the server. Where priorities cannot be
    set, it runs as it is."""
    setpriority = getattr(os, "setpriority", None)
    if setpriority is None:
        return
    try:
        setpriority(os.PRIO_PROCESS, pid, min(os.getpriority(os.PRIO_PROCESS, 0) + NICENESS, 19))
    except OSError:
        pass  # gone already, or not ours to change


def result_id(findings: List[Finding]) -> str:
    key = repr([(f.code, f.line, f.column, f.end_line, f.end_column, f.message) for f in findings])
    return hashlib.sha1(key.encode("utf-8", "surrogatepass")).hexdigest()[:16]


def _ids(by_path: Dict[str, List[Finding]]) -> Dict[str, str]:
    return {p: result_id(found) for p, found in by_path.items()}


async def reports(kept: WorkspaceFindings, open_paths: set, previous: Dict[str, str],
                  uri_of: Callable[[str], str],
                  diagnostics_of: Callable[[str, List[Finding]], List[types.Diagnostic]]) -> list:
    """A report for each file with findings (and each that had some before),
    open documents left out."""
    by_path = await kept.refresh()
    out = [_report(path, by_path.get(path, []), previous, uri_of, diagnostics_of)
           for path in sorted(set(by_path) | kept.reported) if path not in open_paths]
    kept.reported = set(by_path)
    return out


def _report(path: str, found: List[Finding], previous: Dict[str, str], uri_of, diagnostics_of):
    """The report of one file: "unchanged" when the client holds it already."""
    uri, rid = uri_of(path), result_id(found)
    if previous.get(uri) == rid:
        return types.WorkspaceUnchangedDocumentDiagnosticReport(uri=uri, version=None, result_id=rid)
    return types.WorkspaceFullDocumentDiagnosticReport(
        uri=uri, version=None, items=diagnostics_of(path, found), result_id=rid)


def text_of(project: Project, path: str) -> str:
    data = project.repo.read_bytes(path) or b""
    return data.decode("utf-8", "replace")


async def reports_streamed(kept: WorkspaceFindings, open_paths: set, previous: Dict[str, str],
                           uri_of: Callable[[str], str],
                           diagnostics_of: Callable[[str, List[Finding]], List[types.Diagnostic]],
                           send: Callable[[list], None]) -> None:
    """The reports of ``reports``, sent with ``send`` (a client's partial
    results) as the run under way finds them rather than once it is over:
    first what it has found so far, then each part as it comes, then what
    the end of the run changed (a file's findings completed, unused
    suppressions, a file that had findings before and has none now). A
    file is never sent as clean before the run is over; a later report of
    a file replaces the one before it."""
    sent: Dict[str, str] = {}

    def report(path: str, found: List[Finding]):
        sent[path] = result_id(found)
        return _report(path, found, previous, uri_of, diagnostics_of)

    def flush(paths) -> None:
        items = [report(p, kept.partial[p]) for p in sorted(paths)
                 if p not in open_paths and p in kept.partial and sent.get(p) != result_id(kept.partial[p])]
        if items:
            send(items)

    stop = kept.listen(flush)
    try:
        if not kept.up_to_date():
            flush(set(kept.partial))
        by_path = await kept.refresh()
    finally:
        stop()
    final = [report(p, by_path.get(p, [])) for p in sorted(set(by_path) | kept.reported | set(sent))
             if p not in open_paths and sent.get(p) != result_id(by_path.get(p, []))]
    kept.reported = set(by_path)
    if final:
        send(final)
