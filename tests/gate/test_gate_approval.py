"""The maintainers' label approves what it was given for, through the
Action's step as action.yml declares it with GitHub's event: the commit the
event names (``pull_request.head.sha``) or the merge commit whose second
parent it is, never a later push the workflow checks out; and a label is
that label only as GitHub compares names (ASCII case), never by Unicode
folding."""
from __future__ import annotations

import pytest

from tests.actionstep import Runner
from tests.conftest import cloned_pull_request
from tests.gate.test_gate_exceptions import BARE, CONFIG, LABEL_ONLY, SUMMARY, event, head_sha, step
from tests.github.test_action import git


def labeled_for(tmp_path, checkout):
    """A pull request labeled at its first commit; the workflow checks out
    ``checkout(ws, first)`` (a later push, a merge commit)."""
    ws, write = cloned_pull_request(tmp_path, {CONFIG: LABEL_ONLY})
    write({SUMMARY: BARE})
    first = head_sha(ws)
    checkout(ws, first, write)
    temp = tmp_path / "runner-temp"
    temp.mkdir()
    return Runner(ws, temp, event=event("labeled", "lint-exception", ["lint-exception"], sha=first)).lint()


def later_push(ws, first, write):
    write({"experiments/lb/exp-1/test/attempt-1.yaml": "score: 10.0\nresults: []\n"}, "a later push")


def merge_of(head):
    """The merge commit GitHub checks out for a pull_request event: the
    base's tip first, ``head`` (a function of the first commit) second."""
    def checkout(ws, first, write):
        second = head(ws, first)
        git(ws, "checkout", "-q", "--detach", "origin/main")
        git(ws, "merge", "-q", "--no-ff", "-m", "Merge pr into main", second)
    return checkout


def test_the_merge_commit_of_the_labeled_head_is_approved(tmp_path, git_env):
    run = labeled_for(tmp_path, merge_of(lambda ws, first: first))
    assert run.code == 0, run.stdout + run.stderr
    assert "**Approved by the label lint-exception**" in run.summary


def later(ws, first):
    (ws / "notes.md").write_text("a later push\n")
    git(ws, "add", "-A")
    git(ws, "commit", "-q", "-m", "a later push")
    return head_sha(ws)


@pytest.mark.parametrize("checkout", [later_push, merge_of(later)], ids=["later-push", "merge-of-later-push"])
def test_a_checkout_of_a_later_push_does_not_inherit_the_approval(tmp_path, git_env, checkout):
    run = labeled_for(tmp_path, checkout)
    assert run.code == 1, run.stdout + run.stderr
    assert any(c.startswith(f"::error file={SUMMARY},line=2,") for c in run.commands())
    assert "Approved by the label" not in run.summary
    assert "the label 'lint-exception' was set for commit" in run.stdout + run.stderr


def test_an_event_that_names_no_head_commit_approves_nothing(tmp_path, git_env):
    ev = event("labeled", "lint-exception")
    ev["pull_request"]["head"] = {"ref": "pr"}
    run = step(tmp_path, LABEL_ONLY, {SUMMARY: BARE}, ev)
    assert run.code == 1, run.stdout + run.stderr
    assert "Approved by the label" not in run.summary


@pytest.mark.parametrize("configured,set_now", [
    ("lint-exceptions", "lint-exception\u017f"),  # the long s folds to s
    ("lint-ok", "lint-o\u212a"),                   # the Kelvin sign folds to k
    ("lint-\u00e9", "LINT-\u00c9"),                # GitHub folds ASCII only
])
def test_a_label_that_only_unicode_folding_makes_equal_approves_nothing(tmp_path, git_env, configured, set_now):
    run = step(tmp_path, f'approval-label = "{configured}"\n', {SUMMARY: BARE}, event("labeled", set_now))
    assert run.code == 1, run.stdout + run.stderr
    assert "Approved by the label" not in run.summary
