"""Which TOML parser reads data files: tomli where it is the compiled TOML 1.0
parser, else the standard library's tomllib.

tomli's wheels are compiled (mypyc) and parse about twice as fast as tomllib,
which is the same code run by the interpreter. tomli 2.3 and later read TOML
1.1 (newlines in inline tables, ``\\e`` and ``\\x`` escapes, times without
seconds), which the tomllib of the Python versions this tool runs on refuses:
a file this linter passes must load wherever the repository's own tools load
it, so such a tomli is not used.
"""
from __future__ import annotations

import sys


def _toml10(module) -> bool:
    # One escape of TOML 1.1 tells the two apart, with no version metadata to read.
    try:
        module.loads('a = "\\e"')
    except module.TOMLDecodeError:
        return True
    return False


try:
    import tomli as _tomli
except ImportError:  # pragma: no cover - tomli is a dependency
    _tomli = None

if _tomli is not None and getattr(_tomli, "__file__", "").endswith((".so", ".pyd")) and _toml10(_tomli):
    tomllib = _tomli
elif sys.version_info >= (3, 11):
    import tomllib  # noqa: F811
elif _tomli is not None and _toml10(_tomli):  # pragma: no cover
    tomllib = _tomli
else:  # pragma: no cover
    raise ImportError("penguin-lint needs a TOML 1.0 parser: pip install 'tomli<2.3'")

__all__ = ["tomllib"]
