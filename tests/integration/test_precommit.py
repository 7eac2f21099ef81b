"""The hooks of .pre-commit-hooks.yaml under the real pre-commit framework.

The hook repository is a git copy of this checkout; pre-commit builds its
environment from it (a pip install, so this needs the package index) once
for the module.
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

pytest.importorskip("pre_commit")

from penguin_lint.version import __version__  # noqa: E402
from tests.conftest import VALID, write_repo  # noqa: E402

PROJECT = Path(__file__).resolve().parents[2]
TASK = "packages/bench-a/CASE-001-one/task_config.toml"
SKIP = shutil.ignore_patterns(".git", "__pycache__", ".pytest_cache", ".benchmarks", ".hypothesis",
                              "*.egg-info", "build", "dist", ".venv", "bench-work")


def run(cwd: Path, *args: str, env=None, check=True) -> subprocess.CompletedProcess:
    proc = subprocess.run(list(args), cwd=cwd, env=env, capture_output=True, text=True, timeout=300)
    if check:
        assert proc.returncode == 0, f"{args}: {proc.stdout}\n{proc.stderr}"
    return proc


@pytest.fixture(scope="module")
def env(tmp_path_factory):
    home = tmp_path_factory.mktemp("home")
    e = dict(os.environ)
    e.update({"GIT_AUTHOR_NAME": "T", "GIT_AUTHOR_EMAIL": "t@example.com",
              "GIT_COMMITTER_NAME": "T", "GIT_COMMITTER_EMAIL": "t@example.com",
              "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": os.devnull,
              # one hook environment for the whole module
              "PRE_COMMIT_HOME": str(home / "pre-commit"), "PIP_DISABLE_PIP_VERSION_CHECK": "1",
              "NO_COLOR": "1"})
    e.pop("PRE_COMMIT_COLOR", None)
    return e


@pytest.fixture(scope="module")
def hook_repo(tmp_path_factory, env):
    """This checkout as a git repository, the way pre-commit fetches hooks."""
    dest = tmp_path_factory.mktemp("hooks") / "penguin-lint"
    shutil.copytree(PROJECT, dest, ignore=SKIP, symlinks=True)
    if not (dest / "README.md").exists():
        (dest / "README.md").write_text("# penguin-lint\n")  # the package metadata reads it
    run(dest, "git", "init", "-q", "-b", "main", env=env)
    run(dest, "git", "add", "-A", env=env)
    run(dest, "git", "commit", "-q", "-m", "hooks", env=env)
    # released as the docs pin it: the tag of this version
    run(dest, "git", "tag", "-a", f"v{__version__}", "-m", f"penguin-lint {__version__}", env=env)
    sha = run(dest, "git", "rev-parse", "HEAD", env=env).stdout.strip()
    return dest, sha


README_URL = "https://github.com/<owner>/penguin-lint"


def readme_config() -> str:
    """The .pre-commit-config.yaml of the README and docs/pre-commit.md (the same), as a user copies it."""
    found = []
    for page in ("README.md", "docs/pre-commit.md"):
        text = (PROJECT / page).read_text(encoding="utf-8")
        (block,) = [b for b in re.findall(r"```yaml\n(.*?)```", text, re.S) if b.startswith("repos:")]
        found.append(block)
    assert found[0] == found[1]
    return found[0]


def test_readme_snippet_pins_the_release_and_says_where_the_url_goes():
    config = yaml.safe_load(readme_config())
    (repo,) = config["repos"]
    assert repo["repo"] == README_URL and repo["rev"] == f"v{__version__}"
    assert [h["id"] for h in repo["hooks"]] == ["penguin-lint", "penguin-lint-fix", "penguin-lint-all"]
    # pre-commit shows a passing hook's output only when it is verbose: the notices need it
    assert repo["hooks"][0].get("verbose") is True
    for page in ("README.md", "docs/pre-commit.md"):
        readme = (PROJECT / page).read_text(encoding="utf-8")
        assert "v0.1.0" not in readme and "Prism-Shadow" not in readme


@pytest.fixture
def target(tmp_path, hook_repo, env):
    path, _ = hook_repo
    # The README's snippet, with this checkout's copy (tagged as released) as the repository.
    config = readme_config().replace(README_URL, str(path))
    assert yaml.safe_load(config)["repos"][0]["rev"] == f"v{__version__}"
    root = write_repo(tmp_path / "bench repo", {"README.md": "# benchmarks\n"}, VALID)
    (root / ".pre-commit-config.yaml").write_text(config)
    run(root, "git", "init", "-q", "-b", "main", env=env)
    run(root, "git", "add", "-A", env=env)
    run(root, "git", "commit", "-q", "-m", "base", env=env)
    run(root, sys.executable, "-m", "pre_commit", "install", env=env)
    return root


def test_bad_staged_file_fails_the_commit_good_one_passes(target, env):
    (target / TASK).write_text('id = "CASE-001-one"\ntitle = "One"\n')
    run(target, "git", "add", TASK, env=env)
    proc = run(target, "git", "commit", "-m", "break", env=env, check=False)
    out = proc.stdout + proc.stderr
    assert proc.returncode != 0, out
    assert f"{TASK}:1:1: PL101 missing required field 'description'" in out
    assert "penguin-lint" in out and "Failed" in out

    (target / TASK).write_text('id = "CASE-001-one"\ntitle = "One"\ndescription = "Better."\n')
    run(target, "git", "add", TASK, env=env)
    proc = run(target, "git", "commit", "-m", "fix", env=env, check=False)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "fix" in run(target, "git", "log", "-1", "--format=%s", env=env).stdout


def test_hook_sees_only_data_files_and_the_repository_as_context(target, env):
    # A file outside the layout is not passed to the hook at all.
    (target / "README.md").write_text("# still fine\n")
    run(target, "git", "add", "README.md", env=env)
    proc = run(target, sys.executable, "-m", "pre_commit", "run", "penguin-lint", env=env, check=False)
    assert proc.returncode == 0 and "(no files to check)Skipped" in proc.stdout, proc.stdout
    # A staged summary is judged against attempt files the hook was not given.
    summary = "experiments/lb/exp-1/test/summary.yaml"
    (target / summary).write_text("n_attempt: 2\nscore_mean: 40.0\nscore_std: 0.0\n")
    run(target, "git", "add", summary, env=env)
    proc = run(target, sys.executable, "-m", "pre_commit", "run", "penguin-lint", env=env, check=False)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 1, out
    assert f"{summary}:2:13: PL303" in out


def test_published_in_a_commit_is_a_warning_not_a_failure(target, env):
    lb = "leaderboards/lb/leaderboard.yaml"
    (target / lb).write_text((target / lb).read_text().replace("status: draft", "status: published"))
    run(target, "git", "add", lb, env=env)
    proc = run(target, sys.executable, "-m", "pre_commit", "run", "--verbose", env=env, check=False)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0, out
    assert f"{lb}:2:9: PL501" in out


def test_manual_hook_lints_the_whole_repository(target, env):
    bench = "packages/bench-a/benchmark_config.toml"
    (target / bench).write_text((target / bench).read_text().replace('"1.0.0"', '"1.0"'))
    run(target, "git", "commit", "-q", "--no-verify", "-am", "old problem", env=env)
    # The commit hook does not run it ...
    proc = run(target, sys.executable, "-m", "pre_commit", "run", "--all-files", "penguin-lint-all", env=env,
               check=False)
    assert "No hook with id `penguin-lint-all` in stage `pre-commit`" in proc.stdout
    # ... maintainers do.
    proc = run(target, sys.executable, "-m", "pre_commit", "run", "--hook-stage", "manual", "penguin-lint-all",
               env=env, check=False)
    assert proc.returncode == 1, proc.stdout
    assert f"{bench}:4:11: PL203" in proc.stdout


def test_benchmarks_in_a_folder_of_the_repository(tmp_path, hook_repo, env):
    path, _ = hook_repo
    config = readme_config().replace(README_URL, str(path))
    top = tmp_path / "mono repo"
    write_repo(top / "bench", {}, VALID)
    (top / ".pre-commit-config.yaml").write_text(config)
    (top / "README.md").write_text("# several things, the benchmarks in bench/\n")
    run(top, "git", "init", "-q", "-b", "main", env=env)
    run(top, "git", "add", "-A", env=env)
    run(top, "git", "commit", "-q", "-m", "base", env=env)
    run(top, sys.executable, "-m", "pre_commit", "install", env=env)
    (top / "bench" / TASK).write_text('id = "CASE-001-one"\ntitle = "One"\n')
    run(top, "git", "add", "-A", env=env)
    proc = run(top, "git", "commit", "-m", "break", env=env, check=False)
    out = proc.stdout + proc.stderr
    assert proc.returncode != 0, out
    assert f"{TASK}:1:1: PL101 missing required field 'description'" in out


def test_hook_definitions():
    hooks = {h["id"]: h for h in yaml.safe_load((PROJECT / ".pre-commit-hooks.yaml").read_text())}
    main, full = hooks["penguin-lint"], hooks["penguin-lint-all"]
    assert main["language"] == full["language"] == "python"
    assert main["require_serial"] is True
    # every entry added under the layout, links and executables included, judged from the index
    assert main["types"] == [] and set(main["types_or"]) == {"file", "symlink", "directory"}
    assert main["entry"].split()[1:] == ["--staged"]
    assert main.get("pass_filenames", True) is True
    assert full["pass_filenames"] is False and full["stages"] == ["manual"]
    assert full["entry"].split()[-1] == "--all"


def test_old_errors_elsewhere_do_not_block_a_commit_that_breaks_nothing(target, env):
    # Old debt on the branch: an attempt naming a task the benchmark never had.
    attempt = "experiments/lb/exp-1/test/attempt-2.yaml"
    (target / attempt).write_text((target / attempt).read_text().replace("CASE-001-one", "CASE-GONE"))
    run(target, "git", "commit", "-q", "--no-verify", "-am", "old debt", env=env)
    # A contributor edits the benchmark's title and a task description only.
    bench = "packages/bench-a/benchmark_config.toml"
    (target / bench).write_text((target / bench).read_text().replace('"Bench A"', '"Bench A, v2"'))
    (target / TASK).write_text('id = "CASE-001-one"\ntitle = "One"\ndescription = "Clearer."\n')
    run(target, "git", "add", bench, TASK, env=env)
    proc = run(target, "git", "commit", "-m", "retitle", env=env, check=False)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0, out
    assert "PL304" not in out
    # The debt is still there for the maintainers' run.
    proc = run(target, sys.executable, "-m", "pre_commit", "run", "--hook-stage", "manual", "penguin-lint-all",
               env=env, check=False)
    assert proc.returncode == 1 and f"{attempt}:3:13: PL304" in proc.stdout, proc.stdout


def test_autoupdate_moves_the_pin_to_the_newest_release(tmp_path, hook_repo, env):
    # docs/pre-commit.md: `pre-commit autoupdate` moves rev: to the newest tag, `--freeze` to
    # its commit with the tag beside it
    path, sha = hook_repo
    root = tmp_path / "bench"
    root.mkdir()
    old = readme_config().replace(README_URL, str(path)).replace(f"rev: v{__version__}", "rev: v0.4.0")
    (root / ".pre-commit-config.yaml").write_text(old)
    run(root, "git", "init", "-q", "-b", "main", env=env)
    run(root, sys.executable, "-m", "pre_commit", "autoupdate", env=env)
    config = (root / ".pre-commit-config.yaml").read_text()
    assert yaml.safe_load(config)["repos"][0]["rev"] == f"v{__version__}"
    assert config == old.replace("rev: v0.4.0", f"rev: v{__version__}")
    run(root, sys.executable, "-m", "pre_commit", "autoupdate", "--freeze", env=env)
    frozen = (root / ".pre-commit-config.yaml").read_text()
    # the id `git rev-parse` gives the tag (an annotated tag's own object, which names the commit)
    tag = run(path, "git", "rev-parse", f"v{__version__}", env=env).stdout.strip()
    assert run(path, "git", "rev-parse", f"{tag}^{{commit}}", env=env).stdout.strip() == sha
    assert f"rev: {tag}  # frozen: v{__version__}" in frozen
