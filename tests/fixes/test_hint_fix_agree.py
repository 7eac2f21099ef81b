"""PL303's hint proposes exactly the text --fix writes, and that text satisfies the rule."""
from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
import yaml

from tests.conftest import lint

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
SUMMARY = "experiments/lb/exp-1/test/summary.yaml"
PHASE = "experiments/lb/exp-1/test"


def attempt(score):
    return f"score: {score}\nresults:\n  - source: CASE-001-one\n    score: {score}\n"


def _proposed(finding):
    m = re.match(r"(?:set|write) (\w+) (?:to|with at least 2 decimals:) (\S+?)(?:,|$| )", finding["hint"])
    assert m, finding["hint"]
    return m.group(1), m.group(2)


def _check_hint_equals_fix(root, path):
    before = lint(root, "--all")
    pl303 = [f for f in before.findings if f["code"] == "PL303" and f["path"] == path]
    assert pl303, before.findings
    proposals = dict(_proposed(f) for f in pl303)
    lint(root, "--all", "--fix")
    text = (root / path).read_text()
    fixed = yaml.safe_load(text)
    for key, proposed in proposals.items():
        # the same text, byte for byte, and so the same value
        assert re.search(rf"^{key}: {re.escape(proposed)}\s*(#.*)?$", text, re.M), (key, proposed, text)
        assert fixed[key] == yaml.safe_load(f"v: {proposed}")["v"]
    after = lint(root, "--all")
    assert [f for f in after.findings if f["code"] == "PL303" and f["path"] == path] == []


def test_examples_repo_hint_is_what_fix_writes(tmp_path):
    root = tmp_path / "repo"
    shutil.copytree(EXAMPLES / "repo", root)
    path = "experiments/code-eval/sql-puzzles-baseline-deepseek-flash-1017-20261030/test/summary.yaml"
    run = lint(root, "--all")
    (hint,) = [f["hint"] for f in run.findings if f["code"] == "PL303"]
    assert hint.startswith("set score_mean to 69.16666666666667")
    _check_hint_equals_fix(root, path)


@pytest.mark.parametrize("mean,std", [
    ("71.67", "1.00"),                    # rounded to 2 decimals
    ("71.6666666667", "1.4433756730"),   # every digit a script printed
    ("71.6666", "1.443"),                 # 4 and 3 decimals
    ("70", "1"),                          # too few decimals
    ("7.1e+1", "1.4e+0"),                 # exponent form
])
def test_hint_and_fix_agree_at_every_precision(repo, mean, std):
    root = repo({SUMMARY: f"n_attempt: 3\nscore_mean: {mean}\nscore_std: {std}\n",
                 f"{PHASE}/attempt-1.yaml": attempt(70.0), f"{PHASE}/attempt-2.yaml": attempt(70.0),
                 f"{PHASE}/attempt-3.yaml": attempt(67.5)})
    _check_hint_equals_fix(root, SUMMARY)


@pytest.mark.parametrize("std", ["45.0", "1.44"])
def test_one_attempt_has_no_spread_and_the_hint_and_fix_say_0(repo, std):
    root = repo({SUMMARY: f"n_attempt: 1\nscore_mean: 70.0\nscore_std: {std}\n",
                 f"{PHASE}/attempt-1.yaml": attempt(70.0), f"{PHASE}/attempt-2.yaml": None})
    (f,) = [f for f in lint(root, "--all").findings if f["code"] == "PL303"]
    assert f["message"] in (f"score_std is {std} but one attempt has no spread: its standard deviation is 0",
                            f"score_std {std} is not the standard deviation of one score, which is 0 "
                            "rounded to 2 decimals (0.00)"), f["message"]
    _check_hint_equals_fix(root, SUMMARY)


@pytest.mark.parametrize("text", ["n_attempt: 1\nscore_mean: 70.0\nscore_std: 0.0\n",
                                  "n_attempt: 1\nscore_mean: 70.0\n"])
def test_one_attempt_with_a_std_of_0_or_none_is_fine(repo, text):
    root = repo({SUMMARY: text, f"{PHASE}/attempt-1.yaml": attempt(70.0), f"{PHASE}/attempt-2.yaml": None})
    assert [f for f in lint(root, "--all").findings if f["code"] == "PL303"] == []


def test_small_values_keep_two_significant_digits(repo):
    root = repo({SUMMARY: "n_attempt: 2\nscore_mean: 0.5\nscore_std: 0.1\n",
                 f"{PHASE}/attempt-1.yaml": attempt(0.000350), f"{PHASE}/attempt-2.yaml": attempt(0.000362)})
    _check_hint_equals_fix(root, SUMMARY)


@pytest.mark.parametrize("written, semver", [("1.0", "1.0.0"), ("2", "2.0.0"), ("1.2", "1.2.0")])
def test_a_bare_version_s_hint_proposes_semver_and_the_fix_does_not_write_a_wrong_one(tmp_path, written, semver):
    import tomllib

    from penguin_lint.rules.pl203_invalid_version import SEMVER

    root = tmp_path / "r"
    shutil.copytree(EXAMPLES / "clean", root, ignore=shutil.ignore_patterns(".penguin-lint-cache"))
    (config,) = root.glob("packages/*/benchmark_config.toml")
    rel = config.relative_to(root).as_posix()
    original = config.read_text()
    config.write_text(re.sub(r'(?m)^version = .*$', f"version = {written}", original))
    run = lint(root, "--all", "--no-cache")
    (f,) = [f for f in run.findings if f["code"] == "PL102" and f["path"] == rel]
    proposal = f["hint"].rpartition("quote it as ")[2]
    value = tomllib.loads(proposal)["version"]  # the proposal parses, as the value the schema wants
    assert value == semver and SEMVER.match(value), f["hint"]
    # quoting as written ("1.0") would only trade PL102 for PL203: --fix leaves it to the author
    before = config.read_text()
    fixed = lint(root, "--all", "--no-cache", "--fix")
    assert config.read_text() == before and fixed.code == 1
    config.write_text(before.replace(f"version = {written}", proposal))
    assert lint(root, "--all", "--no-cache").code == 0
