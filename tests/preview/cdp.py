"""A small Chrome DevTools Protocol client over ``--remote-debugging-pipe``
(the standard library only): headless Chromium reads commands on fd 3 and
writes replies and events on fd 4, each a JSON text ended by a NUL byte.
No port is opened; the browser's profile is a temporary folder."""
from __future__ import annotations

import base64
import fcntl
import json
import os
import select
import shutil
import struct
import subprocess
import tempfile
import time
import zlib
from typing import Dict, List, Optional

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--remote-debugging-pipe", "--no-first-run",
         "--no-default-browser-check", "--disable-extensions", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--disable-default-apps", "--mute-audio",
         "--hide-scrollbars", "--window-size=1280,1800"]


def chromium() -> Optional[str]:
    return shutil.which("chromium") or shutil.which("chromium-browser")


class Browser:
    def __init__(self, exe: str, timeout: float = 60.0):
        self.deadline = time.monotonic() + timeout
        self.profile = tempfile.mkdtemp(prefix="pl-chromium-")
        to_chrome_r, self._w = os.pipe()
        self._r, from_chrome_w = os.pipe()
        # parked above 10 so that moving them to 3 and 4 in the child cannot clobber one with the other
        a, b = fcntl.fcntl(to_chrome_r, fcntl.F_DUPFD, 10), fcntl.fcntl(from_chrome_w, fcntl.F_DUPFD, 10)
        os.close(to_chrome_r)
        os.close(from_chrome_w)

        def fds():
            os.dup2(a, 3)
            os.dup2(b, 4)
        self.proc = subprocess.Popen([exe, *FLAGS, f"--user-data-dir={self.profile}", "about:blank"],
                                     stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL, pass_fds=(3, 4), preexec_fn=fds)
        os.close(a)
        os.close(b)
        self._buf = b""
        self._id = 0
        self.events: List[dict] = []
        self.session: Optional[str] = None

    def close(self) -> None:
        try:
            self.send("Browser.close", session=False)
        except Exception:
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        os.close(self._w)
        os.close(self._r)
        shutil.rmtree(self.profile, ignore_errors=True)

    def _read(self) -> dict:
        while b"\0" not in self._buf:
            left = self.deadline - time.monotonic()
            if left <= 0 or not select.select([self._r], [], [], left)[0]:
                raise TimeoutError("the browser did not answer in time")
            chunk = os.read(self._r, 1 << 20)
            if not chunk:
                raise EOFError("the browser closed its pipe")
            self._buf += chunk
        msg, self._buf = self._buf.split(b"\0", 1)
        return json.loads(msg)

    def send(self, method: str, session: bool = True, **params) -> dict:
        self._id += 1
        msg: Dict[str, object] = {"id": self._id, "method": method, "params": params}
        if session and self.session:
            msg["sessionId"] = self.session
        os.write(self._w, json.dumps(msg).encode() + b"\0")
        while True:
            reply = self._read()
            if reply.get("id") == self._id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply.get("result", {})
            self.events.append(reply)

    def wait_for(self, method: str) -> dict:
        for e in self.events:
            if e.get("method") == method:
                return e
        while True:
            e = self._read()
            self.events.append(e)
            if e.get("method") == method:
                return e

    def open(self, url: str) -> None:
        """A new tab, every domain that reports requests and errors on, then ``url`` loaded."""
        target = self.send("Target.createTarget", url="about:blank")["targetId"]
        self.session = self.send("Target.attachToTarget", targetId=target, flatten=True)["sessionId"]
        for domain in ("Page", "Network", "Runtime", "Log", "DOM", "CSS"):
            self.send(f"{domain}.enable")
        self.send("Page.navigate", url=url)
        self.wait_for("Page.loadEventFired")
        # one document for the whole test: asking for it again forgets every node id given before
        self._root = self.send("DOM.getDocument", depth=-1)["root"]["nodeId"]

    def select(self, selector: str) -> List[int]:
        return self.send("DOM.querySelectorAll", nodeId=self._root, selector=selector)["nodeIds"]

    def style(self, node: int, name: str) -> str:
        props = self.send("CSS.getComputedStyleForNode", nodeId=node)["computedStyle"]
        return next(p["value"] for p in props if p["name"] == name)

    def click(self, node: int) -> None:
        self.send("DOM.scrollIntoViewIfNeeded", nodeId=node)
        quad = self.send("DOM.getBoxModel", nodeId=node)["model"]["content"]
        x, y = sum(quad[0::2]) / 4, sum(quad[1::2]) / 4
        for kind in ("mousePressed", "mouseReleased"):
            self.send("Input.dispatchMouseEvent", type=kind, x=x, y=y, button="left", clickCount=1)

    def screenshot(self, scale: float = 0.25) -> bytes:
        """The whole page, at ``scale`` (small enough to decode in Python)."""
        size = self.send("Page.getLayoutMetrics")["cssContentSize"]
        clip = {"x": 0, "y": 0, "width": size["width"], "height": size["height"], "scale": scale}
        return base64.b64decode(self.send("Page.captureScreenshot", format="png", clip=clip,
                                          captureBeyondViewport=True)["data"])


def png_pixels(data: bytes):
    """(width, height, rows of RGB(A) tuples) of an 8-bit RGB or RGBA PNG."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, width = 8, b"", 0
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", body[:10])
            assert depth == 8 and colour in (2, 6), (depth, colour)
            bpp = 3 if colour == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    raw, stride, prev, rows = zlib.decompress(idat), width * bpp, bytearray(width * bpp), []
    for y in range(height):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            pred = (0, a, b, (a + b) // 2)[f] if f < 4 else (
                a if abs(b - c) <= abs(a - c) and abs(b - c) <= abs(a + b - 2 * c)
                else b if abs(a - c) <= abs(a + b - 2 * c) else c)
            line[i] = (line[i] + pred) & 0xFF
        rows.append([tuple(line[i:i + 3]) for i in range(0, stride, bpp)])
        prev = line
    return width, height, rows
