"""A file unchanged since the base is judged as the base would judge it
without parsing the base: every listing and file the run read is compared
(folder entries, blob ids), and any difference sends it back to the base."""
from __future__ import annotations

from collections import Counter

from penguin_lint.pr import blame
from penguin_lint.pr.basetree import BaseRepository
from tests.conftest import VALID, git, lint
from tests.run.test_stdin_filename import lint_stdin

BOARD = "leaderboards/lb/leaderboard.yaml"
META_2 = "experiments/lb/exp-2/meta_info.yaml"

def _more(text: str, *experiments: str) -> str:
    """A board's text with values for ``experiments`` appended."""
    return text.rstrip(" ") + "".join(f"          - experiment_id: {e}\n            phase: test\n"
                                      for e in experiments)


TWO = dict(VALID, **{
    BOARD: _more(VALID[BOARD], "exp-2"),
    META_2: VALID["experiments/lb/exp-1/meta_info.yaml"].replace("exp-1", "exp-2").replace("model_name: m",
                                                                                          "model_name: m2"),
    **{p.replace("exp-1", "exp-2"): t for p, t in VALID.items() if p.startswith("experiments/lb/exp-1/test/")},
})
# two values with one label: PL407 on the second
DUPLICATE = _more(VALID[BOARD], "exp-1")


def _commit(root):
    git(root, "init", "-q", "-b", "main")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "base")


def _base_parses(monkeypatch):
    parsed = Counter()
    original = BaseRepository._load

    def counting(self, rel):
        parsed[rel] += 1
        return original(self, rel)

    monkeypatch.setattr(BaseRepository, "_load", counting)
    return parsed


def _pl407(findings):
    return [(f["path"], f["line"], f["new"]) for f in findings if f["code"] == "PL407"]


def test_unchanged_board_is_old_without_parsing_head(repo, git_env, monkeypatch):
    root = repo({BOARD: DUPLICATE})
    _commit(root)
    parsed = _base_parses(monkeypatch)
    run = lint(root, "--no-cache", BOARD)
    assert run.code == 0, run.output
    assert _pl407(run.findings) == [(BOARD, 9, False)]
    assert parsed == Counter()


def test_unchanged_buffer_is_old_without_parsing_head(repo, git_env, monkeypatch):
    root = repo({BOARD: DUPLICATE})
    _commit(root)
    parsed = _base_parses(monkeypatch)
    code, out, _ = lint_stdin(root, (root / BOARD).read_text(), "--no-cache", "--stdin-filename", BOARD, "-")
    assert code == 0, out
    import json

    assert _pl407(json.loads(out)["findings"]) == [(BOARD, 9, False)]
    assert parsed == Counter()


def test_unchanged_board_reading_a_changed_experiment_is_compared_with_head(repo, git_env, monkeypatch):
    # the board's bytes are HEAD's, but an experiment it reads is not: its
    # new duplicate label is the change's, and HEAD is read to say so
    root = repo(TWO)
    _commit(root)
    (root / META_2).write_text((root / META_2).read_text().replace("model_name: m2", "model_name: m"))
    parsed = _base_parses(monkeypatch)
    run = lint(root, "--no-cache", BOARD)
    assert run.code == 0, run.output
    assert _pl407(run.findings) == [(BOARD, 9, True)]
    assert parsed[BOARD] == 1


def test_unchanged_board_beside_a_new_file_is_compared_with_head(repo, git_env, monkeypatch):
    # a listing the checks read differs (an untracked experiment): HEAD decides
    root = repo(dict(TWO, **{BOARD: _more(TWO[BOARD], "exp-3")}))
    _commit(root)
    for p, t in TWO.items():
        if p.startswith("experiments/lb/exp-2/"):
            target = root / p.replace("exp-2", "exp-3")
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text((root / p).read_text().replace("exp-2", "exp-3").replace("model_name: m2",
                                                                                        "model_name: m"))
    parsed = _base_parses(monkeypatch)
    run = lint(root, "--no-cache", BOARD)
    assert _pl407(run.findings) == [(BOARD, 11, True)]
    assert parsed[BOARD] == 1


def test_edited_board_fingerprints_nothing_when_head_has_as_many(repo, git_env, monkeypatch):
    # the edit is elsewhere in the file: HEAD has the same finding (without
    # its key path), so no key path is looked up
    root = repo({BOARD: DUPLICATE})
    _commit(root)
    (root / BOARD).write_text(DUPLICATE.replace("title: LB", "title: Board"))
    looked_up = []
    original = blame._positions
    monkeypatch.setattr(blame, "_positions", lambda doc: looked_up.append(doc.path) or original(doc))
    run = lint(root, "--no-cache", BOARD)
    assert _pl407(run.findings) == [(BOARD, 9, False)]
    assert looked_up == []


def test_edited_board_with_more_findings_pairs_them_by_key_path(repo, git_env, monkeypatch):
    # HEAD has one duplicate, the working tree two with the same message
    # pattern: key paths say which one is old
    root = repo({BOARD: DUPLICATE})
    _commit(root)
    with open(root / BOARD, "a") as f:
        f.write("  - experiment_id: exp-1\n    phase: test\n")
    looked_up = []
    original = blame._positions
    monkeypatch.setattr(blame, "_positions", lambda doc: looked_up.append(doc.path) or original(doc))
    run = lint(root, "--no-cache", BOARD)
    assert sorted(_pl407(run.findings)) == [(BOARD, 9, False), (BOARD, 11, True)]
    assert looked_up == [BOARD, BOARD]  # the working tree's and HEAD's


def test_a_rule_that_reads_the_base_is_never_taken_as_alike(repo, git_env):
    # PL502 compares the configuration with the base's: however alike the
    # rest, its finding on a changed configuration is the change's
    root = repo({".penguin-lint.toml": 'select = ["PL"]\n'})
    _commit(root)
    (root / ".penguin-lint.toml").write_text('select = ["PL"]\nignore = ["PL306"]\n')
    run = lint(root, "--no-cache", ".penguin-lint.toml")
    assert [(f["code"], f["path"], f["new"]) for f in run.findings] == [("PL502", ".penguin-lint.toml", True)]


def test_a_published_board_unchanged_since_head_is_not_published_by_the_change(repo, git_env, monkeypatch):
    # PL501 reads HEAD itself; the same bytes there mean no finding, without a parse of HEAD
    root = repo({BOARD: DUPLICATE.replace("status: draft", "status: published")})
    _commit(root)
    parsed = _base_parses(monkeypatch)
    run = lint(root, "--no-cache", BOARD)
    assert [f["code"] for f in run.findings] == ["PL407"]
    assert parsed == Counter()
    (root / BOARD).write_text((root / BOARD).read_text().replace("title: LB", "title: Board"))
    git(root, "commit", "-q", "-am", "retitled")
    (root / BOARD).write_text(DUPLICATE.replace("title: LB", "title: Board"))  # back to draft
    git(root, "add", BOARD)
    git(root, "commit", "-q", "-m", "draft")
    (root / BOARD).write_text(DUPLICATE.replace("title: LB", "title: Board").replace("status: draft",
                                                                                      "status: published"))
    run = lint(root, "--no-cache", BOARD)
    assert sorted((f["code"], f["new"]) for f in run.findings) == [("PL407", False), ("PL501", True)]
