"""What an editor asks of an open file is that file's findings: the server
checks what can report in its open files (a check reports on its subject or
below it), not every file an edit can affect. An attempt opened beside a
leaderboard does not make the server read the board; its experiment's
meta_info.yaml, where PL306 reports, does."""
from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from penguin_lint.engine.runner import Engine
from penguin_lint.lsp.overlay import OverlayRepository
from penguin_lint.lsp.project import Project
from tests.conftest import VALID, lint, write_repo

BOARD = "leaderboards/lb/leaderboard.yaml"
EXP2 = {k.replace("exp-1", "exp-2"): v.replace("exp-1", "exp-2")
        for k, v in VALID.items() if k.startswith("experiments/lb/exp-1/")}
ATTEMPT = "experiments/lb/exp-2/test/attempt-1.yaml"
META = "experiments/lb/exp-2/meta_info.yaml"
EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "repo"
HARBOR = Path(__file__).resolve().parents[2] / "examples" / "harbor" / "broken"


@pytest.fixture
def board_repo(tmp_path):
    # exp-2 is in no value of the board (PL306 in its meta_info.yaml); its attempt has an unknown field
    files = dict(EXP2)
    files[ATTEMPT] += "seeded: 1\n"
    return write_repo(tmp_path / "repo", files, VALID)


def _by_path(findings, path):
    return sorted((f["code"], f["line"]) for f in findings if f["path"] == path)


def test_an_open_attempt_gets_its_findings_without_the_board_being_read(board_repo, monkeypatch):
    everything = lint(board_repo, "--all", "--no-cache").findings
    parsed = Counter()
    original = OverlayRepository._load
    monkeypatch.setattr(OverlayRepository, "_load", lambda self, rel: parsed.update([rel]) or original(self, rel))
    project = Project(board_repo)
    found = project.lint([ATTEMPT])
    assert sorted((f.code, f.line) for f in found[ATTEMPT]) == _by_path(everything, ATTEMPT) == [("PL104", 5)]
    assert parsed[BOARD] == 0
    # the experiment's meta_info.yaml is where PL306 reports: the board is read for it
    found = project.lint([META])
    assert sorted((f.code, f.line) for f in found[META]) == _by_path(everything, META)
    assert "PL306" in {f.code for f in found[META]} and parsed[BOARD] == 1


@pytest.mark.parametrize("root", [EXAMPLE, HARBOR], ids=["examples", "harbor"])
def test_every_open_file_of_a_repository_gets_what_all_finds(root):
    # each file opened alone, and all of them at once: the findings --all has there
    everything = lint(root, "--all", "--no-cache").findings
    project = Project(root)
    files = sorted(p.relative_to(root).as_posix() for p in root.rglob("*")
                   if p.is_file() and project.lints(p.relative_to(root).as_posix()))
    assert len(files) >= 2 and len({f["path"] for f in everything}) >= 2
    together = project.lint(files)
    for rel in files:
        want = _by_path(everything, rel)
        assert sorted((f.code, f.line) for f in project.lint([rel])[rel]) == want, rel
        assert sorted((f.code, f.line) for f in together[rel]) == want, rel


def _folder_rule_repo(root: Path) -> Path:
    """Findings of the folder rules: an unreferenced experiment (PL306), a
    phase with a gap in its attempts (PL302), a forbidden entry in a package
    (PL007), a task without its files (PL205), a misnamed file (PL009)."""
    files = dict(EXP2)
    files["experiments/lb/exp-2/test/attempt-3.yaml"] = files.pop("experiments/lb/exp-2/test/attempt-2.yaml")
    files["packages/bench-a/scoreboard.yaml"] = "a: 1\n"
    files["packages/bench-a/CASE-002-two/task_config.toml"] = 'id = "CASE-002-two"\n'
    files["experiments/lb/exp-1/test/sumary.yaml"] = "n_attempt: 2\n"
    return write_repo(root, files, VALID)


@pytest.mark.parametrize("which", ["examples", "harbor", "folder rules"])
def test_a_check_reports_on_its_subject_or_below_it(which, tmp_path, monkeypatch):
    # what the server's choice of subjects rests on, and where rules say they report
    root = {"examples": EXAMPLE, "harbor": HARBOR}.get(which) or _folder_rule_repo(tmp_path / "repo")
    seen = Counter()
    original = Engine.check

    def check(self, subject, codes=None):
        found = original(self, subject, codes)
        for f in found:
            prefix = subject.path + "/" if subject.path else ""
            assert f.path == subject.path or f.path.startswith(prefix), (f.code, f.path, subject.path)
            rule = next((r for r in self.rules if r.code == f.code), None)
            below = rule.reports_below if rule is not None and subject.is_dir else None
            if subject.is_dir and below is not None and f.path != subject.path:
                assert f.path[len(prefix):] in below, (f.code, f.path)
            seen[f.code] += 1
        return found

    monkeypatch.setattr(Engine, "check", check)
    monkeypatch.setenv("PENGUIN_LINT_JOBS", "1")
    lint(root, "--all", "--no-cache")
    if which == "folder rules":
        assert {"PL306", "PL302", "PL007", "PL205", "PL009"} <= set(seen), seen
    else:
        assert sum(seen.values()) >= 6
