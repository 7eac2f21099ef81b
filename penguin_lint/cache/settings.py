"""The settings key that names a cache folder: everything that could change a
verdict without changing a file (the tool's version and code, the schemas,
PyYAML, the configuration, the enabled rules and the run's options).
"""
from __future__ import annotations

import hashlib
import os
import sys
from typing import Iterable

from penguin_lint.cache.records import FORMAT
from penguin_lint.version import __version__


def settings_key(config, rule_codes: Iterable[str], options: dict) -> str:
    h = hashlib.blake2b(digest_size=16)
    parts = [f"format {FORMAT}", f"version {__version__}", f"python {sys.version_info[:2]}",
             _code_stamp(), _schema_stamp(), f"yaml {_yaml_stamp()}", repr(config),
             " ".join(sorted(rule_codes)),
             repr(sorted((k, repr(v)) for k, v in options.items() if not k.startswith("_")))]
    for p in parts:
        h.update(p.encode("utf-8", "surrogatepass"))
        h.update(b"\0")
    return h.hexdigest()


# The code that verdicts come from (reporters and the command line only
# print them).
_VERDICT_MODULES = ("findings.py", "suppressions.py", "pr/history.py")
_VERDICT_PACKAGES = ("core", "engine", "loaders", "rules", "validation")


def _code_stamp() -> str:
    # An edited checkout (an editable install) must not reuse the verdicts
    # of the code before the edit: the size and time stamp of every module.
    base = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # the package
    paths = [os.path.join(base, m) for m in _VERDICT_MODULES]
    for pkg in _VERDICT_PACKAGES:
        try:
            with os.scandir(os.path.join(base, pkg)) as it:
                paths += [de.path for de in it if de.name.endswith(".py")]
        except OSError:
            pass
    out = []
    for path in sorted(paths):
        try:
            st = os.stat(path)
        except OSError:
            continue
        out.append(f"{os.path.relpath(path, base)} {st.st_size} {st.st_mtime_ns}")
    return "\n".join(out)


def _schema_stamp() -> str:
    from penguin_lint.core.layout import FILE_KINDS
    from penguin_lint.validation.schema import _load_schema_text

    h = hashlib.blake2b(digest_size=16)
    for kind in sorted(FILE_KINDS):
        name = FILE_KINDS[kind]
        if not name:
            continue
        try:
            h.update(f"{kind}={name}\0".encode() + _load_schema_text(name).encode("utf-8") + b"\0")
        except OSError:
            h.update(f"{kind}=missing\0".encode())
    return h.hexdigest()


def _yaml_stamp() -> str:
    # PyYAML's files, found without importing it (a run whose verdicts all
    # come from the cache never parses YAML): another version or a build
    # without libyaml has other files
    import importlib.util

    spec = importlib.util.find_spec("yaml")
    out = []
    for folder in (spec.submodule_search_locations or []) if spec is not None else []:
        try:
            with os.scandir(folder) as it:
                for de in it:
                    if de.name.endswith((".py", ".so", ".pyd")):
                        st = de.stat()
                        out.append(f"{de.name} {st.st_size} {st.st_mtime_ns}")
        except OSError:
            pass
    return " ".join(sorted(out))
