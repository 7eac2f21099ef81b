"""allow-added-suppressions and approval-label: read and checked like the
other settings, each problem one line naming its place."""
from __future__ import annotations

import pytest

from penguin_lint.core.config import ConfigError, parse_config
from penguin_lint.core.layout import FILE_KINDS
from penguin_lint.rules import rule_codes
from tests.conftest import lint


def parsed(text: str):
    return parse_config(text.encode(), FILE_KINDS, rule_codes())


def test_both_settings_are_read():
    cfg = parsed('allow-added-suppressions = ["PL203", "pl1", "summary-mismatch"]\napproval-label = "lint-exception"\n')
    assert cfg.allow_added_suppressions == ["PL203", "PL1", "PL303"]
    assert cfg.approval_label == "lint-exception"
    assert parsed('allow-added-suppressions = "PL203,PL104"\n').allow_added_suppressions == ["PL203", "PL104"]
    assert parsed("").allow_added_suppressions == [] and parsed("").approval_label is None


@pytest.mark.parametrize("text, message", [
    ('allow-added-suppressions = ["PL999"]\n',
     ".penguin-lint.toml:1:28: unknown rule code or prefix 'PL999' in 'allow-added-suppressions'"),
    ('allow-added-suppressions = ["PL203", "PL001"]\n',
     ".penguin-lint.toml:1:28: 'allow-added-suppressions' names PL001, which no comment can suppress"),
    ("allow-added-suppressions = 3\n",
     ".penguin-lint.toml:1:28: 'allow-added-suppressions' must be a list of rule codes or prefixes"),
    ("approval-label = 1\n", ".penguin-lint.toml:1:18: 'approval-label' must be a label's name"),
    ('approval-label = ""\n', ".penguin-lint.toml:1:18: 'approval-label' must be a label's name"),
    ('approval-label = " padded"\n', ".penguin-lint.toml:1:18: 'approval-label' must be a label's name"),
    ('approval-label = "' + "x" * 51 + '"\n', ".penguin-lint.toml:1:18: 'approval-label' must be a label's name"),
    ('approval-label = "a\\u0007b"\n', ".penguin-lint.toml:1:18: 'approval-label' must be a label's name"),
])
def test_a_bad_value_is_one_line_with_its_place(repo, text, message):
    with pytest.raises(ConfigError) as e:
        parsed(text)
    assert str(e.value).startswith(message), str(e.value)
    run = lint(repo({".penguin-lint.toml": text}), "--all", fmt="text")
    assert run.code == 2
    (line,) = run.stderr.splitlines()
    assert line.startswith("penguin-lint: error: " + message), line
