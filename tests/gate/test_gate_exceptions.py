"""Exceptions the maintainers consent to, through the Action's step as
action.yml declares it, with GitHub's environment and event payload.

A suppression a pull request adds applies in its run only when the BASE's
.penguin-lint.toml lists its code in allow-added-suppressions and the
comment gives a reason, or when GitHub's event for the run is a maintainer
setting the base's approval-label. Nothing in the pull request (its
configuration, its files, a label it names) widens what applies, and a later
push (synchronize) does not inherit an approval."""
from __future__ import annotations

import pytest

from tests.actionstep import Runner
from tests.conftest import cloned_pull_request

SUMMARY = "experiments/lb/exp-1/test/summary.yaml"
CONFIG = ".penguin-lint.toml"
MEAN = "n_attempt: 2\nscore_mean: 70.0\nscore_std: 0.0\n"
REASONED = MEAN + "# penguin-lint: disable-file=PL303 kept as the importer wrote it\n"
BARE = MEAN + "# penguin-lint: disable-file=PL303\n"
ALLOWS = 'allow-added-suppressions = ["PL303"]\napproval-label = "lint-exception"\n'
LABEL_ONLY = 'approval-label = "lint-exception"\n'


def event(action="opened", label=None, labels=(), sha=None):
    """GitHub's payload; the head's ``sha`` None: the commit checked out
    (filled in by :func:`step`)."""
    pr = {"number": 7, "head": {"sha": sha, "ref": "pr"}, "base": {"ref": "main"},
          "labels": [{"name": n} for n in labels]}
    doc = {"action": action, "number": 7, "pull_request": pr}
    if label is not None:
        doc["label"] = {"name": label}
    return doc


def head_sha(ws) -> str:
    import subprocess

    return subprocess.run(["git", "rev-parse", "HEAD"], cwd=ws, capture_output=True, text=True,
                          check=True).stdout.strip()


def step(tmp_path, base_config, files, ev, event_name="pull_request", inputs=None):
    ws, write = cloned_pull_request(tmp_path, {CONFIG: base_config} if base_config else None)
    write(files)
    if "sha" in ev["pull_request"]["head"] and ev["pull_request"]["head"]["sha"] is None:
        ev = dict(ev, pull_request=dict(ev["pull_request"], head={"sha": head_sha(ws), "ref": "pr"}))
    temp = tmp_path / "runner-temp"
    temp.mkdir()
    return Runner(ws, temp, event=ev, event_name=event_name, inputs=dict(inputs or {})).lint()


def notices(run):
    return [c for c in run.commands() if c.startswith(f"::notice file={SUMMARY},line=4,")]


# -- allow-added-suppressions: a listed code and a reason ----------------------------

def test_an_allowed_code_with_a_reason_applies_and_the_summary_gives_the_reason(tmp_path, git_env):
    run = step(tmp_path, ALLOWS, {SUMMARY: REASONED}, event())
    assert run.code == 0, run.stdout + run.stderr
    assert run.outputs["errors"] == "0"
    assert not [c for c in run.commands() if c.startswith("::error")]
    assert ("suppression of PL303 in this file is added by this change: PL303 applies in this run, as "
            "allow-added-suppressions lists it, for the reason: kept as the importer wrote it") in run.summary
    assert "They apply in this run, as each line says." in run.summary
    assert len(notices(run)) == 1 and "for the reason: kept as the importer wrote it" in notices(run)[0]


def test_an_allowed_code_without_a_reason_does_not_apply(tmp_path, git_env):
    run = step(tmp_path, ALLOWS, {SUMMARY: BARE}, event())
    assert run.code == 1, run.stdout + run.stderr
    assert run.outputs["errors"] == "1"
    assert any(c.startswith(f"::error file={SUMMARY},line=2,") for c in run.commands())
    assert "They suppress nothing in this run; they apply once merged." in run.summary


def test_a_code_the_base_does_not_list_does_not_apply_whatever_the_reason(tmp_path, git_env):
    other = 'allow-added-suppressions = ["PL203"]\n'
    run = step(tmp_path, other, {SUMMARY: REASONED}, event())
    assert run.code == 1, run.stdout + run.stderr
    assert any(c.startswith(f"::error file={SUMMARY},line=2,") for c in run.commands())


def test_the_pull_requests_own_allow_list_allows_nothing(tmp_path, git_env):
    # the change writes the allow-list and the label into the configuration
    run = step(tmp_path, None, {SUMMARY: REASONED, CONFIG: ALLOWS}, event("labeled", "lint-exception"))
    assert run.code == 1, run.stdout + run.stderr
    commands = run.commands()
    assert any(c.startswith(f"::error file={SUMMARY},line=2,") for c in commands), commands
    assert any("PL502" in c and "allow-added-suppressions gains PL303" in c for c in commands), commands
    assert any("PL502" in c and "approval-label changes from (unset) to 'lint-exception'" in c
               for c in commands), commands


# -- approval-label: GitHub's event, never the checkout --------------------------------

def test_the_label_being_set_makes_the_added_suppressions_apply(tmp_path, git_env):
    run = step(tmp_path, LABEL_ONLY, {SUMMARY: BARE}, event("labeled", "lint-exception", ["lint-exception"]))
    assert run.code == 0, run.stdout + run.stderr
    assert run.outputs["errors"] == "0"
    assert "**Approved by the label lint-exception**" in run.summary
    assert ("suppression of PL303 in this file is added by this change: PL303 applies in this run, "
            "approved by the label `lint-exception`") in run.summary


def test_a_push_after_the_label_does_not_inherit_the_approval(tmp_path, git_env):
    # the label is still on the pull request, but this run's event is the push
    run = step(tmp_path, LABEL_ONLY, {SUMMARY: BARE}, event("synchronize", labels=["lint-exception"]))
    assert run.code == 1, run.stdout + run.stderr
    assert any(c.startswith(f"::error file={SUMMARY},line=2,") for c in run.commands())
    assert "Approved by the label" not in run.summary


@pytest.mark.parametrize("ev", [
    event("labeled", "documentation", ["documentation", "lint-exception"]),  # another label set
    event("opened", labels=["lint-exception"]),                              # present, not set now
    event("unlabeled", "lint-exception"),
])
def test_no_other_event_approves(tmp_path, git_env, ev):
    run = step(tmp_path, LABEL_ONLY, {SUMMARY: BARE}, ev)
    assert run.code == 1, run.stdout + run.stderr
    assert "Approved by the label" not in run.summary


def test_a_label_the_base_does_not_name_approves_nothing(tmp_path, git_env):
    run = step(tmp_path, None, {SUMMARY: BARE}, event("labeled", "lint-exception"))
    assert run.code == 1, run.stdout + run.stderr


def test_an_unreadable_event_payload_approves_nothing_and_says_so(tmp_path, git_env):
    ws, write = cloned_pull_request(tmp_path, {CONFIG: LABEL_ONLY})
    write({SUMMARY: BARE})
    temp = tmp_path / "runner-temp"
    temp.mkdir()
    bad = tmp_path / "event.json"
    bad.write_text("{not json")
    run = Runner(ws, temp, event=event("labeled", "lint-exception")).lint(
        extra_env={"GITHUB_EVENT_PATH": str(bad)})
    assert run.code == 1, run.stdout + run.stderr
    assert "GitHub's event payload (GITHUB_EVENT_PATH) cannot be read" in run.stdout + run.stderr


def test_the_label_approves_the_whole_repository_run_of_the_pull_request(tmp_path, git_env):
    labeled = step(tmp_path / "a", LABEL_ONLY, {SUMMARY: BARE}, event("labeled", "lint-exception"),
                   inputs={"all": "true"})
    assert labeled.code == 0, labeled.stdout + labeled.stderr
    pushed = step(tmp_path / "b", LABEL_ONLY, {SUMMARY: BARE}, event("synchronize"), inputs={"all": "true"})
    assert pushed.code == 1, pushed.stdout + pushed.stderr


# -- what a reason is, and a comment with codes of both kinds ---------------------------

def test_punctuation_is_no_reason(tmp_path, git_env):
    run = step(tmp_path, ALLOWS, {SUMMARY: MEAN + "# penguin-lint: disable-file=PL303 --\n"}, event())
    assert run.code == 1, run.stdout + run.stderr


def test_only_the_allowed_code_of_a_comment_applies(tmp_path, git_env):
    # one comment naming a code the base allows (PL201) and one it does not (PL104), each with a finding
    task = "packages/bench-a/CASE-001-one/task_config.toml"
    text = ('id = "CASE-001-two"\ntitle = "One"\ndescription = "x"\nextra = 1\n'
            "# penguin-lint: disable-file=PL104,PL201 kept for the importer\n")
    run = step(tmp_path, 'allow-added-suppressions = ["PL201"]\n', {task: text}, event())
    # PL104 (a warning) is held, PL201 applies
    assert (run.code, run.outputs["errors"], run.outputs["warnings"]) == (0, "0", "1"), run.stdout + run.stderr
    assert any(c.startswith(f"::warning file={task},line=4,") and "PL104" in c for c in run.commands())
    assert ("suppression of PL104, PL201 in this file is added by this change: PL201 applies in this run, as "
            "allow-added-suppressions lists it, for the reason: kept for the importer; PL104 once merged, "
            "where it would hide 1 finding") in run.summary
    assert "Those the maintainers consented to apply in this run" in run.summary



def test_an_event_path_that_is_a_fifo_does_not_hang_the_diff_run(tmp_path, git_env, monkeypatch):
    # the command line on a pull_request event reads the same payload
    import os

    from tests.conftest import lint

    ws, write = cloned_pull_request(tmp_path, {CONFIG: LABEL_ONLY})
    write({SUMMARY: BARE})
    fifo = tmp_path / "event.fifo"
    os.mkfifo(fifo)
    for k, v in {"GITHUB_EVENT_NAME": "pull_request", "GITHUB_WORKSPACE": str(ws),
                 "GITHUB_EVENT_PATH": str(fifo)}.items():
        monkeypatch.setenv(k, v)
    run = lint(ws, "--diff-base", "origin/main")
    assert run.code == 1 and run.at("PL303") == [(SUMMARY, 2)], run.output
    assert "GitHub's event payload (GITHUB_EVENT_PATH) cannot be read" in run.stderr
