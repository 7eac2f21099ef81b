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
