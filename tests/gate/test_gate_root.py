"""What a pull request is judged by never comes from the pull request (its
configuration, the root), and no run passes on what it did not check: a
layout it cannot find, a path of no known kind."""
from __future__ import annotations

import textwrap


from tests.conftest import VALID, lint, write_repo
from tests.github.test_action import TASK, git, git_identity, pull_request, runner  # noqa: F401 (fixture)

BROKEN = 'id = "CASE-001-one"\ntitle = "One"\n'  # PL101: no description


def here(monkeypatch, cwd, *args):
    """The command as typed in ``cwd``, without --root."""
    monkeypatch.chdir(cwd)
    return lint(None, "--format", "json", *args)



def on_pull_request(monkeypatch, ws):
    monkeypatch.setenv("GITHUB_EVENT_NAME", "pull_request")
    monkeypatch.setenv("GITHUB_BASE_REF", "main")
    monkeypatch.setenv("GITHUB_WORKSPACE", str(ws))


# -- 1. the root is where the layout is ---------------------------------------------

def test_action_config_added_above_the_path_does_not_move_the_root(tmp_path):
    ws, write = pull_request(tmp_path, folder="bench")
    (ws / ".penguin-lint.toml").write_text("# settings for the whole repository\n")
    write({TASK: BROKEN}, "a top configuration, a broken task")
    run = runner(ws, tmp_path, inputs={"path": "bench"}).lint()
    assert run.code == 1, run.stdout + run.stderr
    assert run.outputs["status"] == "failed" and run.outputs["errors"] == "1"
    (cmd,) = [c for c in run.commands() if c.startswith("::error")]
    assert cmd.startswith(f"::error file=bench/{TASK},line=1,col=1,title=PL101 missing-field::")


def test_a_path_input_the_pull_request_made_a_link_is_refused(tmp_path, monkeypatch):
    """The base keeps its benchmarks in bench/ with a strict configuration;
    the pull request moves them and leaves bench as a link to the copy: the
    run would follow it, away from the base's configuration."""
    ws, write = pull_request(tmp_path, folder="bench", base_files={".penguin-lint.toml": 'max-file-size = "4KiB"\n'})
    git(ws, "mv", "bench", "decoy")
    (ws / "bench").symlink_to("decoy")
    write({}, "bench is a link now")
    run = runner(ws, tmp_path, inputs={"path": "bench"}).lint()
    assert run.code == 2 and run.outputs["status"] == "error", run.stdout + run.stderr
    assert "path input bench: bench is a symbolic link in the checkout" in run.stdout + run.stderr
    monkeypatch.chdir(ws)
    cli = lint(None, "--root", "bench", "--diff-base", "origin/main")
    assert cli.code == 2 and cli.stderr == ("penguin-lint: error: root bench: bench is a symbolic link; "
                                            "give the folder itself\n"), cli.stderr


def test_diff_run_in_the_layout_folder_ignores_a_configuration_above_it(tmp_path, monkeypatch):
    ws, write = pull_request(tmp_path, folder="bench")
    (ws / ".penguin-lint.toml").write_text('select = ["PL008"]\n')
    write({TASK: BROKEN}, "a top configuration, a broken task")
    run = here(monkeypatch, ws / "bench", "--diff-base", "origin/main")
    assert run.code == 1, run.stderr
    assert run.at("PL101") == [(TASK, 1)]


def test_hook_at_the_top_with_a_configuration_there_lints_the_layout_folder(tmp_path, monkeypatch):
    ws, write = pull_request(tmp_path, folder="bench")
    (ws / ".penguin-lint.toml").write_text("# settings for the whole repository\n")
    write({TASK: BROKEN})
    run = here(monkeypatch, ws, f"bench/{TASK}")
    assert run.code == 1, run.stderr
    assert run.at("PL101") == [(TASK, 1)]


# -- 3. --all on a pull request is judged by the base's configuration ----------------

def test_action_all_on_a_pull_request_uses_the_base_configuration(tmp_path):
    ws, write = pull_request(tmp_path)
    write({".penguin-lint.toml": 'select = ["PL008"]\n', TASK: BROKEN}, "switch the gate off")
    run = runner(ws, tmp_path, inputs={"all": "true"}).lint()
    assert run.code == 1, run.stdout + run.stderr
    assert run.outputs["status"] == "failed"
    errors = [c for c in run.commands() if c.startswith("::error")]
    assert any(c.startswith(f"::error file={TASK},line=1,col=1,title=PL101") for c in errors), errors
    assert any(c.startswith("::warning file=.penguin-lint.toml,line=1,col=1,") and "title=PL502" in c
               for c in run.commands()), run.commands()


def test_sharded_all_on_a_pull_request_uses_the_base_configuration(tmp_path, monkeypatch):
    ws, write = pull_request(tmp_path)
    write({".penguin-lint.toml": 'select = ["PL008"]\n', TASK: BROKEN}, "switch the gate off")
    on_pull_request(monkeypatch, ws)
    runs = [lint(ws, "--all", "--no-cache", "--shard", f"{k}/2") for k in (1, 2)]
    assert [f["code"] for r in runs for f in r.findings if f["path"] == TASK] == ["PL101"]
    assert sum(r.code == 1 for r in runs) >= 1
    # the configuration change is said once, in the first part
    assert runs[0].at("PL502") == [(".penguin-lint.toml", 1)] and runs[1].at("PL502") == []


def test_config_base_names_the_ref_outside_github(tmp_path, monkeypatch):
    ws, write = pull_request(tmp_path)
    write({".penguin-lint.toml": 'select = ["PL008"]\n', TASK: BROKEN})
    assert lint(ws, "--all", "--no-cache").code == 0  # the working tree's own settings
    run = lint(ws, "--all", "--no-cache", "--config-base", "origin/main")
    assert run.code == 1 and (TASK, 1) in run.at("PL101"), run.stderr
    # a folder outside the pull request's checkout is not what GitHub describes
    on_pull_request(monkeypatch, tmp_path / "elsewhere")
    assert lint(ws, "--all", "--no-cache").code == 0
    run = lint(ws, "--diff-base", "origin/main", "--config-base", "origin/main")
    assert run.code == 2 and run.stderr.startswith("penguin-lint: error: --config-base is for --all")


# -- 4. an invalid configuration is the error of the pull request that adds it --------

def test_action_invalid_configuration_in_the_pull_request_fails_it(tmp_path):
    ws, write = pull_request(tmp_path)
    write({".penguin-lint.toml": '# stricter\nselect = ["PL999"]\n'})
    run = runner(ws, tmp_path).lint()
    assert run.code == 1, run.stdout + run.stderr
    assert run.outputs["status"] == "failed" and run.outputs["errors"] == "1"
    (cmd,) = [c for c in run.commands() if c.startswith("::error")]
    assert cmd.startswith("::error file=.penguin-lint.toml,line=2,col=10,") and "PL999" in cmd
    assert ",title=PL502 config-changed::" in cmd


def test_action_pull_request_repairing_a_broken_base_configuration_passes(tmp_path):
    ws, write = pull_request(tmp_path, {".penguin-lint.toml": 'select = ["PL999"]\n'})
    write({".penguin-lint.toml": 'select = ["PL"]\n'}, "repair the configuration")
    run = runner(ws, tmp_path).lint()
    assert run.code == 0, run.stdout + run.stderr
    assert run.outputs["status"] == "passed"
    assert "fix `.penguin-lint.toml`" not in run.summary
    warned = [ln for ln in run.stderr.splitlines() if "the base's .penguin-lint.toml" in ln]
    assert warned == ["penguin-lint: warning: the base's .penguin-lint.toml:1:10: unknown rule code or prefix "
                      "'PL999' in 'select' (see `penguin-lint rules`); this run uses the defaults "
                      "(every rule)"], run.stderr


def test_broken_base_configuration_judges_the_rest_with_the_defaults(tmp_path, monkeypatch):
    ws, write = pull_request(tmp_path, {".penguin-lint.toml": 'ignore = ["PL1"]\nselect = ["PL999"]\n'})
    write({TASK: BROKEN}, "a broken task, the configuration still broken")
    run = lint(ws, "--diff-base", "origin/main")
    assert run.code == 1 and run.at("PL101") == [(TASK, 1)]  # every rule, PL1 too
    assert run.stderr.count("\n") == 1 and "this run uses the defaults" in run.stderr
    on_pull_request(monkeypatch, ws)
    run = lint(ws, "--all", "--no-cache")
    assert run.code == 1 and (TASK, 1) in run.at("PL101")
    assert run.stderr.count("\n") == 1 and "this run uses the defaults" in run.stderr


def test_all_on_a_pull_request_with_an_invalid_configuration_fails_on_it(tmp_path, monkeypatch):
    ws, write = pull_request(tmp_path)
    write({".penguin-lint.toml": 'select = ["PL999"]\n'})
    on_pull_request(monkeypatch, ws)
    run = lint(ws, "--all", "--no-cache")
    assert run.code == 1, run.stderr
    (f,) = [f for f in run.findings if f["code"] == "PL502"]
    assert (f["path"], f["line"], f["column"], f["severity"]) == (".penguin-lint.toml", 1, 10, "error")


# -- 5. a run finds the layout or says it did not ------------------------------------

def test_action_at_the_top_with_the_layout_in_a_folder_is_not_green(tmp_path):
    ws, write = pull_request(tmp_path, folder="bench")
    write({TASK: BROKEN})
    run = runner(ws, tmp_path).lint()
    assert run.code == 2, run.stdout + run.stderr
    assert run.outputs["status"] == "error"
    assert "nothing to lint" in run.summary and "`path` input" in run.summary


def test_diff_run_without_the_layout_fails_like_all(tmp_path, monkeypatch):
    ws, write = pull_request(tmp_path, folder="bench")
    write({TASK: BROKEN})
    for args in (["--all"], ["--diff-base", "origin/main"], ["."]):
        run = here(monkeypatch, ws, *args)
        assert run.code == 2, (args, run.output)
        assert run.stderr.startswith("penguin-lint: error: no ") and "nothing to lint" in run.stderr, args
        assert run.stderr.count("\n") == 1 and run.output == ""


def test_a_pull_request_that_brings_the_layout_is_linted(tmp_path):
    upstream = write_repo(tmp_path / "up", {"README.md": "# benchmarks to come\n"})
    git(upstream, "init", "-q", "-b", "main")
    git(upstream, "add", "-A")
    git(upstream, "commit", "-q", "-m", "start")
    ws = tmp_path / "ws"
    git(tmp_path, "clone", "-q", str(upstream), str(ws))
    for rel, text in {**VALID, TASK: BROKEN}.items():
        (ws / rel).parent.mkdir(parents=True, exist_ok=True)
        (ws / rel).write_text(textwrap.dedent(text))
    run = lint(ws, "--diff-base", "origin/main")
    assert run.code == 1 and run.at("PL101") == [(TASK, 1)], run.stderr


# -- 6. a path of no known kind ------------------------------------------------------

BOARD = """\
leaderboard_id: hub
title: 5
entries: nope
"""


def test_a_path_of_no_known_kind_is_not_a_green_check(repo):
    root = repo({"hub/board.yaml": BOARD, "hub/notes/a.yaml": "a: 1\n",
                 "packages/bench-a/CASE-001-one/statement/extra.json": "{}\n"})
    run = lint(root, "hub/board.yaml")
    assert run.code == 2 and run.output == ""
    assert run.stderr == ("penguin-lint: error: hub/board.yaml: of no known kind (outside data/, packages/, "
                          "experiments/, leaderboard/, leaderboards/): nothing to lint (give --kind KIND, or a "
                          "[kinds] glob in .penguin-lint.toml)\n")
    run = lint(root, "hub")
    assert run.code == 2 and "hub: no file of a known kind in this folder" in run.stderr
    # with a kind it is checked
    run = lint(root, "--kind", "harbor_leaderboard", "hub/board.yaml")
    assert run.code == 1 and run.json["summary"]["files"] == 1
    assert {f["path"] for f in run.findings} == {"hub/board.yaml"} and run.json["summary"]["errors"] >= 1
    # a file in the layout's folders is the layout's, of a kind or not (the hook passes such files)
    run = lint(root, "packages/bench-a/CASE-001-one/statement/extra.json")
    assert run.code == 0, run.stderr


def test_hook_paths_outside_the_one_benchmark_folder_are_said(tmp_path, monkeypatch):
    ws, _ = pull_request(tmp_path, folder="bench")
    write_repo(ws / "tools", {"experiments/notes.yaml": "a: 1\n"})
    run = here(monkeypatch, ws, f"bench/{TASK}", "tools/experiments/notes.yaml")
    assert run.code == 2 and run.stderr.startswith(f"penguin-lint: error: bench/{TASK}: of no known kind")


def test_root_rule_for_files_given_at_the_top(tmp_path):
    from penguin_lint.pipeline import find_root, root_for

    top = tmp_path / "top"
    (top / ".git").mkdir(parents=True)
    # a configuration above the layout is not the root of bench/
    write_repo(top / "bench", {}, VALID)
    (top / ".penguin-lint.toml").write_text('select = ["PL008"]\n')
    assert find_root(top / "bench" / "packages" / "bench-a") == top / "bench"
    assert root_for(top, [f"bench/{TASK}"]) == top / "bench"
    # not even one that names folders in bench/, from there
    (top / ".penguin-lint.toml").write_text('[layout]\npackages = "bench/packages"\n')
    assert find_root(top / "bench" / "packages" / "bench-a") == top / "bench"
    # a layout of other names in a folder is found by its own configuration
    (top / ".penguin-lint.toml").write_text('select = ["PL008"]\n')
    write_repo(top / "other", {"pkgs/b/benchmark_config.toml": 'id = "b"\n',
                               ".penguin-lint.toml": '[layout]\npackages = "pkgs"\n'})
    assert root_for(top, ["other/pkgs/b/benchmark_config.toml"]) == top / "other"
    # neither: the top of the git repository
    assert find_root(top / "docs") == top
