"""The GitHub Action, run step by step as action.yml declares it, in
temporary git repositories shaped like a pull request's checkout."""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
import yaml

from penguin_lint.github import summary as step_summary
from penguin_lint.version import __version__
from tests import installed
from tests.actionstep import ACTION, PROJECT, REPOSITORY, SERVER, Runner, step
from tests.conftest import VALID, write_repo

TASK = "packages/bench-a/CASE-001-one/task_config.toml"
BENCH = "packages/bench-a/benchmark_config.toml"
LB = "leaderboards/lb/leaderboard.yaml"
HEAD_SHA = "a" * 40
PR_EVENT = {"pull_request": {"head": {"sha": HEAD_SHA}, "base": {"ref": "main"}}}

# Modules a pull request could add to shadow the linter or what it imports:
# each leaves a mark and ends its process green.
SHADOWS = {
    "penguin_lint/__init__.py": "", "penguin_lint/__main__.py": None, "penguin_lint/github/action.py": None,
    "penguin_lint/pipeline.py": None,
    "json.py": None, "tempfile.py": None, "click.py": None, "yaml.py": None, "subprocess.py": None,
    "sitecustomize.py": None, "usercustomize.py": None,
    # what the install step runs
    "pip/__init__.py": None, "pip/__main__.py": None, "venv/__init__.py": None, "venv/__main__.py": None,
    "setuptools/__init__.py": None, "hashlib.py": None,
}


def shadow_files(folder: str = "") -> dict:
    out = {}
    for rel, text in SHADOWS.items():
        if text is None:
            text = (f"open({str(rel)!r}.replace('/', '_') + '.shadow-ran', 'w').close()\n"
                    "raise SystemExit(0)\n")
        out[(folder + "/" if folder else "") + rel] = text
    return out


def git(cwd, *args):
    proc = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


@pytest.fixture(autouse=True)
def git_identity(monkeypatch):
    for k, v in {"GIT_AUTHOR_NAME": "T", "GIT_AUTHOR_EMAIL": "t@example.com",
                 "GIT_COMMITTER_NAME": "T", "GIT_COMMITTER_EMAIL": "t@example.com",
                 "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": os.devnull}.items():
        monkeypatch.setenv(k, v)


def pull_request(tmp_path, base_files=None, folder="", name="work space"):
    """(workspace, write): origin/main holds VALID (under ``folder``) plus
    ``base_files`` (an old problem in bench-old); the checkout is on branch pr."""
    def under(files):
        return {(folder + "/" if folder else "") + k: v for k, v in files.items()}

    old = {"packages/bench-old/benchmark_config.toml": VALID[BENCH].replace("bench-a", "bench-old")
           .replace('"1.0.0"', '"2026.10.09.1"')}
    files = under({**VALID, **old, **(base_files or {})})
    if folder:
        files["README.md"] = "# a repository with the benchmarks in a folder\n"
    upstream = write_repo(tmp_path / "upstream", files)
    git(upstream, "init", "-q", "-b", "main")
    git(upstream, "add", "-A")
    git(upstream, "commit", "-q", "-m", "base")
    ws = tmp_path / name
    git(tmp_path, "clone", "-q", str(upstream), str(ws))
    git(ws, "checkout", "-q", "-b", "pr")

    def write(changes, message="change"):
        for rel, text in under(changes).items():
            p = ws / rel
            p.parent.mkdir(parents=True, exist_ok=True)
            p.write_text(textwrap.dedent(text))
        git(ws, "add", "-A")
        git(ws, "commit", "-q", "-m", message)
    return ws, write


def runner(ws, tmp_path, **kw) -> Runner:
    temp = tmp_path / "runner-temp"
    temp.mkdir(parents=True, exist_ok=True)
    kw.setdefault("event", PR_EVENT)
    return Runner(ws, temp, **kw)


def no_shadow_ran(*folders):
    ran = [p for f in folders for p in Path(f).rglob("*.shadow-ran")]
    assert not ran, ran


# -- the declaration ----------------------------------------------------------------

def test_every_action_is_pinned_by_commit_and_every_python_is_isolated():
    steps = ACTION["runs"]["steps"]
    raw = (PROJECT / "action.yml").read_text(encoding="utf-8")
    for s in steps:
        if "uses" in s:
            assert re.fullmatch(r"[\w.-]+/[\w./-]+@[0-9a-f]{40}", s["uses"]), s["uses"]
            # the release it is, for the reader, next to the sha
            assert re.search(re.escape(s["uses"]) + r" # v\d+\.\d+\.\d+\n", raw), s["uses"]
        if "run" in s:
            assert "${{" not in s["run"], s["name"]
            calls = re.findall(r'"\$(?:py|PENGUIN_LINT_PYTHON|PENGUIN_LINT_VENV_PYTHON)"\s+(\S+)', s["run"])
            assert all(c == "-I" for c in calls), (s["name"], calls)
            assert "cd " in s["run"] or s["id"] == "lint", s["name"]
    assert step("python")["uses"].startswith("actions/setup-python@")
    assert step("lint")["run"].strip() == '"$PENGUIN_LINT_VENV_PYTHON" -I -m penguin_lint.github.action'
    env = step("lint")["env"]
    for name in ACTION["inputs"]:
        if name not in ("python-version", "cache"):
            assert f"${{{{ inputs.{name} }}}}" in env.values(), name


def test_constraints_pin_every_dependency_exactly():
    try:
        import tomllib
    except ImportError:  # Python < 3.11
        import tomli as tomllib
    from packaging.requirements import Requirement

    project = tomllib.loads((PROJECT / "pyproject.toml").read_text(encoding="utf-8"))
    pins = []
    for line in (PROJECT / "action/constraints.txt").read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            pin = Requirement(line)
            [spec] = list(pin.specifier)
            assert spec.operator == "==" and re.fullmatch(r"\d+(\.\d+)+", spec.version), line
            pins.append((re.sub(r"[-_.]+", "-", pin.name.lower()), spec.version, pin.marker))
    needed = [Requirement(r) for r in project["project"]["dependencies"] + project["build-system"]["requires"]]
    for python in ("3.9", "3.10", "3.11", "3.12", "3.13"):
        env = {"python_version": python, "python_full_version": python + ".0"}
        for req in needed:
            if req.marker is not None and not req.marker.evaluate(env):
                continue
            name = re.sub(r"[-_.]+", "-", req.name.lower())
            versions = [v for n, v, m in pins if n == name and (m is None or m.evaluate(env))]
            assert len(versions) == 1, f"{req.name} is not pinned once for Python {python} in action/constraints.txt"
            assert req.specifier.contains(versions[0]), f"{name}=={versions[0]} is outside {req}"
            # and installed with that pin's reviewed hashes (action/lock.py)
            from tests.github.test_action_hashes import hashed_pins

            version, hashes = hashed_pins(python).get(name, (None, []))
            assert version == versions[0] and hashes, f"{name}: no hashed pin in action/requirements-{python}.txt"


# -- the lint step ----------------------------------------------------------------------

def test_pull_request_files_cannot_replace_the_linter(tmp_path):
    ws, write = pull_request(tmp_path)
    write({**shadow_files(), TASK: 'id = "CASE-001-one"\ntitle = "One"\n'}, "break a task, shadow the tool")
    run = runner(ws, tmp_path).lint()
    assert run.code == 1, run.stdout + run.stderr
    no_shadow_ran(ws)
    assert run.outputs["errors"] == "1" and run.outputs["status"] == "failed"
    (cmd,) = run.commands()
    assert cmd.startswith(f"::error file={TASK},line=1,col=1,title=PL101 missing-field::")


def test_fails_on_errors_in_the_change_with_sarif_and_summary(tmp_path):
    ws, write = pull_request(tmp_path)
    write({TASK: 'id = "CASE-001-one"\ntitle = "One"\n'})
    run = runner(ws, tmp_path, inputs={"sarif": "reports/penguin.sarif"}).lint()
    assert run.code == 1, run.stderr
    assert "bench-old" not in run.stdout  # an old problem the change does not touch
    assert run.outputs["errors"] == "1" and run.outputs["warnings"] == "0"
    assert f"error: {TASK}:1:1: PL101 missing required field 'description'" in run.stdout.splitlines()
    assert "penguin-lint: 1 error, 0 warnings (" in run.stdout and "1 files" not in run.stdout
    url = f"{SERVER}/{REPOSITORY}/blob/{HEAD_SHA}/{TASK}"
    assert f"### [{step_summary.md(TASK)}]({url})\n" in run.summary
    page = installed.rule_page("PL101")  # the copy the step runs
    assert f"| :x: | [1]({url}#L1) | [PL101]({page}) missing-field |" in run.summary
    sarif = json.loads((ws / "reports/penguin.sarif").read_text())
    assert [r["ruleId"] for r in sarif["runs"][0]["results"]] == ["PL101"]
    assert run.outputs["sarif"] == str(ws / "reports/penguin.sarif")


def test_repository_in_a_subfolder_is_annotated_from_the_repository_root(tmp_path):
    ws, write = pull_request(tmp_path, {".penguin-lint.toml": 'ignore = ["PL207"]\n'}, folder="bench")
    write({**shadow_files(), **{"bench/" + k: v for k, v in shadow_files().items()}}, "shadows")
    write({TASK: 'id = "CASE-001-one"\ntitle = "One"\n'}, "break a task")
    write({"packages/bench-a/CASE-009-new/task_config.toml":
           'id = "CASE-009-new"\ntitle = "N"\ndescription = "d"\n'}, "a task without its rubric")
    run = runner(ws, tmp_path, inputs={"path": "bench", "sarif": "out.sarif"}).lint()
    assert run.code == 1, run.stdout + run.stderr
    no_shadow_ran(ws)
    files = [re.search(r"file=([^,]*)", c).group(1) for c in run.commands() if c.startswith("::error")]
    assert f"bench/{TASK}" in files and all(f.startswith("bench/") for f in files), files
    assert "bench/packages/bench-a/CASE-009-new/rubric/README.md" in files
    sarif = json.loads((ws / "bench/out.sarif").read_text())
    uris = {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in sarif["runs"][0]["results"]}
    assert f"bench/{TASK}" in uris and all(u.startswith("bench/") for u in uris)
    base = f"{SERVER}/{REPOSITORY}/blob/{HEAD_SHA}/bench/"
    assert f"]({base}{TASK}#L1)" in run.summary
    # a missing file is named, and not linked (the link would be a 404)
    missing = step_summary.md("bench/packages/bench-a/CASE-009-new/rubric/README.md")
    assert f"### {missing} (missing)\n" in run.summary
    assert f"error: bench/{TASK}:1:1: PL101" in run.stdout


def test_annotations_go_to_what_the_reviewer_can_act_on(tmp_path):
    ws, write = pull_request(tmp_path)
    tasks = {}
    for i in range(30):  # thirty new tasks, each without its rubric
        tid = f"CASE-{100 + i:03d}-task"
        tasks[f"packages/bench-a/{tid}/task_config.toml"] = f'id = "{tid}"\ntitle = "T"\ndescription = "d"\n'
        tasks[f"packages/bench-a/{tid}/statement/README.md"] = "# S\n"
    tasks[BENCH] = VALID[BENCH].replace('"1.0.0"', '"1.0"')  # and one wrong version
    write(tasks)
    run = runner(ws, tmp_path).lint()
    assert run.code == 1, run.stderr
    cmds = run.commands()
    errors = [c for c in cmds if c.startswith("::error")]
    assert len(errors) == 10  # what GitHub shows; the rest would be dropped
    assert errors[0].startswith(f"::error file={BENCH},line=4,col=11,") and "PL203" in errors[0]
    assert all("rubric/README.md" in c and "line=" not in c for c in errors[1:])
    (notice,) = [c for c in cmds if c.startswith("::notice")]
    assert cmds[-1] == notice
    assert "21 more findings" in notice and "job summary lists them all" in notice
    log = [ln for ln in run.stdout.splitlines() if ln.startswith("error: ")]
    assert len(log) == 31 and run.outputs["errors"] == "31"
    assert run.summary.count("| :x: |") == 31
    first = run.summary.index("### ")
    assert run.summary[first:].startswith(f"### [{step_summary.md(BENCH)}]")


@pytest.mark.parametrize("base_fetched", [True, False], ids=["base one deep", "base not fetched"])
def test_a_shallow_clone_says_what_to_fix(tmp_path, base_fetched):
    ws, write = pull_request(tmp_path)
    write({TASK: 'id = "CASE-001-one"\ntitle = "One"\n'})
    write({"packages/bench-a/CASE-001-one/rubric/README.md": "# better\n"}, "second")
    shallow = tmp_path / "shallow"
    # what actions/checkout does by default: one commit, and the base branch fetched one deep
    git(tmp_path, "clone", "-q", "--depth", "1", "--branch", "pr", f"file://{ws}", str(shallow))
    if base_fetched:
        git(shallow, "fetch", "-q", "--depth", "1", "origin", "main:refs/remotes/origin/main")
    run = runner(shallow, tmp_path).lint()
    assert run.code == 2, run.stdout + run.stderr
    assert "Traceback" not in run.stderr
    # the outputs are written, and are not a count of zero
    assert run.outputs == {"errors": "", "warnings": "", "sarif": "", "status": "error"}
    assert run.summary.startswith(f"## penguin-lint {__version__}\n\n:x: **penguin-lint could not run:**")
    assert "shallow" in run.summary and "`fetch-depth: 0`" in run.summary
    (cmd,) = run.commands()
    assert cmd.startswith("::error title=penguin-lint::") and "shallow" in cmd


def test_unknown_base_and_bad_config_say_what_to_fix(tmp_path):
    ws, _ = pull_request(tmp_path)
    run = runner(ws, tmp_path, inputs={"base": "origin/nope"}).lint()
    assert run.code == 2
    assert "unknown git revision" in run.summary and "`base` input" in run.summary
    # (a pull request is not blocked by the base's broken file: test_gate_root.py)
    ws2, _ = pull_request(tmp_path / "two", {".penguin-lint.toml": 'selekt = ["PL1"]\n'})
    run = runner(ws2, tmp_path / "two", inputs={"all": "true"}, event_name="push", event={}).lint()
    assert run.code == 2, run.stdout
    assert "selekt" in run.summary and "fix `.penguin-lint.toml`" in run.summary
    assert run.outputs["status"] == "error"


def test_a_summary_that_would_pass_one_mebibyte_is_cut_and_says_so(tmp_path):
    ws, write = pull_request(tmp_path)
    many = {}
    for i in range(700):
        tid = f"CASE-{1000 + i:04d}-" + "long-task-name-" * 8
        keys = "".join(f'unknown_setting_number_{k}_{"x" * 60} = 1\n' for k in range(3))
        many[f"packages/bench-a/{tid}/task_config.toml"] = f'id = "{tid}"\ntitle = "T"\ndescription = "d"\n{keys}'
    write(many)
    run = runner(ws, tmp_path, inputs={"all": "true"}).lint()
    assert run.code == 1, run.stderr[-2000:]
    size = len(run.summary.encode("utf-8"))
    assert 900_000 < size <= 1024 * 1024
    total = int(run.outputs["errors"]) + int(run.outputs["warnings"])
    rows = run.summary.count("\n| :")
    m = re.search(r"\*\*(\d+) more findings not listed: GitHub caps a step summary at 1 MiB\.\*\*", run.summary)
    assert m and rows + int(m.group(1)) == total, (rows, total)
    (notice,) = [c for c in run.commands() if c.startswith("::notice")]
    assert "the job summary lists as many as fit in GitHub's 1 MiB and the log prints every one" in notice
    # the log is not capped
    assert len([ln for ln in run.stdout.splitlines() if ln.startswith(("error: ", "warning: "))]) == total


def test_warnings_pass_unless_strict(tmp_path):
    ws, write = pull_request(tmp_path)
    write({LB: VALID[LB].replace("status: draft", "status: published")})
    run = runner(ws, tmp_path).lint()
    assert run.code == 0, run.stderr
    assert run.commands()[0].startswith(f"::warning file={LB},line=2,")
    assert run.outputs["warnings"] == "1" and run.outputs["status"] == "passed"
    assert runner(ws, tmp_path, inputs={"strict": "true"}).lint().code == 1
    ignored = runner(ws, tmp_path, inputs={"strict": "true", "ignore": "PL5"}).lint()
    assert ignored.code == 0 and ignored.outputs["warnings"] == "0"


def test_the_change_is_what_the_commits_change_unless_uncommitted_is_asked(tmp_path):
    ws, write = pull_request(tmp_path)
    write({"packages/bench-a/CASE-001-one/rubric/README.md": "better rubric\n"})
    # files an earlier step of the job wrote, and committed nothing
    (ws / "packages/bench-a/CASE-007-made").mkdir()
    (ws / "packages/bench-a/CASE-007-made/task_config.toml").write_text('id = "CASE-007-made"\n')
    summary = ws / "experiments/lb/exp-1/test/summary.yaml"
    summary.write_text(summary.read_text().replace("50.0", "60.0"))
    run = runner(ws, tmp_path).lint()
    assert run.code == 0, run.stdout + run.stderr
    assert run.outputs["errors"] == "0" and run.commands() == []
    assert "Leaderboards" not in run.summary  # the preview judges the commits too
    wide = runner(ws, tmp_path, inputs={"uncommitted": "true"}).lint()
    assert wide.code == 1, wide.stdout + wide.stderr
    files = {re.search(r"file=([^,]*)", c).group(1) for c in wide.commands() if c.startswith("::error")}
    assert "packages/bench-a/CASE-007-made/task_config.toml" in files, wide.commands()
    assert "## Leaderboards after this pull request" in wide.summary


def test_new_only_leaves_old_findings_in_touched_files_out_and_says_so(tmp_path):
    ws, write = pull_request(tmp_path)
    old = "packages/bench-old/benchmark_config.toml"
    write({old: (ws / old).read_text().replace('"Bench A"', '"Bench Old"')})
    run = runner(ws, tmp_path).lint()
    assert run.code == 1 and run.outputs["errors"] == "1"  # the touched file's old PL203
    new_only = runner(ws, tmp_path, inputs={"new-only": "true"}).lint()
    assert new_only.code == 0, new_only.stdout
    assert new_only.outputs["errors"] == "0"
    assert "1 older finding in touched files not shown" in new_only.stdout
    assert "1 older finding in touched files not shown" in new_only.summary
    assert "against origin/main (" in new_only.summary  # plain words stay as they are


def test_inputs_are_data_not_code(tmp_path):
    ws, _ = pull_request(tmp_path)
    run = runner(ws, tmp_path, inputs={"base": 'main"; touch pwned; echo "'}).lint()
    assert not (ws / "pwned").exists()
    assert run.code == 2
    (cmd,) = run.commands()
    assert cmd.startswith("::error title=penguin-lint::") and "unknown git revision" in cmd
    assert "Traceback" not in run.stderr


def test_push_event_and_a_clean_change(tmp_path):
    ws, write = pull_request(tmp_path)
    write({"packages/bench-a/CASE-001-one/rubric/README.md": "better rubric\n"})
    run = runner(ws, tmp_path, event_name="push", event={}).lint()
    # No base ref and no "before" in the event: the default branch (origin/HEAD).
    assert run.code == 0, run.stderr
    assert run.outputs["errors"] == "0" and "All checks passed" in run.summary


def test_a_path_that_is_not_a_folder(tmp_path):
    ws, _ = pull_request(tmp_path)
    run = runner(ws, tmp_path, inputs={"path": "no/such"}).lint()
    assert run.code == 2 and run.outputs["status"] == "error"
    assert "`path` input" in run.summary


# -- the install step, for real (one pip install for the whole suite) -------------------

SKIP = shutil.ignore_patterns(".git", "__pycache__", ".pytest_cache", ".hypothesis", "*.egg-info", "build",
                              "dist", ".venv", "bench-work", ".benchmarks")


def test_install_step_then_lint_step_as_declared(tmp_path):
    """setup-python's output is this interpreter; the action's folder is a
    clean copy of this checkout; the workspace is a pull request that
    shadows pip, venv, setuptools and the linter."""
    action = tmp_path / "_actions" / "penguin-lint"
    shutil.copytree(PROJECT, action, ignore=SKIP)
    ws, write = pull_request(tmp_path)
    write({**shadow_files(), TASK: 'id = "CASE-001-one"\ntitle = "One"\n'}, "break a task, shadow the tools")
    run = runner(ws, tmp_path, action_path=action)
    base_python = getattr(sys, "_base_executable", sys.executable)
    run.steps["python"] = {"python-path": base_python, "python-version": "%d.%d.%d" % sys.version_info[:3]}
    prepared = run.run("prepare")
    assert prepared.code == 0, prepared.stderr
    assert re.fullmatch(r"[0-9a-f]{16}", prepared.outputs["key"])
    cache = Path(prepared.outputs["pip-cache"])
    installed = run.run("install", timeout=600)
    assert installed.code == 0, installed.stdout + installed.stderr
    no_shadow_ran(ws, tmp_path / "runner-temp")
    python = installed.outputs["python"]
    assert Path(python).is_file() and str(tmp_path / "runner-temp") in python
    assert cache.is_dir() and any(cache.iterdir())  # pip's cache is where actions/cache keeps it
    # exactly the pinned versions
    freeze = subprocess.run([python, "-I", "-m", "pip", "list", "--format", "json"], capture_output=True,
                            text=True, check=True, cwd=tmp_path)
    have = {re.sub(r"[-_.]+", "-", p["name"].lower()): p["version"] for p in json.loads(freeze.stdout)}
    from packaging.requirements import Requirement

    pins = {}
    for ln in (action / "action/constraints.txt").read_text().splitlines():
        if "==" in ln and not ln.startswith("#"):
            req = Requirement(ln)
            if req.marker is None or req.marker.evaluate():
                pins[req.name] = list(req.specifier)[0].version
    for name in ("click", "jsonschema", "pyyaml", "google-re2", "referencing", "rpds-py", "attrs"):
        assert have[name] == pins[name], name
    linted = run.run("lint")
    assert linted.code == 1, linted.stdout + linted.stderr
    no_shadow_ran(ws)
    assert linted.outputs["errors"] == "1" and linted.outputs["status"] == "failed"
    (cmd,) = linted.commands()
    assert cmd.startswith(f"::error file={TASK},line=1,col=1,title=PL101 missing-field::")


# -- the README's workflow ----------------------------------------------------------------

README = (PROJECT / "README.md").read_text(encoding="utf-8")
ACTION_DOCS = (PROJECT / "docs/github-action.md").read_text(encoding="utf-8")
BROKEN_TASK = 'id = "CASE-001-one"\ntitle = "One"\n'


def workflows(text: str) -> list:
    return [b for b in re.findall(r"```yaml\n(.*?)```", text, re.S)
            if re.search(r"^on:", b, re.M) and "pull_request" in b]


def readme_workflow() -> str:
    """The example workflow of docs/github-action.md; the README's quick start is its lint job."""
    (full,) = workflows(ACTION_DOCS)
    (quick,) = workflows(README)
    full_wf, quick_wf = yaml.safe_load(full), yaml.safe_load(quick)
    assert quick_wf["jobs"] == {"lint": full_wf["jobs"]["lint"]}
    assert {k: v for k, v in quick_wf.items() if k != "jobs"} == {k: v for k, v in full_wf.items() if k != "jobs"}
    return full


def test_readme_workflow_is_safe_for_forks_and_pinned():
    text = readme_workflow()
    wf = yaml.safe_load(text)
    # YAML 1.1 reads the key `on` as true; labeled, unlabeled: a maintainer's approval label is judged
    assert wf[True] == {"pull_request": {"types": ["opened", "synchronize", "reopened", "labeled", "unlabeled"]}}
    assert "pull_request_target" not in text
    assert wf["permissions"] == {"contents": "read"}
    lint_job, scan_job = wf["jobs"]["lint"], wf["jobs"]["code-scanning"]
    assert "permissions" not in lint_job and "if" not in lint_job  # every pull request, forks too
    assert scan_job["if"] == "github.event.pull_request.head.repo.full_name == github.repository"
    assert scan_job["permissions"] == {"contents": "read", "security-events": "write"}
    for job in (lint_job, scan_job):
        checkout = job["steps"][0]
        assert re.fullmatch(r"actions/checkout@[0-9a-f]{40}", checkout["uses"])
        assert checkout["with"] == {"fetch-depth": 0, "persist-credentials": False}
        ours = [s["uses"] for s in job["steps"] if "penguin-lint" in s.get("uses", "")]
        assert ours == [f"<owner>/penguin-lint@v{__version__}"]  # this release, <owner> filled in as Install says
    upload = scan_job["steps"][-1]
    assert upload["uses"].startswith("github/codeql-action/upload-sarif@")
    assert upload["with"]["sarif_file"] == "${{ steps.lint.outputs.sarif }}"
    assert "steps.lint.outputs.sarif" in upload["if"]


def test_readme_workflow_runs_in_a_pull_request(tmp_path):
    text = readme_workflow()
    ws, write = pull_request(tmp_path)
    write({".github/workflows/penguin-lint.yml": text, TASK: BROKEN_TASK}, "add the workflow, break a task")
    wf = yaml.safe_load((ws / ".github/workflows/penguin-lint.yml").read_text())
    results = {}
    for name, job in wf["jobs"].items():
        (ours,) = [s for s in job["steps"] if "penguin-lint" in s.get("uses", "")]
        inputs = {k: str(v) for k, v in (ours.get("with") or {}).items()}
        assert set(inputs) <= set(ACTION["inputs"]), name
        results[name] = runner(ws, tmp_path / name, inputs=inputs).lint()
    lint, scan = results["lint"], results["code-scanning"]
    for run in (lint, scan):
        assert run.code == 1, run.stdout + run.stderr
        (cmd,) = run.commands()
        assert cmd.startswith(f"::error file={TASK},line=1,col=1,title=PL101 missing-field::")
        assert f"| :x: | [1](" in run.summary
    assert "sarif" not in lint.outputs or lint.outputs["sarif"] == ""
    sarif = json.loads(Path(scan.outputs["sarif"]).read_text())
    assert Path(scan.outputs["sarif"]) == ws / "penguin-lint.sarif"
    assert [r["ruleId"] for r in sarif["runs"][0]["results"]] == ["PL101"]


def test_a_sarif_path_that_cannot_be_written_fails_the_step_with_one_error(tmp_path):
    ws, write = pull_request(tmp_path)
    write({"reports/keep": "a file where the SARIF folder should be\n"})
    run = runner(ws, tmp_path, inputs={"sarif": "reports/keep/out.sarif"}).lint()
    assert run.code == 2 and "Traceback" not in run.stderr
    (cmd,) = run.commands()
    assert cmd.startswith("::error title=penguin-lint::cannot write the sarif input reports/keep/out.sarif: ")
    assert run.outputs["status"] == "error" and run.outputs["sarif"] == "" and run.outputs["errors"] == "0"


def test_the_summary_shows_what_the_pull_request_does_to_the_leaderboard(tmp_path):
    ws, write = pull_request(tmp_path)
    summary = "experiments/lb/exp-1/test/summary.yaml"
    write({summary: "n_attempt: 2\nscore_mean: 60.0\nscore_std: 0.0\n",
           "experiments/lb/exp-1/test/attempt-1.yaml": VALID["experiments/lb/exp-1/test/attempt-1.yaml"]
           .replace("50.0", "60.0"),
           "experiments/lb/exp-1/test/attempt-2.yaml": VALID["experiments/lb/exp-1/test/attempt-2.yaml"]
           .replace("50.0", "60.0")})
    run = runner(ws, tmp_path).lint()
    assert run.code == 0, run.stdout + run.stderr
    assert "## Leaderboards after this pull request" in run.summary
    row = [ln for ln in run.summary.splitlines() if ln.startswith("| changed |")]
    assert len(row) == 1 and "50.0000 → 60.0000" in row[0], run.summary
    # a change that touches no leaderboard adds no section
    ws2, write2 = pull_request(tmp_path / "other")
    write2({TASK: VALID[TASK].replace("The first task.", "The first task, reworded.")})
    quiet = runner(ws2, tmp_path / "other").lint()
    assert quiet.code == 0 and "Leaderboards" not in quiet.summary


def test_all_keeps_its_cache_outside_the_checkout(tmp_path):
    ws, _ = pull_request(tmp_path)
    run = runner(ws, tmp_path, inputs={"all": "true"}).lint()
    assert run.code == 1, run.stderr  # the old PL203 in bench-old
    assert not (ws / ".penguin-lint-cache").exists()
    assert list((tmp_path / "runner-temp" / "penguin-lint-cache").rglob("*.json"))
