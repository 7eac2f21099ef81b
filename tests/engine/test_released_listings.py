"""A whole run lets go of each unit's folder listings when the unit is done (its memory is
that of a unit, not of the repository), and of the others' past a bound: a listing let go is
read again when a later unit asks, and no report may tell the difference."""
from __future__ import annotations

from penguin_lint.core import repo as repo_module
from tests.conftest import lint
from tests.engine.test_merge import git, merge, realistic, shards


def test_listings_let_go_after_every_unit_change_no_report(tmp_path, monkeypatch):
    root = realistic(tmp_path)
    # a submodule not checked out: an empty folder, told apart as the walk listed it (no
    # listing is read again for it) and by git's index
    (root / "packages" / "synth-bench-000" / "CASE-999-module").mkdir()
    git(root, "update-index", "--add", "--cacheinfo",
        f"160000,{'1' * 40},packages/synth-bench-000/CASE-999-module")
    git(root, "commit", "-qm", "a submodule")
    kept = {args: lint(root, "--all", *args) for args in (("--no-cache", "-j1"), ("--no-cache",))}
    cache = tmp_path / "cache"
    kept["cold"] = lint(root, "--all", "--cache-dir", str(cache))
    assert kept["cold"].code == 1
    assert ("PL007", "packages/synth-bench-000/CASE-999-module") in [
        (f["code"], f["path"]) for f in kept["cold"].findings]
    # nothing kept from one unit to the next, beyond the top folders' listings
    monkeypatch.setattr(repo_module, "LISTINGS_KEPT", 0)
    for args in (("--no-cache", "-j1"), ("--no-cache",)):
        got = lint(root, "--all", *args)
        assert (got.code, got.output) == (kept[args].code, kept[args].output), args
    for run in ("cold", "warm"):  # the cache's records of what each unit listed, then their reuse
        got = lint(root, "--all", "--cache-dir", str(cache if run == "warm" else tmp_path / "cache2"))
        assert (got.code, got.output) == (kept["cold"].code, kept["cold"].output), run
    got = merge(*shards(root, tmp_path / "parts", 4), "--format", "json")
    assert got.output == kept[("--no-cache", "-j1")].output
