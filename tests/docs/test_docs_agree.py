"""What the documentation says about numbers, speed and pins is what the code, the benchmark
script and the pin files say."""
from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from penguin_lint.rules import get_rule
from tests.conftest import VALID, lint, write_repo

PROJECT = Path(__file__).resolve().parents[2]
SUMMARY = "experiments/lb/exp-1/test/summary.yaml"
# Pages whose figures are what `python -m benchmarks.run` printed (each says so).
BENCHMARK_PAGES = {"docs/performance.md", "docs/security.md"}


def pages():
    return {p.relative_to(PROJECT).as_posix(): p.read_text(encoding="utf-8")
            for p in [PROJECT / "README.md", *sorted((PROJECT / "docs").rglob("*.md"))]}


def exponent_examples():
    """The numbers the docs and PL303's own documentation give as written "in exponent form"."""
    texts = [*pages().values(), get_rule("PL303").doc()]
    found = {m for t in texts for m in re.findall(r"in exponent form\s*\(`([^`]+)`", t)}
    assert found
    return sorted(found)


@pytest.mark.parametrize("written", exponent_examples())
def test_the_exponent_form_example_is_a_number_yaml_reads_as_one(tmp_path, written):
    # The attempts average 50.0 (VALID): the example, 69 or so, is a PL303 mismatch when YAML
    # reads it as a number, and a PL102 wrong type when it reads a string.
    text = VALID[SUMMARY]
    root = write_repo(tmp_path / "r", {SUMMARY: re.sub(r"score_mean: .*", f"score_mean: {written}", text)}, VALID)
    codes = lint(root, "--all", "--no-cache").codes()
    assert "PL102" not in codes and "PL303" in codes, (written, codes)


def test_speed_claims_are_only_the_benchmarks_figures():
    claim = re.compile(r"\b\d+(?:\.\d+)?x\b|twice as fast|times (?:as )?fast", re.I)
    outside = {page: claim.findall(text) for page, text in pages().items()
               if page not in BENCHMARK_PAGES and not page.startswith("docs/rules/")}
    assert {page: found for page, found in outside.items() if found} == {}
    for page in BENCHMARK_PAGES:
        assert "python -m benchmarks.run" in pages()[page]


def test_the_performance_table_is_the_one_the_benchmark_prints():
    script = ast.parse((PROJECT / "benchmarks/whole.py").read_text(encoding="utf-8"))  # rows 1-11
    strings = {n.value for n in ast.walk(script) if isinstance(n, ast.Constant) and isinstance(n.value, str)}
    targets = {s for s in strings if re.match(r"[<>]= ", s)}
    text = pages()["docs/performance.md"]
    rows = [ln.split(" | ") for ln in text.splitlines() if re.match(r"\| \d+ \| ", ln)]
    assert {int(r[0].strip("| ")) for r in rows} == set(range(1, 12))
    for row in rows:
        target = row[-1].strip(" |")
        assert target == "-" or any(t.startswith(target) for t in targets), row


def test_the_google_re2_pins_named_are_the_pin_files():
    constraints = (PROJECT / "action/constraints.txt").read_text(encoding="utf-8")
    pyproject = (PROJECT / "pyproject.toml").read_text(encoding="utf-8")
    pinned = set(re.findall(r"^google-re2==([\d.]+)", constraints, re.M))
    bounds = set(re.findall(r'"google-re2[^"]*<([\d.]+); python_version < .3\.10.', pyproject))
    assert len(pinned) == 2 and len(bounds) == 1
    named = {v for text in pages().values() for v in re.findall(r"\b1\.1\.20\d{6}\b", text)}
    assert named and named <= pinned | bounds, named - pinned - bounds
    (for_39,) = re.findall(r'^google-re2==([\d.]+); python_version < "3.10"', constraints, re.M)
    assert f"the Action pins {for_39} there" in " ".join(pages()["README.md"].split())
