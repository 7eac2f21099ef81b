"""Hostile and broken input: nothing crashes, hangs, leaks or executes.

Each test lints a repository holding one kind of hostile input and checks the
finding (code, path, line), the exit status, that the run was quick, and that
penguin-lint opened, listed and stat'ed nothing outside the repository while
it ran.
"""
from __future__ import annotations

import json
import os
import re
import shutil
import time
from pathlib import Path
from typing import Optional
from xml.etree import ElementTree

import pytest
import yaml

from penguin_lint.formats import FORMATS
from penguin_lint.loaders.toml_parser import tomllib
from penguin_lint.rules import all_rules
from tests.conftest import VALID, lint
from tests.fswatch import FsWatch

HARBOR_DEFINITION = Path(__file__).resolve().parents[2] / "examples" / "harbor" / "clean" / "leaderboard" / "leaderboard.yaml"

BENCH = "packages/bench-a/benchmark_config.toml"
TASK = "packages/bench-a/CASE-001-one/task_config.toml"
LB = "leaderboards/lb/leaderboard.yaml"
META = "experiments/lb/exp-1/meta_info.yaml"
SUMMARY = "experiments/lb/exp-1/test/summary.yaml"
ATTEMPT = "experiments/lb/exp-1/test/attempt-1.yaml"

GOOD_META = ("experiment_id: exp-1\nbenchmark_id: bench-a\nharness_name: h\n"
             "model_name: m\nalgorithm: baseline\n")

# Every input must be done with in "a second or two". CPU time of this
# process is the measure (a busy shared machine slows the wall clock, not
# the work done); the wall clock only gets a loose backstop.
CPU_LIMIT = 2.0
WALL_LIMIT = 10.0

# The reporters that exist: every one of them is checked for leaks and escapes.
OUTPUT_FORMATS = list(FORMATS)

CODES = {r.code for r in all_rules()}


# -- helpers -------------------------------------------------------------------

class Run:
    def __init__(self, inner, cpu: float, wall: float, watch: FsWatch):
        self.code = inner.code
        self.output = inner.output
        self.stderr = inner.stderr
        self.cpu, self.wall = cpu, wall
        self.watch = watch
        self._inner = inner

    @property
    def findings(self):
        return self._inner.findings

    def codes(self):
        return self._inner.codes()

    def at(self, code):
        return self._inner.at(code)


def hostile(root: Path, *args: str, fmt: str = "json", exit_code: Optional[int] = 1) -> Run:
    """Lint ``root`` and check what every hostile input must satisfy."""
    args = args or ("--all",)
    with FsWatch(root) as watch:
        c0, w0 = time.process_time(), time.perf_counter()
        inner = lint(root, *args, fmt=fmt)
        cpu, wall = time.process_time() - c0, time.perf_counter() - w0
    run = Run(inner, cpu, wall, watch)
    assert "Traceback" not in run.stderr and "Traceback" not in run.output
    if exit_code is not None:
        assert run.code == exit_code, (run.code, run.stderr, run.output[:2000])
    assert run.cpu < CPU_LIMIT, f"took {run.cpu:.2f} s of CPU"
    assert run.wall < WALL_LIMIT, f"took {run.wall:.2f} s"
    assert watch.outside() == [], f"touched paths outside the repository: {watch.outside()[:5]}"
    if fmt == "json" and run.code in (0, 1):
        for f in run.findings:
            assert f["code"] in CODES
            assert f["path"] and not f["path"].startswith("/")
            assert ".." not in f["path"].split("/")
    return run


def every_format(root: Path, *args: str) -> dict:
    """The output of every reporter that exists, each run checked as above."""
    return {fmt: hostile(root, *args, fmt=fmt) for fmt in OUTPUT_FORMATS}


@pytest.fixture
def no_unsafe_yaml(monkeypatch):
    """Anything that would compose a node graph (expanding aliases) or construct
    arbitrary objects fails the run loudly (a rule error is exit 2)."""
    def refuse(*a, **k):
        raise AssertionError("a YAML document was composed or constructed")

    for name in ("load", "unsafe_load", "full_load", "safe_load", "load_all", "unsafe_load_all",
                 "full_load_all", "safe_load_all", "compose", "compose_all"):
        monkeypatch.setattr(yaml, name, refuse)
    for cls in {yaml.SafeLoader, yaml.FullLoader, yaml.UnsafeLoader, yaml.Loader,
                getattr(yaml, "CSafeLoader", yaml.SafeLoader), getattr(yaml, "CUnsafeLoader", yaml.UnsafeLoader),
                getattr(yaml, "CFullLoader", yaml.FullLoader), getattr(yaml, "CLoader", yaml.Loader)}:
        for meth in ("get_single_node", "get_single_data", "construct_document"):
            if hasattr(cls, meth):
                monkeypatch.setattr(cls, meth, refuse)


# -- YAML alias bombs and anchors ------------------------------------------------

def billion_laughs() -> str:
    lines = ['lol0: &a0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for i in range(1, 10):
        lines.append(f"lol{i}: &a{i} [" + ",".join([f"*a{i - 1}"] * 9) + "]")
    return "\n".join(lines) + "\n"


def test_billion_laughs_is_pl003_and_never_expanded(repo, no_unsafe_yaml):
    text = billion_laughs()
    assert len(text) < 1000  # 9**10 lols once expanded
    run = hostile(repo({META: GOOD_META + text}))
    found = run.at("PL003")
    assert found[0] == (META, 6)  # the first anchor
    assert {line for _, line in found} == set(range(6, 16))
    assert all(p == META for p, _ in found)


def test_alias_flood_is_capped(repo, no_unsafe_yaml):
    # ~200 KB of aliases: every one is a PL003, but the report stays readable
    text = GOOD_META + "x: &x 1\ny: [" + ",".join(["*x"] * 60000) + "]\n"
    run = hostile(repo({META: text}))
    found = [f for f in run.findings if f["code"] == "PL003"]
    assert found[0]["line"] == 6 and found[1]["line"] == 7
    assert len(found) == 101
    assert any("more like the above" in f["message"] and "59901" in f["message"] for f in found)


def test_anchor_alias_and_merge_key_in_an_otherwise_valid_file(repo, no_unsafe_yaml):
    text = ("leaderboard_id: lb\nstatus: draft\ntitle: LB\nauthor: &who\n  name: Lab\n"
            "values:\n  - experiment_id: exp-1\n    phase: test\n    <<: *who\n")
    run = hostile(repo({LB: text}))
    assert sorted(run.at("PL003")) == [(LB, 4), (LB, 9), (LB, 9)]  # anchor; merge key and alias
    assert "PL101" not in run.codes()  # the rest of the file was still read


# -- YAML tags that would run code -----------------------------------------------

@pytest.mark.parametrize("value", [
    '!!python/object/apply:os.system ["touch {marker}"]',
    '!!python/object/apply:subprocess.check_output [["touch", "{marker}"]]',
    '!!python/object/new:os.system ["touch {marker}"]',
    "!!python/name:os.system",
    "!!python/module:os",
    '!<tag:yaml.org,2002:python/object/apply:os.system> ["touch {marker}"]',
    '!!python/object:builtins.dict {{a: 1}}',
])
def test_python_tags_are_refused_and_nothing_runs(repo, tmp_path, no_unsafe_yaml, value):
    marker = tmp_path / "PWNED"
    text = GOOD_META.replace("model_name: m", "model_name: " + value.format(marker=marker))
    run = hostile(repo({META: text}))
    assert (META, 4) in run.at("PL001")
    assert not marker.exists()


def test_python_tag_on_the_whole_document(repo, tmp_path, no_unsafe_yaml):
    marker = tmp_path / "PWNED"
    run = hostile(repo({SUMMARY: f'--- !!python/object/apply:os.system ["touch {marker}"]\n'}))
    assert (SUMMARY, 1) in run.at("PL001")
    assert not marker.exists()


# -- directives ----------------------------------------------------------------------

@pytest.mark.parametrize("directive", ["%YAML 1.1", "%TAG !e! tag:example.com,2000:app/", "%YAML 1.2"])
def test_yaml_and_tag_directives_are_pl003(repo, directive):
    run = hostile(repo({META: f"{directive}\n---\n{GOOD_META}"}))
    assert run.at("PL003") == [(META, 1)]
    assert [c for c in run.codes() if c.startswith("PL1")] == []  # the document itself was read


# -- nesting 50,000 levels deep --------------------------------------------------

DEPTH = 50_000


def deep(cases):
    return [pytest.param(*case, id=case[0]) for case in cases]


@pytest.mark.parametrize("name,text,line", deep([
    ("flow sequence", "x: " + "[" * DEPTH + "]" * DEPTH + "\n", 1),
    ("flow mapping", "x: " + "{a: " * DEPTH + "1" + "}" * DEPTH + "\n", 1),
    ("block sequence", "x:\n" + "- " * DEPTH + "1\n", 2),
    ("block mapping", "".join("  " * i + "a:\n" for i in range(200)), 65),
    ("unclosed", "x: " + "[" * DEPTH + "\n", 1),
]))
def test_yaml_nested_50000_deep(repo, name, text, line):
    run = hostile(repo({META: text}))
    assert run.at("PL001") == [(META, line)]


@pytest.mark.parametrize("name,text", deep([
    ("arrays", "x = " + "[" * DEPTH + "]" * DEPTH + "\n"),
    ("inline tables", "x = " + "{a = " * DEPTH + "1" + "}" * DEPTH + "\n"),
    ("dotted key", "id = 1\n" + ".".join(["a"] * DEPTH) + " = 1\n"),
    ("table header", "id = 1\n[" + ".".join(["a"] * DEPTH) + "]\n"),
    ("quoted dotted key", "id = 1\n" + ".".join(['"a"'] * DEPTH) + " = 1\n"),
    ("array of tables", "id = 1\n[[" + ".".join(["a"] * DEPTH) + "]]\n"),
]))
def test_toml_nested_50000_deep(repo, name, text):
    run = hostile(repo({BENCH: text}))
    [(path, line)] = run.at("PL001")
    assert path == BENCH and line == (1 if name in ("arrays", "inline tables") else 2)


def test_json_nested_50000_deep(repo):
    # Harbor files may be JSON
    run = hostile(repo({"leaderboard/rows.json": '{"rows": ' + "[" * DEPTH + "]" * DEPTH + "}\n"}))
    assert run.at("PL001") == [("leaderboard/rows.json", 1)]


# -- empty files and the wrong top level --------------------------------------------

@pytest.mark.parametrize("path,text,code,line", [
    (META, "", "PL102", 1),
    (META, "# nothing but a comment\n\n", "PL102", 1),
    (META, "---\n", "PL102", 1),
    (META, "- experiment_id: exp-1\n- benchmark_id: bench-a\n", "PL102", 1),
    (META, "just a string\n", "PL102", 1),
    (META, "42\n", "PL102", 1),
    (SUMMARY, "~\n", "PL102", 1),
    (LB, "[]\n", "PL102", 1),
    (BENCH, "", "PL101", 1),
    (BENCH, "# only a comment\n", "PL101", 1),
    (TASK, "\n\n\n", "PL101", 1),
])
def test_empty_file_or_wrong_top_level(repo, path, text, code, line):
    run = hostile(repo({path: text}))
    # an empty YAML document is null where the stream ends
    assert (path, line) in run.at(code)


def test_empty_json_file(repo):
    run = hostile(repo({"leaderboard/rows.json": ""}))
    assert run.at("PL001") == [("leaderboard/rows.json", 1)]


# -- files over the size limit ---------------------------------------------------------

def test_file_over_the_limit_is_never_read(repo, monkeypatch):
    root = repo()
    big = root / SUMMARY
    with open(big, "wb") as fh:  # a sparse 64 MiB file
        fh.truncate(64 * 1024 * 1024)
    pkg_big = root / "packages/bench-a/CASE-001-one/statement/dump.csv"
    with open(pkg_big, "wb") as fh:
        fh.truncate(64 * 1024 * 1024)

    opened, read = {}, []
    real_open, real_read = os.open, os.read

    def tracking_open(path, flags, *a, **k):
        fd = real_open(path, flags, *a, **k)
        opened[fd] = os.fspath(path)
        return fd

    def tracking_read(fd, n):
        data = real_read(fd, n)
        read.append((opened.get(fd), len(data)))
        return data

    monkeypatch.setattr(os, "open", tracking_open)
    monkeypatch.setattr(os, "read", tracking_read)
    run = hostile(root)
    assert sorted(run.at("PL004")) == [(SUMMARY, 1), ("packages/bench-a/CASE-001-one/statement/dump.csv", 1)]
    assert [n for p, n in read if p in (str(big), str(pkg_big))] == []
    assert "64.0 MiB" in next(f["message"] for f in run.findings if f["code"] == "PL004")


def test_configured_size_limit(repo):
    root = repo({".penguin-lint.toml": 'max-file-size = "1KiB"\n',
                 META: GOOD_META + "# " + "x" * 2000 + "\n"})
    run = hostile(root)
    assert run.at("PL004") == [(META, 1)]


# -- encodings, BOM, NUL, CRLF -----------------------------------------------------------

def test_invalid_utf8(repo):
    run = hostile(repo({META: GOOD_META.replace("model_name: m", "model_name: caf\xe9").encode("latin-1")}))
    assert run.at("PL005") == [(META, 4)]


def test_utf16_file(repo):
    run = hostile(repo({TASK: 'id = "CASE-001-one"\n'.encode("utf-16")}))
    assert run.at("PL005") == [(TASK, 1)]


def test_nul_byte(repo):
    run = hostile(repo({BENCH: VALID[BENCH].replace('version = "1.0.0"', 'version = "1.0\x00.0"').encode()}))
    # the dedented file has `version` on line 4
    assert run.at("PL005") == [(BENCH, 4)]


def test_bom_is_accepted_and_positions_hold(repo):
    text = "\ufeff" + GOOD_META.replace("algorithm: baseline", "algorithm: 7")
    run = hostile(repo({META: text.encode("utf-8")}))
    assert "PL005" not in run.codes()
    assert run.at("PL102") == [(META, 5)]


def test_two_byte_order_marks_in_toml_are_pl005_and_pl001_as_tomllib_refuses_them(repo):
    # tomllib reads no mark at all: the first is PL005, the second no statement
    text = "\ufeff\ufeff" + re.sub(r"(?m)^ +", "", VALID[TASK])
    with pytest.raises(tomllib.TOMLDecodeError, match="line 1, column 1"):
        tomllib.loads(text[1:])
    run = hostile(repo({TASK: text.encode()}))
    assert sorted((f["code"], f["path"], f["line"], f["column"]) for f in run.findings) == [
        ("PL001", TASK, 1, 1), ("PL005", TASK, 1, 1)]


def test_crlf_yaml_positions(repo):
    text = GOOD_META.replace("model_name: m", "model_name: [m").replace("\n", "\r\n")
    run = hostile(repo({META: text.encode()}))
    assert run.at("PL001")[0][0] == META
    text = GOOD_META.replace("algorithm: baseline", "algorithm: 7").replace("\n", "\r\n")
    run = hostile(repo({META: text.encode()}))
    [f] = [f for f in run.findings if f["code"] == "PL102"]
    assert (f["line"], f["column"]) == (5, 12)


def test_crlf_toml_positions(repo):
    text = VALID[TASK].replace('"CASE-001-one"', '"CASE-001-two"')
    text = re.sub(r"(?m)^ +", "", text).replace("\n", "\r\n")
    run = hostile(repo({TASK: text.encode()}))
    [f] = [f for f in run.findings if f["code"] == "PL201"]
    assert (f["path"], f["line"], f["column"]) == (TASK, 1, 6)


def test_lone_cr_line_endings(repo):
    # git, GitHub's annotations and editors end lines at LF only: a file of
    # lone CRs is one line, and the finding is on it, at the right column
    text = GOOD_META.replace("algorithm: baseline", "algorithm: 7").replace("\n", "\r")
    run = hostile(repo({META: text.encode()}))
    [f] = [f for f in run.findings if f["code"] == "PL102"]
    assert (f["path"], f["line"], f["column"]) == (META, 1, text.index(": 7") + 3)


# -- symbolic links -------------------------------------------------------------------------

@pytest.fixture
def linked_repo(repo, tmp_path):
    """A repository with links at every level: to /etc/passwd, to a secret
    outside the repository, to folders, to itself."""
    root = repo()
    secret = tmp_path / "secret"
    secret.mkdir()
    (secret / "meta_info.yaml").write_text("SECRET-MARKER: 1\n")
    (secret / "benchmark_config.toml").write_text('id = "SECRET-MARKER"\n')
    (secret / "README.md").write_text("SECRET-MARKER\n")
    links = {
        "packages/bench-a/CASE-001-one/statement/README.md": "/etc/passwd",
        "packages/bench-a/CASE-001-one/rubric/notes.yaml": str(secret / "meta_info.yaml"),
        "packages/bench-b": str(secret),
        "experiments/lb/exp-1/meta_info.yaml": "/etc/passwd",
        "experiments/lb/exp-1/test/attempt-2.yaml": str(secret / "meta_info.yaml"),
        "experiments/lb/exp-2": str(secret),
        "leaderboards/lb/loop": "..",
        "data": "/etc",
    }
    for rel, target in links.items():
        p = root / rel
        if p.is_file() and not p.is_symlink():
            p.unlink()
        os.symlink(target, p)
    return root, sorted(links)


def test_symlinks_are_pl006_and_never_followed(linked_repo):
    root, links = linked_repo
    run = hostile(root)
    assert sorted(run.at("PL006")) == [(p, None) for p in links]
    # nothing below a linked folder was looked at
    assert not any(f["path"].startswith(("experiments/lb/exp-2/", "packages/bench-b/", "data/"))
                   for f in run.findings)


def test_symlink_targets_never_printed(linked_repo):
    root, _ = linked_repo
    secret_line = "root:"
    for fmt, run in every_format(root).items():
        for text in (run.output, run.stderr):
            assert secret_line not in text, fmt
            assert "SECRET-MARKER" not in text, fmt


def test_symlink_given_on_the_command_line(linked_repo):
    root, _ = linked_repo
    run = hostile(root, *(str(root / p) for p in ("experiments/lb/exp-1/meta_info.yaml", "packages/bench-b", "data")))
    assert "root:" not in run.output and "SECRET-MARKER" not in run.output
    assert ("experiments/lb/exp-1/meta_info.yaml", None) in run.at("PL006")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are POSIX")
def test_named_pipes_are_never_opened(repo):
    """Opening a FIFO for reading blocks until a writer comes: it must not happen."""
    root = repo()
    (root / META).unlink()
    os.mkfifo(root / META)
    os.mkfifo(root / "packages/bench-a/CASE-001-one/statement/pipe.yaml")
    run = hostile(root)
    assert (META, None) in run.at("PL301")  # not a file: the experiment has no meta_info.yaml


def test_symlinks_and_odd_names_in_a_pull_request(repo, tmp_path, monkeypatch):
    """Pull-request mode (what CI runs): a committed link to /etc/passwd and a
    folder named like a workflow command are reported, never followed."""
    import subprocess

    for k, v in {"GIT_AUTHOR_NAME": "T", "GIT_AUTHOR_EMAIL": "t@example.com", "GIT_COMMITTER_NAME": "T",
                 "GIT_COMMITTER_EMAIL": "t@example.com", "GIT_CONFIG_NOSYSTEM": "1",
                 "GIT_CONFIG_GLOBAL": str(tmp_path / "gitconfig")}.items():
        monkeypatch.setenv(k, v)
    root = repo()

    def git(*args):
        subprocess.run(["git", *args], cwd=root, check=True, capture_output=True)

    git("init", "-q", "-b", "main")
    git("add", "-A")
    git("commit", "-qm", "base")
    (root / META).unlink()
    os.symlink("/etc/passwd", root / META)
    odd = root / "experiments/lb" / ODD
    odd.mkdir()
    (odd / "meta_info.yaml").write_text(GOOD_META)
    git("add", "-A")
    git("commit", "-qm", "change")
    for fmt, run in {fmt: hostile(root, "--diff-base", "HEAD~1", fmt=fmt) for fmt in OUTPUT_FORMATS}.items():
        assert "root:" not in run.output and "\x1b" not in run.output, fmt
        if fmt == "json":
            assert (META, None) in run.at("PL006")
            assert (f"experiments/lb/{ODD}/meta_info.yaml", 1) in run.at("PL201")


def test_symlinked_top_folders(repo, tmp_path):
    root = repo()
    for top in ("packages", "experiments"):
        target = tmp_path / f"elsewhere-{top}"
        (root / top).rename(target)
        os.symlink(target, root / top)
    run = hostile(root)
    assert sorted(run.at("PL006")) == [("experiments", None), ("packages", None)]


def test_repository_never_joins_a_path_that_leaves_the_root(repo):
    """A rule that passes an id from a file straight to the repository still
    cannot read outside it (a repository folder named etc makes "/etc" look
    like a path inside)."""
    from penguin_lint.core.config import Config
    from penguin_lint.core.repo import Repository

    root = repo({"etc/passwd": "inside\n"})
    r = Repository(root, Config())
    with FsWatch(root) as watch:
        for rel in ("/etc/passwd", "/etc", "etc/../../etc/passwd", "./etc/passwd", "etc//passwd",
                    "../repo/etc/passwd", "etc/passwd/", "etc\0/passwd"):
            assert r.load(rel) is None
            assert r.entry(rel) is None and r.entries(rel) is None
            assert not r.is_file(rel) and not r.is_dir(rel)
        assert r.load("etc/passwd") is not None
    assert watch.outside() == []


# -- ids that try to leave the repository -------------------------------------------------

ESCAPES = ["../../etc", "/etc", "a/b", "..\\..\\etc", "a\\b", "a\0b", "..", ".", "../../../../../../etc/passwd"]


def _yaml_str(value: str) -> str:
    return json.dumps(value)  # a JSON string is a YAML double-quoted scalar


@pytest.fixture
def tempting_repo(repo, tmp_path):
    """Targets that a followed id would reach, inside and outside the root."""
    def make(files):
        root = repo({**files,
                     "etc/passwd": "inside\n",
                     "etc/meta_info.yaml": GOOD_META,
                     "etc/test/summary.yaml": "n_attempt: 1\nscore_mean: 1.0\n"})
        return root
    return make


@pytest.mark.parametrize("value", ESCAPES)
def test_experiment_id_that_leaves(tempting_repo, value):
    v = _yaml_str(value)
    root = tempting_repo({
        META: GOOD_META.replace("experiment_id: exp-1", f"experiment_id: {v}"),
        LB: VALID[LB].replace("experiment_id: exp-1", f"experiment_id: {v}"),
    })
    run = hostile(root)
    assert (META, 1) in run.at("PL202")
    assert (LB, 7) in run.at("PL202")


@pytest.mark.parametrize("value", ESCAPES)
def test_benchmark_id_that_leaves(tempting_repo, value):
    root = tempting_repo({META: GOOD_META.replace("benchmark_id: bench-a", f"benchmark_id: {_yaml_str(value)}")})
    run = hostile(root)
    assert (META, 2) in run.at("PL202")


@pytest.mark.parametrize("value", ESCAPES)
def test_source_that_leaves(tempting_repo, value):
    text = f"score: 50.0\nresults:\n  - source: {_yaml_str(value)}\n    score: 50.0\n"
    run = hostile(tempting_repo({ATTEMPT: text}))
    assert (ATTEMPT, 3) in run.at("PL202")


@pytest.mark.parametrize("value", ESCAPES + ["TEST", "te st"])
def test_phase_that_leaves(tempting_repo, value):
    root = tempting_repo({LB: VALID[LB].replace("phase: test", f"phase: {_yaml_str(value)}")})
    run = hostile(root)
    assert (LB, 8) in run.at("PL202")


def test_folder_names_with_odd_characters(repo):
    """Folders named like escapes are only listed, never joined into other paths."""
    odd = "exp-\\..\\x"
    root = repo({f"experiments/lb/{odd}/meta_info.yaml": GOOD_META.replace("exp-1", odd)})
    run = hostile(root)
    assert all(f["path"].startswith(("experiments/", "leaderboards/", "packages/")) for f in run.findings)


# -- numbers that break arithmetic ------------------------------------------------------------

def attempt(score, *extra):
    return f"score: {score}\n" + "".join(f"{x}\n" for x in extra) + \
        "results:\n  - source: CASE-001-one\n    score: 50.0\n"


@pytest.mark.parametrize("value,word", [(".nan", "nan"), (".NaN", "nan"), (".inf", "inf"), ("-.inf", "-inf"),
                                        ("1.0e+999", "inf")])
def test_yaml_nan_and_infinity(repo, value, word):
    root = repo({SUMMARY: f"n_attempt: 2\nscore_mean: {value}\nscore_std: 0.0\n",
                 ATTEMPT: attempt(value)})
    run = hostile(root)
    assert (SUMMARY, 2) in run.at("PL103") and (ATTEMPT, 1) in run.at("PL103")
    assert any(f"is {word}, not a finite number" in f["message"] for f in run.findings)


@pytest.mark.parametrize("first,last", [(".inf", "52.5"), ("1.0e+999", "70"), ("9" * 400, "60.0")])
def test_a_non_finite_value_a_later_key_replaces_is_not_reported(repo, first, last):
    """The consumer reads the last of two keys: a number past any float
    that the first one held is not a finding, and what replaced it is not
    said to be one."""
    root = repo({ATTEMPT: f"score: {first}\n" + attempt(last)})
    run = hostile(root)
    assert run.at("PL002") == [(ATTEMPT, 2)]
    assert [f for f in run.findings if f["path"] == ATTEMPT and f["code"] == "PL103"] == []


def test_a_non_finite_row_value_under_a_replaced_rows_key_is_not_reported(tmp_path):
    """In a Harbor rows file, ``{"rows": [...inf...], "rows": 5}`` is 5 to
    json.loads: 'rows' must be a list, and nothing about the first one."""
    board = tmp_path / "board"
    (board / "leaderboard").mkdir(parents=True)
    shutil.copy(HARBOR_DEFINITION, board / "leaderboard" / "leaderboard.yaml")
    (board / "leaderboard" / "rows.json").write_text('{"rows": [{"a": 1e999999}], "rows": 5}')
    run = hostile(board)
    got = [(f["code"], f["line"], f["column"]) for f in run.findings if f["path"] == "leaderboard/rows.json"]
    assert got == [("PL002", 1, 29), ("PL102", 1, 37)]


@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "+nan"])
def test_toml_nan_and_infinity(repo, value):
    text = re.sub(r"(?m)^ +", "", VALID[TASK]) + f"\n[budget]\ntimeout = {value}\n"
    run = hostile(repo({TASK: text}))
    assert (TASK, 6) in run.at("PL103")


@pytest.mark.parametrize("digits", [400, 4000])
def test_huge_integer_that_no_float_holds(repo, digits):
    big = "9" * digits
    root = repo({SUMMARY: f"n_attempt: 2\nscore_mean: 50.0\nscore_std: 0.0\ntoken: {big}\n",
                 ATTEMPT: attempt(big, f"token: {big}")})
    run = hostile(root)
    assert (SUMMARY, 4) in run.at("PL103") and (ATTEMPT, 1) in run.at("PL103")
    assert any(f"integer of {digits} digits, too large to compute with" in f["message"] for f in run.findings)


@pytest.mark.parametrize("literal", [
    "9" * 5000,                       # past Python's 4300-digit limit
    "-" + "9" * 100_000,
    "0x" + "f" * 5000,                # hexadecimal has no digit limit in Python
    "1" + ":59" * 300_000,            # YAML 1.1 sexagesimal: quadratic to read
    "0b" + "1" * 20_000,
])
def test_integer_too_large_to_read_yaml(repo, literal):
    run = hostile(repo({SUMMARY: f"n_attempt: 2\nscore_mean: {literal}\nscore_std: 0.0\n"}))
    assert (SUMMARY, 2) in run.at("PL001")


@pytest.mark.parametrize("literal", ["9" * 5000, "0x" + "f" * 5000, "0o" + "7" * 30, "9223372036854775808",
                                     "-9223372036854775809"])
def test_integer_out_of_range_toml(repo, literal):
    text = re.sub(r"(?m)^ +", "", VALID[TASK]) + f"\n[budget]\ngpus = {literal}\n"
    run = hostile(repo({TASK: text}))
    assert run.at("PL001") == [(TASK, 6)]


def test_integer_at_the_toml_limit_is_fine(repo):
    text = re.sub(r"(?m)^ +", "", VALID[TASK]) + "\n[budget]\ngpus = 9223372036854775807\n"
    run = hostile(repo({TASK: text}), exit_code=0)
    assert run.findings == []


def test_huge_integer_json(repo):
    rows = '{"rows": [{"metadata": {}, "metrics": {"x": %s}, "status": "display", "trial_ids": []}]}\n'
    run = hostile(repo({"leaderboard/rows.json": rows % ("9" * 5000)}))
    assert run.at("PL001") == [("leaderboard/rows.json", 1)]


@pytest.mark.parametrize("value", ["yes", "no", "on", "true", "True"])
def test_booleans_where_numbers_belong(repo, value):
    root = repo({SUMMARY: f"n_attempt: {value}\nscore_mean: {value}\nscore_std: 0.0\n",
                 ATTEMPT: attempt(value)})
    run = hostile(root)
    assert sorted(run.at("PL102")) == [(ATTEMPT, 1), (SUMMARY, 1), (SUMMARY, 2)]


def weighted(weights: str, n_args: int = 1) -> str:
    args = "".join("      - experiment_id: exp-1\n        phase: test\n" for _ in range(n_args))
    return ("leaderboard_id: lb\nstatus: draft\ntitle: LB\nauthor:\n  name: Lab\nvalues:\n"
            f"  - op: weighted_mean\n    args:\n{args}    weights: {weights}\n")


@pytest.mark.parametrize("weights,code", [
    ("[0]", "PL405"), ("[0.0]", "PL405"), ("[-0.0]", "PL405"), ("[.nan]", "PL103"), ("[.inf]", "PL103"),
    ("[yes]", "PL102"), ("[" + "9" * 400 + "]", "PL103"), ("[-1]", "PL405"),
])
def test_weights_that_break_the_weighted_mean(repo, weights, code):
    run = hostile(repo({LB: weighted(weights)}))
    assert [p for p, _ in run.at(code)] == [LB]


def test_division_by_zero_and_by_nan(repo):
    def div(metric):
        return ("leaderboard_id: lb\nstatus: draft\ntitle: LB\nauthor:\n  name: Lab\nvalues:\n"
                "  - op: div\n    args:\n      - experiment_id: exp-1\n        phase: test\n"
                f"      - experiment_id: exp-1\n        phase: test\n        metric: {metric}\n")
    root = repo({LB: div("zero"), SUMMARY: "n_attempt: 2\nscore_mean: 50.0\nscore_std: 0.0\nzero: 0\n"})
    assert (LB, 11) in hostile(root).at("PL406")
    root = repo({LB: div("bad"), SUMMARY: "n_attempt: 2\nscore_mean: 50.0\nscore_std: 0.0\nbad: .nan\n"})
    assert (SUMMARY, 4) in hostile(root).at("PL103")


def test_n_attempt_astronomically_large(repo):
    run = hostile(repo({SUMMARY: "n_attempt: 99999999999999999999\nscore_mean: 50.0\nscore_std: 0.0\n"}))
    assert len(run.at("PL302")) <= 25


# -- values that make a pattern backtrack ---------------------------------------------------

@pytest.mark.parametrize("key,value", [
    ("email", "a@" + "." * 200_000 + " "),
    ("email", "a@" + "a." * 100_000 + "@"),
    ("homepage", "http://" + "a" * 200_000 + " "),
    ("homepage", "a:" + "a" * 200_000 + " "),
])
def test_long_values_checked_in_linear_time(repo, key, value):
    text = VALID[LB].replace("          name: Lab\n", f"          name: Lab\n          {key}: {_yaml_str(value)}\n")
    run = hostile(repo({LB: text}))
    assert (LB, 6) in run.at("PL103")


def test_long_version_string(repo):
    text = VALID[BENCH].replace('version = "1.0.0"', 'version = "1.0.0-' + "1." * 200_000 + '!"')
    run = hostile(repo({BENCH: text}))
    assert (BENCH, 4) in run.at("PL203")


# -- output safety --------------------------------------------------------------------------------

ODD = "exp-\x1b]0;owned\x07\x1b[2J\n::error file=x::forged\r\u202e\u2028%0A"


def test_names_and_values_are_escaped_in_every_format(repo):
    value = "v\x1b[31mRED\x1b[0m\n::warning::forged\u0085%0A::error::x"
    meta = GOOD_META.replace("experiment_id: exp-1", f"experiment_id: {_yaml_str(value)}")
    root = repo({f"experiments/lb/{ODD}/meta_info.yaml": meta})
    outputs = every_format(root)
    assert set(outputs) >= {"text", "json"}
    for fmt, run in outputs.items():
        out = run.output
        assert "\x1b" not in out and "\x07" not in out and "\u202e" not in out and "\u2028" not in out, fmt
        assert "\x85" not in out, fmt
        if fmt == "github":
            commands = [ln for ln in re.split(r"\r\n|\r|\n", out) if ln.startswith("::")]
            real = [ln for ln in commands if not ln.startswith("::notice title=penguin-lint::")]
            # one command per finding: nothing in a name or value starts another
            assert len(real) == len(outputs["json"].findings)
            assert all(re.match(r"::(error|warning) file=experiments/lb/exp-\\x1b\]0;owned", c) for c in real)
        elif fmt in ("text", "concise"):
            assert "\r" not in out
            for ln in out.splitlines():
                assert not ln.startswith("::")
        elif fmt == "azure":  # one logging command per finding, nothing in a value starts another
            assert "\r" not in out and not any(ln.startswith("::") for ln in out.splitlines())
            commands = [ln for ln in out.splitlines() if "##vso[" in ln]
            assert len(commands) == len(outputs["json"].findings)
            assert all(c.startswith("##vso[task.logissue ") and c.count("##vso[") == 1 for c in commands)
        elif fmt == "junit":  # XML 1.0 holds no control character: escapes only
            assert all(ch == "\n" or " " <= ch for ch in out), fmt
            ElementTree.fromstring(out.encode("utf-8"))
        else:  # json, sarif, gitlab and rdjson are JSON: control characters only as escapes
            assert all(ch == "\n" or " " <= ch <= "~" for ch in out), fmt
            json.loads(out)
    paths = {f["path"] for f in outputs["json"].findings}
    assert f"experiments/lb/{ODD}/meta_info.yaml" in paths  # exact in JSON, once decoded


def test_file_name_that_is_not_utf8(repo):
    root = repo()
    bad = os.fsencode(str(root / "experiments/lb")) + b"/exp-\xff\xfe"
    os.makedirs(bad)
    with open(bad + b"/meta_info.yaml", "wb") as fh:
        fh.write(GOOD_META.encode())
    for fmt, run in every_format(root).items():
        assert "exp-\\x" in run.output or "exp-%FF" in run.output or "exp-\\udcff" in run.output, fmt


def test_pathological_globs_in_config_do_not_hang(repo):
    root = repo({".penguin-lint.toml": '[per-file-ignores]\n"' + "*" * 30 + 'zz" = ["PL1"]\n'
                 '[kinds]\n"' + "*a" * 30 + 'b/x.yaml" = "summary"\n',
                 "packages/bench-a/benchmark_config.toml": 'id = "bench-a"\n'})
    start = time.process_time()
    run = lint(root, "--all")
    assert time.process_time() - start < 2
    assert run.code == 1 and "PL101" in run.codes()


def test_error_lines_are_escaped(repo, capfd):
    import subprocess
    import sys

    root = repo({".penguin-lint.toml": '"\\u001b]0;owned\\u0007\\n::error file=x::forged" = 1\n'})
    proc = subprocess.run([sys.executable, "-m", "penguin_lint", "--all", "--root", str(root)],
                          capture_output=True, text=True)
    assert proc.returncode == 2
    assert proc.stderr.count("\n") == 1 and "\x1b" not in proc.stderr and "\n::error" not in proc.stderr


@pytest.mark.parametrize("text", ["!!int", "!!float ''", "!!bool", "!!int 0x", "!!bool maybe"])
def test_explicit_tags_with_bad_text_are_parse_errors(repo, text):
    run = lint(repo({"experiments/lb/exp-1/meta_info.yaml": text + "\n"}), "--all")
    assert run.at("PL001") == [("experiments/lb/exp-1/meta_info.yaml", 1)]
