"""--fix and --fix --diff: byte-exact repairs with one right answer."""
from __future__ import annotations

import math
import os
import shutil
import subprocess
import textwrap
from pathlib import Path

import pytest
import yaml

from penguin_lint.loaders.numbers import proposal
from penguin_lint.fixes.source import Edit, Source
from penguin_lint.fixes.writer import WriteRefused, real_path
from tests.conftest import VALID as _VALID, lint

VALID = {k: textwrap.dedent(v) for k, v in _VALID.items()}
EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
SUMMARY = "experiments/lb/exp-1/test/summary.yaml"
A1, A2 = "experiments/lb/exp-1/test/attempt-1.yaml", "experiments/lb/exp-1/test/attempt-2.yaml"
META = "experiments/lb/exp-1/meta_info.yaml"
BENCH = "packages/bench-a/benchmark_config.toml"
LB = "leaderboards/lb/leaderboard.yaml"


def attempt(score, cost=None, duration=None):
    extra = (f"cost: {cost}\n" if cost is not None else "") + (f"duration_ms: {duration}\n" if duration is not None else "")
    return f"score: {score}\n{extra}results:\n  - source: CASE-001-one\n    score: {score}\n"


def tree_bytes(root: Path):
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in root.rglob("*") if p.is_file()}


def test_examples_repo_fix_leaves_what_no_fix_can_decide(tmp_path):
    root = tmp_path / "repo"
    shutil.copytree(EXAMPLES / "repo", root)
    before = tree_bytes(root)
    run = lint(root, "--all", "--fix")
    assert run.code == 1
    assert run.json["summary"]["fixed"] == 1
    # the seven planted mistakes minus the one with a single right answer (PL303)
    assert sorted(run.codes()) == ["PL104", "PL203", "PL204", "PL205", "PL304", "PL403"]
    after = tree_bytes(root)
    changed = [p for p in after if after[p] != before.get(p) and not p.startswith(".penguin-lint-cache/")]
    summary = "experiments/code-eval/sql-puzzles-baseline-deepseek-flash-1017-20261030/test/summary.yaml"
    assert changed == [summary]
    # 10 decimals were written: the fix writes full precision, only that value changes
    assert after[summary] == before[summary].replace(b"score_mean: 71.6666666667", b"score_mean: 69.16666666666667")
    assert yaml.safe_load(after[summary])["score_mean"] == (70.0 + 70.0 + 67.5) / 3
    again = lint(root, "--all", "--fix")
    assert again.json["summary"]["fixed"] == 0 and sorted(again.codes()) == sorted(run.codes())


def test_fix_keeps_comments_order_quoting_crlf_and_bom_byte_for_byte(repo):
    text = ("# summary written by run.py\r\n"
            "n_attempt: 2   # two runs\r\n"
            "score_std: 9.1234567891  # sample\r\n"
            "score_mean: 10.0000000000\r\n"
            "note: 'kept as it is'\r\n"
            "cost: 0.5\r\n"
            "duration_ms: 7\r\n")
    raw = b"\xef\xbb\xbf" + text.encode()
    root = repo({SUMMARY: raw, A1: attempt(50.0, 0.25, 100), A2: attempt(60.0, 0.5, 200)})
    run = lint(root, "--all", "--fix")
    assert run.code == 0 and run.findings == [] and run.json["summary"]["fixed"] == 4
    std = repr(math.sqrt(50.0))
    want = (b"\xef\xbb\xbf" + text.replace("9.1234567891", std).replace("10.0000000000", "55.0")
            .replace("cost: 0.5", "cost: 0.75").replace("duration_ms: 7", "duration_ms: 300").encode())
    assert (root / SUMMARY).read_bytes() == want


def test_two_decimals_stay_two_decimals(repo):
    root = repo({SUMMARY: "n_attempt: 3\nscore_mean: 70.00\nscore_std: 1.00\n",
                 A1: attempt(70.0), A2: attempt(70.0),
                 "experiments/lb/exp-1/test/attempt-3.yaml": attempt(67.5)})
    lint(root, "--all", "--fix")
    written = (root / SUMMARY).read_text()
    assert written == "n_attempt: 3\nscore_mean: 69.17\nscore_std: 1.44\n"
    data = yaml.safe_load(written)
    # the proposal agrees within half a unit of its last decimal
    assert abs(data["score_mean"] - 207.5 / 3) <= 0.005
    assert abs(data["score_std"] - math.sqrt(((70 - 207.5 / 3) ** 2 * 2 + (67.5 - 207.5 / 3) ** 2) / 2)) <= 0.005


def test_population_std_becomes_the_sample_std(repo):
    # population std of 50 and 60 is 5; the sample std is sqrt(50)
    root = repo({SUMMARY: "n_attempt: 2\nscore_mean: 55.0\nscore_std: 5.00000000\n",
                 A1: attempt(50.0), A2: attempt(60.0)})
    run = lint(root, "--all", "--fix")
    assert run.findings == []
    assert yaml.safe_load((root / SUMMARY).read_text())["score_std"] == math.sqrt(50.0)


def test_precision_render_parses_back():
    assert proposal(69.16666666666667, "71.67") == "69.17"
    assert proposal(69.16666666666667, "70") == "69.17"
    # an exponent says nothing about rounding: decimals, two significant digits
    assert proposal(1e-05, "3.0e-2") == "0.000010"
    assert yaml.safe_load("x: " + proposal(1e-05, "3.0e-2"))["x"] == 1e-05
    assert proposal(2.5e16, "1.00") == "2.5e+16"
    assert isinstance(yaml.safe_load("x: " + proposal(2.5e16, "1.00"))["x"], float)
    assert proposal(-1e-9, "1.00") == "0.00"
    assert proposal(7, "1.5") == "7"


def test_diff_prints_a_unified_diff_and_changes_nothing(repo):
    root = repo({SUMMARY: "n_attempt: 2\nscore_mean: 51.0\nscore_std: 0.0\n"})
    path = root / SUMMARY
    before, mtime = path.read_bytes(), path.stat().st_mtime_ns
    run = lint(root, "--all", "--fix", "--diff", fmt="text")
    assert run.code == 1
    assert run.output.splitlines() == [
        f"--- a/{SUMMARY}", f"+++ b/{SUMMARY}", "@@ -1,3 +1,3 @@",
        " n_attempt: 2", "-score_mean: 51.0", "+score_mean: 50.00", " score_std: 0.0"]
    assert "Would fix 1 finding in 1 file." in run.stderr
    assert path.read_bytes() == before and path.stat().st_mtime_ns == mtime
    # one stream for both (a terminal, a CI log): the diff, then the count on its own line
    import sys

    both = subprocess.run([sys.executable, "-m", "penguin_lint", "--all", "--fix", "--diff"], cwd=root,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    assert both.stdout.splitlines()[-2:] == [" score_std: 0.0", "Would fix 1 finding in 1 file."], both.stdout


def test_diff_on_a_clean_repository_exits_0(tmp_path):
    root = tmp_path / "clean"
    shutil.copytree(EXAMPLES / "clean", root)
    run = lint(root, "--all", "--diff", fmt="text")
    assert run.code == 0 and run.output == "" and "Nothing to fix." in run.stderr


def test_ids_set_to_their_folder_in_their_quoting_style(repo):
    root = repo({BENCH: VALID[BENCH].replace('id = "bench-a"', "id = 'bench-b'  # old name"),
                 META: VALID[META].replace("experiment_id: exp-1", "experiment_id: exp-one"),
                 LB: VALID[LB].replace("leaderboard_id: lb", 'leaderboard_id: "lb-old"')})
    run = lint(root, "--all", "--fix")
    assert run.findings == [] and run.json["summary"]["fixed"] == 3
    assert (root / BENCH).read_text().splitlines()[0] == "id = 'bench-a'  # old name"
    assert (root / META).read_text() == VALID[META]
    assert (root / LB).read_text().splitlines()[0] == 'leaderboard_id: "lb"'


def test_a_folder_name_that_is_no_valid_id_is_not_written(repo):
    root = repo({"packages/bench_a/benchmark_config.toml": VALID[BENCH],
                 "packages/bench_a/CASE-001-one/task_config.toml": VALID["packages/bench-a/CASE-001-one/task_config.toml"],
                 BENCH: None})
    before = (root / "packages/bench_a/benchmark_config.toml").read_bytes()
    run = lint(root, "--all", "--fix", "--select", "PL201")
    assert run.at("PL201") == [("packages/bench_a/benchmark_config.toml", 1)]
    assert (root / "packages/bench_a/benchmark_config.toml").read_bytes() == before


def test_yaml_typed_values_are_quoted_as_written(repo):
    meta = VALID[META].replace("model_name: m", "model_name: 1.50").replace("algorithm: baseline", "algorithm: yes  # sic")
    root = repo({META: meta})
    assert sorted(lint(root, "--all").codes()) == ["PL102", "PL102"]
    run = lint(root, "--all", "--fix")
    assert run.findings == [] and run.json["summary"]["fixed"] == 2
    assert (root / META).read_text() == meta.replace("1.50", '"1.50"').replace("yes  #", '"yes"  #')


def test_a_number_where_a_boolean_is_wanted_is_not_quoted(repo):
    # wrong type, but quoting would not make it right: no fix
    root = repo({"leaderboard/leaderboard.yaml": textwrap.dedent("""\
        package: org/pkg
        name: board
        title: Board
        columns:
          - id: a
            header: A
            accessor: metrics.a
            type: number
            enable_sorting: 1
        metrics_schema: {type: object, properties: {a: {type: number}}}
        """)})
    before = (root / "leaderboard/leaderboard.yaml").read_bytes()
    run = lint(root, "leaderboard/leaderboard.yaml", "--fix")
    assert "PL102" in run.codes()
    assert (root / "leaderboard/leaderboard.yaml").read_bytes() == before


def _git(root, *args):
    subprocess.run(["git", *args], cwd=root, check=True, capture_output=True,
                   env={**os.environ, "GIT_AUTHOR_NAME": "T", "GIT_AUTHOR_EMAIL": "t@example.com",
                        "GIT_COMMITTER_NAME": "T", "GIT_COMMITTER_EMAIL": "t@example.com",
                        "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": os.devnull})


def test_published_back_to_draft_needs_unsafe_fixes(repo):
    root = repo()
    _git(root, "init", "-q")
    _git(root, "add", "-A")
    _git(root, "commit", "-q", "-m", "base")
    (root / LB).write_text(VALID[LB].replace("status: draft", "status: published"))
    safe = lint(root, LB, "--fix")
    assert safe.at("PL501") == [(LB, 2)] and "published" in (root / LB).read_text()
    unsafe = lint(root, LB, "--fix", "--unsafe-fixes")
    assert unsafe.findings == [] and unsafe.json["summary"]["fixed"] == 1
    assert (root / LB).read_text() == VALID[LB]


def test_unsafe_fixes_alone_is_a_usage_error(repo):
    run = lint(repo(), "--all", "--unsafe-fixes")
    assert run.code == 2 and "--unsafe-fixes works with --fix or --diff" in run.stderr


def test_text_summary_line_counts_fixed_and_remaining(repo):
    root = repo({SUMMARY: "n_attempt: 2\nscore_mean: 51.0\nscore_std: 0.0\n",
                 BENCH: VALID[BENCH].replace('version = "1.0.0"', 'version = "1.0"')})
    run = lint(root, "--all", "--fix", fmt="text")
    assert run.output.splitlines()[-1] == "Fixed 1 finding; 1 remains: 1 error, 0 warnings (9 files checked)."
    assert lint(root, "--all", "--fix", fmt="text").output.splitlines()[-1].startswith("Fixed 0 findings; 1 remains")


def test_never_written_through_a_link_or_outside_the_root(tmp_path):
    root = tmp_path / "r"
    (root / "d").mkdir(parents=True)
    (tmp_path / "outside.yaml").write_text("a: 1\n")
    os.symlink(tmp_path / "outside.yaml", root / "d" / "link.yaml")
    os.symlink(tmp_path, root / "up")
    for rel in ("d/link.yaml", "../outside.yaml", "up/outside.yaml", "/etc/passwd", "d/../../outside.yaml"):
        with pytest.raises(WriteRefused):
            real_path(str(root), rel)


def test_a_splice_that_changes_other_data_is_refused():
    src = Source("s.yaml", b"a: 1\nb: 2\n")
    # an edit claiming to set a to 3 but writing text that also adds a key
    bad = Edit("PL303", ("a",), 3, 4, "3\nc: 4", 3)
    new, applied = src.apply([bad])
    assert not src.verify(new, applied)
    good = Edit("PL303", ("a",), 3, 4, "3", 3)
    new, applied = src.apply([good])
    assert new == b"a: 3\nb: 2\n" and src.verify(new, applied)


def test_rules_say_whether_they_fix():
    assert "Fix: penguin-lint --fix repairs" in lint(None, "rules", "PL303").output
    assert "--unsafe-fixes" in lint(None, "rules", "PL501").output
    assert "Fix: none" in lint(None, "rules", "PL403").output
    import json

    table = json.loads(lint(None, "rules", "--format", "json").output)
    fixable = {r["code"]: r["fixable"] for r in table if r["fixable"]}
    assert fixable == {"PL005": "safe", "PL008": "safe", "PL102": "safe", "PL201": "safe", "PL303": "safe", "PL501": "unsafe"}


def test_toml_id_fix_keeps_crlf_and_removes_the_mark_tomllib_refuses(repo):
    text = VALID[BENCH].replace('id = "bench-a"', 'id = "bench-x"   # renamed')
    text = text.replace("\n", "\r\n")
    root = repo({BENCH: b"\xef\xbb\xbf" + text.encode()})
    run = lint(root, "--all", "--fix")
    assert run.findings == [] and run.json["summary"]["fixed"] == 2  # PL201 and PL005
    assert (root / BENCH).read_bytes() == text.replace('"bench-x"', '"bench-a"').encode()
    # only the mark goes: the same fix alone, on the file with its id right
    root = repo({BENCH: b"\xef\xbb\xbf" + VALID[BENCH].replace("\n", "\r\n").encode()})
    diff = lint(root, "--all", "--fix", "--diff", fmt="text")
    assert diff.code == 1 and "Would fix 1 finding in 1 file." in diff.stderr
    # the mark shown as an escape (output is never raw control text)
    assert '-\\ufeffid = "bench-a"\n+id = "bench-a"\n' in diff.output
    assert lint(root, "--all", "--fix").findings == []
    assert (root / BENCH).read_bytes() == VALID[BENCH].replace("\n", "\r\n").encode()


def test_read_only_file_is_not_written(repo):
    root = repo({SUMMARY: "n_attempt: 2\nscore_mean: 51.0\nscore_std: 0.0\n"})
    os.chmod(root / SUMMARY, 0o444)
    run = lint(root, "--all", "--fix")
    assert run.at("PL303") == [(SUMMARY, 2)]
    assert "read-only; not written" in run.stderr
    assert (root / SUMMARY).read_text() == "n_attempt: 2\nscore_mean: 51.0\nscore_std: 0.0\n"


def test_fix_in_a_pull_request_run(repo):
    root = repo()
    _git(root, "init", "-q", "-b", "main")
    _git(root, "add", "-A")
    _git(root, "commit", "-q", "-m", "base")
    _git(root, "checkout", "-q", "-b", "feature")
    (root / SUMMARY).write_text("n_attempt: 2\nscore_mean: 52.5\nscore_std: 0.0  # checked\n")
    run = lint(root, "--diff-base", "main", "--fix")
    assert run.code == 0 and run.findings == [] and run.json["summary"]["fixed"] == 1
    assert (root / SUMMARY).read_text() == "n_attempt: 2\nscore_mean: 50.00\nscore_std: 0.0  # checked\n"


from hypothesis import HealthCheck, given, settings, strategies as st  # noqa: E402


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(scores=st.lists(st.integers(0, 400).map(lambda x: x / 4), min_size=2, max_size=4),
       decimals=st.integers(0, 12), crlf=st.booleans(), bom=st.booleans(),
       comment=st.sampled_from(["", "  # mean", " #x"]), first=st.booleans())
def test_summary_fix_changes_only_the_value(tmp_path_factory, scores, decimals, crlf, bom, comment, first):
    from tests.conftest import write_repo

    n = len(scores)
    mean = sum(scores) / n
    std = math.sqrt(sum((s - mean) ** 2 for s in scores) / (n - 1))
    wrong = format(mean + 3.25, f".{decimals}f")
    lines = [f"n_attempt: {n}", f"score_std: {std!r}", f"score_mean: {wrong}{comment}", "note: 'a # b'"]
    if first:
        lines = ["# written by hand"] + lines
    eol = "\r\n" if crlf else "\n"
    text = eol.join(lines) + eol
    raw = (b"\xef\xbb\xbf" if bom else b"") + text.encode()
    files = dict(VALID)
    files[SUMMARY] = raw
    files[A1] = None
    files[A2] = None
    for j, s in enumerate(scores, 1):
        files[f"experiments/lb/exp-1/test/attempt-{j}.yaml"] = attempt(s)
    root = write_repo(tmp_path_factory.mktemp("r") / "repo", files, {})
    lint(root, "--all", "--fix")
    new = (root / SUMMARY).read_bytes()
    i = raw.index(b"score_mean: ") + len(b"score_mean: ")
    prefix, suffix = raw[:i], raw[i + len(wrong):]
    assert new.startswith(prefix) and new.endswith(suffix)
    token = new[len(prefix):len(new) - len(suffix)].decode()
    value = yaml.safe_load(f"x: {token}")["x"]
    assert isinstance(value, float)
    if decimals > 6:
        assert value == math.fsum(scores) / n
    else:
        d = max(decimals, 2)
        assert len(token.split(".")[1]) == d
        assert abs(value - mean) <= 0.5 * 10 ** -d + 1e-12


def test_quoting_in_toml_and_in_a_flow_mapping(repo):
    bench = VALID[BENCH].replace('title = "Bench A"', "title = true  # oops")
    lb = VALID[LB].replace("  - experiment_id: exp-1\n    phase: test\n", "  - { experiment_id: exp-1, phase: 2026 }\n")
    root = repo({BENCH: bench, LB: lb})
    run = lint(root, "--all", "--fix", "--select", "PL102")
    assert run.findings == [] and run.json["summary"]["fixed"] == 2
    assert (root / BENCH).read_text() == bench.replace("title = true", 'title = "true"')
    assert (root / LB).read_text() == lb.replace("phase: 2026", 'phase: "2026"')


_SCALARS = st.sampled_from(["yes", "1.50", "0755", "2026-10-29", "'it''s'", '"a \\" b"', "plain text",
                            "~", "null", "1e3", '"# not a comment"', "-12", "0x1F", "true"])


@settings(max_examples=60, deadline=None)
@given(items=st.lists(st.tuples(_SCALARS, st.sampled_from(["", "  # c", " #"])), min_size=1, max_size=6),
       crlf=st.booleans(), bom=st.booleans(), flow=st.booleans())
def test_every_located_scalar_splices_back_exactly(items, crlf, bom, flow):
    eol = "\r\n" if crlf else "\n"
    if flow:
        text = "m: {" + ", ".join(f"k{i}: {v}" for i, (v, _) in enumerate(items)) + "}" + eol
        keys = [("m", f"k{i}") for i in range(len(items))]
    else:
        text = "".join(f"k{i}: {v}{c}{eol}" for i, (v, c) in enumerate(items))
        keys = [(f"k{i}",) for i in range(len(items))]
    raw = (b"\xef\xbb\xbf" if bom else b"") + text.encode()
    src = Source("f.yaml", raw)
    assert src.ok
    for key in keys:
        found = src.scalar(key)
        assert found is not None, (key, text)
        start, end, token = found
        new, applied = src.apply([Edit("PL102", key, start, end, '"x"', "x")])
        assert src.verify(new, applied)
        assert new == raw[:len(raw) - len(text.encode())] + (text[:start] + '"x"' + text[end:]).encode()


def test_unused_suppressions_are_removed(repo):
    bench = VALID[BENCH].replace('status = "draft"\n', 'status = "draft"  # penguin-lint: disable=PL203\n'
                                 "# penguin-lint: disable=PL104\n"
                                 "runs = 1  # penguin-lint: disable=PL303,PL104 legacy\n")
    root = repo({BENCH: bench.replace("\n", "\r\n").encode()})
    run = lint(root, "--all", "--fix")
    assert run.findings == [] and run.json["summary"]["fixed"] == 3
    want = VALID[BENCH].replace('status = "draft"\n', 'status = "draft"\n'
                                "runs = 1  # penguin-lint: disable=PL104 legacy\n")
    assert (root / BENCH).read_bytes() == want.replace("\n", "\r\n").encode()
    # a malformed one is the author's to mend
    odd = VALID[BENCH] + "# penguin-lint: disable PL104\n"
    root = repo({BENCH: odd})
    assert lint(root, "--all", "--fix").at("PL008") == [(BENCH, 10)]
    assert (root / BENCH).read_text() == odd
