"""The configuration takes rule lists in the forms the command line takes,
and names the cache folder (cache-dir)."""
from __future__ import annotations

import pytest

from tests.conftest import lint

BAD = {
    # PL104 (an unknown key) and PL203 (not SemVer)
    "packages/bench-a/benchmark_config.toml": """\
        id = "bench-a"
        title = "Bench A"
        description = "A benchmark."
        version = "2026.10.09.1"
        last_update = "2026-10-29T12:00:00Z"
        status = "draft"
        colour = "red"

        [author]
        name = "Lab"
        """,
    "experiments/lb/exp-1/test/summary.yaml": "n_attempt: 2\nscore_mean: 51.0\nscore_std: 0.0\n",
}


@pytest.mark.parametrize("setting", [
    'ignore = "PL104,PL203"',
    'ignore = ["PL104,PL203"]',
    'ignore = ["PL104", "pl203"]',
    'ignore = "unknown-field, invalid-version"',
])
def test_config_takes_what_the_command_line_takes(repo, setting):
    root = repo(BAD)
    by_flag = lint(root, "--all", "--ignore", "PL104,PL203")
    (root / ".penguin-lint.toml").write_text(setting + "\n")
    by_config = lint(root, "--all")
    assert by_config.code == 1, by_config.stderr
    assert by_config.codes() == by_flag.codes() == ["PL303"]


def test_select_by_name_in_config(repo):
    root = repo(dict(BAD, **{".penguin-lint.toml": 'select = "summary-mismatch"\n'}))
    assert lint(root, "--all").codes() == ["PL303"]


@pytest.mark.parametrize("value", ['"../elsewhere"', '"/tmp/x"', '""', '".git/pl"', "3", '"a\\\\b"'])
def test_cache_dir_must_be_a_folder_inside_the_repository(repo, value):
    root = repo({".penguin-lint.toml": f"cache-dir = {value}\n"})
    run = lint(root, "--all")
    assert run.code == 2
    assert run.stderr == (".penguin-lint.toml:1:13: cache-dir must be a relative folder inside the repository, "
                          "outside .git\n").join(["penguin-lint: error: ", ""])


def test_cache_dir_precedence(repo, tmp_path, monkeypatch):
    root = repo({".penguin-lint.toml": 'cache-dir = ".cache/pl"\n'})
    monkeypatch.delenv("PENGUIN_LINT_CACHE_DIR", raising=False)
    first = lint(root, "--all")
    assert first.code == 0 and first.findings == []
    assert (root / ".cache/pl").is_dir() and not (root / ".penguin-lint-cache").exists()
    # the configured folder is the cache, not data: a second run reads it as such
    assert lint(root, "--all").findings == []
    env_dir = tmp_path / "from-env"
    monkeypatch.setenv("PENGUIN_LINT_CACHE_DIR", str(env_dir))
    assert lint(root, "--all").code == 0 and env_dir.is_dir()
    flag_dir = tmp_path / "from-flag"
    assert lint(root, "--all", "--cache-dir", str(flag_dir)).code == 0 and flag_dir.is_dir()
    assert not (root / ".penguin-lint-cache").exists()


def test_a_pull_request_cannot_move_the_cache_of_its_diff_run(repo, git_env, monkeypatch):
    from tests.conftest import pull_request_repo

    monkeypatch.delenv("PENGUIN_LINT_CACHE_DIR", raising=False)
    root = pull_request_repo(repo({".penguin-lint.toml": 'cache-dir = ".cache/base"\n'}))
    (root / ".penguin-lint.toml").write_text('cache-dir = ".cache/pr"\n')
    (root / "experiments/lb/exp-1/test/summary.yaml").write_text("n_attempt: 2\nscore_mean: 51.0\nscore_std: 0.0\n")
    monkeypatch.chdir(root)
    run = lint(root)
    assert sorted(run.codes()) == ["PL303", "PL502"]
    (pl502,) = [f for f in run.findings if f["code"] == "PL502"]
    assert "cache-dir changes from '.cache/base' to '.cache/pr'" in pl502["message"]
    # the base's cache-dir decides; the pull request's is reported, not used
    assert not (root / ".cache/pr").exists()
    assert (root / ".cache/base").is_dir() and not (root / ".penguin-lint-cache").exists()


def test_a_cache_dir_in_or_around_a_layout_folder_is_refused(tmp_path):
    from penguin_lint.core.config import ConfigError, parse_config
    from penguin_lint.core.layout import FILE_KINDS
    from penguin_lint.rules import rule_codes

    for folder in ("packages/zz-cache", "leaderboards", "experiments/.cache", "leaderboard/x"):
        with pytest.raises(ConfigError, match=r"\.penguin-lint\.toml:1:13: cache-dir must lie outside"):
            parse_config(f'cache-dir = "{folder}"\n'.encode(), FILE_KINDS, rule_codes())
    assert parse_config(b'cache-dir = ".cache/penguin-lint"\n', FILE_KINDS, rule_codes()).cache_dir \
        == ".cache/penguin-lint"
