"""`.penguin-lint.toml` is input from the pull request: every problem in it is
one line on stderr naming its place, exit 2, quickly and in little memory."""
from __future__ import annotations

import resource
import time

import pytest

from penguin_lint.core.config import ConfigError, parse_config
from penguin_lint.rules import rule_codes
from penguin_lint.core.layout import FILE_KINDS
from tests.conftest import lint

CASES = [
    # (config text, expected start of the message after "penguin-lint: error: ")
    ('select = ["PL999"]\n', ".penguin-lint.toml:1:10: unknown rule code or prefix 'PL999' in 'select'"),
    ('ignore = ["PL1", "XX"]\n', ".penguin-lint.toml:1:10: unknown rule code or prefix 'XX' in 'ignore'"),
    ('[per-file-ignores]\n"a/**" = ["PL9"]\n',
     ".penguin-lint.toml:2:10: unknown rule code or prefix 'PL9' in 'per-file-ignores.\"a/**\"'"),
    ('select = ["PL2"]\nignore = ["PL2"]\n', ".penguin-lint.toml:1:10: 'select' and 'ignore' leave no rule enabled"),
    ('ignore = ["PL"]\n', ".penguin-lint.toml:1:10: 'select' and 'ignore' leave no rule enabled"),
    ('ignore = [""]\n', ".penguin-lint.toml:1:10: 'ignore' holds an empty rule code"),
    ('select = 5\n', ".penguin-lint.toml:1:10: 'select' must be a list of rule codes"),
    ('\n[kinds]\n"a/*.yaml" = ["summary"]\n', '.penguin-lint.toml:3:14: kinds."a/*.yaml": a kind is a name, not an array'),
    ('[kinds]\n"a/*.yaml" = 3\n', '.penguin-lint.toml:2:14: kinds."a/*.yaml": a kind is a name, not an integer'),
    ('[layout]\npackages = 5\n', ".penguin-lint.toml:2:12: layout.packages must be a relative folder"),
    ('x = ' + '[' * 1000 + ']' * 1000 + '\n', ".penguin-lint.toml:1:1: nesting deeper than 64 levels"),
    # deep enough for the parser itself to give up: the same message
    ('x = ' + '[' * 100000 + ']' * 100000 + '\n', ".penguin-lint.toml:1:1: nesting deeper than 64 levels"),
    ('x = {' + 'a={' * 100 + '}' * 101 + '\n', ".penguin-lint.toml:1:1: nesting deeper than 64 levels"),
    ('max-file-size = ' + '9' * 5000 + '\n', ".penguin-lint.toml:1:17: number too large to read"),
    ('max-file-size = "100GiB"\n', ".penguin-lint.toml:1:17: 'max-file-size' is at most 64MiB"),
    ('max-file-size = "' + '9' * 5000 + 'MiB"\n', ".penguin-lint.toml:1:17: 'max-file-size' must be a size"),
    ('a' + '.a' * 50_000 + ' = 1\n', ".penguin-lint.toml:1:1: dotted key of more than 64 parts"),
    ('base-branch = "--upload-pack=x"\n', ".penguin-lint.toml:1:15: 'base-branch' must be a branch name"),
    ('select = ["PL1"]\nselect = ["PL2"]\n', ".penguin-lint.toml:2:1: duplicate key 'select'"),
    ('select = [\n', ".penguin-lint.toml:1:11: not valid TOML: Invalid value"),
    ('select = PL1\n', ".penguin-lint.toml:1:10: not valid TOML: Invalid value"),
    ('\n\nfoo = 1\n', ".penguin-lint.toml:3:1: unknown setting 'foo' (known: "),
    ('selct = ["PL1"]\n', ".penguin-lint.toml:1:1: unknown setting 'selct' (did you mean 'select'? known: "),
]


@pytest.mark.parametrize("text,message", CASES, ids=[c[1].split(": ", 1)[1][:40] for c in CASES])
def test_config_error_is_one_line_with_its_place(repo, text, message):
    root = repo({".penguin-lint.toml": text})
    start = time.process_time()
    run = lint(root, "--all")
    assert time.process_time() - start < 2
    assert run.code == 2, run.stderr
    assert run.stderr.startswith("penguin-lint: error: " + message), run.stderr
    assert run.stderr.count("\n") == 1 and "Traceback" not in run.stderr
    assert run.output == ""


def test_config_of_the_base_tree_is_parsed_with_the_same_guards():
    with pytest.raises(ConfigError, match=r"^\.penguin-lint\.toml:1:10: unknown rule code"):
        parse_config(b'select = ["PL999"]\n', FILE_KINDS, rule_codes())
    # the rule codes may be given (a base tree's registry is the running one)
    with pytest.raises(ConfigError, match="unknown rule code or prefix 'PL1'"):
        parse_config(b'select = ["PL1"]\n', FILE_KINDS, known_codes=["PL001"])
    assert parse_config(b'select = ["pl1"]\n', FILE_KINDS, rule_codes()).select == ["PL1"]


def test_config_bigger_than_a_configuration_is_refused_unread(repo):
    root = repo({".penguin-lint.toml": "# " + "x" * (300 * 1024) + "\n"})
    run = lint(root, "--all")
    assert run.code == 2
    assert run.stderr == "penguin-lint: error: .penguin-lint.toml: over 256 KiB, too large for a configuration file\n"


def test_50000_part_dotted_key_in_config_is_quick_and_small():
    text = ("a" + ".a" * 50_000 + " = 1\n").encode()
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    start = time.process_time()
    with pytest.raises(ConfigError, match="dotted key of more than 64 parts"):
        parse_config(text, FILE_KINDS, rule_codes())
    assert time.process_time() - start < 1
    # 46 s and 9.5 GB before the guard
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before < 100 * 1024  # KiB


def test_select_on_the_command_line_that_enables_nothing(repo):
    run = lint(repo(), "--all", "--select", "PL2", "--ignore", "PL2")
    assert run.code == 2
    assert run.stderr == "penguin-lint: error: --select and --ignore leave no rule enabled\n"


def test_symlinked_config_is_an_error_not_followed(repo, tmp_path):
    outside = tmp_path / "outside.toml"
    outside.write_text('select = ["PL2"]\n')
    root = repo()
    (root / ".penguin-lint.toml").symlink_to(outside)
    run = lint(root, "--all")
    assert run.code == 2
    assert run.stderr == ("penguin-lint: error: .penguin-lint.toml: is a symbolic link; "
                          "write the configuration in the file itself\n")
