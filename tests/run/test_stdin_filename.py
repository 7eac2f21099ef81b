"""``--stdin-filename PATH -``: standard input linted as the file PATH (an
editor's unsaved buffer), the rest of the repository read from disk."""
from __future__ import annotations

import json
import subprocess
import sys

from click.testing import CliRunner

from tests.conftest import VALID, _entry, write_repo

SUMMARY = "experiments/lb/exp-1/test/summary.yaml"
ATTEMPT3 = "experiments/lb/exp-1/test/attempt-3.yaml"


def lint_stdin(root, text, *args, fmt="json"):
    try:
        runner = CliRunner(mix_stderr=False)
    except TypeError:
        runner = CliRunner()
    data = text.encode("utf-8") if isinstance(text, str) else text
    result = runner.invoke(_entry, ["--root", str(root), "--format", fmt, *args], input=data,
                           catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


def test_the_buffer_is_linted_not_the_file_on_disk(tmp_path):
    root = write_repo(tmp_path / "r", {}, VALID)
    on_disk = (root / SUMMARY).read_text()
    code, out, _ = lint_stdin(root, "n_attempt: 2\nscore_mean: 40.0\nscore_std: 0.0\n",
                              "--stdin-filename", SUMMARY, "-")
    assert code == 1
    [f] = json.loads(out)["findings"]
    # named by PATH, checked against the attempt files on disk
    assert (f["path"], f["line"], f["column"], f["code"]) == (SUMMARY, 2, 13, "PL303")
    assert (root / SUMMARY).read_text() == on_disk  # nothing written
    # the file on disk is fine: the buffer decided
    code, out, _ = lint_stdin(root, on_disk, "--stdin-filename", SUMMARY, "-")
    assert code == 0 and json.loads(out)["findings"] == []


def test_a_new_file_not_saved_yet_in_a_new_folder(tmp_path):
    root = write_repo(tmp_path / "r", {}, VALID)
    attempt = "score: 50.0\nresults:\n  - source: CASE-404\n    score: 50.0\n"
    code, out, _ = lint_stdin(root, attempt, "--stdin-filename", ATTEMPT3, "-", fmt="text")
    assert code == 1
    assert f"{ATTEMPT3}:3:13: PL304 source 'CASE-404' is not a task of benchmark 'bench-a'" in out
    assert f"{ATTEMPT3}: PL302 attempt-3.yaml is beyond the 2 attempts" in out
    assert not (root / ATTEMPT3).exists()
    new_dir = "experiments/lb/exp-1/val/summary.yaml"
    code, out, _ = lint_stdin(root, "n_attempt: 1\nscore_mean: [\n", "--stdin-filename", new_dir, "-", fmt="text")
    assert code == 1 and f"{new_dir}:2:14: PL001 YAML does not parse" in out


def test_standard_input_is_read_up_to_the_size_limit(tmp_path):
    root = write_repo(tmp_path / "r", {".penguin-lint.toml": "max-file-size = 2000\n"}, VALID)
    head = "n_attempt: 2\nscore_mean: 50.0\nscore_std: 0.0\n"
    big = head + "#" * (5120 - len(head) - 1) + "\n"  # 5 KiB, the whole of it counted
    code, out, _ = lint_stdin(root, big, "--stdin-filename", SUMMARY, "-", fmt="text")
    assert code == 1
    assert f"{SUMMARY}:1:1: PL004 file is 5.0 KiB, over the limit of 2.0 KiB" in out


def test_a_real_pipe(tmp_path):
    root = write_repo(tmp_path / "r", {}, VALID)
    proc = subprocess.run([sys.executable, "-m", "penguin_lint", "--root", str(root), "--stdin-filename",
                           str(root / SUMMARY), "-"], input=b"n_attempt: 2\nscore_mean: 40.0\nscore_std: 0.0\n",
                          capture_output=True, timeout=60)
    assert proc.returncode == 1, proc.stderr
    assert proc.stdout.decode().startswith(f"{SUMMARY}:2:13: PL303 [*] score_mean is 40.0 but the 2 attempts average 50")


def test_usage_errors_are_one_line(tmp_path):
    root = write_repo(tmp_path / "r", {}, VALID)
    for args, message in [
        (["-"], "'-' (standard input) needs --stdin-filename PATH"),
        (["--stdin-filename", SUMMARY], "--stdin-filename lints standard input: give '-' as the only path"),
        (["--stdin-filename", SUMMARY, "-", "--fix"], "--stdin-filename cannot be combined with"),
        (["--stdin-filename", str(tmp_path / "elsewhere.yaml"), "-"], "--stdin-filename is outside the repository"),
    ]:
        code, out, err = lint_stdin(root, "a: 1\n", *args, fmt="text")
        assert code == 2 and err.startswith(f"penguin-lint: error: {message}"), (args, err)
        assert err.count("\n") == 1


def test_a_path_through_a_link_is_refused_not_followed(tmp_path):
    outside = write_repo(tmp_path / "outside", {"test/attempt-1.yaml": "score: 1\n"})
    root = write_repo(tmp_path / "r", {}, VALID)
    import os

    os.symlink(outside, root / "experiments/lb/exp-9")
    code, out, err = lint_stdin(root, "n_attempt: 1\n", "--stdin-filename", "experiments/lb/exp-9/test/summary.yaml",
                                "-", fmt="text")
    assert code == 2, out
    assert err == ("penguin-lint: error: --stdin-filename is not a file path in the repository: "
                   "experiments/lb/exp-9/test/summary.yaml\n")


def test_the_root_is_found_from_the_file_not_from_where_the_editor_runs(tmp_path):
    root = write_repo(tmp_path / "r", {}, VALID)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    proc = subprocess.run([sys.executable, "-m", "penguin_lint", "--stdin-filename", str(root / SUMMARY), "-"],
                          input=b"n_attempt: 2\nscore_mean: 40.0\nscore_std: 0.0\n", cwd=elsewhere,
                          capture_output=True, timeout=60)
    assert proc.returncode == 1, proc.stderr
    assert proc.stdout.decode().startswith(f"{SUMMARY}:2:13: PL303 [*] score_mean is 40")
