"""A small LSP client for the tests: JSON-RPC with Content-Length framing over
the standard input and output of `penguin-lint lsp`, run as a process."""
from __future__ import annotations

import json
import queue
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Callable, Dict, List, Optional, Sequence


def uri_of(path: Path) -> str:
    return path.resolve().as_uri()


class LspClient:
    def __init__(self, cwd: Path, timeout: float = 30.0, env: Optional[Dict[str, str]] = None,
                 python: str = sys.executable, args: Sequence[str] = ()):
        self.timeout = timeout
        # python: the interpreter whose penguin-lint serves (another install's, for the release check)
        self.proc = subprocess.Popen([python, "-m", "penguin_lint", "lsp", *args], cwd=str(cwd), env=env,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self._next_id = 0
        self._messages: "queue.Queue[Optional[dict]]" = queue.Queue()
        self.responses: Dict[int, dict] = {}
        #: uri -> every publishDiagnostics params received, oldest first
        self.diagnostics: Dict[str, List[dict]] = {}
        self.notifications: List[dict] = []
        #: when each of ``notifications`` was read (time.perf_counter())
        self.notification_times: List[float] = []
        self.server_requests: List[dict] = []
        threading.Thread(target=self._read, daemon=True).start()
        self.stderr: List[bytes] = []
        self._stderr_reader = threading.Thread(target=lambda: self.stderr.extend(self.proc.stderr), daemon=True)
        self._stderr_reader.start()

    # -- the wire ------------------------------------------------------------------
    def _read(self) -> None:
        out = self.proc.stdout
        while True:
            headers = {}
            while True:
                line = out.readline()
                if not line:
                    self._messages.put(None)
                    return
                line = line.strip()
                if not line:
                    break
                name, _, value = line.decode("ascii").partition(":")
                headers[name.strip().lower()] = value.strip()
            body = out.read(int(headers["content-length"]))
            self._messages.put(json.loads(body))

    def _send(self, message: dict) -> None:
        body = json.dumps(dict(message, jsonrpc="2.0")).encode("utf-8")
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()

    def _pump(self, done: Callable[[], bool], timeout: Optional[float] = None) -> None:
        deadline = time.monotonic() + (timeout or self.timeout)
        while not done():
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(b"".join(self.stderr).decode("utf-8", "replace")[-2000:])
            try:
                msg = self._messages.get(timeout=left)
            except queue.Empty:
                continue
            if msg is None:
                raise EOFError("the server closed its output: "
                               + b"".join(self.stderr).decode("utf-8", "replace")[-2000:])
            if "id" in msg and "method" not in msg:
                self.responses[msg["id"]] = msg
            elif msg.get("method") == "textDocument/publishDiagnostics":
                self.diagnostics.setdefault(msg["params"]["uri"], []).append(msg["params"])
            elif "id" in msg:  # a request from the server (registrations...): accepted
                self.server_requests.append(msg)
                self._send({"id": msg["id"], "result": None})
            else:
                self.notifications.append(msg)
                self.notification_times.append(time.perf_counter())

    # -- what tests call ---------------------------------------------------------------
    def request(self, method: str, params) -> object:
        self._next_id += 1
        rid = self._next_id
        self._send({"id": rid, "method": method, "params": params})
        self._pump(lambda: rid in self.responses)
        msg = self.responses.pop(rid)
        assert "error" not in msg, msg["error"]
        return msg["result"]

    def notify(self, method: str, params) -> None:
        self._send({"method": method, "params": params})

    def initialize(self, root: Path, encodings=("utf-16",), refresh: bool = False) -> dict:
        """``refresh``: the client says it can be asked to pull diagnostics again."""
        result = self.request("initialize", {
            "processId": None, "rootUri": uri_of(root), "capabilities": {
                "workspace": {"didChangeWatchedFiles": {"dynamicRegistration": True},
                              "diagnostics": {"refreshSupport": refresh}},
                "textDocument": {"publishDiagnostics": {"versionSupport": True},
                                 "diagnostic": {"dynamicRegistration": False},
                                 "codeAction": {"codeActionLiteralSupport": {"codeActionKind": {
                                     "valueSet": ["quickfix", "source.fixAll"]}}}},
                "general": {"positionEncodings": list(encodings)}}})
        self.notify("initialized", {})
        return result

    def wait_diagnostics(self, uri: str, count: int, timeout: Optional[float] = None) -> dict:
        """The ``count``-th diagnostics published for ``uri`` (1: the first)."""
        self._pump(lambda: len(self.diagnostics.get(uri, ())) >= count, timeout)
        return self.diagnostics[uri][count - 1]

    def wait_until(self, uri: str, until: Callable[[list], bool], timeout: Optional[float] = None) -> list:
        """The diagnostics of ``uri`` once the last published satisfy ``until``."""
        def done():
            got = self.diagnostics.get(uri)
            return bool(got) and until(got[-1]["diagnostics"])

        self._pump(done, timeout)
        return self.diagnostics[uri][-1]["diagnostics"]

    def wait_request(self, method: str, timeout: Optional[float] = None) -> dict:
        """The first request the server sent with ``method`` (already answered)."""
        def sent():
            return [r for r in self.server_requests if r.get("method") == method]

        self._pump(lambda: bool(sent()), timeout)
        return sent()[0]

    def published(self, uri: str) -> int:
        return len(self.diagnostics.get(uri, ()))

    def close(self) -> int:
        try:
            self.request("shutdown", None)
            self.notify("exit", None)
            code = self.proc.wait(timeout=10)
            self._stderr_reader.join(timeout=10)
            return code
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
                self.proc.wait()
