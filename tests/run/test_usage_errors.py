"""Every usage error is one line in the tool's style, naming the option, exit 2;
--select and --ignore take rule names as well as codes."""
from __future__ import annotations

import pytest

from tests.conftest import lint


@pytest.mark.parametrize("args,needle", [
    (("-j", "0", "--all"), "invalid value for '--jobs' / '-j': 0 is not in the range x>=1"),
    (("--jobs", "many", "--all"), "'--jobs' / '-j'"),
    (("--format", "xml", "--all"), "invalid value for '--format': 'xml' is not one of"),
    (("--frmat", "json"), "no such option '--frmat'; did you mean one of: '--format', '--root'?"),
    (("--jbs", "2"), "no such option '--jbs'; did you mean '--jobs'? (see penguin-lint --help)"),
    (("--color",), "option '--color' requires an argument"),
    (("preview", "--format", "x"), "invalid value for '--format'"),
    (("preview", "--committed"), "--committed works with --diff-base"),
    (("--all", "--committed"), "--committed is for a diff run"),
    (("rules", "--bad"), "no such option '--bad'"),
    # (the helper gives --format json)
    (("--all", "--fix", "--diff"), "--diff prints the repairs as a unified diff: give it without --format"),
    (("--all", "--kind", "summary"), "--kind is the kind of the files given on the command line: give their paths"),
    (("--kind", "summary"), "--kind is the kind of the files given on the command line"),
])
def test_a_usage_error_is_one_line_naming_the_option(repo, args, needle):
    root = repo()
    run = lint(root, *args) if args[0] not in ("preview",) else lint(None, *args)
    assert run.code == 2
    lines = run.stderr.splitlines()
    assert len(lines) == 1, run.stderr
    assert lines[0].startswith("penguin-lint: error: ") and needle in lines[0], lines[0]
    assert "Usage:" not in run.stderr and "Try " not in run.stderr and run.output == ""


def test_select_takes_a_rule_name(repo):
    root = repo({"experiments/lb/exp-1/test/summary.yaml": "n_attempt: 2\nscore_mean: 51.0\nscore_std: 0.0\n",
                 "packages/bench-a/benchmark_config.toml": None})
    by_name = lint(root, "--all", "--select", "summary-mismatch")
    by_code = lint(root, "--all", "--select", "PL303")
    assert by_name.code == by_code.code == 1
    assert by_name.codes() == by_code.codes() == ["PL303"]
    ignored = lint(root, "--all", "--ignore", "summary-mismatch,PL3")
    assert "PL303" not in ignored.codes()


def test_a_misspelt_rule_name_gets_its_code_suggested(repo):
    run = lint(repo(), "--all", "--select", "summary-mismatc")
    assert run.code == 2
    assert run.stderr == ("penguin-lint: error: unknown rule code or prefix 'summary-mismatc' in --select; "
                          "did you mean 'summary-mismatch' (PL303)? (see `penguin-lint rules`)\n")


def test_rules_explains_a_rule_by_name():
    run = lint(None, "rules", "summary-mismatch")
    assert run.code == 0 and run.output.startswith("PL303 summary-mismatch")
