"""The mutation campaign (python -m tests.mutate) on a module of a few lines:
each kind of mutant, run against the tests that reach its line, a change at
module level through a fresh import, the survivors printed with their lines,
the kill rate, and the module left as it was."""
from __future__ import annotations

import textwrap

from tests.mutate import main, mutants

CALC = '''\
"""A module of a few lines."""
LIMIT = 10


def sign(x):
    if x > 0:
        return 1
    if x < 0:
        return -1
    return 0


def capped(values):
    out = []
    for v in values:
        if v is None:
            continue
        out.append(min(v, LIMIT))
    return out
'''
TESTS = '''\
from calc import capped, sign


def test_sign():
    assert sign(5) == 1 and sign(-5) == -1


def test_capped():
    assert capped([3, None, 20]) == [3, 10]
'''


def test_the_campaign_prints_the_survivors_and_the_kill_rate(tmp_path, capfd):
    (tmp_path / "calc.py").write_text(CALC)
    (tmp_path / "test_calc.py").write_text(TESTS)
    assert main(["calc", "--root", str(tmp_path), "--tests", "test_calc.py"]) == 1
    out, err = capfd.readouterr()
    # sign(0) and sign(1) are never asked: > and >= (0 and 1) agree on what is; return 0 is never run
    assert out == textwrap.dedent("""\
        calc.py:6: #1 0  ->  1  [passes 1 tests]
            if x > 0:
        calc.py:6: #2 x > 0  ->  Gt to GtE  [passes 1 tests]
            if x > 0:
        calc.py:8: #6 0  ->  1  [passes 1 tests]
            if x < 0:
        calc.py:8: #7 x < 0  ->  Lt to LtE  [passes 1 tests]
            if x < 0:
        calc.py:10: #11 0  ->  1  [no test reaches it]
            return 0
        calc.py:10: #12 return 0  ->  return None  [no test reaches it]
            return 0
        calc: 12 of 18 mutants killed (67%), 6 survived
        """), err
    # LIMIT (module level: a fresh import), the loop, continue and the returns were each caught
    assert "[1/18] line 2: killed (2 tests" in err
    assert (tmp_path / "calc.py").read_text() == CALC
    listed = [(m.line, m.what, m.function) for m in mutants(tmp_path / "calc.py")]
    assert len(listed) == 18
    assert listed[14:17] == [(17, "continue  ->  break", "capped"),
                             (16, "if v is None  ->  its branch removed", "capped"),
                             (15, "for ... in values  ->  loop removed", "capped")]
