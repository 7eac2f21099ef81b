"""--version names the commit the copy that runs comes from: the commit pip
recorded when it installed it from git (PEP 610's direct_url.json beside the
package), or the HEAD of the git checkout it runs from; else the plain version."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from importlib.metadata import PathDistribution
from pathlib import Path

import pytest

from penguin_lint.version import __version__, build_version, installed_commit

SHA = "0123456789abcdef0123456789abcdef01234567"
PROJECT = Path(__file__).resolve().parents[2]
GIT_ENV = dict(os.environ, GIT_AUTHOR_NAME="T", GIT_AUTHOR_EMAIL="t@e", GIT_COMMITTER_NAME="T",
               GIT_COMMITTER_EMAIL="t@e", GIT_CONFIG_NOSYSTEM="1", GIT_CONFIG_GLOBAL=os.devnull)


def fake_distribution(folder: Path, direct_url) -> Path:
    info = folder / f"penguin_lint-{__version__}.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: penguin-lint\nVersion: {__version__}\n")
    if direct_url is not None:
        (info / "direct_url.json").write_text(direct_url if isinstance(direct_url, str) else json.dumps(direct_url))
    return info


def installed(site: Path, direct_url) -> Path:
    """A copy of the package in ``site`` with its dist-info beside it, as pip leaves them."""
    shutil.copytree(PROJECT / "penguin_lint", site / "penguin_lint",
                    ignore=shutil.ignore_patterns("__pycache__"))
    fake_distribution(site, direct_url)
    return site


def version_line(site: Path, cwd: Path) -> str:
    # only ``site`` on the path (-I leaves the current folder and PYTHONPATH out), as the
    # console script runs; the dependencies come from this interpreter's site-packages
    env = dict(os.environ)
    env.pop("PYTHONPATH", None)
    code = f"import sys; sys.path.insert(0, {str(site)!r}); from penguin_lint.cli import main; main()"
    proc = subprocess.run([sys.executable, "-I", "-c", code, "--version"], env=env, cwd=cwd,
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0 and proc.stderr == "", proc.stderr
    return proc.stdout


def git(folder: Path, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=folder, env=GIT_ENV, check=True,
                          capture_output=True, text=True).stdout.strip()


def test_version_names_the_commit_of_a_git_install(tmp_path):
    site = installed(tmp_path / "site", {"url": "https://github.com/o/penguin-lint.git",
                                         "vcs_info": {"vcs": "git", "commit_id": SHA,
                                                      "requested_revision": f"v{__version__}"}})
    # a dist-info planted in the current folder is not the installed copy's: it names nothing
    fake_distribution(tmp_path / "here", {"url": "x", "vcs_info": {"vcs": "git", "commit_id": "f" * 40}})
    assert version_line(site, tmp_path / "here") == f"penguin-lint, version {__version__} (commit {SHA[:12]})\n"


@pytest.mark.parametrize("direct_url", [
    None,                                                         # installed from an index or a wheel
    {"url": "file:///tmp/penguin-lint", "dir_info": {}},          # from a folder: no commit to tell
    "{not json",
    {"url": "x", "vcs_info": {"vcs": "git", "commit_id": "$(reboot)"}},
])
def test_otherwise_the_plain_version(tmp_path, direct_url):
    info = fake_distribution(tmp_path, direct_url)
    assert build_version(PathDistribution(info)) == __version__
    if direct_url is None:
        site = installed(tmp_path / "site", None)
        assert version_line(site, tmp_path) == f"penguin-lint, version {__version__}\n"


def test_code_run_from_a_checkout_names_its_head(tmp_path):
    checkout = tmp_path / "src"
    shutil.copytree(PROJECT / "penguin_lint", checkout / "penguin_lint",
                    ignore=shutil.ignore_patterns("__pycache__"))
    git(checkout, "init", "-q", "-b", "main")
    git(checkout, "add", "-A")
    git(checkout, "commit", "-q", "-m", "one")
    head = git(checkout, "rev-parse", "HEAD")
    assert version_line(checkout, tmp_path) == f"penguin-lint, version {__version__} (checkout, commit {head[:12]})\n"
    git(checkout, "pack-refs", "--all")  # the branch now lives in packed-refs only
    assert version_line(checkout, tmp_path) == f"penguin-lint, version {__version__} (checkout, commit {head[:12]})\n"
    # a linked work tree: .git is a file naming the folder of its HEAD
    git(checkout, "worktree", "add", "-q", "-b", "other", str(tmp_path / "linked"))
    assert version_line(tmp_path / "linked", tmp_path) == \
        f"penguin-lint, version {__version__} (checkout, commit {head[:12]})\n"


def test_an_editable_install_names_its_checkout_head(tmp_path):
    checkout = tmp_path / "src"
    checkout.mkdir()
    git(checkout, "init", "-q", "-b", "main")
    (checkout / "f").write_text("x")
    git(checkout, "add", "f")
    git(checkout, "commit", "-q", "-m", "one")
    head = git(checkout, "rev-parse", "HEAD")
    info = fake_distribution(tmp_path / "site", {"url": checkout.as_uri(), "dir_info": {"editable": True}})
    assert installed_commit(PathDistribution(info)) == (head, True)
    assert build_version(PathDistribution(info)) == f"{__version__} (checkout, commit {head[:12]})"
    git(checkout, "pack-refs", "--all")
    assert installed_commit(PathDistribution(info)) == (head, True)
