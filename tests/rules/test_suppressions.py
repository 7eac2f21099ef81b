"""Inline suppressions (`# penguin-lint: disable=...`) and PL008 unused-suppression."""
import textwrap

from penguin_lint.suppressions import FILE, LINE, find_directives

from tests.conftest import VALID as _VALID, lint

VALID = {k: textwrap.dedent(v) for k, v in _VALID.items()}

BENCH = "packages/bench-a/benchmark_config.toml"
META = "experiments/lb/exp-1/meta_info.yaml"
SUMMARY = "experiments/lb/exp-1/test/summary.yaml"


def _bench(extra_line: str) -> str:
    return VALID[BENCH].replace('status = "draft"\n', 'status = "draft"\n' + extra_line + "\n")


def test_line_suppression_hides_the_finding_and_is_counted(repo):
    root = repo({BENCH: _bench("runs = 1  # penguin-lint: disable=PL104 (old importer)")})
    run = lint(root, "--all")
    assert run.findings == []
    assert run.json["summary"]["suppressed"] == 1
    assert run.code == 0


def test_no_suppress_shows_every_finding(repo):
    root = repo({BENCH: _bench("runs = 1  # penguin-lint: disable=PL104")})
    run = lint(root, "--all", "--no-suppress")
    assert run.at("PL104") == [(BENCH, 7)]
    assert run.json["summary"]["suppressed"] == 0
    assert "PL008" not in run.codes()


def test_suppression_on_another_line_is_unused(repo):
    root = repo({BENCH: _bench("# penguin-lint: disable=PL104\nruns = 1")})
    run = lint(root, "--all")
    assert sorted(run.at("PL104")) == [(BENCH, 8)]
    (unused,) = [f for f in run.findings if f["code"] == "PL008"]
    assert (unused["path"], unused["line"], unused["column"]) == (BENCH, 7, 1)
    assert unused["severity"] == "warning"
    assert "applies to the line it ends" in unused["hint"]


def test_only_the_named_code_is_suppressed(repo):
    root = repo({BENCH: _bench("runs = 1  # penguin-lint: disable=PL203,PL104")})
    run = lint(root, "--all")
    (unused,) = run.findings
    assert unused["code"] == "PL008" and unused["line"] == 7
    assert "PL203" in unused["message"] and "PL104" not in unused["message"]
    assert unused["hint"] == "remove PL203 from it"


def test_file_suppression_in_yaml(repo):
    root = repo({SUMMARY: "n_attempt: 2\nscore_mean: 51.0\nscore_std: 0.0\n"
                          "# penguin-lint: disable-file=PL303\n"})
    run = lint(root, "--all")
    assert run.findings == [] and run.json["summary"]["suppressed"] == 1


def test_unused_file_suppression(repo):
    root = repo({META: VALID[META] + "# penguin-lint: disable-file=PL306\n"})
    run = lint(root, "--all")
    assert [(f["code"], f["path"], f["line"]) for f in run.findings] == [("PL008", META, 6)]
    assert run.code == 0  # a warning


def test_suppressions_of_codes_not_checked_are_not_judged(repo):
    root = repo({BENCH: _bench("runs = 1  # penguin-lint: disable=PL104")})
    assert lint(root, "--all", "--select", "PL2,PL008").findings == []


def test_ignored_pl008_still_suppresses(repo):
    root = repo({BENCH: _bench("runs = 1  # penguin-lint: disable=PL104"),
                 META: VALID[META] + "# penguin-lint: disable-file=PL306\n"})
    run = lint(root, "--all", "--ignore", "PL008")
    assert run.findings == [] and run.json["summary"]["suppressed"] == 1


def test_malformed_and_unknown_codes_are_reported(repo):
    root = repo({BENCH: _bench('runs = 1  # penguin-lint: disable PL104\n'
                               'refs = 2  # penguin-lint: disable=PL1O4,PL104\n'
                               'more = 3  # penguin-lint: disable=PL999')})
    run = lint(root, "--all")
    got = sorted((f["code"], f["line"], f["message"]) for f in run.findings)
    assert got[0][:2] == ("PL008", 7) and "is not 'disable=CODE" in got[0][2]
    assert got[1][:2] == ("PL008", 8) and "'PL1O4', which is not a rule code" in got[1][2]
    assert got[2][:2] == ("PL008", 9) and "PL999, which is no rule" in got[2][2]
    # line 7 is malformed, so its PL104 stands; line 8's good code applies
    assert [g[:2] for g in got[3:]] == [("PL104", 7), ("PL104", 9)]


def test_directive_text_inside_strings_is_not_a_comment():
    yaml_text = ('title: "a # penguin-lint: disable=PL104"\n'
                 'description: |\n  # penguin-lint: disable=PL104\n'
                 'runs: 1 # penguin-lint: disable=PL104\n'
                 'url: http://x#penguin-lint: disable=PL104\n')
    (d,) = find_directives(yaml_text, "yaml")
    assert (d.line, d.column, d.scope, d.codes) == (4, 9, LINE, ("PL104",))
    toml_text = ('title = "a # penguin-lint: disable=PL104"\n'
                 'description = """\n# penguin-lint: disable=PL104\n"""\n'
                 "lit = 'x' # penguin-lint: disable-file=PL303\n")
    (d,) = find_directives(toml_text, "toml")
    assert (d.line, d.column, d.scope, d.codes) == (5, 11, FILE, ("PL303",))
    assert find_directives('{"a": "# penguin-lint: disable=PL104"}', "json") == ()


def test_crlf_file_suppression_lines(repo):
    text = _bench("runs = 1  # penguin-lint: disable=PL104").replace("\n", "\r\n")
    root = repo({BENCH: text.encode("utf-8")})
    run = lint(root, "--all")
    assert run.findings == [] and run.json["summary"]["suppressed"] == 1


def test_suppression_in_a_pull_request_run(repo):
    root = repo({BENCH: _bench("runs = 1  # penguin-lint: disable=PL104")})
    run = lint(root, BENCH)
    assert run.findings == [] and run.json["summary"]["suppressed"] == 1


def test_file_suppression_of_a_folder_finding_in_a_pull_request_run(repo):
    # PL306 is found by the experiment folder's check and sits in meta_info.yaml;
    # a run over only the leaderboard still sees the meta file's suppression.
    lb = VALID["leaderboards/lb/leaderboard.yaml"]
    root = repo({
        "experiments/lb/exp-2/meta_info.yaml": VALID[META].replace("exp-1", "exp-2")
        + "# penguin-lint: disable-file=PL306\n",
        "experiments/lb/exp-2/test/summary.yaml": VALID[SUMMARY],
        "experiments/lb/exp-2/test/attempt-1.yaml": VALID["experiments/lb/exp-1/test/attempt-1.yaml"],
        "experiments/lb/exp-2/test/attempt-2.yaml": VALID["experiments/lb/exp-1/test/attempt-2.yaml"],
        "leaderboards/lb/leaderboard.yaml": lb,
    })
    assert lint(root, "--all", "--no-suppress").at("PL306") == [("experiments/lb/exp-2/meta_info.yaml", 1)]
    only_lb = lint(root, "leaderboards/lb/leaderboard.yaml", "--no-suppress")
    assert only_lb.at("PL306") == [("experiments/lb/exp-2/meta_info.yaml", 1)]
    for args in (("--all",), ("experiments/lb/exp-2",), ("leaderboards/lb/leaderboard.yaml",)):
        run = lint(root, *args)
        assert run.findings == [], args
        assert run.json["summary"]["suppressed"] == 1, args


def test_many_directives_and_tokens_stay_bounded():
    import time

    # 200,000 scalars and 5,000 comments: capped, and found in one pass
    text = "".join(f"k{i}: v  # penguin-lint: disable=PL104\n" if i % 40 == 0 else f"k{i}: v\n"
                   for i in range(200_000))
    start = time.perf_counter()
    found = find_directives(text, "yaml")
    assert len(found) == 200 and found[0].line == 1 and found[1].line == 41
    assert time.perf_counter() - start < 10
    strings = "".join(f'k{i}: "a # penguin-lint: disable=PL104"\n' for i in range(5000))
    assert find_directives(strings, "yaml") == ()


def test_suppressions_cross_worker_processes(repo):
    root = repo({BENCH: _bench("runs = 1  # penguin-lint: disable=PL104"),
                 META: VALID[META] + "# penguin-lint: disable-file=PL306\n"})
    run = lint(root, "--all", "--jobs", "2")
    assert [(f["code"], f["path"]) for f in run.findings] == [("PL008", META)]
    assert run.json["summary"]["suppressed"] == 1


def test_unused_suppressions_are_judged_only_in_files_a_change_reports_in_full(repo):
    lb = VALID["leaderboards/lb/leaderboard.yaml"].replace("title: LB", "title: LB  # penguin-lint: disable=PL407")
    root = repo({"leaderboards/lb/leaderboard.yaml": lb,
                 SUMMARY: VALID[SUMMARY] + "# touched\n"})
    assert lint(root, "--all").at("PL008") == [("leaderboards/lb/leaderboard.yaml", 3)]
    # the summary's change re-checks the leaderboard, which is not reported in full
    assert lint(root, SUMMARY).findings == []
    assert lint(root, "leaderboards/lb/leaderboard.yaml").at("PL008") == [("leaderboards/lb/leaderboard.yaml", 3)]


def test_a_huge_non_code_is_named_in_a_few_words(repo):
    # a line of a megabyte that looks like codes gives a finding of a line, not a megabyte
    huge = "PL" + "9" * (1 << 20)
    root = repo({BENCH: _bench(f"runs = 1  # penguin-lint: disable={huge},PL104")})
    run = lint(root, "--all")
    got = [(f["code"], f["line"], f["message"]) for f in run.findings if f["code"] == "PL008"]
    assert got == [("PL008", 7, "suppression comment names 'PL" + "9" * 33 + "...', which is not "
                                "a rule code (such as PL104); that part suppresses nothing")]
