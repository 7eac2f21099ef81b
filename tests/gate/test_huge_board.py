"""One huge leaderboard: the work per file is bounded as it is done.

A 5 MiB leaderboard holds some 125,000 leaves. The leaderboard rules stop at
MAX_VALUES values and MAX_TERMS leaves and operations (PL103 on the line
where a limit is crossed), findings are capped as the run makes them, a
file's documents are freed when its unit is done (nothing keeps them in a
cycle), and the preview's Markdown is bounded.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from penguin_lint import preview as preview_mod
from penguin_lint.engine.finding_cap import MAX_PER_FILE_AND_CODE, Collector
from penguin_lint.findings import Finding
from penguin_lint.rules import _expressions
from tests.conftest import VALID, lint, write_repo

LB = "leaderboards/lb/leaderboard.yaml"
HEAD = "leaderboard_id: lb\nstatus: draft\ntitle: LB\nauthor:\n  name: Lab\nvalues:\n"
HEAD_LINES = HEAD.count("\n")


def board(values):
    """A leaderboard file of ``values`` (one YAML line each)."""
    return HEAD + "".join(f"  - {v}\n" for v in values)


def leaf(exp="exp-1"):
    return f"{{experiment_id: {exp}, phase: test}}"


def test_values_limit_is_a_finding_on_the_line_where_it_is_crossed(repo):
    # The real default (MAX_VALUES), and one value more.
    n = 10_001
    root = repo({LB: board([leaf()] * n)})
    r = lint(root, "--all", "--select", "PL103")
    assert r.code == 1
    (f,) = [f for f in r.findings if f["code"] == "PL103"]
    assert (f["path"], f["line"]) == (LB, HEAD_LINES + n)
    assert f["message"] == ("the leaderboard has more than 10,000 values: "
                            "only the 10,000 values before this one are checked")


def test_terms_limit_stops_the_rules_where_it_is_crossed(repo, monkeypatch):
    monkeypatch.setattr(_expressions, "MAX_TERMS", 7)
    # 1 + (1 op + 3 leaves) = 5 terms, then an op (6) whose second arg is the 8th
    values = [leaf(),
              "{op: mean, args: [" + ", ".join([leaf()] * 3) + "]}",
              "op: sum\n    args:\n      - " + leaf() + "\n      - " + leaf() + "\n      - " + leaf("nope-1"),
              leaf("nope-2")]
    root = repo({LB: board(values)})
    r = lint(root, "--all")
    pl103 = [(f["path"], f["line"], f["message"]) for f in r.findings if f["code"] == "PL103"]
    assert pl103 == [(LB, HEAD_LINES + 6, "the leaderboard's values hold more than 7 leaves and "
                                          "operations: only the 2 values before this one are checked")]
    # the values from the crossing on are not resolved: no PL401 for nope-1 or nope-2
    assert "PL401" not in r.codes()


def test_values_past_the_limit_still_reference_their_experiments(repo, monkeypatch):
    # PL306 reads every value (a cheap walk): an experiment named only past
    # the limit is not reported as unused.
    monkeypatch.setattr(_expressions, "MAX_VALUES", 1)
    exp2 = {k.replace("exp-1", "exp-2"): v.replace("exp-1", "exp-2") for k, v in VALID.items()
            if k.startswith("experiments/")}
    root = repo({**exp2, LB: board([leaf(), leaf("exp-2")])})
    r = lint(root, "--all")
    assert r.at("PL103") == [(LB, HEAD_LINES + 2)]
    assert "PL306" not in r.codes()


def _finding(i, path="a.yaml", code="PL401"):
    return Finding(code=code, name="x", severity="error", path=path, message=f"m{i:06d}", line=i + 1)


def test_collector_keeps_the_cap_while_adding_and_reports_as_before():
    made = [_finding(i) for i in range(5000)]
    shuffled = made[2500:] + made[:2500][::-1] + made[:10]  # out of order, some twice
    c = Collector()
    peak = 0
    for f in shuffled:
        c.add([f])
        peak = max(peak, sum(len(g) for g in c._kept.values()))
    assert peak <= 2 * (MAX_PER_FILE_AND_CODE + 1) + 1
    from penguin_lint.engine.finding_cap import cap_findings

    kept = sorted(c.findings(), key=Finding.sort_key)
    assert len(kept) == MAX_PER_FILE_AND_CODE + 1
    assert cap_findings(kept, more=c.more) == cap_findings(made)
    out, omitted = cap_findings(kept, more=c.more)
    assert omitted == 5000 - MAX_PER_FILE_AND_CODE
    assert out[-1].message.startswith(f"{omitted} more PL401 findings")


def _peak_kib(root, args=("--all", "-j1", "--no-cache")):
    """Peak resident memory (KiB) of a `penguin-lint` run in a child process."""
    helper = ("import resource, subprocess, sys\n"
              "p = subprocess.run(sys.argv[1:], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)\n"
              "print(p.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
              "sys.stdout.write(p.stdout.decode())\n")
    cmd = [sys.executable, "-c", helper, sys.executable, "-m", "penguin_lint", "--root", str(root),
           "--format", "json", *args]
    out = subprocess.run(cmd, capture_output=True, text=True, check=True,
                         env={**os.environ, "PENGUIN_LINT_JOBS": "1"}).stdout
    head, _, report = out.partition("\n")
    rc, kib = map(int, head.split())
    return rc, kib, json.loads(report)


@pytest.mark.parametrize("run", ["--all", "paths"])
def test_memory_does_not_add_up_over_boards(tmp_path, run):
    # Boards of 9,000 unresolved leaves (under the limits): every one is
    # checked whole. Four of them must cost about what one costs: each
    # board's document is freed with its unit (in a path run, when the next
    # folder starts) and, in --all, its findings past the cap are counted,
    # not kept.
    values = [leaf(f"nope-{i}") for i in range(9000)]
    files = {k: v for k, v in VALID.items() if not k.startswith(("leaderboards/", "experiments/"))}
    one = write_repo(tmp_path / "one", {**files, LB: board(values)})
    four = write_repo(tmp_path / "four", {
        **files, **{f"leaderboards/lb{i}/leaderboard.yaml": board(values).replace("leaderboard_id: lb", f"leaderboard_id: lb{i}")
                    for i in range(4)}})
    if run == "--all":
        rc1, kib1, rep1 = _peak_kib(one)
        rc4, kib4, rep4 = _peak_kib(four)
    else:  # the boards named on the command line, as the pre-commit hook does
        rc1, kib1, rep1 = _peak_kib(one, [LB])
        rc4, kib4, rep4 = _peak_kib(four, [f"leaderboards/lb{i}/leaderboard.yaml" for i in range(4)])
    assert (rc1, rc4) == (1, 1)
    # each board: the first 100 listed, one that counts the rest
    for rep, n in ((rep1, 1), (rep4, 4)):
        assert rep["summary"]["omitted"] == n * (9000 - MAX_PER_FILE_AND_CODE)
        pl401 = [f for f in rep["findings"] if f["code"] == "PL401"]
        assert len(pl401) == n * (MAX_PER_FILE_AND_CODE + 1)
        assert pl401[0]["line"] == HEAD_LINES + 1
        assert pl401[-1]["message"].startswith(f"{9000 - MAX_PER_FILE_AND_CODE} more PL401 findings")
    # one board's document is some 25 MB; before, all four were held to the end
    assert kib4 - kib1 < 15 * 1024, (kib1, kib4)


def test_preview_markdown_lists_a_bounded_number_of_rows(repo, monkeypatch):
    monkeypatch.setattr(preview_mod.markdown, "MARKDOWN_ROWS", 3)
    monkeypatch.setattr(_expressions, "MAX_VALUES", 5)
    root = repo({LB: board([leaf()] * 7)})
    r = lint(None, "preview", "--root", str(root), "--format", "markdown")
    assert r.code == 0, r.stderr
    lines = r.output.splitlines()
    assert sum(1 for ln in lines if ln.startswith("| 1 | h | m |")) == 3
    assert "*the leaderboard has more than 5 values (line 12): only the 5 values before it are shown*" in lines
    assert "*2 more rows not listed here (`penguin-lint preview --format json` lists every row).*" in lines
    # JSON lists every row that was computed, and says what was left out
    r = lint(None, "preview", "--root", str(root), "--format", "json")
    (b,) = r.json["leaderboards"]
    assert len(b["rows"]) == 5 and b["note"].startswith("the leaderboard has more than 5 values")


def test_preview_markdown_output_is_capped_with_a_note(repo, monkeypatch):
    monkeypatch.setattr(preview_mod.markdown, "MARKDOWN_LIMIT", 2000)
    root = repo({LB: board([leaf()] * 40)})
    r = lint(None, "preview", "--root", str(root), "--format", "markdown")
    assert r.code == 0, r.stderr
    assert len(r.output) < 2000 + 200
    assert r.output.rstrip("\n").endswith(
        "*The preview stops here, at 2,000 characters (`penguin-lint preview --format json` has all of it).*")


def test_memory_does_not_add_up_over_the_experiments_of_one_board(tmp_path):
    # One board whose experiments each hold a big (valid) summary.yaml: the
    # board's rules keep what they read of each (the top level) and let a big
    # file go at once, so four such experiments cost about what one costs.
    rows = "".join("  - {a: 1, b: 2, c: 3}\n" for _ in range(30000))  # some 0.7 MB
    summary = "n_attempt: 2\nscore_mean: 50.0\nscore_std: 0.0\nx:\n" + rows
    files = {k: v for k, v in VALID.items() if not k.startswith(("leaderboards/", "experiments/"))}

    def repo_of(n, where):
        out = dict(files)
        for i in range(n):
            exp = f"experiments/lb/exp-{i}"
            out[f"{exp}/meta_info.yaml"] = VALID["experiments/lb/exp-1/meta_info.yaml"].replace("exp-1", f"exp-{i}") \
                .replace("model_name: m", f"model_name: m{i}")
            out[f"{exp}/test/summary.yaml"] = summary
        out[LB] = board([leaf(f"exp-{i}") for i in range(n)])
        return write_repo(where, out)

    rc1, kib1, rep1 = _peak_kib(repo_of(1, tmp_path / "one"))
    rc4, kib4, rep4 = _peak_kib(repo_of(4, tmp_path / "four"))
    assert rc1 == rc4 and {f["code"] for f in rep4["findings"]} == {f["code"] for f in rep1["findings"]}
    # one summary's document is some 15 MB; before, all four were held by the board
    assert kib4 - kib1 < 20 * 1024, (kib1, kib4)
