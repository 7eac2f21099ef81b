"""The plan of --shard K/N is made of what the walk has already listed: no
git listing of the whole tree, no folder read below the unit folders, so a
shard's fixed cost grows with the units, not the files. Its fingerprint
goes into each report, and merge refuses parts planned from different trees."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from penguin_lint.core.config import Config
from penguin_lint.core.repo import Repository
from penguin_lint.engine.runner import Engine
from penguin_lint.engine.shard import Shard, plan, shard_units
from penguin_lint.engine.unit import Chunk, Pending
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


def _items(units) -> list:
    return sorted(item for u in units for item in u)


@pytest.fixture
def chunked(tmp_path, monkeypatch):
    """The realistic repository with chunks of four folders: its leaderboard
    of twenty experiments is five chunks, a shard may own some of them."""
    import penguin_lint.engine.unit as unit

    monkeypatch.setattr(unit, "UNIT_CHUNK", 4)
    monkeypatch.setattr("penguin_lint.engine.shard.UNIT_CHUNK", 4)
    root = realistic(tmp_path)
    return root


def test_a_shard_lists_only_the_unit_folders_it_owns_a_part_of(chunked, monkeypatch):
    listed = []
    real = Repository._scan
    monkeypatch.setattr(Repository, "_scan", lambda self, rel: listed.append(rel) or real(self, rel))
    whole = Engine(Repository(chunked, Config()), Config(), all_rules()).units()
    owned_anywhere = []
    for k in range(1, 5):
        repo = Repository(chunked, Config())
        lazy = Engine(repo, Config(), all_rules()).units(lazy=True)
        pending = {u.folder for u in lazy if isinstance(u, Pending)}
        assert "experiments/synth-lb-00" in pending and "packages/synth-bench-001" in pending
        del listed[:]
        mine, _ = shard_units(repo, lazy, Shard(k, 4))
        owned = {c.folder for c in mine if isinstance(c, Chunk)}
        # counted by their link counts, listed only where a part is owned
        assert set(listed) & pending == owned, (k, listed)
        assert len(owned) < len(pending)
        owned_anywhere += mine
    # every folder of the whole run in exactly one shard, cut the same way
    assert _items(owned_anywhere) == _items(whole)
    assert sorted(map(tuple, owned_anywhere)) == sorted(map(tuple, whole))


@pytest.mark.parametrize("count", [lambda n: 0, lambda n: 1, lambda n: 3 * n + 5, lambda n: n // 2])
def test_a_count_that_is_off_moves_work_and_loses_none(chunked, monkeypatch, count):
    """A file system whose folder link counts are not the number of
    subfolders: the last part of a folder takes what the count missed, a
    part the count made up holds nothing."""
    whole = Engine(Repository(chunked, Config()), Config(), all_rules()).units()
    real = Repository.subfolder_count
    monkeypatch.setattr(Repository, "subfolder_count", lambda self, rel: count(real(self, rel)))
    mine = []
    for k in range(1, 4):
        repo = Repository(chunked, Config())
        mine += shard_units(repo, Engine(repo, Config(), all_rules()).units(lazy=True), Shard(k, 3))[0]
    assert _items(mine) == _items(whole)
    assert all(len(list(u)) for u in mine)  # no empty part


def test_merged_shards_with_counts_that_are_off_equal_the_whole_run(chunked, tmp_path, monkeypatch):
    whole = lint(chunked, "--all", "--no-cache", "--jobs", "1")
    monkeypatch.setattr(Repository, "subfolder_count", lambda self, rel: 1)
    merged = lint(None, "merge", "--format", "json", *shards(chunked, tmp_path / "off", 3, "--jobs", "1"))
    assert merged.code == whole.code == 1
    assert json.loads(merged.output)["findings"] == whole.json["findings"]


def test_where_folders_have_no_link_count_the_listing_counts(tmp_path, monkeypatch):
    """btrfs, overlay mounts and Windows give a folder one link whatever it
    holds, ext4 past 65,000 subfolders too: there the folder is listed."""
    import os

    import penguin_lint.core.repo as repo_module

    root = realistic(tmp_path)
    real = os.lstat

    class OneLink:
        def __init__(self, st, n):
            self.st_mode, self.st_nlink = st.st_mode, n

    monkeypatch.setattr(repo_module.os, "lstat", lambda p, *a, **k: OneLink(real(p, *a, **k), links))
    folder = "experiments/synth-lb-00"
    # one link, or more than any count a plan trusts (a file system that says 2**32)
    for links in (1, 2 ** 32):
        repo = Repository(root, Config())
        assert repo.subfolder_count(folder) == 20 == len([p for p in (root / folder).iterdir() if p.is_dir()])
    assert repo.subfolder_count("packages/none") == 0
    assert repo.subfolder_count("../outside") == 0
