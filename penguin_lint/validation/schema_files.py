"""The JSON Schemas as files an editor reads (``penguin-lint schemas``).

yaml-language-server and taplo validate with the same schemas as
penguin-lint; a schema association written relative to the repository
(``.vscode/settings.json``, ``.taplo.toml``) needs the files in the
repository: ``--write DIR`` copies them there, ``--path`` says where the
installed ones are.
"""
from __future__ import annotations

import os
import stat
from typing import Iterable, List

from penguin_lint.core.atomic import replace_file
from penguin_lint.core.layout import FILE_KINDS
from penguin_lint.core.outfile import OutputRefused, check_destination
from penguin_lint.validation.schema import _load_schema_text


class SchemaWriteError(Exception):
    """The schemas could not be written (one line says why)."""


def names() -> List[str]:
    """The schema files, ``NAME.json``, one per file kind."""
    return sorted(f"{name}.json" for name in set(FILE_KINDS.values()))


def folder() -> str:
    """The folder the installed schemas are read from."""
    from importlib.util import find_spec

    spec = find_spec("penguin_lint.schemas")
    for candidate in list(spec.submodule_search_locations or ()) if spec is not None else []:
        if all(os.path.isfile(os.path.join(candidate, n)) for n in names()):
            return os.path.abspath(candidate)
    # a source checkout that is not installed
    here = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    return os.path.join(here, "schemas")


def write(dest: str, roots: Iterable[str] = ()) -> List[str]:
    """Copy every schema into folder ``dest`` (made if missing); returns the
    files written. A file there is replaced, never written through a link:
    inside ``roots`` (the repository) no folder on the way may be a link
    either, as for ``--output``."""
    # "dir/" names what the link leads to: islink() would say no
    if os.path.islink(dest.rstrip("/" + os.sep) or dest):
        raise SchemaWriteError(f"{dest} is a symbolic link; give the folder itself")
    for name in names():
        try:
            # each file's path walked as --output's is: a link on the way is refused
            check_destination(os.path.join(dest, name), roots)
        except OutputRefused as e:
            raise SchemaWriteError(f"cannot write {e}") from None
    try:
        os.makedirs(dest, exist_ok=True)
    except OSError as e:
        raise SchemaWriteError(f"cannot make {dest}: {e.strerror}") from None
    if not os.path.isdir(dest):
        raise SchemaWriteError(f"{dest} is not a folder")
    # every destination checked before the first is written: all or nothing
    for name in names():
        path = os.path.join(dest, name)
        try:
            st = os.lstat(path)
        except FileNotFoundError:
            continue
        except OSError as e:
            raise SchemaWriteError(f"cannot write {path}: {e.strerror}") from None
        if not stat.S_ISREG(st.st_mode):
            raise SchemaWriteError(f"{path} exists and is not a regular file; not written")
    out = []
    for name in names():
        path = os.path.join(dest, name)
        data = _load_schema_text(name[:-len(".json")]).encode("utf-8")
        try:
            # the temporary file is renamed over the name: a link there is replaced, not followed
            replace_file(path, data, prefix=f".{name}.", suffix=".tmp", mode=0o644)
        except OSError as e:
            raise SchemaWriteError(f"cannot write {path}: {e.strerror}") from None
        out.append(path)
    return out
