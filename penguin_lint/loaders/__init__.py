"""Read a data file safely and parse it with the loader for its format.

Reading checks what must be checked before parsing: the size (PL004, from
``fstat`` before a byte is read), NUL bytes and UTF-8 (PL005). A byte-order
mark is dropped, as ``yaml.safe_load`` and ``json.loads`` drop one; in TOML,
which ``tomllib`` reads with no mark, it is PL005 too. CRLF line endings are
fine.
"""
from __future__ import annotations

import os
import stat as _stat

from penguin_lint.findings import Position, Problem
from penguin_lint.loaders.document import Document
from penguin_lint.suppressions import find_directives


# Each parser is imported when a file of its format is first read: a run
# whose verdicts all come from the cache imports no YAML or TOML parser.
def load_yaml(text: str, path: str) -> Document:
    # The fast path reads most data files; PyYAML is imported only for the rest.
    from penguin_lint.loaders.yaml_fast import load_fast

    doc = load_fast(text, path)
    if doc is None:
        from penguin_lint.loaders.yaml_loader import load_yaml_events

        doc = load_yaml_events(text, path)
    return doc


def load_toml(text: str, path: str) -> Document:
    from penguin_lint.loaders.toml_loader import load_toml as load

    return load(text, path)


def load_json(text: str, path: str) -> Document:
    from penguin_lint.loaders.json_loader import load_json as load

    return load(text, path)


LOADERS = {".yaml": load_yaml, ".yml": load_yaml, ".toml": load_toml, ".json": load_json}
FORMATS = {".yaml": "yaml", ".yml": "yaml", ".toml": "toml", ".json": "json"}
#: a TOML file that begins with a byte-order mark (--fix removes it)
MARK_MESSAGE = "file starts with a byte-order mark, which tomllib refuses"
MARK_HINT = "save it as UTF-8 without the mark"
_O_FLAGS = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)


def format_of(path: str) -> str | None:
    return FORMATS.get(os.path.splitext(path)[1].lower())


def read_at_most(fd: int, limit: int, size: int = -1) -> bytes:
    """The bytes of open file ``fd``, at most one past ``limit``: a file that
    grew since it was measured is still never read whole. ``size``: what
    ``fstat`` said, so that a file that did not grow is read in one call."""
    if 0 <= size < limit:
        first = os.read(fd, size + 1)
        if len(first) == size:
            return first  # all that fstat measured, and nothing after it
        chunks = [first]
        remaining = limit + 1 - len(first)
    else:
        chunks = []
        remaining = limit + 1
    while remaining > 0:
        chunk = os.read(fd, min(remaining, 1 << 20))
        if not chunk:
            break
        chunks.append(chunk)
        remaining -= len(chunk)
    return b"".join(chunks)


def load_file(abs_path: str, rel_path: str, size_limit: int) -> Document:
    """Load one file. Never raises for bad content; I/O problems become PL001."""
    doc, st = _read_file(abs_path, rel_path, size_limit)
    if st is not None:
        doc.file_stat = (st.st_mtime_ns, st.st_size, st.st_ino, st.st_ctime_ns)
    return doc


def blob_id(data: bytes) -> str:
    """git's object id of a blob of ``data``: the same bytes have the same id
    here and in ``git ls-files -s``."""
    import hashlib  # not every run names files by content

    h = hashlib.sha1(b"blob %d\0" % len(data))
    h.update(data)
    return h.hexdigest()


def _read_file(abs_path: str, rel_path: str, size_limit: int):
    ext = os.path.splitext(rel_path)[1].lower()
    fmt = FORMATS.get(ext, "yaml")
    try:
        # O_NOFOLLOW: a symlink swapped in after the walk is still never followed.
        fd = os.open(abs_path, _O_FLAGS)
    except OSError as e:
        doc = Document(rel_path, fmt)
        doc.problems.append(Problem("PL001", f"cannot read file: {e.strerror}", Position(1, 1)))
        doc.content_id = "unreadable"
        return doc, None
    try:
        st = os.fstat(fd)
        if not _stat.S_ISREG(st.st_mode):
            doc = Document(rel_path, fmt)
            doc.problems.append(Problem("PL001", "not a regular file", Position(1, 1)))
            doc.content_id = "not-a-file"
            return doc, None
        if st.st_size > size_limit:
            doc = Document(rel_path, fmt)
            doc.problems.append(Problem(
                "PL004",
                f"file is {_human(st.st_size)}, over the limit of {_human(size_limit)}",
                Position(1, 1),
                "data files stay small; large raw data belongs under data/<benchmark-id>/",
            ))
            # its verdict depends on the size alone
            doc.content_id = f"size:{st.st_size}"
            return doc, st
        raw = read_at_most(fd, size_limit, st.st_size)
    except OSError as e:
        doc = Document(rel_path, fmt)
        doc.problems.append(Problem("PL001", f"cannot read file: {e.strerror}", Position(1, 1)))
        doc.content_id = "unreadable"
        return doc, None
    finally:
        os.close(fd)
    if len(raw) > size_limit:
        doc = Document(rel_path, fmt)
        doc.problems.append(Problem("PL004", f"file is over the limit of {_human(size_limit)}", Position(1, 1)))
        doc.content_id = f"size:>{size_limit}"
        return doc, None
    doc = load_bytes(raw, rel_path, ext)
    doc.content_id = blob_id(raw)
    # the stat describes these bytes only if the file did not grow meanwhile
    return doc, st if len(raw) == st.st_size else None


def load_bytes(raw: bytes, rel_path: str, ext: str | None = None) -> Document:
    if ext is None:
        ext = os.path.splitext(rel_path)[1].lower()
    fmt = FORMATS.get(ext, "yaml")
    nul = raw.find(b"\0")
    if nul != -1:
        doc = Document(rel_path, fmt)
        line = raw.count(b"\n", 0, nul) + 1
        # columns count characters, not bytes
        col = len(raw[raw.rfind(b"\n", 0, nul) + 1:nul].decode("utf-8", "replace")) + 1
        doc.problems.append(Problem("PL005", "file contains a NUL byte", Position(line, col),
                                    "data files are UTF-8 text"))
        return doc
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        doc = Document(rel_path, fmt)
        line = raw.count(b"\n", 0, e.start) + 1
        col = len(raw[raw.rfind(b"\n", 0, e.start) + 1:e.start].decode("utf-8", "replace")) + 1
        doc.problems.append(Problem("PL005", f"not valid UTF-8 (byte 0x{raw[e.start]:02x})",
                                    Position(line, col), "save the file as UTF-8"))
        return doc
    mark = text.startswith("\ufeff")
    if mark:
        text = text[1:]
    doc = LOADERS.get(ext, load_yaml)(text, rel_path)
    if mark and doc.fmt == "toml":
        # safe_load and json.loads(bytes) drop one mark; tomllib refuses it.
        # The rest is still read, for the findings it has of its own.
        doc.problems.insert(0, Problem("PL005", MARK_MESSAGE, Position(1, 1), MARK_HINT))
    doc.close_problems()
    doc.directives = find_directives(text, doc.fmt)
    return doc


def _human(n: int) -> str:
    for unit in ("B", "KiB", "MiB", "GiB"):
        if n < 1024 or unit == "GiB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024
    return f"{n} B"  # pragma: no cover


def preload() -> None:
    """Import the YAML and TOML parsers now: called before a whole run forks
    its workers, which then share them instead of importing one copy each."""
    import penguin_lint.loaders.toml_loader  # noqa: F401
    import penguin_lint.loaders.yaml_fast  # noqa: F401
