"""PL301-PL308: experiment folders, attempts and summaries."""
import shutil

from penguin_lint.core.config import load_config
from penguin_lint.engine.runner import Engine, enabled_rules
from penguin_lint.core.layout import FILE_KINDS
from penguin_lint.core.repo import Repository
from penguin_lint.rules import get_rule, rule_codes
from tests.conftest import VALID, lint

EXP = "experiments/lb/exp-1"
TEST = f"{EXP}/test"


def engine(root):
    """An engine built the way the command line builds one."""
    config = load_config(root, FILE_KINDS, rule_codes())
    return Engine(Repository(root, config), config, enabled_rules(config))


def at_paths(findings, code):
    return sorted((f.path, f.line) for f in findings if f.code == code)


def attempt(score, *extra):
    text = f"score: {score}\n" + "".join(f"{x}\n" for x in extra)
    return text + "results:\n  - source: CASE-001-one\n    score: 50.0\n"


def summary(n, mean, std=0.0, *extra):
    return f"n_attempt: {n}\nscore_mean: {mean}\nscore_std: {std}\n" + "".join(f"{x}\n" for x in extra)


META2 = """\
    experiment_id: exp-2
    benchmark_id: bench-a
    harness_name: h
    model_name: m2
    algorithm: baseline
    """


def second_experiment(prefix="experiments/lb/exp-2"):
    return {
        f"{prefix}/meta_info.yaml": META2,
        f"{prefix}/test/summary.yaml": summary(1, 50.0),
        f"{prefix}/test/attempt-1.yaml": attempt(50.0),
    }


def test_valid_repository_has_no_experiment_findings(repo):
    run = lint(repo(), "--all")
    assert [c for c in run.codes() if c.startswith("PL3")] == []


# -- PL301 missing-experiment-file ---------------------------------------------

def test_pl301_missing_meta_info(repo):
    run = lint(repo({f"{EXP}/meta_info.yaml": None}), "--all")
    assert run.at("PL301") == [(f"{EXP}/meta_info.yaml", None)]
    assert run.code == 1


def test_pl301_missing_summary(repo):
    run = lint(repo({f"{TEST}/summary.yaml": None}), "--all")
    assert run.at("PL301") == [(f"{TEST}/summary.yaml", None)]


def test_pl301_ignores_dot_folders(repo):
    run = lint(repo({f"{EXP}/.cache/notes.txt": "x\n"}), "--all")
    assert run.at("PL301") == []


# -- PL302 attempt-numbering ----------------------------------------------------

def test_pl302_missing_attempt(repo):
    run = lint(repo({f"{TEST}/attempt-2.yaml": None}), "--all")
    assert run.at("PL302") == [(f"{TEST}/attempt-2.yaml", None)]
    msg = [f["message"] for f in run.findings if f["code"] == "PL302"][0]
    assert "n_attempt: 2" in msg and "line 1" in msg


def test_pl302_extra_and_badly_named_attempts(repo):
    root = repo({
        f"{TEST}/attempt-3.yaml": attempt(50.0),
        f"{TEST}/attempt-0.yaml": attempt(50.0),
        f"{TEST}/attempt-01.yaml": attempt(50.0),
        f"{TEST}/attempt-x.yaml": attempt(50.0),
    })
    run = lint(root, "--all")
    assert run.at("PL302") == [
        (f"{TEST}/attempt-0.yaml", None),
        (f"{TEST}/attempt-01.yaml", None),
        (f"{TEST}/attempt-3.yaml", None),
        (f"{TEST}/attempt-x.yaml", None),
    ]
    hints = {f["path"].rpartition("/")[2]: f["hint"] for f in run.findings if f["code"] == "PL302"}
    assert "attempt-1.yaml" in hints["attempt-01.yaml"]
    assert "n_attempt" in [f["message"] for f in run.findings if f["path"].endswith("attempt-3.yaml")][0]


def test_pl302_without_summary_reports_only_bad_names(repo):
    root = repo({f"{TEST}/summary.yaml": None, f"{TEST}/attempt-02.yaml": attempt(50.0),
                 f"{TEST}/attempt-7.yaml": attempt(50.0)})
    run = lint(root, "--all")
    assert run.at("PL302") == [(f"{TEST}/attempt-02.yaml", None)]


def test_pl302_unusable_n_attempt_reports_only_bad_names(repo):
    root = repo({f"{TEST}/summary.yaml": summary("true", 50.0), f"{TEST}/attempt-7.yaml": attempt(50.0)})
    assert lint(root, "--all").at("PL302") == []


def test_pl302_huge_n_attempt_is_bounded(repo):
    run = lint(repo({f"{TEST}/summary.yaml": summary(10**12, 50.0)}), "--all")
    found = run.at("PL302")
    assert len(found) == 21
    assert (f"{TEST}/attempt-3.yaml", None) in found
    assert (f"{TEST}/summary.yaml", 1) in found


def test_pl302_passes_on_exact_numbering(repo):
    root = repo({f"{TEST}/summary.yaml": summary(3, 50.0), f"{TEST}/attempt-3.yaml": attempt(50.0)})
    assert lint(root, "--all").at("PL302") == []


# -- PL303 summary-mismatch -----------------------------------------------------

def test_pl303_score_mean(repo):
    run = lint(repo({f"{TEST}/summary.yaml": summary(2, 51.0)}), "--all")
    assert run.at("PL303") == [(f"{TEST}/summary.yaml", 2)]
    f = [f for f in run.findings if f["code"] == "PL303"][0]
    assert f["column"] == 13
    assert f["message"] == "score_mean is 51.0 but the 2 attempts average 50"


def test_pl303_score_std_is_sample_std(repo):
    files = {f"{TEST}/attempt-1.yaml": attempt(40.0), f"{TEST}/attempt-2.yaml": attempt(60.0),
             f"{TEST}/summary.yaml": summary(2, 50.0, 10.0)}  # 10.0 is the population std
    run = lint(repo(files), "--all")
    assert run.at("PL303") == [(f"{TEST}/summary.yaml", 3)]
    message = [f["message"] for f in run.findings if f["code"] == "PL303"][0]
    assert "14.1421" in message and "population standard deviation" in message


def test_pl303_a_total_below_what_the_attempts_that_carry_it_add_up_to(repo):
    files = {f"{TEST}/attempt-1.yaml": attempt(50.0, "cost: 0.5"), f"{TEST}/attempt-2.yaml": attempt(50.0),
             f"{TEST}/summary.yaml": summary(2, 50.0, 0.0, "cost: 0.001")}
    run = lint(repo(files), "--all")
    (f,) = [f for f in run.findings if f["code"] == "PL303"]
    assert (f["line"], f["message"]) == (4, "cost is 0.001 but the attempt that carries it already says 0.5")
    assert f["hint"] == "every attempt carries cost, or none does: add it to attempt-2.yaml, then the total is checked"
    # at or above the known part, the total may be right: not checked
    files[f"{TEST}/summary.yaml"] = summary(2, 50.0, 0.0, "cost: 0.9")
    assert lint(repo(files), "--all").at("PL303") == []


def test_pl303_passes_within_tolerance(repo):
    files = {f"{TEST}/summary.yaml": summary(3, 69.1666667, 1.443375673),
             f"{TEST}/attempt-1.yaml": attempt(70.0), f"{TEST}/attempt-2.yaml": attempt(70.0),
             f"{TEST}/attempt-3.yaml": attempt(67.5)}
    assert lint(repo(files), "--all").at("PL303") == []


def test_pl303_totals(repo):
    files = {f"{TEST}/attempt-1.yaml": attempt(50.0, "cost: 0.5", "token: 100"),
             f"{TEST}/attempt-2.yaml": attempt(50.0, "cost: 0.25", "token: 200"),
             f"{TEST}/summary.yaml": summary(2, 50.0, 0.0, "cost: 1.0", "token: 300")}
    run = lint(repo(files), "--all")
    assert run.at("PL303") == [(f"{TEST}/summary.yaml", 4)]
    assert "0.75" in [f["message"] for f in run.findings if f["code"] == "PL303"][0]


def test_pl303_totals_skipped_when_an_attempt_lacks_them(repo):
    files = {f"{TEST}/attempt-1.yaml": attempt(50.0, "cost: 0.5"),
             f"{TEST}/summary.yaml": summary(2, 50.0, 0.0, "cost: 9.0")}
    assert lint(repo(files), "--all").at("PL303") == []


def test_pl303_skipped_when_an_attempt_is_missing(repo):
    files = {f"{TEST}/attempt-2.yaml": None, f"{TEST}/summary.yaml": summary(2, 99.0)}
    assert lint(repo(files), "--all").at("PL303") == []


# -- PL304 unknown-source -------------------------------------------------------

def test_pl304_unknown_source(repo):
    run = lint(repo({f"{TEST}/attempt-1.yaml": attempt(50.0).replace("CASE-001-one", "CASE-001-onee")}), "--all")
    assert run.at("PL304") == [(f"{TEST}/attempt-1.yaml", 3)]
    f = [f for f in run.findings if f["code"] == "PL304"][0]
    assert f["column"] == 13
    assert "CASE-001-one'" in f["hint"]


def test_pl304_skipped_without_package(repo):
    root = repo({f"{EXP}/meta_info.yaml": "experiment_id: exp-1\nbenchmark_id: bench-z\n"
                                          "harness_name: h\nmodel_name: m\nalgorithm: baseline\n",
                 f"{TEST}/attempt-1.yaml": attempt(50.0).replace("CASE-001-one", "nope")})
    run = lint(root, "--all")
    assert run.at("PL304") == []
    assert run.at("PL307") == [(f"{EXP}/meta_info.yaml", 2)]


def test_pl304_passes_on_known_sources(repo):
    assert lint(repo(), "--all").at("PL304") == []


# -- PL305 orphan-experiments ---------------------------------------------------

def test_pl305_orphan_experiments(repo):
    run = lint(repo(second_experiment("experiments/lbx/exp-2")), "--all")
    assert run.at("PL305") == [("experiments/lbx", None)]
    assert "'lb'" in [f["hint"] for f in run.findings if f["code"] == "PL305"][0]


def test_pl305_a_dot_named_group_is_an_orphan_too(repo):
    # nothing publishes experiments/.x/: no leaderboard id starts with a dot
    run = lint(repo(second_experiment("experiments/.x/exp-2")), "--all")
    assert run.code == 1 and run.at("PL305") == [("experiments/.x", None)]
    (f,) = [f for f in run.findings if f["code"] == "PL305"]
    assert "add leaderboards/.x/" not in f["hint"], f["hint"]


def test_pl305_passes_with_leaderboard(repo):
    assert lint(repo(), "--all").at("PL305") == []


# -- PL306 unreferenced-experiment ----------------------------------------------

def test_pl306_unreferenced_experiment(repo):
    run = lint(repo(second_experiment()), "--all")
    assert run.at("PL306") == [("experiments/lb/exp-2/meta_info.yaml", 1)]
    f = [f for f in run.findings if f["code"] == "PL306"][0]
    assert f["severity"] == "warning" and f["column"] == 16


def test_pl306_passes_when_an_operation_uses_it(repo):
    lb = VALID["leaderboards/lb/leaderboard.yaml"].rstrip(" ") + """\
          - op: mean
            args:
              - op: sum
                args:
                  - experiment_id: exp-2
                    phase: test
        """
    files = dict(second_experiment(), **{"leaderboards/lb/leaderboard.yaml": lb})
    run = lint(repo(files), "--all")
    assert run.at("PL306") == []
    assert "PL001" not in run.codes()  # the leaderboard parses: the pass is not for lack of it


def test_pl306_silent_when_leaderboard_does_not_parse(repo):
    files = dict(second_experiment(), **{"leaderboards/lb/leaderboard.yaml": "values: [\n"})
    assert lint(repo(files), "--all").at("PL306") == []


# -- PL307 unknown-benchmark ----------------------------------------------------

def test_pl307_unknown_benchmark(repo):
    meta = "experiment_id: exp-1\nbenchmark_id: bench-b\nharness_name: h\nmodel_name: m\nalgorithm: baseline\n"
    run = lint(repo({f"{EXP}/meta_info.yaml": meta}), "--all")
    assert run.at("PL307") == [(f"{EXP}/meta_info.yaml", 2)]
    assert "bench-a" in [f["hint"] for f in run.findings if f["code"] == "PL307"][0]


def test_pl307_passes_on_existing_package(repo):
    assert lint(repo(), "--all").at("PL307") == []


# -- PL308 unknown-phase --------------------------------------------------------

def _phase(name):
    return {f"{EXP}/{name}/summary.yaml": summary(1, 50.0), f"{EXP}/{name}/attempt-1.yaml": attempt(50.0)}


def test_pl308_unknown_phase(repo):
    run = lint(repo(_phase("dev")), "--all")
    assert run.at("PL308") == [(f"{EXP}/dev", None)]
    f = [f for f in run.findings if f["code"] == "PL308"][0]
    assert f["severity"] == "warning" and "'val'" in f["hint"]


def test_pl308_uppercase_phase(repo):
    run = lint(repo(_phase("Train")), "--all")
    assert run.at("PL308") == [(f"{EXP}/Train", None)]
    f = [f for f in run.findings if f["code"] == "PL308"][0]
    assert "lowercase" in f["message"] and "'train'" in f["hint"]


def test_pl308_known_phases_pass(repo):
    files = dict(_phase("train"), **_phase("val"))
    assert lint(repo(files), "--all").at("PL308") == []


# -- rule documentation ---------------------------------------------------------

def test_rules_are_documented():
    for code in ("PL301", "PL302", "PL303", "PL304", "PL305", "PL306", "PL307", "PL308"):
        rule = get_rule(code)
        assert rule.doc() and rule.bad[1] and rule.good[1] and rule.summary
        assert not rule.doc().startswith(" ")
    assert get_rule("PL306").severity == "warning" and get_rule("PL308").severity == "warning"


# -- pull-request mode (affected_by) --------------------------------------------

def test_affected_by_attempt_affects_summary(repo):
    eng = engine(repo())
    assert list(get_rule("PL303").affected_by(f"{TEST}/attempt-3.yaml", eng.ctx)) == [f"{TEST}/summary.yaml"]
    assert list(get_rule("PL303").affected_by(f"{EXP}/meta_info.yaml", eng.ctx)) == []


def test_changed_attempt_reports_summary_mismatch(repo):
    root = repo({f"{TEST}/attempt-2.yaml": attempt(70.0)})
    result = engine(root).run_paths([f"{TEST}/attempt-2.yaml"])
    # the mean (line 2) and the standard deviation (line 3) both moved
    assert at_paths(result.findings, "PL303") == [(f"{TEST}/summary.yaml", 2), (f"{TEST}/summary.yaml", 3)]


def test_deleted_attempt_reports_missing_attempt(repo):
    root = repo({f"{TEST}/attempt-2.yaml": None})
    result = engine(root).run_paths([f"{TEST}/attempt-2.yaml"])
    assert at_paths(result.findings, "PL302") == [(f"{TEST}/attempt-2.yaml", None)]


def test_changed_summary_reports_extra_attempt(repo):
    root = repo({f"{TEST}/summary.yaml": "n_attempt: 1\nscore_mean: 50.0\n"})
    result = engine(root).run_paths([f"{TEST}/summary.yaml"])
    assert at_paths(result.findings, "PL302") == [(f"{TEST}/attempt-2.yaml", None)]


def test_renamed_task_reports_sources(repo):
    old = "packages/bench-a/CASE-001-one"
    new = "packages/bench-a/CASE-001-uno"
    root = repo({f"{old}/task_config.toml": None, f"{old}/statement/README.md": None,
                 f"{old}/rubric/README.md": None,
                 f"{new}/task_config.toml": 'id = "CASE-001-uno"\ntitle = "One"\ndescription = "d"\n',
                 f"{new}/statement/README.md": "# One\n", f"{new}/rubric/README.md": "# R\n"})
    eng = engine(root)
    assert sorted(get_rule("PL304").affected_by(f"{old}/task_config.toml", eng.ctx)) == [
        f"{TEST}/attempt-1.yaml", f"{TEST}/attempt-2.yaml"]
    result = eng.run_paths([f"{old}/task_config.toml", f"{old}/statement/README.md", f"{old}/rubric/README.md",
                            f"{new}/task_config.toml", f"{new}/statement/README.md", f"{new}/rubric/README.md"])
    assert at_paths(result.findings, "PL304") == [(f"{TEST}/attempt-1.yaml", 3), (f"{TEST}/attempt-2.yaml", 3)]


def test_changed_meta_info_reports_sources(repo):
    root = repo({
        "packages/bench-b/benchmark_config.toml": 'id = "bench-b"\n',
        "packages/bench-b/CASE-009-nine/task_config.toml": 'id = "CASE-009-nine"\n',
        f"{EXP}/meta_info.yaml": "experiment_id: exp-1\nbenchmark_id: bench-b\nharness_name: h\n"
                                 "model_name: m\nalgorithm: baseline\n",
    })
    result = engine(root).run_paths([f"{EXP}/meta_info.yaml"])
    assert at_paths(result.findings, "PL304") == [(f"{TEST}/attempt-1.yaml", 3), (f"{TEST}/attempt-2.yaml", 3)]


def test_deleted_package_reports_unknown_benchmark(repo):
    root = repo()
    shutil.rmtree(root / "packages/bench-a")
    eng = engine(root)
    assert list(get_rule("PL307").affected_by("packages/bench-a/benchmark_config.toml", eng.ctx)) == [
        f"{EXP}/meta_info.yaml"]
    result = eng.run_paths(["packages/bench-a/benchmark_config.toml"])
    assert at_paths(result.findings, "PL307") == [(f"{EXP}/meta_info.yaml", 2)]


def test_deleted_leaderboard_reports_orphan_experiments(repo):
    root = repo({"leaderboards/lb/leaderboard.yaml": None})
    result = engine(root).run_paths(["leaderboards/lb/leaderboard.yaml"])
    assert at_paths(result.findings, "PL305") == [("experiments/lb", None)]


def test_new_experiment_in_orphan_folder_is_reported(repo):
    root = repo(second_experiment("experiments/lbx/exp-2"))
    result = engine(root).run_paths(["experiments/lbx/exp-2/test/attempt-1.yaml"])
    assert at_paths(result.findings, "PL305") == [("experiments/lbx", None)]


def test_changed_leaderboard_reports_unreferenced_experiment(repo):
    root = repo(second_experiment())
    lb = (root / "leaderboards/lb/leaderboard.yaml")
    lb.write_text(lb.read_text().replace("exp-1", "exp-2"))
    result = engine(root).run_paths(["leaderboards/lb/leaderboard.yaml"])
    assert at_paths(result.findings, "PL306") == [(f"{EXP}/meta_info.yaml", 1)]


def test_new_phase_file_reports_unknown_phase(repo):
    root = repo(_phase("dev"))
    result = engine(root).run_paths([f"{EXP}/dev/attempt-1.yaml"])
    assert at_paths(result.findings, "PL308") == [(f"{EXP}/dev", None)]


def test_unrelated_change_affects_nothing(repo):
    eng = engine(repo())
    for code in ("PL302", "PL303", "PL304", "PL305", "PL306", "PL307", "PL308"):
        assert list(get_rule(code).affected_by("README.md", eng.ctx)) == []


# -- hostile values -------------------------------------------------------------

HUGE = "9" * 400  # an int no float can hold


def test_hostile_numbers_do_not_crash(repo):
    files = {
        f"{TEST}/attempt-1.yaml": attempt(".nan", f"token: {HUGE}", "cost: .inf"),
        f"{TEST}/attempt-2.yaml": attempt("1.0e+400", f"token: {HUGE}", "cost: 1.0"),
        f"{TEST}/summary.yaml": summary(2, HUGE, ".nan", "cost: .nan", f"token: {HUGE}"),
    }
    for root_files in (files,
                       {f"{TEST}/attempt-1.yaml": attempt(HUGE), f"{TEST}/attempt-2.yaml": attempt(HUGE),
                        f"{TEST}/summary.yaml": summary(2, HUGE, 0.0)},
                       {f"{TEST}/attempt-1.yaml": attempt("true"), f"{TEST}/attempt-2.yaml": attempt("1e400"),
                        f"{TEST}/summary.yaml": summary(2, "true", "false")},
                       {f"{TEST}/attempt-1.yaml": attempt("1.0e+308"), f"{TEST}/attempt-2.yaml": attempt("1.7e+308"),
                        f"{TEST}/summary.yaml": summary(2, "1.0e+308", "1.0e+308")},
                       {f"{TEST}/attempt-1.yaml": attempt("-1.7e+308"), f"{TEST}/attempt-2.yaml": attempt("1.7e+308"),
                        f"{TEST}/summary.yaml": summary(2, "0.0", "1.0")}):
        root = repo(root_files)
        run = lint(root, "--all")
        assert run.code in (0, 1), run.stderr
        result = engine(root).run_paths([f"{TEST}/attempt-1.yaml", f"{TEST}/summary.yaml"])
        assert all(f.code != "PL303" or f.line is not None for f in result.findings)


def test_huge_integer_summary_is_reported_not_crashed(repo):
    run = lint(repo({f"{TEST}/summary.yaml": summary(2, HUGE)}), "--all")
    assert run.at("PL303") == [(f"{TEST}/summary.yaml", 2)]
    assert "e+400" in [f["message"] for f in run.findings if f["code"] == "PL303"][0]


def test_nan_score_skips_summary_check(repo):
    run = lint(repo({f"{TEST}/attempt-1.yaml": attempt(".nan")}), "--all")
    assert run.at("PL303") == []
    assert run.code == 1  # PL103 reports the NaN itself


def test_unsafe_benchmark_id_does_not_escape(repo):
    meta = "experiment_id: exp-1\nbenchmark_id: ../../etc\nharness_name: h\nmodel_name: m\nalgorithm: baseline\n"
    root = repo({f"{EXP}/meta_info.yaml": meta})
    run = lint(root, "--all")
    assert run.code == 1
    assert run.at("PL307") == [] and run.at("PL304") == []
    assert ("experiments/lb/exp-1/meta_info.yaml", 2) in run.at("PL202")
    result = engine(root).run_paths([f"{EXP}/meta_info.yaml", "packages/../../etc/passwd"])
    assert all(f.code not in ("PL304", "PL307") for f in result.findings)
