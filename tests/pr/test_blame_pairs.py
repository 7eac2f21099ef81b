"""Which of several findings alike a change is blamed for: the one at the
old one's key path stays old; when none is there, the first is taken as old."""
from __future__ import annotations

import subprocess

from tests.conftest import VALID, lint, pull_request_repo, write_repo

ATTEMPT = "experiments/lb/exp-1/test/attempt-1.yaml"
RESULT = "  - source: CASE-001-one\n    score: 50.0\n"
UNKNOWN = "  - source: CASE-404-none\n    score: 50.0\n"


def pull_request(tmp_path, files):
    return pull_request_repo(write_repo(tmp_path / "repo", files, VALID))


def commit(root, files):
    for rel, text in files.items():
        (root / rel).write_text(text)
    for args in (["add", "-A"], ["commit", "-q", "-m", "change"]):
        subprocess.run(["git", *args], cwd=root, check=True, capture_output=True)


def verdicts(run, code):
    return [(f["line"], f["new"]) for f in run.findings if f["code"] == code]


def test_of_two_findings_alike_the_one_at_its_old_key_path_is_old(tmp_path, git_env):
    root = pull_request(tmp_path, {ATTEMPT: "score: 50.0\nresults:\n" + UNKNOWN})
    # the same mistake once more, after the old one (the same message)
    commit(root, {ATTEMPT: "score: 50.0\nresults:\n" + UNKNOWN + UNKNOWN})
    assert verdicts(lint(root, "--diff-base", "main"), "PL304") == [(3, False), (5, True)]
    # a result above both: no key path is the old one's, the first of the two is taken as old
    commit(root, {ATTEMPT: "score: 50.0\nresults:\n" + RESULT + UNKNOWN + UNKNOWN})
    assert verdicts(lint(root, "--diff-base", "main"), "PL304") == [(5, False), (7, True)]


def test_a_finding_about_another_id_is_new_wherever_it_stands(tmp_path, git_env):
    """Digits are part of what a finding is about (an id, a date, a model's
    size): an unknown task that differs from the old one only in its digits
    is a new finding, at the old one's key path too."""
    root = pull_request(tmp_path, {ATTEMPT: "score: 50.0\nresults:\n" + UNKNOWN})
    commit(root, {ATTEMPT: "score: 50.0\nresults:\n" + UNKNOWN + UNKNOWN.replace("404", "405")})
    assert verdicts(lint(root, "--diff-base", "main"), "PL304") == [(3, False), (5, True)]
    commit(root, {ATTEMPT: "score: 50.0\nresults:\n" + UNKNOWN.replace("404", "405") + UNKNOWN})
    assert verdicts(lint(root, "--diff-base", "main"), "PL304") == [(3, True), (5, False)]
    # the old one fixed and another broken in its place: new, and shown with --new-only
    commit(root, {ATTEMPT: "score: 50.0\nresults:\n" + UNKNOWN.replace("404", "405")})
    run = lint(root, "--diff-base", "main", "--new-only")
    assert run.code == 1 and verdicts(run, "PL304") == [(3, True)], run.output
