"""A malformed message from the client, said in one short line.

pygls logs a message it cannot read (a number over 2^31-1, ``params:
null``) with the whole traceback of cattrs' exception group, which a
one-line log turns into several KB of text saying little. Here the message
is still read by pygls' own converter; when it cannot be, pygls' traceback
is left out and one line says what was wrong: the method, and the first
few fields that are not what the protocol says.
"""
from __future__ import annotations

import logging
import re
from typing import List, Optional

from cattrs import transform_error
from cattrs.v import format_exception
from pygls.exceptions import JsonRpcException, JsonRpcInvalidParams
from pygls.protocol import LanguageServerProtocol

# a client may send many bad fields, or a method name of any length
MAX_REASONS = 3
MAX_CHARS = 300


class BadMessage(JsonRpcInvalidParams):
    """A message that does not read as the protocol says (``str()``: why)."""


class Protocol(LanguageServerProtocol):
    def structure_message(self, data):
        try:
            return super().structure_message(data)
        except JsonRpcException as e:
            if not isinstance(data, dict) or "jsonrpc" not in data:
                raise
            raise BadMessage(describe(data, e.__cause__)) from None


class DropTraceback(logging.Filter):
    """Leaves out pygls' own record of a message it could not read (a
    traceback): :class:`Protocol` says it in one line instead."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not str(record.msg).startswith("Unable to deserialize message")


def describe(data: dict, error: Optional[BaseException]) -> str:
    method = data.get("method")
    kind = "request" if "id" in data else "notification"
    what = f"{_clean(method)[:80]} {kind}" if isinstance(method, str) else "message"
    # what a missing object makes cattrs say of its first field is no help
    reasons = ["its params are null"] if "params" in data and data["params"] is None else _reasons(error)
    more = len(reasons) - MAX_REASONS
    text = f"ignored a malformed {what}: " + "; ".join(reasons[:MAX_REASONS]) \
        + (f"; and {more} more" if more > 0 else "")
    text = " ".join(_clean(text).split())
    return text if len(text) <= MAX_CHARS else text[:MAX_CHARS - 3] + "..."


def _reasons(error: Optional[BaseException]) -> List[str]:
    if error is None:
        return ["it does not read as the protocol says"]
    try:
        # "invalid value for type, expected int @ $.params.textDocument.version"
        out = [_wire_names(" ".join(str(r).split())) for r in transform_error(error, path="$", format_exception=_says)]
    except Exception:  # an exception of another shape: its type and first line
        out = []
    if not out:
        first = str(error).splitlines()[0] if str(error) else ""
        out = [f"{type(error).__name__}: {first}"[:120]]
    return out


def _says(error: BaseException, type_) -> str:
    # a validator's ValueError names the bound ("version should be in range
    # [-2147483648:2147483647], but was 2147483648"); cattrs would say "invalid value"
    if type(error) is ValueError and str(error):
        return str(error).splitlines()[0][:160]
    return format_exception(error, type_)


def _wire_names(text: str) -> str:
    """``@ $.params.text_document`` as the client wrote it: ``textDocument``."""
    head, at, path = text.rpartition(" @ ")
    if not at:
        return text
    return head + at + re.sub(r"_([a-z])", lambda m: m.group(1).upper(), path)


def _clean(text: str) -> str:
    """No control character of the client's reaches the log."""
    return "".join(c if c.isprintable() else "?" for c in text)
