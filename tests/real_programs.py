"""Tests that drive real programs of the distribution's packages (Chromium,
Neovim): where a program is absent they skip, with a reason that names the
package to install, unless the environment asks for them
(``PENGUIN_LINT_REQUIRE_REAL_PROGRAMS=1``, which ``.ci/run`` sets): then
they fail, so CI never passes without having run them."""
from __future__ import annotations

import os
import shutil

import pytest

REQUIRE = "PENGUIN_LINT_REQUIRE_REAL_PROGRAMS"


def required() -> bool:
    """Whether the environment asks for the real programs."""
    return os.environ.get(REQUIRE, "").strip() not in ("", "0")


def find(*names: str):
    """The path of the first of ``names`` on PATH, or None."""
    for name in names:
        path = shutil.which(name)
        if path:
            return path
    return None


def need(*names: str, package: str) -> str:
    """The program's path; where it is absent, the test skips (or, when
    the environment requires real programs, fails) saying what to install."""
    path = find(*names)
    if path:
        return path
    reason = (f"{names[0]} is not installed: apt-get install {package} "
              f"(.ci/run installs it and sets {REQUIRE}=1, which makes its absence a failure)")
    if required():
        pytest.fail(reason, pytrace=False)
    pytest.skip(reason)
