"""Reporters turn findings into bytes; they never know where findings came from."""
from __future__ import annotations

import importlib
from typing import Callable

FORMATS = ("text", "json", "github", "sarif")


def get_reporter(name: str) -> Callable:
    """``report(result, stream, **options)`` for an output format."""
    if name not in FORMATS:
        raise KeyError(name)
    module = importlib.import_module(f"penguin_lint.reporters.{name}_reporter")
    return module.report


def sanitize(text) -> str:
    """Printable text: control characters (terminal escapes, CR, NUL) become
    visible escapes, so file content can never drive the reader's terminal."""
    if text is None:
        return ""
    s = str(text)
    if s.isprintable():
        return s
    out = []
    for ch in s:
        if ch.isprintable() or ch == " ":
            out.append(ch)
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\t":
            out.append("\\t")
        elif ch == "\r":
            out.append("\\r")
        else:
            code = ord(ch)
            out.append(f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}")
    return "".join(out)




# What a CI runner reads as a command when it starts a line: GitHub's
# ``::error ...::`` workflow commands and the older ``##[error]`` form.
_COMMAND_STARTS = ("::", "##[")


def safe_line(text) -> str:
    """One line of output: ``sanitize``d (no line break, no escape sequence
    survives), and unable to start a workflow command even when it begins
    with text from the repository (a folder named ``::error::x``)."""
    s = sanitize(text)
    if s.startswith(_COMMAND_STARTS):
        s = f"\\x{ord(s[0]):02x}" + s[1:]
    return s
