"""The JSON's ``pareto`` and ``tasks`` per row, against an independent
computation: the front by pairwise dominance, the task means from the
attempt files read with yaml.safe_load."""
from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path
from statistics import fmean

import yaml

from tests.conftest import write_repo
from tests.preview.board_sample import ENTRIES, TASKS, sample_files, sample_repo


def preview_json(root: Path, *args: str) -> dict:
    proc = subprocess.run([sys.executable, "-m", "penguin_lint", "preview", f"--root={root}", "--format", "json",
                           *args], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def dominated(p, q) -> bool:
    """q dominates p: at least as good on both (score up, cost down), better on one."""
    return q[0] >= p[0] and q[1] <= p[1] and (q[0] > p[0] or q[1] < p[1])


def expected_front(rows, axis):
    pts = {r["key"]: (r["mean"], r[axis]) for r in rows
           if r["mean"] is not None and r[axis] is not None and r[axis] > 0}
    return {k for k, p in pts.items() if not any(dominated(p, q) for j, q in pts.items() if j != k)}


def test_pareto_per_axis_is_the_set_no_entry_dominates(tmp_path):
    rows = preview_json(sample_repo(tmp_path / "r"))["leaderboards"][0]["rows"]
    assert len(rows) == len(ENTRIES)
    fronts = {}
    for axis in ("cost", "duration_ms", "token"):
        got = {r["key"] for r in rows if r["pareto"][axis]}
        assert got == expected_front(rows, axis), axis
        fronts[axis] = {r["model_name"] for r in rows if r["pareto"][axis]}
    # by hand: a zero cost or no cost is off the cost front; mid-model-7b is
    # dominated on cost (deepseek: better and cheaper) but fastest of all
    assert fronts["cost"] == {"gpt-large-2026", "deepseek-flash-1017", "qwen-coder-32b", "tiny-model-1b"}
    assert "mid-model-7b" in fronts["duration_ms"] and "free-model" in fronts["token"]
    assert all(set(r["pareto"]) == {"cost", "duration_ms", "token"} for r in rows)


def test_equal_points_are_both_on_the_front_and_a_tie_in_score_goes_to_the_cheaper(tmp_path):
    files = sample_files(entries={"a": (50.0, 1.0, 10, 10), "c": (50.0, 2.0, 10, 10)})
    # b: a's experiment again under another model name (the same point);
    # c: a's scores at twice the cost (the same score, dearer)
    for src, dst, model in (("-a-0", "-b-0", "b"), ("-a-0", "-c-1", "c")):
        for k, v in list(files.items()):
            if src in k and k.startswith("experiments/"):
                v = v.replace(src, dst).replace('model_name: "a"', f'model_name: "{model}"')
                if dst == "-c-1" and k.endswith(".yaml") and "cost:" in v:
                    v = "\n".join(f"cost: {float(ln[6:]) * 2!r}" if ln.startswith("cost: ") else ln
                                  for ln in v.split("\n"))
                files[k.replace(src, dst)] = v
    lb = "leaderboards/unit-test-gen/leaderboard.yaml"
    files[lb] += '  - { experiment_id: "unit-test-gen-baseline-b-0", phase: "test" }\n'
    rows = preview_json(write_repo(tmp_path / "r", files))["leaderboards"][0]["rows"]
    on = {r["model_name"]: r["pareto"]["cost"] for r in rows}
    assert on == {"a": True, "b": True, "c": False}
    assert {r["key"] for r in rows if r["pareto"]["cost"]} == expected_front(rows, "cost")


def test_tasks_are_each_sources_scores_over_the_attempts_and_their_mean(tmp_path):
    root = sample_repo(tmp_path / "r")
    rows = preview_json(root)["leaderboards"][0]["rows"]
    for r in rows:
        (eid,) = r["experiments"]
        by_source = {}
        for j in (1, 2, 3):
            doc = yaml.safe_load((root / f"experiments/unit-test-gen/{eid}/test/attempt-{j}.yaml").read_text())
            for rec in doc["results"]:
                by_source.setdefault(rec["source"], []).append(rec["score"])
        assert [t["source"] for t in r["tasks"]] == TASKS
        for t in r["tasks"]:
            assert t["scores"] == by_source[t["source"]]
            assert abs(t["mean"] - fmean(by_source[t["source"]])) < 1e-12
            assert t["benchmark"] == "unit-test-gen"  # every task names its benchmark


def test_an_entry_over_two_benchmarks_names_each_tasks_benchmark(tmp_path):
    files = sample_files(entries={"m": (60.0, 1.0, 10, 10)}, bench="lb")
    a = sample_files(entries={"m": (60.0, 1.0, 10, 10)}, bench="lb")
    # a second experiment of the same model on another benchmark, one row over both
    other = {k.replace("lb-baseline-m-0", "lb-other-m-0"): v.replace("lb-baseline-m-0", "lb-other-m-0")
             .replace('benchmark_id: "lb"', 'benchmark_id: "other-bench"')
             for k, v in a.items() if k.startswith("experiments/")}
    files.update(other)
    files["leaderboards/lb/leaderboard.yaml"] = (
        'leaderboard_id: "lb"\nstatus: "draft"\ntitle: "Two"\nauthor:\n  name: "T"\nvalues:\n'
        '  - op: "mean"\n    args:\n      - { experiment_id: "lb-baseline-m-0", phase: "test" }\n'
        '      - { experiment_id: "lb-other-m-0", phase: "test" }\n')
    (row,) = preview_json(write_repo(tmp_path / "r", files))["leaderboards"][0]["rows"]
    assert [(t["benchmark"], t["source"]) for t in row["tasks"]] == \
        [("lb", s) for s in TASKS] + [("other-bench", s) for s in TASKS]
    assert len(row["tasks"][0]["scores"]) == 3


def test_a_hostile_results_list_is_skipped_not_a_crash(tmp_path):
    files = sample_files(entries={"m": (60.0, 1.0, 10, 10)})
    att = next(k for k in files if k.endswith("attempt-1.yaml"))
    files[att] = files[att].split("results:")[0] + (
        "results:\n  - 7\n  - {source: [1], score: 3}\n  - {source: ../../etc, score: 3}\n"
        "  - {source: CASE-001-parse-duration, score: .nan}\n  - {source: CASE-009-ok, score: 9}\n")
    (row,) = preview_json(write_repo(tmp_path / "r", files))["leaderboards"][0]["rows"]
    got = {t["source"]: t["scores"] for t in row["tasks"]}
    assert got["CASE-009-ok"] == [9.0]
    assert len(got["CASE-001-parse-duration"]) == 2  # attempts 2 and 3; attempt 1's NaN is no score
    assert "../../etc" not in got


def test_a_huge_n_attempt_reads_the_attempts_there_are_and_stops(tmp_path):
    files = sample_files(entries={"m": (60.0, 1.0, 10, 10)})
    summary = next(k for k in files if k.endswith("summary.yaml"))
    files[summary] = files[summary].replace("n_attempt: 3", "n_attempt: 1000000000")
    start = time.monotonic()
    (row,) = preview_json(write_repo(tmp_path / "r", files))["leaderboards"][0]["rows"]
    assert time.monotonic() - start < 60
    assert [len(t["scores"]) for t in row["tasks"]] == [3] * len(TASKS)
