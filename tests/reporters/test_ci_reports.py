"""--format gitlab, junit, rdjson and azure, each read as its consumer reads it:
GitLab's documented required fields, a JUnit parser, reviewdog's rdjson JSON
Schema (with its suggestions applied to the file), the Azure agent's command
grammar."""
from __future__ import annotations

import io
import json
import re
from pathlib import Path

import jsonschema
import junitparser
import pytest

from penguin_lint.engine.result import Result
from penguin_lint.findings import Finding
from penguin_lint.output.log_guard import LogGuard
from penguin_lint.reporters import azure_reporter
from tests.conftest import VALID, lint

HERE = Path(__file__).resolve().parent
SUMMARY = "experiments/lb/exp-1/test/summary.yaml"
A1, A2 = "experiments/lb/exp-1/test/attempt-1.yaml", "experiments/lb/exp-1/test/attempt-2.yaml"
BENCH = "packages/bench-a/benchmark_config.toml"
# PL303 twice (fixable), PL203 (not fixable), a finding without a line
BROKEN = {
    SUMMARY: "n_attempt: 2\nscore_mean: 10.0000000000\nscore_std: 3.0\n",
    A1: "score: 50.0\nresults:\n  - source: CASE-001-one\n    score: 50.0\n",
    A2: "score: 60.0\nresults:\n  - source: CASE-001-one\n    score: 60.0\n",
    "packages/bench-a/CASE-001-one/rubric/README.md": None,
}


def _broken(repo, **more):
    root = repo({**BROKEN, **more})
    text = (root / BENCH).read_text().replace('version = "1.0.0"', 'version = "1.0"')
    (root / BENCH).write_text(text)
    return root


# -- gitlab --------------------------------------------------------------------
# GitLab's Code Quality report: the fields its documentation says are required,
# and the severities it knows.
GITLAB_ISSUE = {
    "type": "object",
    "required": ["description", "check_name", "fingerprint", "location"],
    "properties": {
        "description": {"type": "string", "minLength": 1},
        "check_name": {"type": "string", "minLength": 1},
        "fingerprint": {"type": "string", "minLength": 1},
        "severity": {"enum": ["info", "minor", "major", "critical", "blocker"]},
        "location": {
            "type": "object",
            "required": ["path", "lines"],
            "properties": {
                "path": {"type": "string", "minLength": 1},
                "lines": {"type": "object", "required": ["begin"],
                          "properties": {"begin": {"type": "integer", "minimum": 1}}},
            },
        },
    },
}
GITLAB_REPORT = {"type": "array", "items": GITLAB_ISSUE}


def gitlab(root):
    run = lint(root, "--all", "--no-cache", fmt="gitlab")
    assert run.code == 1, run.stderr
    report = json.loads(run.output)
    jsonschema.validate(report, GITLAB_REPORT)
    return report


def test_gitlab_report_has_the_required_fields_and_one_fingerprint_per_finding(repo):
    root = _broken(repo)
    report = gitlab(root)
    by_code = {}
    for issue in report:
        by_code.setdefault(issue["check_name"], []).append(issue)
    assert sorted(by_code) == ["PL203", "PL205", "PL303"]
    (semver,) = by_code["PL203"]
    assert semver["location"] == {"path": BENCH, "lines": {"begin": 4}} and semver["severity"] == "major"
    assert semver["description"].startswith("PL203 'version' is not Semantic Versioning")
    (rubric,) = by_code["PL205"]  # a missing file: line 1 of its path
    assert rubric["location"]["lines"]["begin"] == 1
    assert len({i["fingerprint"] for i in report}) == len(report)


def test_gitlab_fingerprints_are_stable_across_runs_and_line_moves(repo):
    root = _broken(repo)
    first = {(i["check_name"], i["description"]): i["fingerprint"] for i in gitlab(root)}
    assert {(i["check_name"], i["description"]): i["fingerprint"] for i in gitlab(root)} == first
    # a comment above moves the finding; GitLab must see the same issue
    (root / BENCH).write_text("# moved\n" + (root / BENCH).read_text())
    moved = gitlab(root)
    assert [i["location"]["lines"]["begin"] for i in moved if i["check_name"] == "PL203"] == [5]
    assert {(i["check_name"], i["description"]): i["fingerprint"] for i in moved} == first


def test_gitlab_findings_alike_in_one_file_get_distinct_fingerprints():
    from penguin_lint.reporters.gitlab_reporter import build
    same = [Finding("PL101", "n", "error", "a.yaml", "m", line=n) for n in (3, 1, 2)]
    prints = [i["fingerprint"] for i in build(Result(same, 1))]
    assert len(set(prints)) == 3
    assert [i["fingerprint"] for i in build(Result(list(reversed(same)), 1))] == prints


def test_gitlab_and_junit_say_when_nothing_was_checked(repo):
    root = repo({"experiments/lb/exp-1/test/summary.yml": "n_attempt: 2\n"})
    run = lint(root, "experiments/lb/exp-1/test/summary.yml", fmt="gitlab")
    assert run.code == 1
    report = json.loads(run.output)
    jsonschema.validate(report, GITLAB_REPORT)
    assert [i["check_name"] for i in report] == ["PL009", "penguin-lint"]  # the near miss, and what it means
    assert report[1]["description"].startswith("Nothing checked (0 files checked")
    xml = junitparser.JUnitXml.fromstring(lint(root, "experiments/lb/exp-1/test/summary.yml", fmt="junit").output)
    (case,) = [c for s in xml if s.name == "penguin-lint" for c in s]
    assert isinstance(case.result[0], junitparser.Failure) and case.result[0].message.startswith("Nothing checked")
    assert xml.failures == 2


# -- junit ---------------------------------------------------------------------

def test_junit_report_is_one_suite_per_file_and_one_failing_case_per_finding(repo):
    root = _broken(repo)
    run = lint(root, "--all", "--no-cache", fmt="junit")
    assert run.code == 1
    xml = junitparser.JUnitXml.fromstring(run.output)
    suites = {s.name: s for s in xml}
    assert sorted(suites) == sorted([BENCH, SUMMARY, "packages/bench-a/CASE-001-one/rubric/README.md"])
    assert xml.tests == xml.failures == 4
    cases = list(suites[SUMMARY])
    assert len(cases) == 2 and suites[SUMMARY].failures == 2
    (semver,) = suites[BENCH]
    assert semver.classname == BENCH and semver._elem.get("line") == "4"
    (failure,) = semver.result
    assert isinstance(failure, junitparser.Failure)
    assert failure.type == "error" and failure.message.startswith("'version' is not Semantic Versioning")
    assert failure.text.startswith(f"{BENCH}:4:11: PL203 ") and "\nhint: " in failure.text


def test_junit_report_of_a_clean_run_is_one_passing_case(repo):
    run = lint(repo(), "--all", "--no-cache", fmt="junit")
    assert run.code == 0
    xml = junitparser.JUnitXml.fromstring(run.output)
    (case,) = [c for s in xml for c in s]
    assert case.is_passed and xml.failures == 0 and case.system_out.endswith("files checked")


def test_junit_report_holds_hostile_text_as_text(repo):
    hostile = "x\x00\x1b[31m</failure><testcase name='forged'/>&amp;\udcff"
    f = Finding("PL101", "n", "error", "a\x01.yaml", hostile, line=2, hint="h\x0b")
    from penguin_lint.reporters.junit_reporter import report
    out = io.StringIO()
    report(Result([f], 1), out)
    xml = junitparser.JUnitXml.fromstring(out.getvalue())
    (case,) = [c for s in xml for c in s]
    assert case.classname == "a\\x01.yaml"
    assert case.result[0].message == "x\\x00\\x1b[31m</failure><testcase name='forged'/>&amp;\\udcff"


# -- rdjson --------------------------------------------------------------------

# reviewdog's own JSON Schema of rdjson, vendored (rdjson_schema.LICENSE says from where)
RDJSON = jsonschema.Draft4Validator(json.loads((HERE / "rdjson_schema.json").read_text(encoding="utf-8")))


def apply(raw: bytes, suggestions) -> bytes:
    """reviewdog's suggestions applied to a file: lines and UTF-8 byte columns,
    the end exclusive."""
    lines = raw.split(b"\n")
    starts = [0]
    for ln in lines[:-1]:
        starts.append(starts[-1] + len(ln) + 1)

    def offset(pos):
        return starts[pos["line"] - 1] + pos["column"] - 1

    for s in sorted(suggestions, key=lambda s: offset(s["range"]["start"]), reverse=True):
        a, b = offset(s["range"]["start"]), offset(s["range"]["end"])
        raw = raw[:a] + s["text"].encode("utf-8") + raw[b:]
    return raw


def test_rdjson_report_is_valid_and_its_suggestions_write_what_fix_writes(repo, tmp_path):
    # a BOM, CR LF and a non-ASCII comment before the value: byte columns
    summary = b"\xef\xbb\xbfscore_mean: 10.0000000000  # \xc3\xa9\r\nn_attempt: 2\r\nscore_std: 3.0\r\n"
    root = _broken(repo, **{SUMMARY: summary})
    run = lint(root, "--all", "--no-cache", fmt="rdjson")
    assert run.code == 1
    report = json.loads(run.output)
    errors = [e.message for e in RDJSON.iter_errors(report)]
    assert errors == []
    assert report["source"] == {"name": "penguin-lint"} and report["severity"] == "ERROR"
    diags = {(d["code"]["value"], d["location"]["path"]): d for d in report["diagnostics"]}
    semver = diags[("PL203", BENCH)]
    assert semver["location"]["range"]["start"] == {"line": 4} and "suggestions" not in semver
    assert semver["code"]["url"].endswith("PL203.md")
    with_fix = [d for d in report["diagnostics"] if d.get("suggestions")]
    assert {d["code"]["value"] for d in with_fix} == {"PL303"} and len(with_fix) == 2
    suggested = apply(summary, [s for d in with_fix for s in d["suggestions"]])
    assert lint(root, "--all", "--no-cache", "--fix").code == 1
    assert suggested == (root / SUMMARY).read_bytes() != summary


def test_rdjson_suggestion_removes_a_toml_mark_as_fix_does(repo):
    # the mark is three bytes before column 1 of the loader's text; the id's
    # value after it on the same line counts them too
    bench = b"\xef\xbb\xbf" + VALID[BENCH].replace('id = "bench-a"', 'id = "bench-x"').encode()
    root = repo({BENCH: bench})
    report = json.loads(lint(root, "--all", "--no-cache", fmt="rdjson").output)
    assert [e.message for e in RDJSON.iter_errors(report)] == []
    suggestions = {d["code"]["value"]: d["suggestions"] for d in report["diagnostics"] if d.get("suggestions")}
    assert suggestions["PL005"] == [{"range": {"start": {"line": 1, "column": 1}, "end": {"line": 1, "column": 4}},
                                     "text": ""}]
    suggested = apply(bench, [s for d in suggestions.values() for s in d])
    assert lint(root, "--all", "--no-cache", "--fix").code == 0
    assert suggested == (root / BENCH).read_bytes() == VALID[BENCH].encode()


# -- azure ---------------------------------------------------------------------
# The Azure Pipelines agent's grammar: a command is "##vso[" anywhere in a line,
# "area.event", properties "k=v" separated by ";" up to the first "]", then the
# message; values are unescaped as the agent unescapes them.
AGENT_UNESCAPE = [("%3B", ";"), ("%0D", "\r"), ("%0A", "\n"), ("%5D", "]"), ("%AZP25", "%")]


def agent_parse(line: str):
    """(area.event, properties, message) of the command a line holds, as
    the agent reads it, or None."""
    i = line.find("##vso[")
    if i < 0:
        return None
    end = line.find("]", i)
    if end < 0:
        return None
    head, _, props = line[i + 6:end].partition(" ")
    out = {}
    for part in filter(None, props.split(";")):
        k, _, v = part.partition("=")
        out[k] = _unescape(v)
    return head, out, _unescape(line[end + 1:])


def _unescape(text):
    for token, ch in AGENT_UNESCAPE:
        text = text.replace(token, ch)
    return text


HOSTILE = ["a;code=PL000]##vso[task.setvariable variable=x]y", "%0A##vso[task.complete result=Failed]",
           "line\r\n##vso[task.setvariable variable=x]y", "##[error]fake", "100%AZP25 ; ] =", "##VSO[task.complete]"]


@pytest.mark.parametrize("guarded", [True, False], ids=["guarded", "plain stream"])
@pytest.mark.parametrize("hostile", HOSTILE)
def test_azure_commands_carry_any_value_and_start_no_other(hostile, guarded):
    f = Finding("PL101", "n", "warning", f"dir/{hostile}.yaml", hostile, line=3, column=2, hint=hostile)
    out = io.StringIO()
    guard = LogGuard(out) if guarded else out
    azure_reporter.report(Result([f], 1), guard)
    if guarded:
        guard.finish()
    lines = re.split(r"\r\n|\r|\n", out.getvalue().rstrip("\n"))
    commands = [ln for ln in lines if "##vso[" in ln.lower()]
    assert len(commands) == 1 and commands[0].startswith("##vso[task.logissue ")
    assert commands[0].lower().count("##vso[") == 1 and "##[" not in commands[0]
    head, props, message = agent_parse(commands[0])
    assert head == "task.logissue"
    assert props == {"type": "warning", "sourcepath": f"dir/{_defused(hostile)}.yaml", "linenumber": "3",
                     "columnnumber": "2", "code": "PL101"}
    assert message == f"PL101 {_defused(hostile)}\nhint: {_defused(hostile)}"


def _defused(text):
    return re.sub(r"##(?=\[|vso\[)", "#\\\\u0023", text, flags=re.I)


def test_azure_report_from_the_command_line_logs_each_finding(repo):
    root = _broken(repo)
    run = lint(root, "--all", "--no-cache", fmt="azure")
    assert run.code == 1
    parsed = [agent_parse(ln) for ln in run.output.splitlines()]
    issues = [(p[1]["code"], p[1].get("sourcepath"), p[1].get("linenumber"), p[1]["type"]) for p in parsed if p]
    assert sorted(issues) == sorted([("PL203", BENCH, "4", "error"), ("PL303", SUMMARY, "2", "error"),
                                     ("PL303", SUMMARY, "3", "error"),
                                     ("PL205", "packages/bench-a/CASE-001-one/rubric/README.md", None, "error")])
    assert run.output.splitlines()[-1].startswith("penguin-lint: 4 errors, 0 warnings (")
