"""Every line penguin-lint writes is sanitized, and no format or the Action
crashes on text that is not valid Unicode (a lone surrogate from JSON)."""
from __future__ import annotations

import json
import re
from pathlib import Path

from penguin_lint.formats import FORMATS
from penguin_lint.github import action
from tests.conftest import lint
from tests.gate.test_hostile import GOOD_META, every_format, hostile

FORGED = ("x\n::add-mask::secret", "y\r\n::stop-commands::tok", "z\u2028::error file=a,line=1::forged")


def _no_command_lines(text: str) -> None:
    for line in re.split(r"\r\n|\r|\n|\u2028|\u2029|\x85", text):
        assert not line.startswith(("::", "##[")), line
        assert "##vso[" not in line.lower(), line  # Azure Pipelines' agent reads it anywhere


def test_nothing_to_lint_warning_prints_config_values_escaped(repo):
    toml = "[layout]\n" + "".join(
        f"{key} = {json.dumps(value)}\n" for key, value in zip(("packages", "leaderboards", "experiments"), FORGED))
    root = repo({".penguin-lint.toml": toml}, base={})
    run = hostile(root, fmt="text", exit_code=2)
    assert run.stderr.count("\n") == 1 and run.stderr.startswith("penguin-lint: error: no ")
    assert "\\n::add-mask::secret" in run.stderr and "\\u2028::error" in run.stderr
    _no_command_lines(run.stderr)


def test_a_folder_named_like_a_workflow_command_cannot_start_a_line(repo):
    root = repo({".penguin-lint.toml": '[layout]\nexperiments = "::error file=a::forged"\n',
                 "::error file=a::forged/lb/exp-1/meta_info.yaml": GOOD_META.replace("algorithm: baseline", "algorithm: 7")})
    run = hostile(root, fmt="text")
    assert "\\x3a:error file=a::forged/lb/exp-1/meta_info.yaml:5:12: PL102" in run.output
    _no_command_lines(run.output)


def test_a_folder_named_like_an_azure_command_starts_none_in_any_format(repo):
    forged = "x##vso[task.setvariable variable=ok]true"
    root = repo({f"experiments/lb/{forged}/meta_info.yaml": GOOD_META.replace("algorithm: baseline", "algorithm: 7")})
    for fmt, run in every_format(root).items():
        assert forged.replace("##", "#\\u0023") in run.output or fmt in ("json", "sarif", "gitlab", "rdjson"), fmt
        for line in run.output.splitlines():  # penguin-lint's own commands only
            assert line.lower().count("##vso[") == line.startswith("##vso[task.logissue "), (fmt, line)
        if fmt in ("json", "sarif", "gitlab", "rdjson"):  # still JSON, and the name read back as it is
            assert forged in json.dumps(json.loads(run.output), ensure_ascii=False), fmt


def test_every_error_line_is_sanitized(repo):
    run = lint(repo({".penguin-lint.toml": 'select = ["PL1"]\n"::error::x\\n::warning::y" = 1\n'}), "--all")
    assert run.code == 2 and run.stderr.count("\n") == 1
    _no_command_lines(run.stderr)


SURROGATE_FILE = "extra/attempt.json"
SURROGATE_CONFIG = '[kinds]\n"extra/*.json" = "attempt"\n'
# JSON may spell a lone surrogate; Python reads it as a str no UTF-8 codec
# takes. The unknown key is PL104 (quoting it), the missing results PL101.
SURROGATE_JSON = '{"score": 50.0,\n "\\ud800": "\\udfff"}\n'



def test_lone_surrogate_in_every_format(repo):
    root = repo({".penguin-lint.toml": SURROGATE_CONFIG, SURROGATE_FILE: SURROGATE_JSON})
    outputs = every_format(root)
    assert set(outputs) == set(FORMATS)
    assert outputs["json"].at("PL104") == [(SURROGATE_FILE, 2)]
    for fmt, run in outputs.items():
        assert "\\ud800" in run.output, fmt
        run.output.encode("utf-8")  # every byte written is UTF-8
    sarif = json.loads(outputs["sarif"].output)
    assert any("\ud800" in r["message"]["text"] for r in sarif["runs"][0]["results"])


def test_lone_surrogate_through_the_action(repo, tmp_path, capfd):
    root = repo({".penguin-lint.toml": SURROGATE_CONFIG, SURROGATE_FILE: SURROGATE_JSON})
    out = tmp_path / "github_output"
    env = {"PATH": "/usr/bin:/bin", "PENGUIN_LINT_ALL": "true", "PENGUIN_LINT_PATH": str(root),
           "PENGUIN_LINT_SARIF": "report.sarif", "GITHUB_OUTPUT": str(out)}
    env["PYTHONPATH"] = str(Path(__file__).resolve().parents[2])
    code = action.main(env)
    captured = capfd.readouterr()
    assert code == 1, captured.err
    assert captured.err == ""
    sarif = json.loads((root / "report.sarif").read_text(encoding="utf-8"))
    assert any("\ud800" in r["message"]["text"] for r in sarif["runs"][0]["results"])
    assert re.search(r"^::warning file=extra/attempt\.json,line=2,.*\\ud800", captured.out, re.M)
    assert "sarif=" in out.read_text() and "errors=" in out.read_text()


def test_a_kinds_glob_over_the_whole_repository_is_something_to_lint(repo):
    root = repo({".penguin-lint.toml": '[kinds]\n"**" = "benchmark_config"\n'})
    run = lint(root, "--all")
    assert "nothing to lint" not in run.stderr and run.stderr == ""
