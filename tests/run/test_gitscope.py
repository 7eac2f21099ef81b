"""Pull-request mode on real temporary git repositories: what changed, what
it breaks, what stays silent, and git trouble as one line."""
from __future__ import annotations

import subprocess
from pathlib import Path

import pytest


from penguin_lint.core.config import load_config  # noqa: E402
from penguin_lint.rules import rule_codes  # noqa: E402
from penguin_lint.engine.runner import Engine, enabled_rules  # noqa: E402
from penguin_lint.pr.git import GitError, changed_paths, read_change  # noqa: E402
from penguin_lint.core.layout import FILE_KINDS  # noqa: E402
from penguin_lint.core.repo import Repository  # noqa: E402
from tests.conftest import VALID, lint, write_repo  # noqa: E402

BENCH = "packages/bench-a/benchmark_config.toml"
TASK = "packages/bench-a/CASE-001-one/task_config.toml"
LB = "leaderboards/lb/leaderboard.yaml"
SUMMARY = "experiments/lb/exp-1/test/summary.yaml"
# An old problem on the default branch that no test's change touches.
OLD_BAD = {
    "packages/bench-old/benchmark_config.toml": """\
        id = "bench-old"
        title = "Old"
        description = "Old and wrong."
        version = "2026.10.09.1"
        last_update = "2026-10-29T12:00:00Z"
        status = "draft"

        [author]
        name = "Lab"
        """,
    "packages/bench-old/T1/task_config.toml": 'id = "T1"\ntitle = "T"\ndescription = "d"\n',
    "packages/bench-old/T1/statement/README.md": "s\n",
    "packages/bench-old/T1/rubric/README.md": "r\n",
}


BAD_TASK = 'id = "CASE-001-one"\ntitle = "One"\n'  # no description


def git(cwd: Path, *args: str) -> str:
    proc = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True)
    assert proc.returncode == 0, f"git {' '.join(args)}: {proc.stderr}"
    return proc.stdout


@pytest.fixture(autouse=True)
def _identity(git_env):
    """Every test here commits (conftest's git_env)."""


def init_repo(root: Path, files=None, base=VALID) -> Path:
    """A repository whose main holds ``base`` + OLD_BAD + ``files``, checked out on branch feature."""
    write_repo(root, {**OLD_BAD, **(files or {})}, base)
    git(root, "init", "-q", "-b", "main")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "base")
    git(root, "checkout", "-q", "-b", "feature")
    return root


def commit(root: Path, msg: str = "change") -> None:
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", msg)


@pytest.fixture
def gitrepo(tmp_path):
    return init_repo(tmp_path / "repo")


def edit(root: Path, rel: str, text: str) -> None:
    p = root / rel
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(text, encoding="utf-8")


def test_touched_file_reported_untouched_bad_file_silent(gitrepo):
    # The old problem is there for --all ...
    assert ("packages/bench-old/benchmark_config.toml", 4) in lint(gitrepo, "--all").at("PL203")
    edit(gitrepo, TASK, 'id = "CASE-001-one"\ndescription = "no title"\n')
    commit(gitrepo)
    for args in ((), ("--diff-base", "main")):
        run = lint(gitrepo, *args)
        assert run.at("PL101") == [(TASK, 1)]
        # ... and silent when the change does not touch it.
        assert all(not f["path"].startswith("packages/bench-old/") for f in run.findings)
        assert run.code == 1


def test_nothing_changed_is_clean(gitrepo):
    run = lint(gitrepo)
    assert run.findings == [] and run.code == 0


def test_staged_unstaged_and_untracked_are_all_in_the_change(gitrepo):
    edit(gitrepo, TASK, 'id = "CASE-001-one"\ntitle = "One"\ndescription = "staged"\n')
    git(gitrepo, "add", TASK)
    edit(gitrepo, LB, (gitrepo / LB).read_text() + "# unstaged\n")
    edit(gitrepo, "packages/bench-new/benchmark_config.toml", 'id = "bench_new"\n')
    changed, label = changed_paths(gitrepo, "main")
    assert label == "main"
    assert changed == sorted([TASK, LB, "packages/bench-new/benchmark_config.toml"])


def test_committed_judges_what_head_commits_and_nothing_of_the_work_tree(gitrepo):
    edit(gitrepo, TASK, BAD_TASK)
    commit(gitrepo)
    edit(gitrepo, LB, (gitrepo / LB).read_text().replace("draft", "publishd"))  # unstaged
    edit(gitrepo, "packages/bench-new/benchmark_config.toml", 'id = "bench-new"\n')  # untracked
    run = lint(gitrepo, "--diff-base", "main", "--committed")
    assert sorted({f["path"] for f in run.findings}) == [TASK], run.findings
    assert run.at("PL101") == [(TASK, 1)] and run.code == 1
    # the same run without it judges the work tree too
    wide = {f["path"] for f in lint(gitrepo, "--diff-base", "main").findings}
    assert {TASK, LB, "packages/bench-new/benchmark_config.toml"} <= wide
    # nothing committed since the base: nothing to judge, whatever the work tree holds
    git(gitrepo, "reset", "-q", "--soft", "main")
    git(gitrepo, "reset", "-q")
    run = lint(gitrepo, "--diff-base", "main", "--committed")
    assert run.findings == [] and run.code == 0


@pytest.mark.parametrize("args", [("--all",), (TASK,), ("--staged",)])
def test_committed_is_for_a_diff_run(gitrepo, args):
    run = lint(gitrepo, *args, "--committed")
    assert run.code == 2 and "--committed is for a diff run" in run.stderr, run.stderr


def test_untracked_file_finding_reported(gitrepo):
    edit(gitrepo, "packages/bench-new/benchmark_config.toml", 'id = "bench-new"\ntitle = "New"\n')
    run = lint(gitrepo)
    assert ("packages/bench-new/benchmark_config.toml", 1) in run.at("PL101")
    # The new package has no task yet: a finding about a missing file in a touched folder.
    assert all(not f["path"].startswith("packages/bench-old/") for f in run.findings)
    assert run.code == 1


def test_ignored_untracked_file_is_not_in_the_change(gitrepo):
    edit(gitrepo, ".gitignore", "scratch/\n")
    edit(gitrepo, "scratch/x.yaml", "a: [\n")
    changed, _ = changed_paths(gitrepo, "main")
    assert changed == [".gitignore"]


def test_deleted_experiment_reported_on_its_leaderboard(gitrepo):
    git(gitrepo, "rm", "-r", "-q", "experiments/lb/exp-1")
    commit(gitrepo)
    changed, _ = changed_paths(gitrepo, "main")
    assert "experiments/lb/exp-1/meta_info.yaml" in changed
    run = lint(gitrepo)
    assert [p for p, _ in run.at("PL401")] == [LB]
    assert run.code == 1


def test_changed_summary_rechecks_leaderboard(gitrepo):
    # The leaderboard names a metric the changed summary no longer has.
    text = (gitrepo / LB).read_text().replace("phase: test", "phase: test\n    metric: cost")
    edit(gitrepo, LB, text)
    edit(gitrepo, SUMMARY, "n_attempt: 2\nscore_mean: 50.0\nscore_std: 0.0\ncost: 1.5\n")
    commit(gitrepo, "metric cost")
    git(gitrepo, "checkout", "-q", "-b", "feature2")
    edit(gitrepo, SUMMARY, "n_attempt: 2\nscore_mean: 50.0\nscore_std: 0.0\n")
    run = lint(gitrepo, "--diff-base", "feature")
    assert [p for p, _ in run.at("PL402")] == [LB]


def test_rename_reports_old_and_new_consequences(gitrepo):
    git(gitrepo, "mv", "packages/bench-a/CASE-001-one", "packages/bench-a/CASE-002-two")
    commit(gitrepo, "rename task")
    changed, _ = changed_paths(gitrepo, "main")
    assert "packages/bench-a/CASE-001-one/task_config.toml" in changed
    assert "packages/bench-a/CASE-002-two/task_config.toml" in changed
    run = lint(gitrepo)
    # The new folder's id no longer matches ...
    assert run.at("PL201") == [("packages/bench-a/CASE-002-two/task_config.toml", 1)]
    # ... and attempts whose source named the removed task are re-checked.
    assert sorted(p for p, _ in run.at("PL304")) == [
        "experiments/lb/exp-1/test/attempt-1.yaml", "experiments/lb/exp-1/test/attempt-2.yaml"]


def test_names_with_spaces_and_non_ascii(gitrepo):
    task = "packages/bench-a/CASE 002 été/task_config.toml"
    edit(gitrepo, task, 'id = "CASE 002 été"\ntitle = "Two"\n')
    edit(gitrepo, "packages/bench-a/CASE 002 été/statement/README.md", "s\n")
    edit(gitrepo, "packages/bench-a/CASE 002 été/rubric/README.md", "r\n")
    commit(gitrepo, "add task")
    edit(gitrepo, "packages/bench-a/CASE 002 été/rubric/README.md", "r2\n")  # unstaged
    edit(gitrepo, "packages/bench-a/naïve \"quoted\".yaml", "x: 1\n")  # untracked, odd name
    changed, _ = changed_paths(gitrepo, "main")
    assert task in changed
    assert "packages/bench-a/CASE 002 été/rubric/README.md" in changed
    assert 'packages/bench-a/naïve "quoted".yaml' in changed
    run = lint(gitrepo)
    assert run.at("PL101") == [(task, 1)]


def test_detached_head_works(gitrepo):
    edit(gitrepo, TASK, BAD_TASK)
    commit(gitrepo)
    git(gitrepo, "checkout", "-q", "--detach", "feature")
    run = lint(gitrepo, "--diff-base", "main")
    assert {p for p, _ in run.at("PL101")} == {TASK}


def test_default_branch_is_origin_head_then_main_then_master(tmp_path):
    upstream = init_repo(tmp_path / "up")
    git(upstream, "checkout", "-q", "main")
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", str(upstream), str(clone))
    git(clone, "checkout", "-q", "-b", "topic")
    edit(clone, TASK, BAD_TASK)
    commit(clone)
    assert changed_paths(clone, None) == ([TASK], "origin/HEAD")
    # master, when it is all there is
    other = tmp_path / "m"
    write_repo(other, {}, VALID)
    git(other, "init", "-q", "-b", "master")
    commit(other)
    git(other, "checkout", "-q", "-b", "topic")
    edit(other, TASK, BAD_TASK)
    assert changed_paths(other, None) == ([TASK], "master")


def one_line_error(run, *needles):
    assert run.code == 2
    assert run.output == ""
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1, run.stderr
    assert lines[0].startswith("penguin-lint: error: ")
    assert "Traceback" not in run.stderr
    for n in needles:
        assert n in lines[0], lines[0]
    return lines[0]


def test_not_a_git_repository(tmp_path):
    root = write_repo(tmp_path / "plain", {}, VALID)
    one_line_error(lint(root), "not a git repository", "--all")
    one_line_error(lint(root, "--diff-base", "main"), "not a git repository")
    # paths and --all need no git
    assert lint(root, "--all").code == 0


def test_unknown_ref(gitrepo):
    one_line_error(lint(gitrepo, "--diff-base", "no-such-branch"), "unknown git revision 'no-such-branch'")
    one_line_error(lint(gitrepo, "--diff-base=-x"), "invalid git revision")


def test_no_default_branch(tmp_path):
    root = write_repo(tmp_path / "r", {}, VALID)
    git(root, "init", "-q", "-b", "trunk")
    commit(root)
    one_line_error(lint(root), "no default branch", "--diff-base")


def test_unrelated_histories(gitrepo):
    git(gitrepo, "checkout", "-q", "--orphan", "island")
    commit(gitrepo, "island")
    one_line_error(lint(gitrepo, "--diff-base", "main"), "no common history")


def test_shallow_clone_without_the_base(tmp_path):
    upstream = init_repo(tmp_path / "up")
    edit(upstream, TASK, BAD_TASK)
    commit(upstream, "feature work")
    git(upstream, "checkout", "-q", "main")
    edit(upstream, "packages/bench-old/T1/rubric/README.md", "moved on\n")
    commit(upstream, "main moved on")
    url = (tmp_path / "up").as_uri()
    # Only the pull request's branch, one commit deep (actions/checkout's default).
    shallow = tmp_path / "shallow"
    git(tmp_path, "clone", "-q", "--depth", "1", "--branch", "feature", url, str(shallow))
    msg = one_line_error(lint(shallow, "--diff-base", "origin/main"), "shallow clone", "fetch-depth: 0")
    assert "git fetch origin main" in msg
    # The base is fetched but the history that joins it to HEAD is not.
    git(shallow, "fetch", "-q", "--depth", "1", "origin", "main:refs/remotes/origin/main")
    one_line_error(lint(shallow, "--diff-base", "origin/main"), "no merge base", "shallow clone", "fetch-depth: 0")
    # Fetching the history makes it work.
    git(shallow, "fetch", "-q", "--unshallow", "origin", "main:refs/remotes/origin/main")
    run = lint(shallow, "--diff-base", "origin/main")
    assert run.at("PL101") == [(TASK, 1)]


def test_repository_without_commits_lints_what_is_there(tmp_path):
    root = write_repo(tmp_path / "fresh", {TASK: BAD_TASK}, VALID)
    git(root, "init", "-q", "-b", "main")
    git(root, "add", BENCH)
    changed, _ = changed_paths(root, None)
    assert BENCH in changed and TASK in changed  # staged and untracked
    run = lint(root)
    assert run.at("PL101") == [(TASK, 1)]


def test_root_below_the_top_of_the_work_tree(tmp_path):
    top = tmp_path / "mono"
    sub = write_repo(top / "bench repo", {}, VALID)
    (sub / ".penguin-lint.toml").write_text("")
    edit(top, "elsewhere/x.yaml", "a: 1\n")
    git(top, "init", "-q", "-b", "main")
    commit(top)
    git(top, "checkout", "-q", "-b", "feature")
    edit(sub, TASK, BAD_TASK)
    edit(top, "elsewhere/x.yaml", "a: 2\n")
    assert changed_paths(sub, "main") == ([TASK], "main")
    assert lint(sub).at("PL101") == [(TASK, 1)]


def test_diff_run_loads_only_the_change_and_what_it_touches(tmp_path):
    files = {}
    for i in range(40):
        b = f"bench-{i:02d}"
        files[f"packages/{b}/benchmark_config.toml"] = VALID[BENCH].replace("bench-a", b)
        for t in ("T1", "T2"):
            files[f"packages/{b}/{t}/task_config.toml"] = f'id = "{t}"\ntitle = "T"\ndescription = "d"\n'
            files[f"packages/{b}/{t}/statement/README.md"] = "s\n"
            files[f"packages/{b}/{t}/rubric/README.md"] = "r\n"
    for i in range(20):
        lb = f"lb-{i:02d}"
        for k, v in VALID.items():
            if k.startswith(("leaderboards/", "experiments/")):
                files[k.replace("/lb/", f"/{lb}/")] = v.replace("leaderboard_id: lb", f"leaderboard_id: {lb}")
    root = init_repo(tmp_path / "big", files)
    edit(root, "experiments/lb-07/exp-1/test/summary.yaml", "n_attempt: 2\nscore_mean: 40.0\nscore_std: 0.0\n")

    def run(changed=None):
        config = load_config(root, FILE_KINDS, rule_codes())
        engine = Engine(Repository(root, config), config, enabled_rules(config))
        if changed is None:
            return engine.run_all()
        engine.ctx.options["diff_base"] = "main"
        engine.ctx.options["changed"] = set(changed)
        return engine.run_paths(changed)

    everything = run()
    changed, _ = changed_paths(root, "main")
    assert changed == ["experiments/lb-07/exp-1/test/summary.yaml"]
    diff = run(changed)
    assert everything.loads > 200
    # the summary, its attempts, meta_info, and the leaderboard that reads it
    assert diff.loads <= 8, diff.loads
    assert {f.code for f in diff.findings} == {"PL303"}
    assert {f.path for f in diff.findings} == {"experiments/lb-07/exp-1/test/summary.yaml"}



def test_editing_a_task_reads_no_experiment_but_removing_one_does(tmp_path):
    files = dict(VALID)
    for i in range(30):
        lb = f"lb-{i:02d}"
        for k, v in VALID.items():
            if k.startswith(("leaderboards/", "experiments/")):
                files[k.replace("/lb/", f"/{lb}/")] = v.replace("leaderboard_id: lb", f"leaderboard_id: {lb}")
    files["packages/bench-a/CASE-002-two/task_config.toml"] = 'id = "CASE-002-two"\ntitle = "T"\ndescription = "d"\n'
    files["packages/bench-a/CASE-002-two/statement/README.md"] = "s\n"
    files["packages/bench-a/CASE-002-two/rubric/README.md"] = "r\n"
    root = init_repo(tmp_path / "r", files)

    def run(changed):
        config = load_config(root, FILE_KINDS, rule_codes())
        engine = Engine(Repository(root, config), config, enabled_rules(config))
        return engine.run_paths(changed)

    edit(root, "packages/bench-a/CASE-001-one/task_config.toml",
         'id = "CASE-001-one"\ntitle = "One, renamed"\ndescription = "d"\n')
    edited = run(changed_paths(root, "main")[0])
    assert edited.loads <= 2 and edited.findings == []
    subprocess.run(["git", "checkout", "--", "."], cwd=root, check=True)
    subprocess.run(["git", "rm", "-rq", "packages/bench-a/CASE-001-one"], cwd=root, check=True)
    removed = run(changed_paths(root, "main")[0])
    # every experiment naming bench-a is read, and its attempts report the lost task
    assert removed.loads > 31
    assert {f.code for f in removed.findings} == {"PL304"}
    assert len(removed.findings) == 2 * 31


# -- PL501 published-in-pr ------------------------------------------------------

def test_pl501_new_published_benchmark_warns_at_status_line(gitrepo):
    new = "packages/bench-new/benchmark_config.toml"
    edit(gitrepo, new, VALID[BENCH].replace("bench-a", "bench-new").replace('"draft"', '"published"'))
    run = lint(gitrepo)
    assert run.at("PL501") == [(new, 6)]
    f = [f for f in run.findings if f["code"] == "PL501"][0]
    assert f["severity"] == "warning" and new in f["message"] and "added" in f["message"]


def test_pl501_draft_to_published_leaderboard_warns(gitrepo):
    edit(gitrepo, LB, (gitrepo / LB).read_text().replace("status: draft", "status: published"))
    commit(gitrepo)
    run = lint(gitrepo)
    assert run.at("PL501") == [(LB, 2)]
    assert "from 'draft' to 'published'" in run.findings[0]["message"]
    assert run.code == 0  # a warning
    assert lint(gitrepo, "--strict").code == 1


def test_pl501_already_published_or_renamed_stays_silent(tmp_path):
    root = init_repo(tmp_path / "r", {BENCH: VALID[BENCH].replace('"draft"', '"published"')})
    edit(root, BENCH, (root / BENCH).read_text().replace("A benchmark.", "A better benchmark."))
    assert lint(root).at("PL501") == []
    git(root, "mv", "packages/bench-a", "packages/bench-z")
    new = "packages/bench-z/benchmark_config.toml"
    edit(root, new, (root / new).read_text().replace('"bench-a"', '"bench-z"'))
    git(root, "add", "-A")
    assert read_change(root, "main").renames.get(new) == "packages/bench-a/benchmark_config.toml"
    assert lint(root).at("PL501") == []


def test_pl501_only_in_pull_request_mode(gitrepo):
    edit(gitrepo, LB, (gitrepo / LB).read_text().replace("status: draft", "status: published"))
    assert lint(gitrepo, "--all").at("PL501") == []
    # Paths in a work tree (the pre-commit hook) compare with HEAD.
    assert lint(gitrepo, str(gitrepo / LB)).at("PL501") == [(LB, 2)]
    commit(gitrepo)
    assert lint(gitrepo, str(gitrepo / LB)).at("PL501") == []


def test_pl501_paths_outside_git_stay_silent(tmp_path):
    root = write_repo(tmp_path / "plain", {LB: VALID[LB].replace("status: draft", "status: published")}, VALID)
    run = lint(root, str(root / LB))
    assert run.at("PL501") == [] and run.code == 0


def test_git_error_is_a_gitscope_error(tmp_path):
    with pytest.raises(GitError):
        changed_paths(tmp_path, "main")
