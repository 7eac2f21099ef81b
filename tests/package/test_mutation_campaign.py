"""The mutation campaign (python -m tests.mutate) on a module of a few lines:
each kind of mutant, run against the tests that reach its line, a change at
module level through a fresh import, the survivors printed with their lines,
the kill rate, and the module left as it was."""
from __future__ import annotations

import subprocess
import sys
import textwrap

from tests.mutate import PROJECT

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


def test_the_campaign_prints_the_survivors_and_the_kill_rate(tmp_path):
    (tmp_path / "calc.py").write_text(CALC)
    (tmp_path / "test_calc.py").write_text(TESTS)
    proc = subprocess.run([sys.executable, "-m", "tests.mutate", "calc", "--root", str(tmp_path),
                           "--tests", "test_calc.py"], cwd=PROJECT, capture_output=True, text=True, timeout=300)
    # sign(0) and sign(1) are never asked: > and >= (0 and 1) agree on what is; return 0 is never run
    assert proc.stdout == textwrap.dedent("""\
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
        """), proc.stderr
    assert proc.returncode == 1
    # LIMIT (module level, a fresh import), the loop, continue and the returns were each caught
    assert "[1/18] line 2: killed (2 tests" in proc.stderr
    assert (tmp_path / "calc.py").read_text() == CALC
    listed = subprocess.run([sys.executable, "-m", "tests.mutate", "calc", "--root", str(tmp_path), "--list"],
                            cwd=PROJECT, capture_output=True, text=True, timeout=60).stdout.splitlines()
    assert len(listed) == 18
    assert listed[14:17] == ["calc.py:17: #14 continue  ->  break in capped",
                             "calc.py:16: #15 if v is None  ->  its branch removed in capped",
                             "calc.py:15: #16 for ... in values  ->  loop removed in capped"]
