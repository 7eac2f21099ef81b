"""--version names the commit penguin-lint was installed from (PEP 610's
direct_url.json), and falls back to the plain version."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from importlib.metadata import PathDistribution
from pathlib import Path

import pytest

from penguin_lint.version import __version__, build_version, installed_commit

SHA = "0123456789abcdef0123456789abcdef01234567"


def fake_distribution(folder: Path, direct_url) -> Path:
    info = folder / f"penguin_lint-{__version__}.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: penguin-lint\nVersion: {__version__}\n")
    if direct_url is not None:
        (info / "direct_url.json").write_text(direct_url if isinstance(direct_url, str) else json.dumps(direct_url))
    return info


def version_line(site: Path) -> str:
    # the fake distribution comes first on the path, as an installed one would be found
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(site), str(Path(__file__).resolve().parents[2])]))
    proc = subprocess.run([sys.executable, "-m", "penguin_lint", "--version"], env=env, cwd=site,
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0 and proc.stderr == "", proc.stderr
    return proc.stdout


def test_version_names_the_commit_of_a_git_install(tmp_path):
    fake_distribution(tmp_path, {"url": "https://github.com/o/penguin-lint.git",
                                 "vcs_info": {"vcs": "git", "commit_id": SHA, "requested_revision": "v0.1.0"}})
    assert version_line(tmp_path) == f"penguin-lint, version {__version__} (commit {SHA[:12]})\n"


@pytest.mark.parametrize("direct_url", [
    None,                                                         # installed from an index
    {"url": "file:///tmp/penguin-lint", "dir_info": {}},          # from a folder: no commit to tell
    "{not json",
    {"url": "x", "vcs_info": {"vcs": "git", "commit_id": "$(reboot)"}},
])
def test_otherwise_the_plain_version(tmp_path, direct_url):
    info = fake_distribution(tmp_path, direct_url)
    assert build_version(PathDistribution(info)) == __version__
    if direct_url is None:
        assert version_line(tmp_path) == f"penguin-lint, version {__version__}\n"


def test_an_editable_install_names_its_checkout_head(tmp_path):
    checkout = tmp_path / "src"
    checkout.mkdir()
    env = dict(os.environ, GIT_AUTHOR_NAME="T", GIT_AUTHOR_EMAIL="t@e", GIT_COMMITTER_NAME="T",
               GIT_COMMITTER_EMAIL="t@e", GIT_CONFIG_NOSYSTEM="1", GIT_CONFIG_GLOBAL=os.devnull)
    git = lambda *a: subprocess.run(["git", *a], cwd=checkout, env=env, check=True,  # noqa: E731
                                    capture_output=True, text=True).stdout.strip()
    git("init", "-q", "-b", "main")
    (checkout / "f").write_text("x")
    git("add", "f")
    git("commit", "-q", "-m", "one")
    head = git("rev-parse", "HEAD")
    info = fake_distribution(tmp_path / "site", {"url": checkout.as_uri(), "dir_info": {"editable": True}})
    assert installed_commit(PathDistribution(info)) == (head, True)
    assert build_version(PathDistribution(info)) == f"{__version__} (editable, commit {head[:12]})"
    git("pack-refs", "--all")  # the branch now lives in packed-refs only
    assert installed_commit(PathDistribution(info)) == (head, True)
