"""A test of a real program that is absent skips, naming the package to
install, unless the environment requires real programs (.ci/run): then it fails."""
from __future__ import annotations

from pathlib import Path

import pytest

from tests import real_programs

PROJECT = Path(__file__).resolve().parents[2]


def test_an_absent_program_skips_naming_its_package(monkeypatch, tmp_path):
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.delenv(real_programs.REQUIRE, raising=False)
    with pytest.raises(pytest.skip.Exception, match="apt-get install neovim"):
        real_programs.need("nvim", package="neovim")


@pytest.mark.parametrize("value", ["1", "yes"])
def test_an_absent_program_fails_where_the_environment_requires_it(monkeypatch, tmp_path, value):
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.setenv(real_programs.REQUIRE, value)
    with pytest.raises(pytest.fail.Exception, match="apt-get install chromium"):
        real_programs.need("chromium", "chromium-browser", package="chromium")


def test_a_present_program_is_found(monkeypatch, tmp_path):
    exe = tmp_path / "nvim"
    exe.write_text("#!/bin/sh\n")
    exe.chmod(0o755)
    monkeypatch.setenv("PATH", str(tmp_path))
    assert real_programs.need("nvim", package="neovim") == str(exe)


def test_ci_requires_the_real_programs_it_installs():
    run = (PROJECT / ".ci/run").read_text(encoding="utf-8")
    assert f"export {real_programs.REQUIRE}=1" in run
    assert "missing+=(neovim)" in run and "missing+=(chromium)" in run
