"""The baseline counts lines as findings do: at LF only. A lone CR, NEL,
U+2028 or U+2029 earlier in a file is a character of its line, so the line
a baselined finding's digest is of is the line the finding names, and
editing that line takes it out of the baseline."""
from __future__ import annotations

import pytest

from tests.conftest import VALID, lint, write_repo
from tests.run.test_baseline import ATTEMPT, DEBT

ODD = ["\r", "\x85", "\u2028", "\u2029"]


@pytest.mark.parametrize("odd", ODD, ids=["CR", "NEL", "U+2028", "U+2029"])
def test_editing_a_baselined_line_after_an_odd_break_fails(tmp_path, odd):
    # line 1 holds the odd character in a comment; PL304 is on line 3
    text = f"score: 50.0  # measured{odd}# again\nresults:\n  - source: CASE-404-none\n    score: 50.0\n"
    root = write_repo(tmp_path / "repo", dict(DEBT, **{ATTEMPT: text.encode("utf-8")}), VALID)
    assert lint(root, "--all", "--no-cache").at("PL304") == [(ATTEMPT, 3)]
    assert lint(root, "--all", "--no-cache", "--write-baseline").code == 0
    assert lint(root, "--all", "--no-cache").code == 0
    # the line of the finding edited (the message is the same without its numbers)
    (root / ATTEMPT).write_bytes(text.replace("CASE-404-none", "CASE-405-none").encode("utf-8"))
    run = lint(root, "--all", "--no-cache")
    assert run.code == 1 and run.at("PL304") == [(ATTEMPT, 3)], run.output
    # an edit of another line leaves it baselined
    (root / ATTEMPT).write_bytes(text.replace("score: 50.0\n", "score: 40.0\n").encode("utf-8"))
    assert lint(root, "--all", "--no-cache").code == 0
