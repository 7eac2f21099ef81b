"""No output line forges a GitHub workflow command, wherever repository text
sits in it, and no repository text turns into a link, an image, HTML or a
mention in the job summary.

GitHub's runner reads a line as a command when it starts with ``::`` once
leading blanks are trimmed, and when it holds ``##[`` anywhere. The job
summary is rendered with cmark-gfm (GitHub's renderer, with its extensions),
then GitHub links ``@user`` and ``#12`` in the text outside code.
"""
from __future__ import annotations

import json
import re

import pytest

from penguin_lint import action
from penguin_lint.reporters import safe_line
from tests.conftest import lint

LB = "leaderboards/lb/leaderboard.yaml"
META = "experiments/lb/exp-1/meta_info.yaml"
FORGED_STATUS = "##[error file=README.md;line=1]FORGED"
FOLDER = "##[add-mask]x"
# A command of penguin-lint's own: ``::name properties::message``.
OWN_COMMAND = re.compile(r"::(error|warning|notice) [^:]*::(?P<message>.*)\Z")


def runner_lines(text: str):
    """The lines as the runner splits them."""
    return re.split(r"\r\n|\r|\n", text)


def assert_no_forged_command(text: str, commands_allowed: bool = False) -> None:
    for line in runner_lines(text):
        if line.lstrip().startswith("::"):
            m = OWN_COMMAND.match(line)
            assert commands_allowed and m, line
            assert "##[" not in m.group("message"), line
        else:
            assert "##[" not in line, line


def forged_repo(repo):
    return repo({
        LB: f"leaderboard_id: lb\nstatus: '{FORGED_STATUS}'\ntitle: LB\nauthor:\n  name: Lab\n"
            "values:\n  - experiment_id: exp-1\n    phase: test\n",
        f"experiments/{FOLDER}/e/meta_info.yaml": "experiment_id: 7\n",
    })


@pytest.mark.parametrize("fmt", ["text", "json", "github", "sarif"])
def test_forged_value_and_folder_name_in_every_format(repo, fmt):
    run = lint(forged_repo(repo), "--all", fmt=fmt)
    assert run.code == 1
    assert_no_forged_command(run.output, commands_allowed=fmt == "github")
    assert_no_forged_command(run.stderr)
    if fmt == "text":
        assert f"{LB}:2:9: PL103 'status' must be one of draft, published, not '#\\u0023[error file=README.md" \
            in run.output
        assert "experiments/#\\u0023[add-mask]x/e/meta_info.yaml:1:16: PL102" in run.output
    elif fmt == "json":  # escaped as JSON: the same text once parsed
        messages = [f["message"] for f in run.findings]
        assert f"'status' must be one of draft, published, not '{FORGED_STATUS}'" in messages
        assert f"experiments/{FOLDER}/e/meta_info.yaml" in {f["path"] for f in run.findings}
    elif fmt == "sarif":
        doc = json.loads(run.output)
        texts = [r["message"]["text"] for r in doc["runs"][0]["results"]]
        assert any(FORGED_STATUS in t for t in texts)
    else:
        # the file property names the real file; the message is defused
        assert f"::error file=experiments/{FOLDER}/e/meta_info.yaml,line=1," in run.output
        assert "not '#\\u0023[error file=README.md;line=1]FORGED'" in run.output
        assert f"error: experiments/#\\u0023[add-mask]x/e/meta_info.yaml:1:16: PL102" in run.output


def test_a_command_after_leading_blanks_is_one_too(repo):
    # The runner trims leading blanks before it looks for ``::``.
    assert safe_line("   ::error::x") == "   \\x3a:error::x"
    assert safe_line(" a ##[warning]x") == " a #\\u0023[warning]x"


def test_fix_diff_prints_no_comment_or_context_line_as_a_command(repo):
    meta = ("experiment_id: exp-1\nbenchmark_id: bench-a\nharness_name: h\n"
            "# ##[warning]x\nmodel_name: 7\nalgorithm: baseline\ndescription: |\n  ::error::y\n")
    root = repo({META: meta})
    run = lint(root, "--all", "--fix", "--diff", fmt="text")
    assert run.code == 1
    assert '+model_name: "7"' in run.output
    assert " # #\\u0023[warning]x" in run.output and "   \\x3a:error::y" in run.output
    assert_no_forged_command(run.output)


def test_the_action_relays_no_forged_line_from_stderr(capsys):
    action._relay("penguin-lint: warning: ignoring ##[add-mask]x\n  ::error::y\n##[stop-commands]z\n")
    err = capsys.readouterr().err
    assert err == ("penguin-lint: warning: ignoring #\\u0023[add-mask]x\n  \\x3a:error::y\n"
                   "#\\u0023[stop-commands]z\n")


def test_the_action_end_to_end_with_a_forged_config_error(repo, tmp_path, capfd):
    root = repo({".penguin-lint.toml": 'select = ["PL1"]\n"##[add-mask]x" = 1\n'})
    env = {"PATH": "/usr/bin:/bin", "PENGUIN_LINT_ALL": "true", "PENGUIN_LINT_PATH": str(root),
           "GITHUB_OUTPUT": str(tmp_path / "out"), "GITHUB_STEP_SUMMARY": str(tmp_path / "summary")}
    assert action.main(env) == 2
    captured = capfd.readouterr()
    assert "add-mask" in captured.err and "add-mask" in captured.out
    assert_no_forged_command(captured.err)
    assert_no_forged_command(captured.out, commands_allowed=True)


def test_the_guard_judges_whole_lines_and_lets_only_its_own_commands_start_one():
    import io

    from penguin_lint.reporters import DEFUSED, LogGuard, guard_block

    raw = io.StringIO()
    g = LogGuard(raw)
    g.write("a #")  # ``##[`` split over writes
    g.write("#[error]b\n::warning::c\n")
    g.command("::error file=##[x],line=1::d ##[add-mask]e")
    g.write("  ::notice::f")
    g.finish()
    assert raw.getvalue() == ("a #\\u0023[error]b\n\\x3a:warning::c\n"
                              "::error file=##[x],line=1::d #\\u0023[add-mask]e\n  \\x3a:notice::f")
    # JSON keeps its meaning
    doc = json.dumps({"k": "##[x] ###[y]"})
    assert json.loads(guard_block(doc)) == {"k": "##[x] ###[y]"} and "##[" not in guard_block(doc)
    assert DEFUSED == "#\\u0023["
