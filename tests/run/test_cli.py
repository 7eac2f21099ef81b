"""The command line as a user meets it: output bytes, exit codes, options."""
import json
import os
import subprocess
import sys

from tests.conftest import VALID, lint, repo_with_a_failing_rule, write_repo

SUMMARY = "experiments/lb/exp-1/test/summary.yaml"
BENCH = "packages/bench-a/benchmark_config.toml"


def test_text_report_bytes(repo):
    root = repo({SUMMARY: "n_attempt: 2\nscore_mean: 50.0\nscore_std: 0.0\nnote: [\n"})
    run = lint(root, "--all", fmt="text")
    assert run.code == 1
    first, *rest = run.output.splitlines()
    assert first.startswith(f"{SUMMARY}:4:8: PL001 YAML does not parse: the flow sequence opened at line 4 is never closed")
    assert rest[-1] == "Found 1 error, 0 warnings (9 files checked)."
    assert "\x1b[" not in run.output  # no colour off a terminal


def test_text_report_clean_and_colour_on_request(repo):
    run = lint(repo(), "--all", fmt="text")
    assert run.output == "All checks passed (9 files checked).\n"
    run = lint(repo({BENCH: None}), "--all", "--color", "always", fmt="text")
    assert "\x1b[31m" in run.output


def test_hint_line_follows_its_finding(repo):
    run = lint(repo({BENCH: VALID[BENCH].replace('"1.0.0"', '"2026.10.09.1"')}), "--all", fmt="text")
    lines = run.output.splitlines()
    i = next(i for i, ln in enumerate(lines) if " PL203 " in ln)
    assert lines[i + 1].startswith("    hint: ")


def test_json_report_shape(repo):
    run = lint(repo({BENCH: VALID[BENCH].replace('"1.0.0"', '"2026.10.09.1"')}), "--all")
    doc = run.json
    assert doc["version"] == 1
    assert doc["summary"] == {"files": 9, "errors": 1, "warnings": 0, "suppressed": 0}
    [f] = doc["findings"]
    assert set(f) == {"path", "line", "column", "end_line", "end_column", "code", "name",
                      "severity", "message", "hint", "scope", "new", "caused_by"}
    assert f["scope"] is None and f["new"] is None  # --all blames no change
    assert (f["path"], f["line"], f["column"], f["code"], f["name"]) == (
        BENCH, 4, 11, "PL203", "invalid-version")


def test_select_and_ignore_take_codes_and_prefixes(repo):
    root = repo({BENCH: VALID[BENCH].replace('"1.0.0"', '"2026.10.09.1"'),
                 SUMMARY: "n_attempt: 2\nscore_mean: 51.0\nscore_std: 0.0\n"})
    assert sorted(lint(root, "--all").codes()) == ["PL203", "PL303"]
    assert lint(root, "--all", "--select", "PL2").codes() == ["PL203"]
    assert lint(root, "--all", "--ignore", "PL203,PL3").codes() == []
    assert lint(root, "--all", "--ignore", "PL2", "--ignore", "PL303").code == 0


def test_config_file_ignores_and_per_file_ignores(repo):
    root = repo({BENCH: VALID[BENCH].replace('"1.0.0"', '"2026.10.09.1"'),
                 SUMMARY: "n_attempt: 2\nscore_mean: 51.0\nscore_std: 0.0\n",
                 ".penguin-lint.toml": 'ignore = ["PL203"]\n[per-file-ignores]\n"experiments/**" = ["PL3"]\n'})
    assert lint(root, "--all").codes() == []


def test_paths_narrow_the_report_not_the_checks(repo):
    root = repo({BENCH: VALID[BENCH].replace('"1.0.0"', '"2026.10.09.1"'),
                 "experiments/lb/exp-1/test/attempt-2.yaml": "score: 52.0\nresults:\n  - source: CASE-001-one\n    score: 52.0\n"})
    run = lint(root, "experiments/lb/exp-1/test/attempt-2.yaml")
    # the summary disagrees with the changed attempt: reported on the summary
    assert run.at("PL303") == [(SUMMARY, 2), (SUMMARY, 3)]
    assert "PL203" not in run.codes()


def test_usage_errors_exit_2_with_one_line(repo):
    root = repo()
    for args in (["--all", "packages"], ["--select", "XX9"], ["--format", "yaml", "--all"],
                 ["no/such/file.yaml"], ["--kind", "nope", BENCH]):
        run = lint(root, *args)
        assert run.code == 2, args
    run = lint(root, "rules", "PL999")
    assert run.code == 2


def test_bad_config_is_one_line_exit_2(repo):
    root = repo({".penguin-lint.toml": "selekt = ['PL1']\n"})
    proc = subprocess.run([sys.executable, "-m", "penguin_lint", "--all", "--root", str(root)],
                          capture_output=True, text=True)
    assert proc.returncode == 2
    assert proc.stderr.count("\n") == 1 and "unknown setting 'selekt'" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_rules_command_lists_and_explains():
    run = lint(None, "rules")
    assert run.code == 0
    lines = run.output.splitlines()
    assert lines[0].startswith("PL001  parse-error")
    assert any(ln.startswith("PL408  attempt-count-mismatch") for ln in lines)
    run = lint(None, "rules", "PL201")
    assert run.output.startswith("PL201 id-mismatch (error)")
    assert "Bad (" in run.output and "Good (" in run.output


def test_rules_json_carries_docs():
    run = lint(None, "rules", "--format", "json")
    rules = json.loads(run.output)
    assert {r["code"] for r in rules} >= {"PL001", "PL303", "PL607"}
    assert all(r["doc"] and r["bad"]["text"] and r["good"]["text"] for r in rules)


def test_jobs_give_the_same_report(tmp_path):
    files = dict(VALID)
    for i in range(30):  # enough units for workers
        files[f"packages/b{i}/benchmark_config.toml"] = VALID[BENCH].replace("bench-a", f"b{i}").replace('"1.0.0"', '"1.0"')
    root = write_repo(tmp_path / "r", files)
    one = lint(root, "--all", "--jobs", "1")
    two = lint(root, "--all", "--jobs", "2")
    assert one.output == two.output
    assert len(one.at("PL203")) == 30 and one.json["summary"]["files"] == 39


def test_version_imports_little():
    proc = subprocess.run([sys.executable, "-X", "importtime", "-m", "penguin_lint", "--version"],
                          capture_output=True, text=True, env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"})
    assert proc.returncode == 0 and proc.stdout.startswith("penguin-lint, version ")
    imported = proc.stderr
    for heavy in ("jsonschema", "yaml", "git", "multiprocessing"):
        assert f" {heavy}\n" not in imported and f" {heavy}." not in imported, heavy


def test_root_is_found_from_inside_a_benchmark_repository(repo, monkeypatch):
    root = repo({BENCH: VALID[BENCH].replace('"1.0.0"', '"1.0"')})
    (root / ".git").mkdir()  # a git repository around it must not win over the layout
    inner = root / "nested"
    inner.mkdir()
    monkeypatch.chdir(root / "packages" / "bench-a")
    project = str(__import__("pathlib").Path(__file__).resolve().parents[2])
    env = {**os.environ, "PYTHONPATH": project + os.pathsep + os.environ.get("PYTHONPATH", "")}
    proc = subprocess.run([sys.executable, "-m", "penguin_lint", "--all", "--format", "json"],
                          capture_output=True, text=True, env=env)
    assert proc.returncode == 1
    assert [(f["path"], f["code"]) for f in json.loads(proc.stdout)["findings"]] == [(BENCH, "PL203")]


def test_nothing_to_lint_is_said(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "penguin_lint", "--all", "--root", str(tmp_path)],
                          capture_output=True, text=True)
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.startswith("penguin-lint: error: ") and "nothing to lint" in proc.stderr
    assert proc.stderr.count("\n") == 1


def test_a_rule_failing_in_a_worker_is_one_error_line(tmp_path, monkeypatch):
    root = repo_with_a_failing_rule(tmp_path, monkeypatch)
    run = lint(root, "--all", "--jobs", "2")
    assert run.code == 2
    assert run.stderr.count("\n") == 1
    assert "PL201 failed on packages/b17/benchmark_config.toml: ZeroDivisionError: boom" in run.stderr


def test_a_leaderboard_cut_into_chunks_reports_the_same(tmp_path, monkeypatch):
    import penguin_lint.engine.unit as engine

    files = dict(VALID)
    values = ["values:"]
    for i in range(7):
        e = f"exp-{i + 2}"
        for k, v in VALID.items():
            if k.startswith("experiments/lb/exp-1/"):
                files[k.replace("exp-1", e)] = v.replace("exp-1", e).replace("model_name: m", f"model_name: m{i}")
        values.append(f"  - experiment_id: {e}\n    phase: test")
    files["experiments/lb/exp-5/test/summary.yaml"] = "n_attempt: 2\nscore_mean: 51.0\nscore_std: 0.0\n"
    files["leaderboards/lb/leaderboard.yaml"] = VALID["leaderboards/lb/leaderboard.yaml"].replace(
        "values:", "\n".join(values).replace("\n", "\n        "))
    root = write_repo(tmp_path / "r", files)
    whole = lint(root, "--all", "--jobs", "1")
    monkeypatch.setattr(engine, "UNIT_CHUNK", 2)
    chunked = lint(root, "--all", "--jobs", "1")
    forked = lint(root, "--all", "--jobs", "2")
    assert whole.output == chunked.output == forked.output
    assert whole.at("PL303") == [("experiments/lb/exp-5/test/summary.yaml", 2)]
    assert whole.at("PL306") == []  # every experiment is referenced, in every chunk


def test_colour_follows_no_color_and_force_color(repo, monkeypatch):
    root = repo({BENCH: None})
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setenv("FORCE_COLOR", "1")
    assert "\x1b[31m" in lint(root, "--all", fmt="text").output  # not a terminal, yet forced
    monkeypatch.setenv("NO_COLOR", "1")
    assert "\x1b[" not in lint(root, "--all", fmt="text").output  # NO_COLOR wins
    assert "\x1b[31m" in lint(root, "--all", "--color", "always", fmt="text").output  # the flag wins
    monkeypatch.setenv("NO_COLOR", "")  # empty means unset (no-color.org)
    assert "\x1b[31m" in lint(root, "--all", fmt="text").output
    monkeypatch.delenv("FORCE_COLOR")
    assert "\x1b[" not in lint(root, "--all", fmt="text").output


def test_output_into_a_missing_folder_is_one_line_exit_2(repo, tmp_path):
    target = tmp_path / "no" / "such" / "report.json"
    run = lint(repo(), "--all", "--output", str(target))
    assert run.code == 2 and run.output == ""
    assert run.stderr == f"penguin-lint: error: cannot write --output {target}: No such file or directory\n"
    ok = tmp_path / "report.json"
    assert lint(repo(), "--all", "--output", str(ok)).code == 0
    assert json.loads(ok.read_text())["summary"]["errors"] == 0


def test_rules_take_a_prefix_and_help():
    run = lint(None, "rules", "PL3")
    assert run.code == 0
    codes = [ln.split()[0] for ln in run.output.splitlines()]
    assert codes == [f"PL30{i}" for i in range(1, 9)]
    assert [r["code"] for r in json.loads(lint(None, "rules", "pl60", "--format", "json").output)] \
        == [f"PL60{i}" for i in range(1, 9)]
    assert lint(None, "rules", "pl303").output.startswith("PL303 summary-mismatch (error)")
    for flag in ("-h", "--help"):
        proc = subprocess.run([sys.executable, "-m", "penguin_lint", "rules", flag], capture_output=True, text=True)
        assert proc.returncode == 0 and proc.stdout.startswith("Usage: penguin-lint rules [OPTIONS] [CODE]")
        assert "PL3" in proc.stdout
    run = lint(None, "rules", "PL9")
    assert run.code == 2 and "unknown rule code or prefix 'PL9'" in run.stderr
    run = lint(None, "rules", "summary-mismach")
    assert run.code == 2 and run.stderr == ("penguin-lint: error: unknown rule code or prefix 'summary-mismach'; "
                                            "did you mean 'summary-mismatch' (PL303)? (see `penguin-lint rules`)\n")


def test_rule_docs_quote_code_once():
    out = lint(None, "rules", "PL303").output
    assert "``" not in out and "`summary.yaml`" in out
    assert all("``" not in r["doc"] for r in json.loads(lint(None, "rules", "--format", "json").output))


def test_paths_in_a_benchmark_folder_of_a_git_repository(tmp_path, monkeypatch):
    # The hook runs at the top of the git repository and names files under bench/.
    top = tmp_path / "top"
    write_repo(top / "bench", {BENCH: VALID[BENCH].replace('"1.0.0"', '"1.0"')}, VALID)
    subprocess.run(["git", "init", "-q"], cwd=top, check=True)
    monkeypatch.chdir(top)
    proc = subprocess.run([sys.executable, "-m", "penguin_lint", "--format", "json", f"bench/{BENCH}"],
                          capture_output=True, text=True)
    assert proc.returncode == 1, proc.stderr
    doc = json.loads(proc.stdout)
    assert [(f["path"], f["line"], f["code"]) for f in doc["findings"]] == [(BENCH, 4, "PL203")]
