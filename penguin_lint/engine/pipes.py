"""Messages between a process and the ones it forks: each a pickle with its
length in front, so that a reader can take them one at a time as they come
(a worker's units, the language server's whole run) and tell a message cut
short by a process that died from one that arrived whole. Only processes
forked from this one write them: nothing read from a repository is ever
unpickled."""
from __future__ import annotations

import pickle
from typing import Any, BinaryIO, List, Optional

_HEAD = 8


def write_message(out: BinaryIO, message: Any) -> None:
    data = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
    out.write(len(data).to_bytes(_HEAD, "big") + data)
    out.flush()


def take_messages(buffer: bytearray) -> List[Any]:
    """The whole messages at the start of ``buffer``, taken out of it (what
    is left is the start of one still coming)."""
    out = []
    while len(buffer) >= _HEAD:
        size = int.from_bytes(buffer[:_HEAD], "big")
        if len(buffer) < _HEAD + size:
            break
        out.append(pickle.loads(bytes(buffer[_HEAD:_HEAD + size])))
        del buffer[:_HEAD + size]
    return out


def read_message(stream: BinaryIO) -> Optional[Any]:
    """The next message of a blocking stream; None at its end, or where the
    writer died half-way through one."""
    head = stream.read(_HEAD)
    if len(head) < _HEAD:
        return None
    size = int.from_bytes(head, "big")
    data = stream.read(size)
    if len(data) < size:
        return None
    try:
        return pickle.loads(data)
    except Exception:
        return None
