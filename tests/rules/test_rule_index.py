"""The rule index (rules/_index.py) is what a run knows of a rule before it
imports it: it must say what the modules say, and a run must import only the
rules it runs."""
import json
import shutil
import subprocess
import sys
from pathlib import Path

from penguin_lint.rules import all_rules, get_rule
from penguin_lint.rules.index_build import INDEX, discovered, index_source

ROOT = Path(__file__).resolve().parents[2]


def test_index_is_what_the_modules_say():
    # regenerate with: python -m penguin_lint.rules.index_build
    assert INDEX.read_text(encoding="utf-8") == index_source()


def test_registry_hands_out_every_discovered_rule_with_its_attributes():
    real = discovered()
    lazy = all_rules()
    assert [r.code for r in lazy] == [r.code for r in real]
    for fast, rule in zip(lazy, real):
        assert (fast.name, fast.severity, tuple(fast.kinds), fast.fixable, fast.problem_source,
                fast.cross_file) == (rule.name, rule.severity, tuple(rule.kinds), rule.fixable,
                                     rule.problem_source, rule.cross_file)
        assert type(fast.load()) is type(rule)
        assert fast.doc() == rule.doc() and fast.summary == rule.summary
    assert get_rule("summary-mismatch").code == "PL303"


def test_a_run_on_one_attempt_imports_only_the_rules_it_runs(tmp_path):
    # a path run on the example's attempt file: no Harbor rule is imported
    repo = tmp_path / "repo"
    shutil.copytree(ROOT / "examples" / "repo", repo)
    attempt = next((repo / "experiments").rglob("attempt-*.yaml")).relative_to(repo).as_posix()
    code = ("import sys, json\n"
            "from penguin_lint.cli import main\n"
            "try:\n"
            f"    main(['--no-cache', '--format', 'json', {str(attempt)!r}])\n"
            "except SystemExit as e:\n"
            "    status = e.code\n"
            "mods = sorted(m for m in sys.modules if m.startswith('penguin_lint.rules.pl'))\n"
            "sys.stderr.write(json.dumps({'status': status, 'mods': mods}))\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=repo, timeout=60)
    out = json.loads(proc.stderr.strip().splitlines()[-1])
    assert out["status"] in (0, 1), proc.stderr
    report = json.loads(proc.stdout)
    assert report["summary"]["files"] >= 1
    mods = {m.rsplit(".", 1)[1][:5] for m in out["mods"]}
    assert "pl304" in mods  # an attempt's own cross-file rule ran
    assert not {"pl601", "pl602", "pl603", "pl604", "pl606", "pl607"} & mods, mods


def _paths_of(root: Path):
    """Every path of a repository, its folders' top, and paths that are not
    there (a deleted file, folder, package or its -test twin)."""
    out = {"", "experiments", "packages", "leaderboards", "data", "leaderboard"}
    for p in root.rglob("*"):
        rel = p.relative_to(root).as_posix()
        parent = rel.rpartition("/")[0]
        out |= {rel, f"{rel}-gone", f"{rel}/gone", f"{rel}-test", f"{parent}/gone-test" if parent else "gone"}
    return sorted(out)


def test_a_cross_file_rule_is_affected_only_by_the_paths_its_index_entry_names(tmp_path):
    # the index's clauses (rules/_affects.py) spare a run importing the rules
    # a changed path cannot affect: each must cover every path its rule answers for
    from penguin_lint.core.config import Config
    from penguin_lint.core.repo import Repository
    from penguin_lint.engine.context import Context
    from penguin_lint.rules._affects import may_affect

    # and the example with its leaderboard files and packages deleted
    gone = tmp_path / "gone"
    shutil.copytree(ROOT / "examples" / "repo", gone)
    for f in (gone / "leaderboards").glob("*/leaderboard.yaml"):
        f.unlink()
    shutil.rmtree(gone / "packages")
    # and a Harbor board with a second definition beside its own (PL608)
    twin = tmp_path / "twin"
    shutil.copytree(ROOT / "examples" / "harbor" / "clean", twin)
    (twin / "leaderboard" / "leaderboard.json").write_text("{}\n")
    answered, spared = set(), set()
    for root in [ROOT / "examples" / "repo", ROOT / "examples" / "clean", gone, twin,
                 *sorted(p for p in (ROOT / "examples" / "harbor").iterdir() if p.is_dir())]:
        ctx = Context(Repository(root, Config()), Config())
        paths = _paths_of(root) + _paths_of(ROOT / "examples" / "repo")  # those deleted too
        for lazy in all_rules():
            if not lazy.cross_file:
                continue
            assert lazy.affects is not None and lazy.affects == lazy.load().affects, lazy.code
            for path in paths:
                deps = list(lazy.load().affected_by(path, ctx))
                if deps:
                    answered.add(lazy.code)
                if not may_affect(lazy.affects, path, ctx):
                    spared.add(lazy.code)
                    assert deps == [], (lazy.code, root.name, path, deps)
    cross = {r.code for r in all_rules() if r.cross_file}
    assert answered == cross and spared == cross  # the paths tried reach every rule both ways
