"""Reporters turn findings into bytes; they never know where findings came from."""
from __future__ import annotations

import importlib
from typing import Callable, Optional

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


def files_checked(result) -> str:
    """"3 files checked", with what a pull-request run compared with and
    what --new-only hid: "3 files checked against main (3f2a1c9); 1 older
    finding in touched files not shown"."""
    n = result.files
    text = f"{n} file{'s' if n != 1 else ''} checked"
    compared = getattr(result, "compared_with", None)
    if compared:
        text += f" against {sanitize(compared)}"
    hidden = getattr(result, "hidden", 0)
    if hidden:
        text += f"; {hidden} older finding{'s' if hidden != 1 else ''} in touched files not shown"
    return text


def no_changes(result) -> Optional[str]:
    """"No changes against main (3f2a1c9)." for a pull-request run whose
    change is empty, else None."""
    if getattr(result, "no_changes", False) and not result.findings:
        return f"No changes against {sanitize(result.compared_with)}."
    return None
