"""VS Code's workbench (code-server) driven as a person drives it: keys typed
into headless Chromium over the DevTools protocol (tests/preview/cdp.py),
what the workbench shows read from its page."""
from __future__ import annotations

import base64
import json
import time
from typing import Callable, Optional

from tests.preview.cdp import Browser

# key -> (code, Windows virtual key code) of the keys the tests press
KEYS = {
    "Enter": ("Enter", 13), "Escape": ("Escape", 27), "Backspace": ("Backspace", 8), "Tab": ("Tab", 9),
    "End": ("End", 35), "Home": ("Home", 36), "ArrowDown": ("ArrowDown", 40), "ArrowUp": ("ArrowUp", 38),
    "ArrowRight": ("ArrowRight", 39), "ArrowLeft": ("ArrowLeft", 37), "F1": ("F1", 112), " ": ("Space", 32),
}
MODIFIERS = {"Alt": 1, "Control": 2, "Meta": 4, "Shift": 8}


class Workbench:
    def __init__(self, exe: str, url: str, timeout: float = 240.0, width: int = 1280, height: int = 800):
        self.browser = Browser(exe, timeout=timeout)
        try:
            self.browser.open("about:blank")
            self.browser.send("Emulation.setDeviceMetricsOverride", width=width, height=height,
                              deviceScaleFactor=1, mobile=False)
            self.browser.send("Page.navigate", url=url)
        except BaseException:
            self.browser.close()
            raise

    def close(self) -> None:
        self.browser.close()

    def js(self, expression: str):
        """The value of ``expression`` evaluated in the page (awaited when a promise)."""
        reply = self.browser.send("Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True)
        if "exceptionDetails" in reply:
            raise RuntimeError(f"{expression}: {reply['exceptionDetails']}")
        return reply["result"].get("value")

    def wait(self, expression: str, what: str, timeout: float = 60.0):
        """The first truthy value of ``expression``, polled."""
        deadline = time.monotonic() + timeout
        while True:
            # (a node found is true: as a value it would come back as {})
            value = self.js(f"(v => v instanceof Node ? true : v)({expression})")
            if value:
                return value
            if time.monotonic() > deadline:
                raise AssertionError(f"the workbench never showed {what}")
            time.sleep(0.25)

    def press(self, key: str, *modifiers: str) -> None:
        code, vk = KEYS.get(key, (f"Key{key.upper()}" if len(key) == 1 and key.isalpha() else key, ord(key.upper()[0])))
        mask = sum(MODIFIERS[m] for m in modifiers)
        text = key if len(key) == 1 and not (mask & ~MODIFIERS["Shift"]) else ""
        for kind in ("keyDown", "keyUp"):
            self.browser.send("Input.dispatchKeyEvent", type=kind if text or kind == "keyUp" else "rawKeyDown",
                              key=key, code=code, windowsVirtualKeyCode=vk, nativeVirtualKeyCode=vk,
                              modifiers=mask, **({"text": text} if text and kind == "keyDown" else {}))

    def type(self, text: str) -> None:
        self.browser.send("Input.insertText", text=text)

    def command(self, title: str) -> None:
        """Runs a command from the command palette by its title."""
        self.press("F1")
        self.wait("document.querySelector('.quick-input-widget input')?.matches(':focus')", "the command palette")
        self.type(">" + title if not self.js("document.querySelector('.quick-input-widget input').value") else title)
        self.wait(f"[...document.querySelectorAll('.quick-input-list .monaco-list-row')].some("
                  f"r => r.getAttribute('aria-label')?.includes({json.dumps(title)}))", f"the command {title!r}")
        self.press("Enter")

    def open_file(self, rel: str) -> None:
        """Opens a file of the workspace by Quick Open, as a person does."""
        self.press("p", "Control")
        self.wait("document.querySelector('.quick-input-widget input')?.matches(':focus')", "quick open")
        self.type(rel)
        name = rel.rsplit("/", 1)[-1]
        self.wait(f"[...document.querySelectorAll('.quick-input-list .monaco-list-row')].some("
                  f"r => r.getAttribute('aria-label')?.includes({json.dumps(name)}))", f"{rel} in quick open")
        self.press("Enter")
        self.wait(f"document.querySelector('.tab.active')?.getAttribute('aria-label')?.startsWith({json.dumps(name)})"
                  f" && document.querySelector('.monaco-editor .view-lines')", f"{rel} open")

    def go_to(self, line: int, column: int) -> None:
        self.press("g", "Control")
        self.wait("document.querySelector('.quick-input-widget input')?.matches(':focus')", "go to line")
        self.type(f"{line}:{column}")
        self.press("Enter")
        self.wait_editor_focus()

    def wait_editor_focus(self) -> None:
        self.wait("!!document.activeElement?.closest('.editor-instance') && "
                  "!document.activeElement.closest('.quick-input-widget')", "the editor focused")

    def screenshot(self, path: str) -> None:
        data = self.browser.send("Page.captureScreenshot", format="png", optimizeForSpeed=False)["data"]
        with open(path, "wb") as f:
            f.write(base64.b64decode(data))
