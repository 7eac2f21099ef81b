"""The Action installs only files whose hashes were reviewed: one hashed
requirements file per supported Python (action/requirements-3.X.txt, written
by action/lock.py), installed with pip's --require-hashes, wheels only."""
from __future__ import annotations

import re
import shutil
import sys
from pathlib import Path
from typing import Dict, List

import pytest

from tests.actionstep import PROJECT, step
from tests.github.test_action import SKIP, git_identity, pull_request, runner  # noqa: F401 (fixture)

PYTHONS = ("3.9", "3.10", "3.11", "3.12", "3.13")


def _name(text: str) -> str:
    return re.sub(r"[-_.]+", "-", text.lower())


def hashed_pins(python: str, folder: Path = PROJECT) -> Dict[str, tuple]:
    """name -> (version, [sha256, ...]) of action/requirements-<python>.txt."""
    text = (folder / f"action/requirements-{python}.txt").read_text(encoding="utf-8")
    out: Dict[str, tuple] = {}
    for req in re.sub(r"\\\n", " ", text).splitlines():
        req = req.split("#", 1)[0].strip()
        if not req:
            continue
        m = re.fullmatch(r"([A-Za-z0-9._-]+)==(\S+)((?:\s+--hash=sha256:[0-9a-f]{64})*)", req)
        assert m, f"requirements-{python}.txt: not an exact pin with hashes: {req}"
        hashes: List[str] = re.findall(r"[0-9a-f]{64}", m.group(3))
        out[_name(m.group(1))] = (m.group(2), hashes)
    return out


def test_every_dependency_has_a_hashed_pin_for_every_supported_python():
    try:
        import tomllib
    except ImportError:  # Python < 3.11
        import tomli as tomllib
    from packaging.requirements import Requirement

    project = tomllib.loads((PROJECT / "pyproject.toml").read_text(encoding="utf-8"))
    needed = [Requirement(r) for r in project["project"]["dependencies"] + project["build-system"]["requires"]]
    for python in PYTHONS:
        pins = hashed_pins(python)
        env = {"python_version": python, "python_full_version": python + ".0"}
        for req in needed:
            if req.marker is not None and not req.marker.evaluate(env):
                continue
            name = _name(req.name)
            assert name in pins, f"{req.name} has no pin in action/requirements-{python}.txt (run action/lock.py)"
            version, hashes = pins[name]
            assert hashes, f"{name}=={version} has no hash in action/requirements-{python}.txt"
            assert req.specifier.contains(version), f"{name}=={version} is outside {req} (Python {python})"
        # every pin in one file is a hashed one: pip's hash-checking mode wants them all
        assert all(h for _, h in pins.values()), python
    # google-re2 has no wheels for Python 3.9 past 1.1.20250805
    assert hashed_pins("3.9")["google-re2"][0] != hashed_pins("3.13")["google-re2"][0]


def test_the_install_step_requires_hashes_and_wheels():
    run = step("install")["run"]
    (requirements,) = [ln for ln in run.splitlines() if "-r " in ln]
    assert "--require-hashes" in requirements and "--only-binary :all:" in requirements
    (itself,) = [ln for ln in run.splitlines() if "$GITHUB_ACTION_PATH" in ln and "pip install" in ln]
    assert "--no-deps" in itself and "--no-build-isolation" in itself and "--no-index" in itself
    assert "PIP_CONSTRAINT" not in step("install").get("env", {})


def test_a_file_whose_hash_differs_is_refused_by_the_install_step(tmp_path):
    """The install step as action.yml declares it, with one reviewed hash
    changed: pip refuses to install, the step fails."""
    action = tmp_path / "_actions" / "penguin-lint"
    shutil.copytree(PROJECT, action, ignore=SKIP)
    version = "%d.%d" % sys.version_info[:2]
    path = action / f"action/requirements-{version}.txt"
    text = path.read_text()
    # every hash of click replaced: whatever wheel pip picks matches none
    click = re.search(r"click==\S+ \\\n((?:    --hash=sha256:[0-9a-f]{64}(?: \\)?\n)+)", text)
    assert click, text
    path.write_text(text.replace(click.group(1), re.sub(r"[0-9a-f]{64}", "0" * 64, click.group(1))))
    ws, _ = pull_request(tmp_path)
    run = runner(ws, tmp_path, action_path=action)
    base_python = getattr(sys, "_base_executable", sys.executable)
    run.steps["python"] = {"python-path": base_python, "python-version": "%d.%d.%d" % sys.version_info[:3]}
    prepared = run.run("prepare")
    assert prepared.code == 0, prepared.stderr
    assert prepared.outputs["requirements"] == str(path)
    installed = run.run("install", timeout=600)
    assert installed.code != 0
    assert "DO NOT MATCH THE HASHES" in installed.stderr, installed.stderr
    assert "python" not in installed.outputs


def test_an_unsupported_python_fails_the_prepare_step_with_one_line(tmp_path):
    action = tmp_path / "_actions" / "penguin-lint"
    shutil.copytree(PROJECT, action, ignore=SKIP)
    (action / "action" / f"requirements-{sys.version_info[0]}.{sys.version_info[1]}.txt").unlink()
    ws, _ = pull_request(tmp_path)
    run = runner(ws, tmp_path, action_path=action)
    run.steps["python"] = {"python-path": sys.executable}
    prepared = run.run("prepare")
    assert prepared.code == 2
    assert prepared.commands() == ["::error title=penguin-lint::Python %d.%d is not supported "
                                   "(python-version: 3.9 to 3.13)" % sys.version_info[:2]]


@pytest.mark.parametrize("python", PYTHONS)
def test_the_requirements_follow_the_reviewed_pins(python):
    from packaging.requirements import Requirement

    pins = hashed_pins(python)
    env = {"python_version": python, "python_full_version": python + ".0"}
    expected = {}
    for line in (PROJECT / "action/constraints.txt").read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            req = Requirement(line)
            if req.marker is None or req.marker.evaluate(env):
                expected[_name(req.name)] = list(req.specifier)[0].version
    assert {n: v for n, (v, _) in pins.items()} == expected
