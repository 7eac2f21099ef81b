"""A key written twice is judged by its last value, as its consumer reads it
(``yaml.safe_load`` and ``json.loads`` keep the last): every finding, line,
column, message, hint and ``--fix`` edit is the one the file would get with
the first occurrence left out, besides the PL002 on the second.

Each case writes a key twice in one kind of file, once with a wrong value
first and the right one last, once the other way round, and compares the
run (the command line, ``--format json``) with the run of the same
repository without the first occurrence: the findings there, moved by the
text the first occurrence takes, are the findings here. Where the rule is
fixable, ``--fix`` must make the same edits, on the kept occurrence.
TOML refuses a repeated key (PL002, nothing else read), so only YAML and
JSON files are here.
"""
from __future__ import annotations

import re
import shutil
from pathlib import Path
from typing import NamedTuple, Optional

import pytest

from tests.conftest import VALID, lint, write_repo

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
HARBOR = EXAMPLES / "harbor" / "clean"

SUMMARY = "experiments/lb/exp-1/test/summary.yaml"
META = "experiments/lb/exp-1/meta_info.yaml"
ATTEMPT = "experiments/lb/exp-1/test/attempt-1.yaml"
LB = "leaderboards/lb/leaderboard.yaml"
EXAMPLE_META = "experiments/code-eval/sql-puzzles-baseline-qwen-coder-14b-20261031/meta_info.yaml"
DEFINITION = "leaderboard/leaderboard.yaml"
ROWS_YAML = "leaderboard/rows.yaml"
ROWS_JSON = "leaderboard/rows.json"
FIRST, LAST = "@FIRST@", "@LAST@"

ROWS = """\
rows:
  - metadata: {agent: a, model: m, date: "2026-11-02"}
    metrics: {accuracy: 0.5}
    status: display
    trial_ids: [36043904-3271-4c91-aaf7-4f941353d7a9]
  - metadata: {agent: b, model: m, date: "2026-11-03"}
    metrics: {accuracy: 0.4}
    status: display
@FIRST@    trial_ids: @LAST@
"""
ROWS_AS_JSON = """\
{"rows": [
  {"metadata": {"agent": "a", "model": "m", "date": "2026-11-02"},
   "metrics": {"accuracy": 0.5}, "status": "display",
   "trial_ids": ["36043904-3271-4c91-aaf7-4f941353d7a9"]},
  {"metadata": {"agent": "b", "model": "m", "date": "2026-11-03"},
@FIRST@   "metrics": @LAST@,
   "status": "display",
   "trial_ids": ["0cc33186-273e-4b4b-82dc-04c28fce2f0c"]}
]}
"""


class Case(NamedTuple):
    base: str                 # "valid", "examples" (examples/repo) or "harbor" (examples/harbor/clean)
    path: str
    template: str             # the file, FIRST where the first occurrence goes, LAST its kept value
    first: str                # the first occurrence, "{}" its value
    wrong: str
    right: str
    code: str                 # what the wrong value gets
    fixable: bool = False
    also: Optional[str] = None  # a code the first occurrence's own line gets (a comment on it)


def block(text: str, line: str) -> str:
    """``text`` with the line ``line`` (``key: value``) made a template."""
    key = line.rsplit(": ", 1)[0]
    assert line + "\n" in text, line
    return text.replace(line + "\n", f"{FIRST}{key}: {LAST}\n", 1)


META_TEXT = "experiment_id: exp-1\nbenchmark_id: bench-a\nharness_name: h\nmodel_name: m\nalgorithm: baseline\n"
ATTEMPT_TEXT = "results:\n  - source: CASE-001-one\n    score: 50.0\n"
CASES = {
    "summary score_mean (PL303)": Case(
        "valid", SUMMARY, f"n_attempt: 2\n{FIRST}score_mean: {LAST}\nscore_std: 0.0\n",
        "score_mean: {}\n", "99.0", "50.00", "PL303", fixable=True),
    "summary score_mean in a flow mapping (PL303)": Case(
        "valid", SUMMARY, f"{{n_attempt: 2, {FIRST}score_mean: {LAST}, score_std: 0.0}}\n",
        "score_mean: {}, ", "69.17", "50.0", "PL303", fixable=True),
    "summary n_attempt (PL302)": Case(
        "valid", SUMMARY, f"score_mean: 50.0\n{FIRST}n_attempt: {LAST}\nscore_std: 0.0\n",
        "n_attempt: {}\n", "3", "2", "PL302"),
    "attempt score, read by the summary's check (PL303)": Case(
        "valid", ATTEMPT, f"{ATTEMPT_TEXT}{FIRST}score: {LAST}\n", "score: {}\n", "99.0", "50.0", "PL303",
        fixable=True),
    "attempt score past any float (PL103)": Case(
        "valid", ATTEMPT, f"{ATTEMPT_TEXT}{FIRST}score: {LAST}\n", "score: {}\n", ".inf", "50.0", "PL103"),
    "attempt results (PL304)": Case(
        "valid", ATTEMPT, f"score: 50.0\n{FIRST}results: {LAST}\n", "results: {}\n",
        "[{source: CASE-009-none, score: 50.0}]", "[{source: CASE-001-one, score: 50.0}]", "PL304"),
    "attempt results[0].source (PL304)": Case(
        "valid", ATTEMPT, f"score: 50.0\nresults:\n  - score: 50.0\n{FIRST}    source: {LAST}\n",
        "    source: {}\n", "CASE-009-none", "CASE-001-one", "PL304"),
    "meta_info experiment_id (PL201)": Case(
        "valid", META, META_TEXT.replace("experiment_id: exp-1\n", "") + f"{FIRST}experiment_id: {LAST}\n",
        "experiment_id: {}\n", "exp-9", "exp-1", "PL201", fixable=True),
    "meta_info model_name typed as a number (PL102)": Case(
        "valid", META, block(META_TEXT, "model_name: m"), "model_name: {}\n", "1.5", "m", "PL102", fixable=True),
    "meta_info benchmark_id (PL307)": Case(
        "valid", META, block(META_TEXT, "benchmark_id: bench-a"), "benchmark_id: {}\n", "bench-z", "bench-a",
        "PL307"),
    "meta_info model_name, read by the leaderboard's check (PL403)": Case(
        "examples", EXAMPLE_META, "", 'model_name: {}\n', '"qwen-coder-14b"', '"qwen-coder-32b"', "PL403"),
    "leaderboard values (PL401)": Case(
        "valid", LB, f"leaderboard_id: lb\nstatus: draft\ntitle: LB\nauthor:\n  name: Lab\n{FIRST}values: {LAST}\n",
        "values: {}\n", "[{experiment_id: exp-9, phase: test}]", "[{experiment_id: exp-1, phase: test}]", "PL401"),
    "leaderboard experiment_id in a flow mapping (PL401)": Case(
        "valid", LB, f"leaderboard_id: lb\nstatus: draft\ntitle: LB\nauthor:\n  name: Lab\n"
        f"values:\n  - {{phase: test, {FIRST}experiment_id: {LAST}}}\n",
        "experiment_id: {}, ", "exp-9", "exp-1", "PL401"),
    "leaderboard leaderboard_id (PL201)": Case(
        "valid", LB, f"status: draft\n{FIRST}leaderboard_id: {LAST}\ntitle: LB\nauthor:\n  name: Lab\n"
        "values:\n  - experiment_id: exp-1\n    phase: test\n",
        "leaderboard_id: {}\n", "lb-9", "lb", "PL201", fixable=True),
    "a suppression on the first occurrence's line (PL303, PL008)": Case(
        "valid", SUMMARY, f"n_attempt: 2\n{FIRST}score_mean: {LAST}\nscore_std: 0.0\n",
        "score_mean: {}  # penguin-lint: disable=PL303\n", "99.0", "50.0", "PL303", also="PL008"),
    "Harbor definition, a column's accessor (PL603)": Case(
        "harbor", DEFINITION, "", "    accessor: {}\n", "metrics.cost", "metrics.cost_usd", "PL603"),
    "Harbor rows in YAML, a row's metrics (PL605)": Case(
        "harbor", ROWS_YAML, "", "      accuracy: {}\n", '"0.5"', "0.5", "PL605"),
    "Harbor rows in YAML, a row's trial_ids (PL606)": Case(
        "harbor", ROWS_YAML, ROWS, "    trial_ids: {}\n", "[36043904-3271-4c91-aaf7-4f941353d7a9]",
        "[0cc33186-273e-4b4b-82dc-04c28fce2f0c]", "PL606"),
    "Harbor rows in JSON, a row's metrics (PL605)": Case(
        "harbor", ROWS_JSON, ROWS_AS_JSON, '   "metrics": {},\n', '{"accuracy": "0.4"}', '{"accuracy": 0.4}',
        "PL605"),
    "Harbor rows in JSON, a number past any float (PL103)": Case(
        "harbor", ROWS_JSON, ROWS_AS_JSON, '   "metrics": {},\n', '{"accuracy": 1e999}', '{"accuracy": 0.4}',
        "PL103"),
}


def _template(case: Case) -> str:
    if case.template:
        return case.template
    if case.base == "examples":
        return block((EXAMPLES / "repo" / case.path).read_text(), 'model_name: "qwen-coder-14b"')
    text = (HARBOR / case.path).read_text()
    line = {DEFINITION: "    accessor: metrics.cost_usd", ROWS_YAML: "      accuracy: 0.5"}[case.path]
    return block(text, line)


def _repo(root: Path, case: Case, text: str) -> Path:
    if case.base == "valid":
        return write_repo(root, {case.path: text}, VALID)
    shutil.copytree(EXAMPLES / "repo" if case.base == "examples" else HARBOR, root)
    if case.path == ROWS_JSON:
        (root / ROWS_YAML).unlink()
    (root / case.path).write_text(text, encoding="utf-8")
    return root


def _point(text: str, line: int, column: int) -> int:
    starts = [0, *(m.end() for m in re.finditer("\n", text))]
    return starts[line - 1] + column - 1


def _line_column(text: str, offset: int):
    line = text.count("\n", 0, offset) + 1
    return line, offset - (text.rfind("\n", 0, offset) + 1) + 1


def _moved(finding: dict, single: str, dup: str, path: str, at: int, width: int, lines: int) -> tuple:
    """A finding of the file without the first occurrence, where it is in
    the file with it (inserted at ``at``, ``width`` characters long, of
    ``lines`` line breaks); other files' findings as they are, but for the
    lines of this file their messages name."""
    first_line = single.count("\n", 0, at) + 1

    def lines_named(text):
        # another file's finding names a line of this one by its name ("summary.yaml line 3")
        named = r"\b(line )(\d+)" if finding["path"] == path \
            else r"(%s line )(\d+)" % re.escape(path.rsplit("/", 1)[-1])
        return re.sub(named, lambda m: f"{m[1]}{int(m[2]) + lines * (int(m[2]) >= first_line)}", text or "")

    line, column, end_line, end_column = finding["line"], finding["column"], finding["end_line"], finding["end_column"]
    if finding["path"] == path and line is not None:
        start = _point(single, line, column)
        line, column = _line_column(dup, start + width * (start >= at))
        if end_line is not None:
            end = _point(single, end_line, end_column)
            end_line, end_column = _line_column(dup, end + width * (end > at))
    return (finding["code"], finding["path"], line, column, end_line, end_column,
            lines_named(finding["message"]), lines_named(finding.get("hint")))


def _seen(finding: dict) -> tuple:
    return (finding["code"], finding["path"], finding["line"], finding["column"], finding["end_line"],
            finding["end_column"], finding["message"], finding.get("hint") or "")


def _files(root: Path) -> dict:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file() and ".penguin-lint-cache" not in p.parts}


@pytest.mark.parametrize("wrong_first", [True, False], ids=["wrong-then-right", "right-then-wrong"])
@pytest.mark.parametrize("name", list(CASES))
def test_a_key_written_twice_is_judged_by_its_last_value(tmp_path, name, wrong_first):
    case = CASES[name]
    template = _template(case)
    dropped, kept = (case.wrong, case.right) if wrong_first else (case.right, case.wrong)
    first = case.first.format(dropped)
    at = template.index(FIRST)
    single = template.replace(FIRST, "").replace(LAST, kept)
    dup = template.replace(FIRST, first).replace(LAST, kept)

    ref = lint(_repo(tmp_path / "single", case, single), "--all", "--no-cache")
    got = lint(_repo(tmp_path / "dup", case, dup), "--all", "--no-cache")
    assert ref.code in (0, 1) and got.code == 1, (ref.stderr, got.stderr)
    # the wrong value is wrong: the reference has its finding exactly when it is kept
    assert (case.code in ref.codes()) == (not wrong_first), ref.findings

    # PL002 on the kept occurrence's key, the first one's own line nothing else
    rest = template[at + len(FIRST):]
    kept_key = _line_column(dup, at + len(first) + len(rest) - len(rest.lstrip(" ")))
    pl002 = [(f["line"], f["column"]) for f in got.findings if f["code"] == "PL002"]
    assert pl002 == [kept_key], got.findings
    first_line = dup.count("\n", 0, at) + 1
    on_first = [f["code"] for f in got.findings if f["path"] == case.path and f["line"] == first_line
                and f["line"] != kept_key[0]]
    assert on_first == ([case.also] if case.also else []), got.findings

    want = [_moved(f, single, dup, case.path, at, len(first), first.count("\n")) for f in ref.findings]
    seen = [_seen(f) for f in got.findings if f["code"] not in ("PL002", case.also)]
    assert sorted(seen, key=repr) == sorted(want, key=repr)

    if not case.fixable:
        return
    single_root = tmp_path / "single_fix"
    dup_root = tmp_path / "dup_fix"
    lint(_repo(single_root, case, single), "--all", "--no-cache", "--fix")
    lint(_repo(dup_root, case, dup), "--all", "--no-cache", "--fix")
    fixed, fixed_dup = _files(single_root), _files(dup_root)
    fixed_text = fixed[case.path].decode()
    assert fixed_text[:at] == single[:at]  # the fixes of these cases edit the kept value or other files
    fixed[case.path] = (fixed_text[:at] + first + fixed_text[at:]).encode()
    assert fixed_dup == fixed
    # the fix did something exactly where there was a wrong value to fix
    assert (_files(_repo(tmp_path / "unfixed", case, single)) != _files(single_root)) == (not wrong_first)
