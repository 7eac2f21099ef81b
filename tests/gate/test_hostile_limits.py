"""Bounded memory, positions that editors agree with, numbers that cannot be
numbers, and finding floods (hostile input, second round).

Memory is the peak resident size of a separate penguin-lint process, so
that nothing this test process holds counts; limits are loose (hundreds of
MB), as these machines are noisy.
"""
from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tests.gate.test_hostile import ATTEMPT, BENCH, GOOD_META, META, SUMMARY, every_format, hostile
from tests.conftest import lint

PROJECT = Path(__file__).resolve().parents[2]
MiB = 1024 * 1024

_MEASURE = textwrap.dedent("""\
    import json, resource, sys
    from penguin_lint.cli import main
    code = 0
    try:
        main(sys.argv[2:])
    except SystemExit as e:
        code = e.code or 0
    use = resource.getrusage(resource.RUSAGE_SELF)
    try:  # this process's own peak (ru_maxrss keeps the peak of the one that forked it)
        peak = [int(ln.split()[1]) for ln in open("/proc/self/status") if ln.startswith("VmHWM:")][0]
    except (OSError, IndexError):
        peak = use.ru_maxrss
    with open(sys.argv[1], "w") as out:
        json.dump({"code": code, "peak_mb": peak / 1024, "cpu": use.ru_utime + use.ru_stime}, out)
""")


def measured(root: Path, tmp_path: Path, *args: str) -> dict:
    """Exit status, peak memory (MB) and CPU seconds of one penguin-lint run,
    with its JSON report."""
    stats, report = tmp_path / "stats.json", tmp_path / "report.json"
    proc = subprocess.run(
        [sys.executable, "-c", _MEASURE, str(stats), "--root", str(root), "--format", "json",
         "--output", str(report), *(args or ("--all",))],
        capture_output=True, text=True, timeout=120, cwd=PROJECT)
    assert "Traceback" not in proc.stderr, proc.stderr
    out = json.loads(stats.read_text())
    out["findings"] = json.loads(report.read_text())["findings"] if report.exists() else []
    out["stderr"] = proc.stderr
    return out


def _fill(unit: str, size: int, head: str = "x: [", tail: str = "]\n") -> str:
    return head + ",".join([unit] * ((size - len(head) - len(tail)) // (len(unit) + 1))) + tail


# -- memory under the size limit ---------------------------------------------------------

# Explicit ids: a test id holding the text would be megabytes, and older pytest
# puts the id in an environment variable (PYTEST_CURRENT_TEST) too big to exec with.
@pytest.mark.parametrize("name,text", [
    # 1.05 GB and 1.6 GB before the value budget and the lean position index
    ("60-deep flow mappings", _fill("{a: " * 60 + "1" + "}" * 60, int(4.9 * MiB))),
    ("62-deep flow sequences", _fill("[" * 62 + "1" + "]" * 62, int(4.9 * MiB))),
    ("60-deep JSON objects", _fill('{"a":' * 60 + "1" + "}" * 60, int(4.9 * MiB), '{"x": [', "]}\n")),
], ids=["flow-mappings", "flow-sequences", "json-objects"])
def test_deep_flow_collections_under_the_size_limit_take_little_memory(repo, tmp_path, name, text):
    path = ATTEMPT if not name.startswith("60-deep JSON") else "leaderboard/rows.json"
    root = repo({path: text})
    run = measured(root, tmp_path)
    assert run["code"] == 1, run["stderr"]
    [f] = [f for f in run["findings"] if f["code"] == "PL001"]
    assert f["path"] == path and f["line"] == 1
    assert "more than 250,000" in f["message"]
    assert run["peak_mb"] < 200, run
    assert run["cpu"] < 20, run


@pytest.mark.parametrize("text,what", [
    (_fill("{}", int(4.9 * MiB), "x = [", "]\n"), "more than 250,000 tables and arrays"),  # 269 MB, 11 s before
    (_fill('"a"', int(4.9 * MiB), "x = [", "]\n"), "more than 1,000,000 values"),
], ids=["tables", "values"])
def test_toml_of_many_tiny_values_is_refused_before_parsing(repo, tmp_path, text, what):
    run = measured(repo({BENCH: text}), tmp_path)
    assert run["code"] == 1, run["stderr"]
    [f] = [f for f in run["findings"] if f["code"] == "PL001"]
    assert (f["path"], f["line"]) == (BENCH, 1) and f["message"] == f"{what} in one file"
    assert run["peak_mb"] < 150 and run["cpu"] < 10, run


def test_a_big_file_within_the_budget_parses_in_little_memory(repo, tmp_path):
    # 200,000 mappings, most of them deep in one line: under the budget,
    # so parsed, with positions kept for every value
    text = "score: 50.0\nresults:\n" + "".join(
        f"  - {{source: CASE-001-one, score: {i % 100}.0}}\n" for i in range(10_000)) \
        + "extra: [" + ",".join(["{a: {b: {c: {d: 1}}}}"] * 47_500) + "]\n"
    assert len(text) < 5 * MiB
    root = repo({ATTEMPT: text})
    run = measured(root, tmp_path, "--all", "--strict")
    assert run["code"] == 1, run["stderr"]
    assert [(f["code"], f["line"]) for f in run["findings"] if f["path"] == ATTEMPT] == \
        [("PL104", 10_003)]  # the unknown key, on its own line
    assert run["peak_mb"] < 200, run


@pytest.mark.parametrize("fmt,text,line,column", [
    ("yaml", "score: 50.0\nresults: []\nx: [" + "1, " * 2000 + "]\n", 3, 5 + 3 * (1000 - 4)),
    ("json", '{"score": 50.0, "results": [],\n "x": [' + "1, " * 2000 + "]}\n", 2, 8 + 3 * (1000 - 4)),
])
def test_value_budget_is_a_parse_error_on_its_line(monkeypatch, fmt, text, line, column):
    from penguin_lint.loaders import document, json_loader, load_bytes, yaml_loader

    assert document.MAX_VALUES == 1_000_000 and document.MAX_CONTAINERS == 250_000  # as the README says
    # (a budget of 1,000 for speed: the real one is the same code path)
    monkeypatch.setattr(yaml_loader, "MAX_VALUES", 1000)
    monkeypatch.setattr(json_loader, "MAX_VALUES", 1000)
    doc = load_bytes(text.encode(), f"attempt-1.{fmt}")
    [p] = doc.problems
    assert p.code == "PL001" and p.message.endswith("more than 1,000 values in one file")
    # the top mapping, its three values and the list come first: the 1,000th value is one too many
    assert (p.pos.line, p.pos.column) == (line, column)


# -- positions as editors and GitHub count lines ---------------------------------------------

@pytest.mark.parametrize("brk", ["\u2028", "\u2029", "\x85"])
def test_unicode_line_breaks_inside_strings_do_not_shift_lines_yaml(repo, brk):
    text = f'experiment_id: exp-1\nbenchmark_id: bench-a\nharness_name: "h{brk}h"\nmodel_name: m\nalgorithm: 7\n'
    run = hostile(repo({META: text.encode()}))
    [f] = [f for f in run.findings if f["code"] == "PL102"]
    # libyaml counts the character as a line break: it said line 6
    assert (f["path"], f["line"], f["column"]) == (META, 5, 12)


def test_unicode_line_breaks_inside_strings_do_not_shift_lines_toml(repo):
    text = 'id = "bench-a"\ntitle = "Bench\u2028A"\ndescription = "x\u2029y"\nversion = "1.0"\n' \
           'last_update = "2026-10-29T12:00:00Z"\nstatus = "draft"\n[author]\nname = "Lab"\n'
    run = hostile(repo({BENCH: text.encode()}))
    [f] = [f for f in run.findings if f["code"] == "PL203"]
    assert (f["path"], f["line"], f["column"]) == (BENCH, 4, 11)


def test_unicode_line_breaks_inside_strings_do_not_shift_lines_json(repo):
    path = "leaderboard/rows.json"
    text = '{"rows": [{"metadata": {"note": "a\u2028b\u2029c\x85d"},\n  "metrics": {}, "trial_ids": [],\n "oops": 1}]}\n'
    run = hostile(repo({path: text.encode()}))
    assert (path, 3) in run.at("PL103")


@pytest.mark.parametrize("path,text,line,column", [
    (META, "experiment_id: exp-1\nbenchmark_id: [bench-a", 2, 23),
    (META, "experiment_id: exp-1\nbenchmark_id: [bench-a\n", 2, 23),
    (META, "experiment_id: exp-1\nbenchmark_id: 'bench-a", 2, 23),
    (BENCH, 'id = "bench-a"\ntitle = ', 2, 9),
    (BENCH, 'id = "bench-a"\ntitle = [\n', 2, 10),
    ("leaderboard/rows.json", '{"rows": [\n  {"metadata": {}', 2, 18),
    ("leaderboard/rows.json", '{"rows": [\n  {"metadata": {}\n\n', 3, 1),
])
def test_parse_error_at_the_end_points_inside_the_file(repo, path, text, line, column):
    run = hostile(repo({path: text.encode()}))
    [f] = [f for f in run.findings if f["code"] == "PL001"]
    assert (f["path"], f["line"], f["column"]) == (path, line, column)


@pytest.mark.parametrize("path,text,message", [
    (META, "experiment_id: exp-1\n\nbenchmark_id: {name: bench-a\n",
     "YAML does not parse: the flow mapping opened at line 3 is never closed"),
    (META, "experiment_id: exp-1\n\nbenchmark_id: {name: bench-a\nharness_name: h\nmodel_name: m\n",
     "YAML does not parse: did not find expected ',' or '}' in the flow mapping opened at line 3"),
    (META, "experiment_id: [exp-1,\n  exp-2\n", "YAML does not parse: the flow sequence opened at line 1 is never closed"),
    (META, "experiment_id: 'exp-1\nbenchmark_id: x\n", "YAML does not parse: the quoted string opened at line 1 is never closed"),
    ("leaderboard/rows.json", '{"rows": [\n  {"metadata": {"a": 1}\n', "JSON does not parse: the object opened at line 2 is never closed"),
])
def test_unclosed_collection_names_where_it_opened(repo, path, text, message):
    run = hostile(repo({path: text.encode()}))
    [f] = [f for f in run.findings if f["code"] == "PL001"]
    assert f["message"] == message
    assert f["hint"] and f["hint"].startswith("close")


def test_tab_in_indentation_gets_a_hint(repo):
    run = hostile(repo({META: GOOD_META.replace("model_name: m", "model_name:\n\tname: m").encode()}))
    [f] = [f for f in run.findings if f["code"] == "PL001"]
    assert (f["line"], f["column"]) == (5, 1)
    assert f["hint"] == "YAML indents with spaces only; replace the tab with spaces"


# -- numbers that overflow -------------------------------------------------------------------

@pytest.mark.parametrize("value", [
    "1" + ":00" * 200 + ".5",          # "internal error ... OverflowError" before
    "!!float 1" + ":00" * 200 + ".5",
    "-1" + ":59" * 100_000 + ".5",     # 300 KB: PyYAML's integer powers of 60 grow without bound
])
def test_sexagesimal_float_too_large_is_a_finding_on_its_line(repo, value):
    text = f"n_attempt: 2\nscore_mean: {value}\nscore_std: 0.0\n"
    run = hostile(repo({SUMMARY: text}))
    [f] = [f for f in run.findings if f["code"] == "PL001"]
    assert (f["path"], f["line"], f["column"]) == (SUMMARY, 2, 13)
    assert f["message"].endswith("' is too large to be a number")


def test_sexagesimal_float_still_reads_as_yaml_1_1_says(repo):
    from penguin_lint.loaders import load_bytes

    doc = load_bytes(b"a: 1:30.5\nb: -2:00:00.25\n", "x.yaml")
    assert doc.data == {"a": 90.5, "b": -7200.25}


@pytest.mark.parametrize("path,text,line", [
    (SUMMARY, "n_attempt: 2\nscore_mean: 1.0e+400\nscore_std: 0.0\n", 2),
    (BENCH, 'id = "bench-a"\nx = 1e400\n', 2),
    ("leaderboard/rows.json", '{"rows": [{"metadata": {},\n "metrics": {"a": -1e99999}, "trial_ids": []}]}\n', 2),
])
def test_huge_exponents_are_findings_on_their_line(repo, path, text, line):
    run = hostile(repo({path: text.encode()}))
    assert any(f["path"] == path and f["line"] == line and f["code"] in ("PL103", "PL605")
               for f in run.findings), run.findings


# -- finding floods ---------------------------------------------------------------------------

def test_unknown_key_flood_is_capped_in_every_format(repo):
    text = "score: 50.0\nresults:\n  - source: CASE-001-one\n    score: 50.0\n" + \
        "".join(f"k{i}: 1\n" for i in range(50_000))
    outputs = every_format(repo({ATTEMPT: text}), "--all", "--strict")
    findings = [f for f in outputs["json"].findings if f["path"] == ATTEMPT]
    assert [f["code"] for f in findings] == ["PL104"] * 101
    assert [f["line"] for f in findings[:100]] == list(range(5, 105))
    assert (findings[100]["line"], findings[100]["message"]) == (
        105, "49900 more PL104 findings in this file, not listed one by one (at most 100 of a code per file are)")
    assert outputs["json"]._inner.json["summary"]["omitted"] == 49_900
    sarif = json.loads(outputs["sarif"].output)
    assert len(sarif["runs"][0]["results"]) == 101
    assert outputs["text"].output.endswith("(9 files checked; 49,900 more not listed one by one).\n")
    github = outputs["github"].output  # at most 10 annotations, then every finding as a log line
    assert github.count("::warning ") <= 10 and github.count("PL104") <= 10 + 101 + 1  # + "N more PL104"
    for fmt, run in outputs.items():
        assert len(run.output) < 200_000, (fmt, len(run.output))  # 15 MB of JSON, 40 MB of SARIF before


def test_capped_loader_problems_are_not_counted_twice(repo):
    text = "score: 50.0\nresults: []\n" + "".join(f"a{i}: &x{i} 1\n" for i in range(500))
    run = hostile(repo({ATTEMPT: text}))
    pl003 = [f for f in run.findings if f["code"] == "PL003"]
    assert len(pl003) == 101 and pl003[-1]["message"].startswith("400 more like the above")
    # the 500 unknown keys (PL104) are folded here; the anchors were by the loader
    assert len([f for f in run.findings if f["code"] == "PL104"]) == 101
    assert run._inner.json["summary"]["omitted"] == 400


def test_nul_byte_column_counts_characters(repo):
    text = "n_attempt: 2\u2028score_mean: 50.0\u2028score_std: 0.\x000\n"
    run = hostile(repo({SUMMARY: text.encode()}))
    [f] = [f for f in run.findings if f["code"] == "PL005"]
    assert (f["line"], f["column"]) == (1, text.index("\x00") + 1)


def test_near_names_are_searched_only_for_the_findings_a_report_lists(repo, monkeypatch):
    """A board of thousands of broken leaves, an attempt of thousands of
    unknown sources: each still a finding, but the "did you mean" search (a
    comparison with every folder) is made for the listed ones only, so the
    run stays linear in what it reads."""
    import difflib

    n = 400
    board = ("leaderboard_id: lb\nstatus: draft\ntitle: LB\nauthor:\n  name: Lab\nvalues:\n"
             + "".join(f"  - experiment_id: exp-gone-{i}\n    phase: test\n" for i in range(n)))
    attempt = "score: 50.0\nresults:\n" + "".join(f"  - source: CASE-9{i:03d}-none\n    score: 50.0\n" for i in range(n))
    root = repo({"leaderboards/lb/leaderboard.yaml": board, "experiments/lb/exp-1/test/attempt-1.yaml": attempt})
    searched = []
    real = difflib.get_close_matches

    def counting(word, *args, **kwargs):
        searched.append(word)
        return real(word, *args, **kwargs)

    monkeypatch.setattr(difflib, "get_close_matches", counting)
    run = lint(root, "--all", "--no-cache", "-j1")
    assert run.code == 1
    summary = run.json["summary"]
    listed = {c: sum(1 for f in run.findings if f["code"] == c) for c in ("PL401", "PL304")}
    # a hundred of each listed, and one that counts the rest
    assert listed == {"PL401": 101, "PL304": 101} and summary["omitted"] == 2 * (n - 100), summary
    gone = [w for w in searched if w.startswith("exp-gone-")]
    unknown = [w for w in searched if w.startswith("CASE-9")]
    # each listed one searched (PL401 asks twice: unused folders first, then all)
    assert len(set(gone)) == 100 and len(gone) <= 200 and len(unknown) == 100, (len(gone), len(unknown))
