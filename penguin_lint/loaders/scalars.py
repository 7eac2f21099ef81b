"""One value written as a scalar of a format, and read back.

What a hint proposes and what ``--fix`` writes are the same text: a string
quoted so that the file's own parser (``yaml.safe_load``, ``tomllib``)
reads it back as exactly that string, whatever the name it came from holds
(quotes, backslashes, '#', line breaks, characters YAML refuses raw).
"""
from __future__ import annotations

from typing import Any, Optional

from penguin_lint.loaders import load_bytes

MISSING = object()


def read_scalar(token: str, fmt: str):
    """The value ``token`` stands for, as penguin-lint's loader reads it
    (``MISSING`` when it is not one value)."""
    try:
        raw = (f"k = {token}\n" if fmt == "toml" else f"k: {token}\n").encode("utf-8")
        doc = load_bytes(raw, "x.toml" if fmt == "toml" else "x.yaml")
    except Exception:  # noqa: BLE001 - any failure means "not this value"
        return MISSING
    if not doc.parsed or not isinstance(doc.data, dict) or list(doc.data) != ["k"]:
        return MISSING
    return doc.data["k"]


def same(a, b) -> bool:
    """Equal, and of the same type (1 == 1.0 == True, but a value written
    must not turn one into the other)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return list(a) == list(b) and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    return a == b


def _escaped(ch: str) -> bool:
    """Whether ``ch`` is written as an escape: control characters (TOML
    refuses them raw, YAML refuses C1), YAML's other line breaks (NEL, LS,
    PS, which a quoted scalar folds) and what no UTF-8 file can hold."""
    o = ord(ch)
    return o < 32 or 127 <= o <= 159 or o in (0x2028, 0x2029, 0xFEFF, 0xFFFE, 0xFFFF) or 0xD800 <= o <= 0xDFFF


def quoted(value: str, fmt: str, like: str = '"') -> str:
    """``value`` as a quoted scalar, in the quote style of ``like`` where
    that style can hold it (single quotes hold no escape, nor a quote)."""
    if like.startswith("'") and "'" not in value and not any(_escaped(ch) for ch in value):
        return f"'{value}'"
    out = []
    for ch in value:
        if ch == '"' or ch == "\\":
            out.append("\\" + ch)
        elif _escaped(ch):
            out.append(f"\\u{ord(ch):04x}")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def string_like(value: str, fmt: str, old_token: str) -> str:
    """A string value written the way ``old_token`` was: plain, single- or
    double-quoted (TOML has no plain strings)."""
    if old_token[:1] in ("'", '"'):
        return quoted(value, fmt, old_token[:1])
    if fmt == "yaml" and same(read_scalar(value, "yaml"), value) and not value.startswith(("'", '"')):
        return value
    return quoted(value, fmt)


def written(value: Any, fmt: str, like: str = "") -> Optional[str]:
    """The text a hint proposes for the string ``value`` in a ``fmt`` file,
    in the style of ``like`` ('' plain where YAML reads it back, in a block
    or a flow mapping, "'" or '"'), checked by reading it back; None when no text reads back as it
    (a name that is not UTF-8)."""
    if not isinstance(value, str):
        return None
    if not like and any(c in value for c in ",[]{}"):
        like = '"'  # plain, it would end the flow mapping a value may be written in
    text = string_like(value, fmt, like)
    if same(read_scalar(text, fmt), value):
        return text
    text = quoted(value, fmt)
    return text if same(read_scalar(text, fmt), value) else None


def did_you_mean(name: Any, fmt: str = "yaml") -> Optional[str]:
    """"did you mean 'name'?" for a name a repository gave (a folder, a
    key), quoted so that pasted into a ``fmt`` file it reads back as that
    name; None when no text does."""
    if fmt == "json":  # a JSON file (Harbor rows) writes strings in double quotes only
        import json

        return f"did you mean {json.dumps(name, ensure_ascii=False)}?" if isinstance(name, str) else None
    text = written(name, fmt, "'")
    return None if text is None else f"did you mean {text}?"
