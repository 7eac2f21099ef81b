"""``--format concise``: one line a finding, ``path:line:col: CODE message``,
then one summary line (as ruff's ``--output-format concise``): what editors
that run a command on the buffer read with one pattern."""
from __future__ import annotations

import re

from tests.conftest import VALID, lint, write_repo
from tests.run.test_stdin_filename import lint_stdin

SUMMARY = "experiments/lb/exp-1/test/summary.yaml"
LINE = re.compile(r"^(?P<path>[^:]+):(?P<line>\d+):(?P<col>\d+): (?P<code>PL\d{3}) (?:\[\*\] )?(?P<message>.+)$")


def test_one_line_a_finding_then_the_summary(tmp_path):
    root = write_repo(tmp_path / "r", {
        SUMMARY: "n_attempt: 2\nscore_mean: 40.0\nscore_std: 0.0\n",
        "packages/bench-a/benchmark_config.toml": VALID["packages/bench-a/benchmark_config.toml"]
        .replace('version = "1.0.0"', 'version = "1.0"'),
    }, VALID)
    run = lint(root, "--all", fmt="concise")
    assert run.code == 1
    lines = run.output.splitlines()
    assert lines == [
        "experiments/lb/exp-1/test/summary.yaml:2:13: PL303 [*] score_mean is 40.0 but the 2 attempts average 50",
        "packages/bench-a/benchmark_config.toml:4:11: PL203 'version' is not Semantic Versioning 2.0.0 "
        "(MAJOR.MINOR.PATCH): '1.0'",
        "Found 2 errors, 0 warnings (9 files checked).",
        "[*] 1 fixable with `--fix`.",
    ]
    # the text format says the same findings with hints; its summary is the concise one's
    text = lint(root, "--all", fmt="text").output.splitlines()
    assert "    hint:" in "\n".join(text) and not any(line.startswith("    ") for line in lines)
    assert lines[2:] == text[-2:]


def test_a_clean_buffer_from_standard_input_is_one_summary_line(tmp_path):
    root = write_repo(tmp_path / "r", {}, VALID)
    code, out, _ = lint_stdin(root, (root / SUMMARY).read_text(), "--stdin-filename", SUMMARY, "-",
                              fmt="concise")
    assert code == 0 and out.splitlines() == ["All checks passed (1 file checked, and 1 dependent file re-checked)."]
    code, out, _ = lint_stdin(root, "n_attempt: 2\nscore_mean: 40.0\nscore_std: [\n",
                              "--stdin-filename", SUMMARY, "-", fmt="concise")
    assert code == 1
    *found, summary = out.splitlines()
    assert found and all(LINE.match(f) and f.startswith(SUMMARY + ":") for f in found)
    assert summary.startswith("Found ")
