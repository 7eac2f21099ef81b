"""What GitHub's runner reads as a workflow command in a log, and how every
line penguin-lint writes is kept from being one.

The runner acts on a line that starts with ``::`` (once leading blanks are
trimmed) and on ``##[`` anywhere in a line; Azure Pipelines' agent on
``##vso[`` anywhere in a line. File names, keys and values come
from the pull request: whatever of them reaches stdout, stderr or a report
file passes through here first (``safe_line``, ``LogGuard``).
"""
from __future__ import annotations

import contextlib
import re
import sys


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


# What GitHub's runner reads as a workflow command: a line that starts with
# ``::`` once leading blanks are trimmed, and ``##[`` anywhere in a line.
FORGED = "##["
#: ``##[`` as it is written instead: a visible escape that is also a JSON
#: escape, so the same replacement keeps JSON valid and equal when parsed.
DEFUSED = "#\\u0023["
#: Azure Pipelines' logging command, anywhere in a line (any case, to be safe)
AZURE = re.compile(r"##(?=vso\[)", re.I)
AZURE_PREFIX = "##vso["


def defuse(text: str) -> str:
    """``text`` with no ``##[`` and no ``##vso[`` left in it (the second
    ``#`` written as the same JSON escape)."""
    if FORGED in text:
        text = text.replace(FORGED, DEFUSED)
    if "##" in text:
        text = AZURE.sub("#\\\\u0023", text)
    return text


def _no_command_start(s: str) -> str:
    stripped = s.lstrip()
    if stripped.startswith("::"):
        i = len(s) - len(stripped)
        s = s[:i] + "\\x3a" + s[i + 1:]
    return s


def safe_line(text) -> str:
    """One line of output: ``sanitize``d (no line break, no escape sequence
    survives), and unable to act as a workflow command wherever text from
    the repository sits in it (a folder named ``::error::x``, a value
    ``##[add-mask]x``)."""
    return _no_command_start(defuse(sanitize(text)))


# ``::`` that starts a line once the runner has trimmed its leading blanks
# (the runner ends lines at CR too; ``^`` knows LF only)
_COMMAND_START = re.compile(r"(?m)^(\s*):(?=:)")
_COMMAND_AFTER_CR = re.compile(r"(?<=\r)(\s*):(?=:)")


def guard_block(text: str) -> str:
    """Complete lines of output, each made unable to act as a workflow
    command; other bytes (colours, tabs, JSON) are kept as they are."""
    text = defuse(text)
    if "::" in text:
        text = _COMMAND_START.sub(r"\1\\x3a", text)
        if "\r" in text:
            text = _COMMAND_AFTER_CR.sub(r"\1\\x3a", text)
    return text


def emit_command(stream, line: str) -> None:
    """Write one workflow command of penguin-lint's own (``::error ...``,
    ``##vso[task.logissue ...]``), which a guarded stream lets start its line."""
    getattr(stream, "command", stream.write)(line + "\n")


class LogGuard:
    """A text stream for stdout, stderr and report files: every complete
    line written through it is passed through ``guard_block``, so no
    formatter, error message or library can forge a workflow command in a
    CI log. Only ``command()`` writes a line that starts with ``::``.

    Text is held until a line is complete (``##`` and ``[`` may come in two
    writes) and passed on in blocks, on ``flush()`` and every 64 KiB."""

    BLOCK = 1 << 16

    def __init__(self, stream):
        self._stream = stream
        self._pending = []  # text not passed on yet, in pieces
        self._size = 0
        self._limit = self.BLOCK

    def write(self, text: str) -> int:
        if not isinstance(text, str):
            raise TypeError(f"write() argument must be str, not {type(text).__name__}")
        self._pending.append(text)
        self._size += len(text)
        if self._size >= self._limit:
            self._drain()
        return len(text)

    def _drain(self, everything: bool = False) -> None:
        """Pass on the complete lines held (``everything``: the rest too)."""
        if not self._pending:
            return
        text = "".join(self._pending)
        cut = len(text) if everything else max(text.rfind("\n"), text.rfind("\r")) + 1
        rest = text[cut:]
        self._pending, self._size = ([rest], len(rest)) if rest else ([], 0)
        # a line longer than a block is joined again only once it has doubled
        self._limit = max(self.BLOCK, 2 * self._size)
        if cut:
            self._stream.write(guard_block(text[:cut]))

    def command(self, line: str) -> None:
        body = line[:-1] if line.endswith("\n") else line
        self._drain()
        if self._pending or "\n" in body or "\r" in body:
            self.write(line)  # not a line of its own: no command
            return
        if body.startswith(AZURE_PREFIX):
            # ``##vso[area.event properties]message``: its own prefix only
            self._stream.write(AZURE_PREFIX + defuse(body[len(AZURE_PREFIX):]) + "\n")
            return
        # ``::name properties::message``: the message must carry no ``##[``,
        # and no part of the line Azure's ``##vso[`` (a file property too)
        sep = body.find("::", 2)
        sep = 2 if sep < 0 else sep
        head = AZURE.sub("#\\\\u0023", body[:sep]) if "##" in body[:sep] else body[:sep]
        self._stream.write(head + defuse(body[sep:]) + "\n")

    def finish(self) -> None:
        """Pass on everything held, a last line without a line break too."""
        self._drain(everything=True)

    def flush(self) -> None:
        self._drain()
        self._stream.flush()

    def close(self) -> None:
        self.finish()
        self._stream.close()

    def writelines(self, lines) -> None:
        for line in lines:
            self.write(line)

    def __getattr__(self, name):
        if name == "buffer":  # bytes written there would pass unchecked
            raise AttributeError(name)
        return getattr(self._stream, name)


@contextlib.contextmanager
def guarded_std():
    """stdout and stderr guarded for the duration of a command."""
    saved = sys.stdout, sys.stderr
    # a stream already guarded (a command run from within another) is kept
    guards = [LogGuard(s) if s is not None and not isinstance(s, LogGuard) else None for s in saved]
    sys.stdout, sys.stderr = (g or s for g, s in zip(guards, saved))
    try:
        yield
    finally:
        for g in guards:
            if g is not None:
                try:
                    g.finish()
                    g.flush()
                except (OSError, ValueError):
                    pass
        sys.stdout, sys.stderr = saved
