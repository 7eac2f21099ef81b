"""The plan of --shard K/N is made of what the walk has already listed: no
git listing of the whole tree, no folder read below the unit folders, so a
shard's fixed cost grows with the units, not the files. Its fingerprint
goes into each report, and merge refuses parts planned from different trees."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

from penguin_lint.core.config import Config
from penguin_lint.core.repo import Repository
from penguin_lint.engine.runner import Engine
from penguin_lint.engine.shard import plan
from penguin_lint.rules import all_rules
from tests.conftest import lint
from tests.engine.test_merge import realistic, refused, shards


def test_a_shard_runs_no_git_listing_of_the_tree(tmp_path, git_calls):
    root = realistic(tmp_path)
    run = lint(root, "--all", "--no-cache", "--shard", "2/4")
    assert run.code in (0, 1), run.stderr
    # (a look at whether git tracks the cache folder is one path, not a listing)
    assert not [c for c in git_calls() if "ls-tree" in c or ("ls-files" in c and " -- " not in c)], git_calls()


def test_the_plan_lists_no_folder_the_walk_did_not(tmp_path, monkeypatch):
    root = realistic(tmp_path)
    repo = Repository(root, Config())
    engine = Engine(repo, Config(), all_rules())
    units = engine.units()
    assert len(units) >= 10
    listed = []
    real = Repository._scan
    monkeypatch.setattr(Repository, "_scan", lambda self, rel: listed.append(rel) or real(self, rel))
    owners, key = plan(repo, units, 4)
    assert listed == []  # nothing below the unit folders, nothing read again
    assert sorted(set(owners)) == [1, 2, 3, 4]
    assert plan(repo, units, 4) == (owners, key)


def test_the_plan_balances_experiments_against_packages(tmp_path):
    """A leaderboard's unit (twenty experiments) weighs more than a package's
    (twenty small tasks): the parts are balanced by what parsing costs, not
    by the number of folders."""
    from benchmarks.generate import generate_size

    root = tmp_path / "gen"
    generate_size(root, "quick-small")
    repo = Repository(root, Config())
    units = Engine(repo, Config(), all_rules()).units()
    owners, _ = plan(repo, units, 2)
    lb = [i for i, u in enumerate(units) if u[0][0].startswith("leaderboards/")]
    assert len(lb) == 1
    # the leaderboard with its experiments on one side, most packages on the other
    other = [i for i, s in enumerate(owners) if s != owners[lb[0]]]
    assert len(other) >= 5


def test_merge_refuses_parts_planned_from_different_trees(tmp_path):
    root = realistic(tmp_path)
    first = shards(root, tmp_path / "a", 2)
    # an uncommitted package appears between the jobs: same commit, other units
    shutil.copytree(root / "packages" / "synth-bench-001", root / "packages" / "synth-bench-new")
    second = shards(root, tmp_path / "b", 2)
    a, b = (json.loads(Path(p).read_text())["shard"] for p in (first[0], second[1]))
    assert a["commit"] == b["commit"] and a["plan"] != b["plan"]
    refused(lint(None, "merge", first[0], second[1]), "split the repository differently")
    assert lint(None, "merge", *second).code == 1  # one tree: fine
