"""The repository with some files' text given instead of read from disk.

An editor lints the buffer it holds, not the file saved on disk
(``penguin-lint --stdin-filename PATH -``): :class:`UnsavedRepository` is the
working tree with the text of those paths put in place. The path need not
exist on disk yet (a new file not saved); every other file, and every
listing, is the working tree's.
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import Dict, Optional

from penguin_lint.core.config import Config
from penguin_lint.core.repo import Entry, Repository, _plain_rel
from penguin_lint.loaders import FORMATS, _human, blob_id, load_bytes
from penguin_lint.loaders.document import Document
from penguin_lint.findings import Position, Problem


class UnsavedRepository(Repository):
    """``texts``: repository path -> (its bytes, at most the size limit and
    one byte more; the full size they had)."""

    def __init__(self, root: Path, config: Config, texts: Dict[str, tuple]):
        super().__init__(root, config)
        self._texts = {rel: (data, size) for rel, (data, size) in texts.items() if _plain_rel(rel)}
        # folder -> the entries the texts add to its listing (a file, the
        # folders leading down to it)
        self._extra: Dict[str, Dict[str, Entry]] = {}
        for rel, (_data, size) in self._texts.items():
            child, parent = rel, rel.rpartition("/")[0]
            self._extra.setdefault(parent, {})[rel.rpartition("/")[2]] = \
                Entry(rel.rpartition("/")[2], False, True, False, False, size)
            while child.count("/"):
                child = parent
                parent = child.rpartition("/")[0]
                name = child.rpartition("/")[2]
                self._extra.setdefault(parent, {}).setdefault(name, Entry(name, True, False, False, False, -1))

    def _scan(self, rel: str) -> Optional[Dict[str, Entry]]:
        out = super()._scan(rel)
        extra = self._extra.get(rel)
        if extra is None:
            return out
        out = dict(out or {})
        for name, e in extra.items():
            here = out.get(name)
            if e.is_file:
                # the text is what the editor holds: it stands in for
                # whatever the disk has there (a file, a link, nothing)
                out[name] = e._replace(executable=bool(here and here.executable))
            elif here is None:
                out[name] = e  # a folder not made yet
            # a link or a file where the path needs a folder: never passed
            # through (it could lead out of the repository); the path is
            # then not in the repository
        return out

    def read_bytes(self, rel: str) -> Optional[bytes]:
        if rel in self._texts:
            return self._texts[rel][0]
        return super().read_bytes(rel)

    def _load(self, rel: str) -> Document:
        if rel not in self._texts:
            return super()._load(rel)
        raw, size = self._texts[rel]
        limit = self.config.size_limit
        if size > limit or len(raw) > limit:
            ext = os.path.splitext(rel)[1].lower()
            doc = Document(rel, FORMATS.get(ext, "yaml"))
            doc.problems.append(Problem(
                "PL004", f"file is {_human(size)}, over the limit of {_human(limit)}", Position(1, 1),
                "data files stay small; large raw data belongs under data/<benchmark-id>/"))
            doc.content_id = f"size:{size}"
            return doc
        doc = load_bytes(raw, rel)
        doc.content_id = blob_id(raw)
        return doc


def read_bounded(stream, limit: int) -> tuple:
    """(at most ``limit + 1`` bytes of ``stream``, how many it held): the
    rest is read through and counted, never held."""
    data = stream.read(limit + 1)
    size = len(data)
    while True:
        chunk = stream.read(1 << 20)
        if not chunk:
            break
        size += len(chunk)
    return data, size
