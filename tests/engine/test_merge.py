"""`penguin-lint merge`: the JSON reports of N shards joined give what --all
gives, byte for byte (JSON, text, GitHub's annotations and job summary) and
finding for finding (SARIF), with its exit status; reports that do not make
one whole are refused with one error line."""
from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from benchmarks.generate import generate_size
from tests.conftest import lint

PROJECT = Path(__file__).resolve().parents[2]
SHA = "c" * 40


def git(cwd, *args):
    g = ["git", "-c", "user.name=t", "-c", "user.email=t@example.invalid", "-c", "commit.gpgsign=false"]
    subprocess.run([*g, *args], cwd=cwd, check=True, capture_output=True)


def realistic(tmp_path: Path, folder: str = "") -> Path:
    """A committed repository: a generated one (six packages, a leaderboard
    of twenty experiments) with the example repository beside it, its seven
    planted findings, and some more: a wrong attempt, a suppressed finding,
    a link above the units, a file of no known kind."""
    top = tmp_path / "repo"
    root = top / folder if folder else top
    generate_size(root, "quick-small")
    # the example's files only: other runs may have left their cache in it
    shutil.copytree(PROJECT / "examples" / "repo", root, dirs_exist_ok=True,
                    ignore=shutil.ignore_patterns(".penguin-lint-cache"))
    (root / "VIOLATIONS.md").unlink()
    attempt = next(sorted((root / "experiments" / "synth-lb-00").iterdir()).__iter__()) / "test" / "attempt-1.yaml"
    attempt.write_text(attempt.read_text().replace("score:", "score: 4%\nscore_x:", 1))
    pkg = root / "packages" / "synth-bench-001" / "benchmark_config.toml"
    pkg.write_text(pkg.read_text().replace('version = "', 'version = "v', 1)
                   + "unknown_a = 1  # penguin-lint: disable=PL104\nunknown_b = 2\n")
    (root / "leaderboards" / "link").symlink_to("synth-lb-00")
    if folder:
        (top / "README.md").write_text("# benchmarks in a folder\n")
    git(top, "init", "-q")
    git(top, "add", "-A")
    git(top, "commit", "-qm", "init")
    return root


def shards(root: Path, out: Path, n: int, *args: str):
    """Each shard's JSON report written to a file, as a matrix uploads it."""
    out.mkdir(exist_ok=True)
    paths = []
    for k in range(1, n + 1):
        run = lint(root, "--all", "--no-cache", "--shard", f"{k}/{n}", *args)
        assert run.code in (0, 1), run.stderr
        assert run.json["shard"]["index"] == k and run.json["shard"]["count"] == n
        p = out / f"shard-{k}-of-{n}.json"
        p.write_text(run.output)
        paths.append(str(p))
    return paths


def merge(*args: str):
    return lint(None, "merge", *args)


@pytest.fixture
def github(monkeypatch, tmp_path):
    """GitHub's variables for a job summary and file links; returns the summary file."""
    summary = tmp_path / "summary.md"
    summary.write_text("")
    for k, v in {"GITHUB_STEP_SUMMARY": str(summary), "GITHUB_SERVER_URL": "https://github.com",
                 "GITHUB_REPOSITORY": "lab/benchmarks", "GITHUB_SHA": SHA}.items():
        monkeypatch.setenv(k, v)
    return summary


def test_n_shards_merged_are_the_all_report_in_every_format(tmp_path, github):
    root = realistic(tmp_path)
    whole = {fmt: lint(root, "--all", "--no-cache", fmt=fmt) for fmt in ("json", "text", "sarif")}
    assert whole["json"].code == 1
    codes = set(whole["json"].codes())
    assert {"PL203", "PL204", "PL303", "PL304", "PL205", "PL104", "PL403", "PL006"} <= codes, codes
    assert whole["json"].json["summary"]["suppressed"] == 1
    github.write_text("")
    whole_github = lint(root, "--all", "--no-cache", fmt="github")
    whole_summary = github.read_text()
    assert "## penguin-lint" in whole_summary
    for n in (2, 4, 8):
        paths = shards(root, tmp_path / f"reports-{n}", n)
        for fmt in ("json", "text"):
            got = merge(*paths, "--format", fmt)
            assert (got.code, got.stderr) == (1, ""), (n, fmt, got.stderr)
            assert got.output == whole[fmt].output, (n, fmt)  # byte for byte
        sarif = merge(*reversed(paths), "--format", "sarif")
        assert sarif.code == 1
        got_run, want_run = json.loads(sarif.output)["runs"][0], json.loads(whole["sarif"].output)["runs"][0]
        assert got_run["results"] == want_run["results"] and len(got_run["results"]) == len(whole["json"].findings)
        assert got_run["tool"] == want_run["tool"]
        github.write_text("")
        got = merge(*paths, "--format", "github")
        assert (got.code, got.output) == (whole_github.code, whole_github.output), n
        assert github.read_text() == whole_summary, n


def test_merge_names_files_from_the_repository_root_as_all_does(tmp_path, github):
    root = realistic(tmp_path, folder="bench")
    paths = shards(root, tmp_path / "reports", 3)
    assert json.loads(Path(paths[0]).read_text())["shard"]["prefix"] == "bench/"
    for fmt in ("github", "sarif", "json"):
        github.write_text("")
        want = lint(root, "--all", "--no-cache", fmt=fmt)
        want_summary = github.read_text()
        github.write_text("")
        got = merge(*paths, "--format", fmt)
        assert (got.code, got.output) == (want.code, want.output), fmt
        assert github.read_text() == want_summary
    assert "::error file=bench/packages/sql-puzzles/benchmark_config.toml,line=4," in got.output or fmt != "github"
    sarif = merge(*paths, "--format", "sarif").output
    assert '"uri": "bench/packages/sql-puzzles/benchmark_config.toml"' in sarif


def test_exit_status_is_that_of_all_strict_included(tmp_path):
    root = realistic(tmp_path)
    # only warnings: 0, and 1 with --strict, as for --all
    paths = shards(root, tmp_path / "warn", 2, "--select", "PL104")
    whole = lint(root, "--all", "--no-cache", "--select", "PL104")
    assert whole.code == 0 and whole.json["summary"]["warnings"] >= 1
    assert merge(*paths, "--format", "json").code == 0
    assert merge(*paths, "--format", "json", "--strict").code == 1
    assert lint(root, "--all", "--no-cache", "--select", "PL104", "--strict").code == 1
    assert merge(*paths, "--format", "json").output == whole.output


def test_the_shard_key_is_new_and_all_reports_stay_as_they_were(tmp_path):
    root = realistic(tmp_path)
    whole = lint(root, "--all", "--no-cache").json
    assert "shard" not in whole
    one = lint(root, "--all", "--no-cache", "--shard", "1/1").json
    stamp = one.pop("shard")
    assert one == whole  # every other key as --all writes it
    head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=root, capture_output=True, text=True).stdout.strip()
    assert stamp["commit"] == head and stamp["prefix"] == "" and len(stamp["settings"]) == 32
    assert stamp["missing"] == ["packages/sql-puzzles/CASE-002-gaps-and-islands/rubric/README.md"]


# -- refusals -------------------------------------------------------------------

def refused(run, message: str):
    assert run.code == 2, (run.code, run.output)
    lines = run.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("penguin-lint: error: "), run.stderr
    assert message in lines[0], lines[0]
    assert "Traceback" not in run.stderr + run.output


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("built")
    root = realistic(tmp)
    return root, shards(root, tmp / "reports", 3)


@pytest.fixture
def parts(tmp_path, built):
    """A committed repository and its three shards' reports (copies this test may edit)."""
    root, paths = built
    copies = []
    for p in paths:
        copies.append(str(tmp_path / Path(p).name))
        shutil.copyfile(p, copies[-1])
    return root, copies


def test_merge_refuses_parts_that_do_not_make_one_whole(tmp_path):
    root = realistic(tmp_path)
    paths = shards(root, tmp_path / "reports", 3)
    refused(merge(paths[0], paths[2]), "1 shard is missing: 2/3")
    refused(merge(*paths, paths[1]), "shard 2/3 is given twice")
    refused(merge(), "no report to merge")
    # another split
    other = shards(root, tmp_path / "four", 4)
    refused(merge(paths[0], other[1], paths[2]), "parts of different splits")
    # other settings
    ignoring = shards(root, tmp_path / "ignoring", 3, "--ignore", "PL104")
    refused(merge(paths[0], ignoring[1], paths[2]), "different settings")
    # another commit
    (root / "leaderboards" / "note.md").write_text("a note\n")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "more")
    later = shards(root, tmp_path / "later", 3)
    refused(merge(paths[0], later[1], paths[2]), "different commits")
    # an --all report is not a part
    whole = tmp_path / "whole.json"
    whole.write_text(lint(root, "--all", "--no-cache").output)
    refused(merge(str(whole)), "not the report of a shard")


@pytest.mark.parametrize("text, message", [
    (b"", "not a JSON report"),
    (b"\xff\xfe{}", "not a JSON report"),
    (b"[" * 100000 + b"]" * 100000, "not a JSON report"),
    (b"[]", "an object is expected"),
    (b'{"version": 2}', "'version' is not 1"),
    (b'{"version": 1, "shard": "1/1"}', "'shard' is not an object"),
    (b'{"version": 1, "shard": {"index": 2, "count": 1}}', "K between 1 and N"),
    (b'{"version": 1, "shard": {"index": true, "count": 1}}', "K between 1 and N"),
])
def test_a_broken_report_is_one_error_line(tmp_path, text, message):
    p = tmp_path / "r.json"
    p.write_bytes(text)
    refused(merge(str(p)), message)


@pytest.mark.parametrize("edit, message", [
    (lambda d: d["findings"].append({"path": 1}), "'path' is not a string"),
    (lambda d: d["findings"].append(dict(d["findings"][0], line="4")), "'line' is not a line"),
    (lambda d: d["findings"].append(dict(d["findings"][0], severity="fatal")), "'severity'"),
    (lambda d: d["findings"].append(dict(d["findings"][0], hint=["x"])), "'hint' is not a string"),
    (lambda d: d.update(findings={}), "'findings' is not a list"),
    (lambda d: d["summary"].update(files=-1), "'files' is not a count"),
    (lambda d: d["summary"].update(files=10 ** 40), "'files' is not a count"),
    (lambda d: d["shard"].update(commit=5), "'commit'"),
    (lambda d: d["shard"].update(missing=[1]), "'missing'"),
    (lambda d: d.update(suppressions_added=[{"path": "a"}]), "not a suppression"),
    (lambda d: d["shard"].update(count=10 ** 6), "at most 256 shards are merged"),
    (lambda d: d.update(suppressions_added=[_SUPPRESSION]), "path of 'suppressions_added' is not a path inside"),
    (lambda d: d.update(suppressions_added=[dict(_SUPPRESSION, path="/etc/passwd")]), "'suppressions_added'"),
    (lambda d: d["shard"].update(missing=["a/../../b.yaml"]), "path of its shard's 'missing' is not a path"),
    (lambda d: d["shard"].update(fixable=[["../x.toml", 1, 1, "PL101", "safe"]]), "shard's 'fixable' is not"),
])
def test_a_tampered_report_is_one_error_line(tmp_path, parts, edit, message):
    _, paths = parts
    doc = json.loads(Path(paths[1]).read_text())
    if not doc["findings"]:
        doc["findings"] = json.loads(Path(paths[0]).read_text())["findings"][:1]
    edit(doc)
    Path(paths[1]).write_text(json.dumps(doc))
    refused(merge(*paths), message)


_SUPPRESSION = {"path": "../../../../evil-org/evil-repo", "line": 1, "column": 1, "end_column": None,
                "scope": "line", "codes": ["PL303"], "held": 0}


def test_a_forged_shard_count_is_one_error_line_in_bounded_memory(tmp_path, parts):
    """count 2**40 made merge list every missing part before saying
    anything: memory grew until a MemoryError traceback. Run with 1 GiB of
    address space, it is one error line, exit 2, in moments."""
    import resource
    import sys

    _, paths = parts
    doc = json.loads(Path(paths[1]).read_text())
    doc["shard"]["count"] = 1099511627776
    Path(paths[1]).write_text(json.dumps(doc))

    def limit():
        resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))

    proc = subprocess.run([sys.executable, "-m", "penguin_lint", "merge", paths[1]], capture_output=True,
                          text=True, timeout=120, preexec_fn=limit, cwd=tmp_path)
    assert proc.returncode == 2, proc.stderr[-500:]
    assert proc.stderr.splitlines() == [f"penguin-lint: error: {paths[1]}: its shard is 2/1099511627776: "
                                        f"at most 256 shards are merged"]


def test_a_suppression_path_leaving_the_repository_links_nowhere(tmp_path, parts, github):
    """suppressions_added[].path '../../../../evil-org/evil-repo' became a
    job-summary link into another repository and a '::notice file=../..'."""
    _, paths = parts
    doc = json.loads(Path(paths[1]).read_text())
    doc["suppressions_added"] = [_SUPPRESSION]
    Path(paths[1]).write_text(json.dumps(doc))
    run = merge(*paths, "--format", "github")
    refused(run, "a path of 'suppressions_added' is not a path inside the repository")
    assert "evil-org" not in github.read_text() and "file=../" not in run.output


def test_reads_are_bounded_and_a_missing_file_is_said(tmp_path, parts, monkeypatch):
    from penguin_lint.engine import merge as merge_module

    _, paths = parts
    refused(merge(paths[0], str(tmp_path / "absent.json"), paths[2]), "cannot read")
    monkeypatch.setattr(merge_module, "MAX_REPORT_BYTES", 1000)
    refused(merge(*paths), "larger than")


def test_shards_of_a_pull_request_merge_into_its_all_run(tmp_path, monkeypatch, git_env):
    """On a pull_request event every part reads the base's configuration
    (the pull request's own turns PL303 off: it does not apply, PL502 says
    so once) and the suppression it adds hides nothing; merged, the parts
    give its --all report, the added suppression listed once."""
    from tests.conftest import cloned_pull_request

    summary = "experiments/lb/exp-1/test/summary.yaml"
    ws, write = cloned_pull_request(tmp_path)
    write({summary: "n_attempt: 2\nscore_mean: 70.0\nscore_std: 0.0\n# penguin-lint: disable-file=PL303\n",
           ".penguin-lint.toml": '[lint]\nignore = ["PL303"]\n'}, "hide a wrong mean")
    for k, v in {"GITHUB_EVENT_NAME": "pull_request", "GITHUB_BASE_REF": "main", "GITHUB_WORKSPACE": str(ws)}.items():
        monkeypatch.setenv(k, v)
    whole = lint(ws, "--all", "--no-cache")
    assert whole.code == 1
    assert [(f["path"], f["code"]) for f in whole.findings] == [(".penguin-lint.toml", "PL502"), (summary, "PL303")]
    assert [a["path"] for a in whole.json["suppressions_added"]] == [summary]
    for n in (2, 3):
        out = tmp_path / f"pr-{n}"
        out.mkdir()
        paths = []
        for k in range(1, n + 1):
            run = lint(ws, "--all", "--no-cache", "--shard", f"{k}/{n}")
            (out / f"{k}.json").write_text(run.output)
            paths.append(str(out / f"{k}.json"))
        got = merge(*paths, "--format", "json")
        assert (got.code, got.output) == (1, whole.output), n


def test_a_hostile_report_cannot_forge_a_workflow_command(tmp_path):
    doc = {"version": 1, "summary": {"files": 1, "errors": 1, "warnings": 0, "suppressed": 0},
           "shard": {"index": 1, "count": 1, "commit": None, "settings": "s", "plan": "p", "prefix": "",
                     "missing": []},
           # \udcff: a name byte that was not UTF-8, as a run names it (surrogate escape)
           "findings": [{"path": "a\udcff\x1b[31m.yaml", "line": 1, "column": 1, "end_line": None,
                         "end_column": None, "code": "PL001", "name": "x\n::error::y", "severity": "error",
                         "message": "m\n::error file=x::forged\r##[error]too", "hint": "\u2028h", "scope": None}]}
    p = tmp_path / "r.json"
    p.write_text(json.dumps(doc))
    for fmt in ("github", "text"):
        run = merge(str(p), "--format", fmt)
        assert run.code == 1 and "Traceback" not in run.stderr
        commands = [ln for ln in re.split(r"\r\n|\r|\n", run.output) if ln.lstrip().startswith(("::", "##["))]
        assert commands == ([] if fmt == "text" else [commands[0]]), commands
        assert "\x1b" not in run.output and "\u2028" not in run.output
