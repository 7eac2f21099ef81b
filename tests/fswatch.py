"""A watch on the file system calls penguin-lint makes, for tests and the
fuzz campaign: nothing outside the repository may be opened or listed."""
from __future__ import annotations

import builtins
import importlib.machinery
import os
import site
import sys
from pathlib import Path
from typing import List, Tuple

import penguin_lint


class FsWatch:
    """Records the paths penguin-lint hands to the file system while active.

    ``os.open`` (the loaders), ``os.scandir`` (the repository listing),
    ``os.stat``/``os.lstat``/``os.listdir`` and ``open`` are wrapped; a path
    counts as inside when it resolves into the repository root. ``O_NOFOLLOW``
    opens do not follow their last component, so for them the folder is
    resolved and the name kept; so it is for stat calls, which read no content
    (click stats its path arguments, links included). Stat calls on the
    folders above the root are allowed: resolving ``--root`` walks them.
    """

    NAMES = ("open", "scandir", "stat", "lstat", "listdir")
    # The program's own files (its schemas and rule pages, the interpreter's modules and
    # message catalogues) are not repository content.
    PROGRAM = tuple(sorted({os.path.realpath(p) + os.sep for p in (
        sys.prefix, sys.base_prefix, sys.exec_prefix, *site.getsitepackages(),
        os.path.dirname(penguin_lint.__file__), str(Path(__file__).resolve().parents[1] / "schemas"),
        # the rule pages a finding links to when no address is known (package data)
        str(Path(__file__).resolve().parents[1] / "docs" / "rules"))}))

    # An editable install maps the package of rule pages to docs/rules: finding it,
    # the import system looks for a module of that name beside the folder first.
    PAGE_PROBES = tuple(str(Path(__file__).resolve().parents[1] / "docs" / "rules") + suffix
                        for suffix in importlib.machinery.all_suffixes())

    def __init__(self, root: Path, names=NAMES):
        self.names = names
        self.root = os.path.realpath(root)
        self.calls: List[Tuple[str, str]] = []
        self._saved = {}

    def __enter__(self):
        for name in self.names:
            orig = getattr(os, name)
            self._saved[name] = orig
            setattr(os, name, self._wrap(name, orig))
        self._saved["builtins.open"] = builtins.open
        builtins.open = self._wrap("builtins.open", builtins.open)
        return self

    def __exit__(self, *exc):
        for name, orig in self._saved.items():
            if name == "builtins.open":
                builtins.open = orig
            else:
                setattr(os, name, orig)
        return False

    def _wrap(self, name, orig):
        def wrapper(*args, **kwargs):
            path = args[0] if args else kwargs.get("path", kwargs.get("file", "."))
            flags = args[1] if name == "open" and len(args) > 1 else kwargs.get("flags", 0)
            dir_fd = kwargs.get("dir_fd")
            if dir_fd is not None and isinstance(path, (str, bytes)) and not os.path.isabs(path):
                # relative to a folder the process holds open: where that folder is
                try:
                    path = os.path.join(os.readlink(f"/proc/self/fd/{dir_fd}"), os.fsdecode(path))
                except OSError:
                    pass
            self.calls.append((name, path, flags if isinstance(flags, int) else 0))
            return orig(*args, **kwargs)
        return wrapper

    def outside(self) -> List[Tuple[str, str]]:
        bad = []
        nofollow = getattr(os, "O_NOFOLLOW", 0)
        for name, path, flags in self.calls:
            if isinstance(path, int) or path is None:
                continue  # a descriptor the process already holds
            p = os.fsdecode(os.fspath(path))
            try:
                p = os.path.abspath(p)
                if name in ("stat", "lstat") or (name == "open" and flags & nofollow):
                    real = os.path.join(os.path.realpath(os.path.dirname(p)), os.path.basename(p))
                else:
                    real = os.path.realpath(p)
            except ValueError:  # a NUL byte: no such path can be opened at all
                continue
            if real == self.root or real.startswith(self.root + os.sep) or real.startswith(self.PROGRAM):
                continue
            if name == "stat" and real in self.PAGE_PROBES:
                continue
            if real == os.devnull:
                continue  # subprocesses (git) get it as stdin
            if name in ("stat", "lstat") and any(
                    top.startswith(p.rstrip(os.sep) + os.sep) for top in (self.root + os.sep,) + self.PROGRAM):
                continue  # a folder above the root or the program, passed while resolving them
            if name in ("stat", "lstat") and os.path.basename(p) == ".git" and \
                    (self.root + os.sep).startswith(os.path.dirname(p).rstrip(os.sep) + os.sep):
                continue  # looking for the work tree the root belongs to
            bad.append((name, p))
        return bad
