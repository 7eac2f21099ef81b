"""A longer fuzz campaign than the test suite runs.

    python -m tests.fuzz --minutes 10 [--seed S]
    python -m tests.fuzz --inputs 5000 [--seed S]
    python -m tests.fuzz --yaml-differential --minutes 20 [--seed S]

Each input is a repository: the test suite's valid repository (with the
Harbor example files) with one or more files mutated, or a random tree built
from the layout's folder and file names holding mutated files, garbage bytes
and symbolic links. The command line runs in-process on it (every output
format, --all or a list of paths) and the run is judged: exit status 0 or 1,
nothing on stderr, every finding with a registered code and a path inside the
repository, no file opened or folder listed outside it, no symlink target's
content in the output, no output line that GitHub's runner would read as a
workflow command (``##[`` anywhere, ``::`` after leading blanks) but the
github format's own annotations, a job summary (github format) and a
leaderboard preview (``preview --format markdown``, run on github-format
inputs) that cmark-gfm renders without a link, image, raw HTML or mention
of the repository's making, and at most 2 s of CPU time. Anything else (an
exception, exit 2, a slow or hanging input, a broken invariant) is recorded
in the crash folder with the repository that caused it.

The generators and the judge are shared with tests/gate/test_fuzz_properties.py.
``--yaml-differential`` runs tests/yaml_differential.py's comparison of the
YAML loader with ``yaml.safe_load`` instead (a text that differs is saved).
"""
from __future__ import annotations

import argparse
import contextlib
import gc
import hashlib
import io
import json
import os
import random
import re
import shutil
import signal
import sys
import tempfile
import textwrap
import time
import traceback
from collections import Counter
from pathlib import Path
from typing import Dict, List, Optional, Tuple, Union

PROJECT = Path(__file__).resolve().parents[1]
if str(PROJECT) not in sys.path:  # pragma: no cover - run as a script
    sys.path.insert(0, str(PROJECT))

from tests import fuzz_harbor  # noqa: E402
from tests.fswatch import FsWatch as _FsWatch  # noqa: E402
from penguin_lint.cli import main as cli_main  # noqa: E402
from penguin_lint.formats import FORMATS  # noqa: E402
from penguin_lint.rules import all_rules  # noqa: E402
from penguin_lint.rules.docs import rule_url  # noqa: E402

CODES = frozenset(r.code for r in all_rules())
OUTPUT_FORMATS = list(FORMATS)
CPU_LIMIT = 2.0       # seconds of CPU per input before it counts as slow
HARD_LIMIT = 30       # seconds of wall clock before an input counts as a hang
SECRET = "FUZZ-SECRET-MARKER"


class Link:
    """A symbolic link to write into a generated repository."""

    def __init__(self, target: str):
        self.target = target

    def __repr__(self):
        return f"Link({self.target!r})"


Content = Union[bytes, Link]
Tree = Dict[str, Content]


# -- seeds -----------------------------------------------------------------------

def _valid_repository() -> Tree:
    from tests.conftest import VALID

    tree = {k: textwrap.dedent(v).encode() for k, v in VALID.items()}
    harbor = PROJECT / "examples" / "harbor" / "clean" / "leaderboard"
    for name in ("leaderboard.yaml", "rows.yaml"):
        if (harbor / name).is_file():
            tree[f"leaderboard/{name}"] = (harbor / name).read_bytes()
    return tree


def _example_files() -> List[Tuple[str, bytes]]:
    out = []
    for p in sorted((PROJECT / "examples").rglob("*")):
        if p.is_file() and not p.is_symlink() and p.suffix in (".yaml", ".yml", ".toml", ".json"):
            out.append((p.relative_to(PROJECT / "examples").as_posix(), p.read_bytes()))
    return out


VALID_TREE: Tree = _valid_repository()
SEED_FILES: List[bytes] = [v for v in VALID_TREE.values() if isinstance(v, bytes)] + \
    [b for _, b in _example_files()]

# Folder and file names of the layout, with near misses and hostile ones.
DIR_NAMES = ["packages", "data", "leaderboards", "experiments", "leaderboard",
             "bench-a", "bench-b", "bench-a-train", "bench-a-test", "bench_c", "lb", "lb2",
             "exp-1", "exp-2", "test", "train", "val", "Test", "CASE-001-one", "CASE-002-two",
             "statement", "rubric", ".jobs", ".hidden", "..x", "a b", "exp-\x1b[31m", "ünï",
             "%0A::error::x", "con", "etc", "##[add-mask]x", "@user", "#1", "`x", "<b>"]
FILE_NAMES = ["benchmark_config.toml", "task_config.toml", "README.md", "leaderboard.yaml",
              "meta_info.yaml", "summary.yaml", "attempt-1.yaml", "attempt-2.yaml", "attempt-3.yaml",
              "attempt-01.yaml", "attempt-0.yaml", "attempt-x.yaml", "rows.yaml", "rows.json",
              "leaderboard.json", "scoreboard.yaml", ".gitkeep", ".env", "data.zip", "run.sh",
              "x.yml", "notes.txt", ".penguin-lint.toml"]
LINK_TARGETS = ["/etc/passwd", "/etc", "..", ".", "../..", "../../..", "/dev/zero", "/dev/stdin",
                "/nonexistent", "meta_info.yaml", "summary.yaml", "../meta_info.yaml"]

# Pieces of text that hostile or broken files are made of.
TOKENS = [
    "&a ", "*a", "<<: *a", "&x [1, 2]", "!!python/object/apply:os.system [\"true\"]",
    "!!python/name:os.system", "!!binary aGVsbG8=", "!!int", "!!float", "!!str", "!custom",
    "%YAML 1.1\n---\n", "%TAG !e! tag:e.com,2000:\n---\n", "---\n", "...\n", "? ", ": ", "- ", "|\n  ",
    ">-\n  ", "{", "}", "[", "]", ",", "#", "\"", "'", "\\", "\t", "\r\n", "\r", "\n", "\x00", "\ufeff",
    "\x85", "\u2028", "\x1b[31m", "\x07", "\u202e", ".nan", ".inf", "-.inf", "nan", "inf", "1e999",
    "1.0e+999", "9" * 400, "9" * 5000, "0x" + "f" * 300, "1:59:59", "-0", "0o17", "0b101", "yes",
    "no", "on", "off", "~", "null", "true", "2026-10-29", "2026-10-29T12:00:00", "12:00:00",
    "../../etc", "/etc/passwd", "a/b", "..\\..", "%0A::error::x", "::warning::x",
    "##[error file=README.md;line=1]FORGED", "##[add-mask]", " ##[stop-commands]x", "  ::error::x",
    "http://1249763981/<img src=https://1249763981/x.png>", "www.1249763981", "x@1249763981.com",
    "[l](https://1249763981/)", "![i](x.png)", "<a href=x>", "&lt;", "@user", "@org/team", "#1",
    "GH-2", "`", "``", "|", ":x:", "*", "_",
    "[[a]]\n", "[a.b.c]\n", "a.b.c = 1\n", '"""', "'''", "= ", " = ", "x = [1, \"a\"]\n",
    "experiment_id", "benchmark_id", "source", "phase", "score", "score_mean", "score_std",
    "n_attempt", "weights", "op", "args", "values", "metric", "div", "weighted_mean", "sub",
    "status", "published", "draft", "version", "last_update", "id", "results", "rows",
    "columns", "rank_by", "accessor", "package", "package_id", "trial_ids",
]
NUMBERS = [b"0", b"-1", b"1e999", b".nan", b".inf", b"nan", b"inf", b"9" * 400, b"yes", b"true",
           b"-0.0", b"0x7fffffffffffffff", b"9223372036854775808", b"1_000", b"1:30", b"1e-400",
           b"\"12\"", b"[]", b"{}", b"null", b"~", b""]


# -- mutations -----------------------------------------------------------------------

def mutate(data: bytes, rng: random.Random, rounds: Optional[int] = None) -> bytes:
    """``data`` with a few random mutations: bytes, tokens, splices, numbers,
    line endings, nesting, truncation."""
    for _ in range(rounds if rounds is not None else rng.randint(1, 4)):
        data = rng.choice(_MUTATIONS)(data, rng)
    return data


def _pos(data: bytes, rng: random.Random) -> int:
    if data and rng.random() < 0.5:
        # a line start or a place after ": " / " = ", where values begin
        marks = [m.end() for m in re.finditer(rb"\n|: | = ", data)]
        if marks:
            return rng.choice(marks)
    return rng.randint(0, len(data))


def _flip(data, rng):
    if not data:
        return bytes([rng.randrange(256)])
    i = rng.randrange(len(data))
    return data[:i] + bytes([data[i] ^ (1 << rng.randrange(8))]) + data[i + 1:]


def _insert_bytes(data, rng):
    i = _pos(data, rng)
    return data[:i] + bytes(rng.randrange(256) for _ in range(rng.randint(1, 8))) + data[i:]


def _insert_token(data, rng):
    i = _pos(data, rng)
    return data[:i] + rng.choice(TOKENS).encode("utf-8") + data[i:]


def _delete(data, rng):
    if not data:
        return data
    i = rng.randrange(len(data))
    return data[:i] + data[i + rng.randint(1, 32):]


def _duplicate(data, rng):
    lines = data.split(b"\n")
    i = rng.randrange(len(lines))
    lines[i:i] = [lines[i]] * rng.randint(1, 3)
    return b"\n".join(lines)


def _splice(data, rng):
    other = rng.choice(SEED_FILES)
    if not other:
        return data
    a = rng.randrange(len(other))
    chunk = other[a:a + rng.randint(1, 200)]
    i = _pos(data, rng)
    return data[:i] + chunk + data[i + rng.randint(0, 40):]


def _number(data, rng):
    spots = list(re.finditer(rb"(?<=: )[-0-9.][0-9.eE+-]*|(?<== )[-0-9.][0-9.eE+-]*", data))
    if not spots:
        return _insert_token(data, rng)
    m = rng.choice(spots)
    return data[:m.start()] + rng.choice(NUMBERS) + data[m.end():]


def _line_endings(data, rng):
    choice = rng.randrange(4)
    if choice == 0:
        return data.replace(b"\n", b"\r\n")
    if choice == 1:
        return data.replace(b"\n", b"\r")
    if choice == 2:
        return b"\xef\xbb\xbf" + data
    return data.replace(b"\n", "\u2028".encode())


def _nest(data, rng):
    depth = rng.choice([3, 63, 64, 65, 200, 5000])
    i = _pos(data, rng)
    opener, closer = rng.choice([(b"[", b"]"), (b"{a: ", b"}"), (b"{a = ", b"}"), (b"- ", b"")])
    return data[:i] + opener * depth + b"1" + closer * depth + data[i:]


def _dotted(data, rng):
    i = _pos(data, rng)
    n = rng.choice([2, 64, 65, 3000])
    return data[:i] + b".".join([b"k"] * n) + b" = 1\n" + data[i:]


def _truncate(data, rng):
    return data[:rng.randint(0, len(data))]


def _garbage(data, rng):
    return bytes(rng.randrange(256) for _ in range(rng.randint(0, 300)))


def _indent(data, rng):
    lines = data.split(b"\n")
    i = rng.randrange(len(lines))
    lines[i] = b" " * rng.randint(1, 5) + lines[i] if rng.random() < 0.7 else lines[i].lstrip()
    return b"\n".join(lines)


def _swap_quotes(data, rng):
    return data.replace(b'"', b"'") if rng.random() < 0.5 else data.replace(b"'", b'"')


_MUTATIONS = [_flip, _insert_bytes, _insert_token, _insert_token, _insert_token, _delete, _duplicate,
              _splice, _number, _number, _line_endings, _nest, _dotted, _truncate, _indent, _swap_quotes,
              _garbage]


# -- scalars: numbers that overflow, strings with exotic line breaks ------------------------

# Characters libyaml (and str.splitlines) take for line breaks, which git,
# GitHub and editors do not: positions after them must not shift.
EXOTIC_BREAKS = ["\u2028", "\u2029", "\x85", "\r", "\x0c", "\x0b", "\x1c"]


def hostile_scalar(rng: random.Random) -> bytes:
    """A YAML/TOML/JSON scalar that is hard to read as a number or a position."""
    choice = rng.randrange(9)
    if choice == 0:  # base-60, as YAML 1.1 reads 1:30 (int) and 1:30.5 (float)
        groups = rng.choice([2, 170, 174, 200, 2000])
        return (rng.choice(["", "-", "+"]) + "1" + ":59" * groups + rng.choice(["", ".5", "."])).encode()
    if choice == 1:
        return f"{rng.choice(['', '-'])}1.{rng.choice(['0', '5'])}e{rng.choice(['+', '-', ''])}{rng.choice([308, 309, 400, 99999, 10 ** 12])}".encode()
    if choice == 2:
        return rng.choice(["9", "0x" + "f", "0b1", "0o7", "1_0"]).encode() * rng.choice([10, 400, 5000])
    if choice == 3:
        return ("!!float " + rng.choice(["1" + ":00" * 200 + ".5", "1e400", ".nan", "x", ""])).encode()
    if choice == 4:
        return ("!!int " + rng.choice(["1" + ":00" * 2000, "0x" + "f" * 5000, "1e3", ""])).encode()
    if choice == 5:
        quote = rng.choice(['"', "'"])
        brk = rng.choice(EXOTIC_BREAKS)
        return (quote + "a" + brk + "b" + brk * rng.randint(1, 3) + "c" + quote).encode()
    if choice == 6:
        return ("1.5" + rng.choice(EXOTIC_BREAKS) + "2").encode()
    if choice == 7:
        return rng.choice(["-.inf", ".NaN", "1e999", "-0.0", "1__0", "0.", "."]).encode()
    return b"[" + b", ".join(hostile_scalar(rng) for _ in range(rng.randint(1, 3))) + b"]"


def _scalar(data, rng):
    """Replace a value (after ': ' or ' = ') with a hostile scalar."""
    spots = list(re.finditer(rb"(?<=: )[^\n]*|(?<= = )[^\n]*", data))
    if not spots:
        return _insert_token(data, rng)
    m = rng.choice(spots)
    return data[:m.start()] + hostile_scalar(rng) + data[m.end():]


def _exotic_break(data, rng):
    """An exotic line break inside a quoted string, or anywhere."""
    brk = rng.choice(EXOTIC_BREAKS).encode()
    quotes = [m.start() + 1 for m in re.finditer(rb"[\"']", data)]
    i = rng.choice(quotes) if quotes and rng.random() < 0.7 else _pos(data, rng)
    return data[:i] + brk + data[i:]


_MUTATIONS += [_scalar, _scalar, _exotic_break]


# -- .penguin-lint.toml ------------------------------------------------------------------

def _toml_value(rng: random.Random) -> str:
    choice = rng.randrange(10)
    if choice == 0:
        return json.dumps(rng.choice(sorted(CODES)))
    if choice == 1:
        return json.dumps(rng.choice(["PL", "PL1", "pl2", "PL9", "PL999", "", "X", "PL00", "*"]))
    if choice == 2:
        return "[" + ", ".join(_toml_value(rng) for _ in range(rng.randint(0, 4))) + "]"
    if choice == 3:
        depth = rng.choice([2, 65, 1000])
        return "[" * depth + "]" * depth
    if choice == 4:
        return rng.choice(["9" * 5000, "0x" + "f" * 40, "-1", "0", "5242880", "1e400", "inf", "true"])
    if choice == 5:
        return json.dumps(rng.choice(["5MiB", "100GiB", "1 KB", "x", "9" * 50 + "MiB", "main", "-x"]))
    if choice == 6:
        return "{" + "a = {" * rng.choice([1, 70]) + "}" * rng.choice([1, 70]) + "}"
    if choice == 7:
        return json.dumps(rng.choice(["packages", "../x", "/abs", "a\n::error::x", "x" * 300, "a/b", ""]))
    if choice == 8:
        return json.dumps(rng.choice(sorted(_KINDS)) if _KINDS else "summary")
    return json.dumps("".join(rng.choice(TOKENS) for _ in range(rng.randint(0, 3))))


def _toml_glob(rng: random.Random) -> str:
    return json.dumps(rng.choice([
        "experiments/**", "packages/*/task_config.toml", "**", "", "/", "{a,b}/*.yaml",
        "{" + ",".join("abc" for _ in range(70)) + "}", "*" * 40 + "z", "[", "x/**/**/y",
        "leaderboard/*.json", "a" + ".a" * 100]))


def random_config(rng: random.Random) -> bytes:
    """A .penguin-lint.toml of settings, valid or not, with hostile values."""
    lines = []
    for key in rng.sample(["select", "ignore", "max-file-size", "base-branch", "bogus"], rng.randint(0, 4)):
        lines.append(f"{key} = {_toml_value(rng)}")
    if rng.random() < 0.3:
        lines.append(".".join(["k"] * rng.choice([2, 64, 65, 50_000])) + " = 1")
    for table in rng.sample(["per-file-ignores", "layout", "kinds"], rng.randint(0, 3)):
        lines.append(f"[{table}]")
        for _ in range(rng.randint(0, 3)):
            if table == "layout":
                name = rng.choice(["packages", "data", "leaderboards", "experiments", "bogus"])
                lines.append(f"{name} = {_toml_value(rng)}")
            else:
                lines.append(f"{_toml_glob(rng)} = {_toml_value(rng)}")
    text = "\n".join(lines) + rng.choice(["\n", "", "\r\n"])
    data = text.encode("utf-8", "surrogatepass")
    return mutate(data, rng, rounds=1) if rng.random() < 0.3 else data


def _known_kinds():
    try:
        from penguin_lint.core.layout import FILE_KINDS
        return set(FILE_KINDS)
    except ImportError:  # pragma: no cover
        return set()


_KINDS = _known_kinds()


# -- inputs ---------------------------------------------------------------------------

def mutated_repository(rng: random.Random) -> Tree:
    """The valid repository with one to three files mutated (sometimes one added)."""
    tree = dict(VALID_TREE)
    paths = sorted(tree)
    for path in rng.sample(paths, rng.randint(1, 3)):
        tree[path] = mutate(tree[path], rng)
    if rng.random() < 0.2:
        tree[_random_path(rng)] = random_content(rng)
    if rng.random() < 0.1:
        tree[_random_path(rng)] = Link(rng.choice(LINK_TARGETS))
    if rng.random() < 0.15:
        tree[".penguin-lint.toml"] = random_config(rng)
    return tree


def _random_path(rng: random.Random) -> str:
    depth = rng.randint(0, 4)
    parts = [rng.choice(DIR_NAMES[:5])] if depth else []
    parts += [rng.choice(DIR_NAMES) for _ in range(max(0, depth - 1))]
    return "/".join(parts + [rng.choice(FILE_NAMES)])


def random_content(rng: random.Random) -> bytes:
    kind = rng.random()
    if kind < 0.6:
        return mutate(rng.choice(SEED_FILES), rng)
    if kind < 0.75:
        return "".join(rng.choice(TOKENS) for _ in range(rng.randint(0, 40))).encode("utf-8", "surrogatepass")
    if kind < 0.9:
        return rng.choice(SEED_FILES)
    return _garbage(b"", rng)


def random_tree(rng: random.Random) -> Tree:
    """A random repository from the layout's names: files, garbage, links."""
    tree: Tree = {}
    for _ in range(rng.randint(1, 20)):
        path = _random_path(rng)
        tree[path] = Link(rng.choice(LINK_TARGETS)) if rng.random() < 0.08 else random_content(rng)
    if rng.random() < 0.1:
        tree[".penguin-lint.toml"] = random_config(rng)
    return tree


def write_tree(root: Path, tree: Tree) -> None:
    """Write ``tree`` under ``root`` (an entry that clashes with a folder is skipped)."""
    root.mkdir(parents=True, exist_ok=True)
    for rel, content in sorted(tree.items()):
        p = root / rel
        try:
            p.parent.mkdir(parents=True, exist_ok=True)
            if isinstance(content, Link):
                os.symlink(content.target, p)
            elif not p.is_dir():
                p.write_bytes(content)
        except (OSError, ValueError):
            continue  # a file where a folder is wanted, or the reverse


# -- judging a run -----------------------------------------------------------------------

class FsWatch(_FsWatch):
    """The suite's watch, on the calls that can read content (stat calls are
    many and read nothing, so the campaign leaves them out for speed)."""

    def __init__(self, root: Path):
        super().__init__(root, names=("open", "scandir", "listdir"))


class Outcome:
    def __init__(self, code: Optional[int], stdout: str, stderr: str, error: Optional[str],
                 cpu: float, wall: float, outside: List[Tuple[str, str]]):
        self.code, self.stdout, self.stderr, self.error = code, stdout, stderr, error
        self.cpu, self.wall, self.outside = cpu, wall, outside


class _Hang(BaseException):
    pass


def _on_alarm(signum, frame):
    raise _Hang()


SUMMARY_NAME = ".fuzz-step-summary.md"  # inside the root: the watch allows it
SERVER, REPOSITORY, SHA = "https://github.com", "lab/benchmarks", "c" * 40
BLOB_BASE = f"{SERVER}/{REPOSITORY}/blob/{SHA}/"
# The job summary links each rule code to its page, an address of ours.
RULE_PAGES = rule_url("PL001", uri=True).rsplit("/", 1)[0] + "/"  # a real rule: pages are found per rule


def run_cli(root: Path, args: List[str], hard_limit: Optional[int] = HARD_LIMIT,
            command: Optional[str] = None) -> Outcome:
    """The command line, in-process, with stdout and stderr captured. A
    github-format run has GitHub's variables: a step summary (in the root,
    named SUMMARY_NAME) and what file links are made of."""
    out, err = io.StringIO(), io.StringIO()
    github = "--format" in args and args[args.index("--format") + 1:][:1] == ["github"]
    env = {"GITHUB_STEP_SUMMARY": str(root / SUMMARY_NAME), "GITHUB_SERVER_URL": SERVER,
           "GITHUB_REPOSITORY": REPOSITORY, "GITHUB_SHA": SHA} if github else {}
    saved_env = {k: os.environ.get(k) for k in env}
    os.environ.update(env)
    code: Optional[int] = None
    error = None
    use_alarm = hard_limit and hasattr(signal, "SIGALRM") and \
        __import__("threading").current_thread() is __import__("threading").main_thread()
    old = None
    if use_alarm:
        old = signal.signal(signal.SIGALRM, _on_alarm)
        signal.alarm(hard_limit)
    gc_was_enabled = gc.isenabled()  # the command may switch the collector off for its run
    c0, w0 = time.process_time(), time.perf_counter()
    with FsWatch(root) as watch:
        try:
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                cli_main([*([command] if command else []), "--root", str(root), *args])
        except SystemExit as e:
            code = e.code if isinstance(e.code, int) else (0 if e.code is None else 2)
        except _Hang:
            error = f"hang: no result after {hard_limit} s"
        except BaseException:  # noqa: BLE001 - the point is to catch anything
            error = traceback.format_exc()
        finally:
            if use_alarm:
                signal.alarm(0)
                signal.signal(signal.SIGALRM, old)
            if gc_was_enabled:
                gc.enable()
            for k, v in saved_env.items():
                if v is None:
                    os.environ.pop(k, None)
                else:
                    os.environ[k] = v
    cpu, wall = time.process_time() - c0, time.perf_counter() - w0
    return Outcome(code, out.getvalue(), err.getvalue(), error, cpu, wall, watch.outside())


_CONFIG_ERROR = re.compile(r"penguin-lint: error: \.penguin-lint\.toml(?::(\d+):(\d+))?: ")


def judge(root: Path, tree: Tree, fmt: str, outcome: Outcome, cpu_limit: float = CPU_LIMIT) -> List[str]:
    """What is wrong with a run (empty when nothing is)."""
    problems = []
    if outcome.error:
        return [f"exception: {outcome.error.strip().splitlines()[-1]}\n{outcome.error}"]
    config_error = _CONFIG_ERROR.match(outcome.stderr) if outcome.code == 2 else None
    if config_error:
        # A broken configuration file is a usage error: one clear line, exit 2,
        # naming a place inside the file.
        if outcome.stderr.count("\n") != 1 or not outcome.stderr[:-1].isprintable():
            problems.append(f"configuration error is not one printable line: {outcome.stderr[:300]!r}")
        if config_error.group(1):
            problems.extend(_judge_position(root / ".penguin-lint.toml", ".penguin-lint.toml",
                                            int(config_error.group(1)), int(config_error.group(2))))
    elif outcome.code == 2 and outcome.stderr.startswith("penguin-lint: error: ") \
            and "nothing to lint" in outcome.stderr:
        # A tree without any layout folder is told so in one line, exit 2.
        if outcome.stderr.count("\n") != 1 or not outcome.stderr[:-1].isprintable():
            problems.append(f"nothing-to-lint error is not one printable line: {outcome.stderr[:300]!r}")
    elif outcome.code not in (0, 1):
        problems.append(f"exit {outcome.code}: {outcome.stderr.strip()[:500]}")
    elif outcome.stderr:
        problems.append(f"stderr on exit {outcome.code}: {outcome.stderr.strip()[:500]}")
    if outcome.cpu > cpu_limit:
        problems.append(f"slow: {outcome.cpu:.2f} s of CPU ({outcome.wall:.2f} s)")
    if outcome.outside:
        problems.append(f"touched outside the repository: {outcome.outside[:3]}")
    for text in (outcome.stdout, outcome.stderr):
        if "root:x:" in text or SECRET in text:
            problems.append("a symlink target's content is in the output")
    if "Traceback" in outcome.stdout + outcome.stderr:
        problems.append("a traceback in the output")
    if fmt == "json" and outcome.code in (0, 1):
        try:
            findings = json.loads(outcome.stdout)["findings"]
        except (ValueError, KeyError, TypeError) as e:
            return problems + [f"json output does not parse: {e}"]
        for f in findings:
            problems.extend(_judge_finding(root, f))
    elif fmt in ("sarif",) and outcome.code in (0, 1):
        try:
            json.loads(outcome.stdout)
        except ValueError as e:
            problems.append(f"sarif output does not parse: {e}")
    if fmt != "json" and outcome.code in (0, 1):
        if re.search(r"[\x00-\x08\x0b-\x1f\x7f\x85\u2028\u2029\u202e]", outcome.stdout):
            problems.append(f"a raw control character in {fmt} output")
    problems += log_problems(outcome.stdout, commands_allowed=fmt == "github")
    problems += log_problems(outcome.stderr)
    summary = root / SUMMARY_NAME
    if fmt == "github" and summary.is_file() and not summary.is_symlink():
        problems += [f"job summary: {p}" for p in
                     markdown_problems(summary.read_text(encoding="utf-8", errors="replace"),
                                                       [BLOB_BASE, RULE_PAGES])]
    return problems


# What GitHub's runner reads as a workflow command: ``::`` once leading
# blanks are trimmed (the runner's TrimStart), ``##[`` anywhere in a line.
_OWN_COMMAND = re.compile(r"::(error|warning|notice) [^:]*::(?P<message>.*)\Z")


def log_problems(text: str, commands_allowed: bool = False) -> List[str]:
    """Lines of output the runner would take for a command not of
    penguin-lint's making (its annotations start with ``::`` and carry no
    ``##[`` in their message)."""
    out = []
    for line in re.split(r"\r\n|\r|\n", text):
        if line.lstrip().startswith("::"):
            m = _OWN_COMMAND.match(line) if commands_allowed else None
            if m is None or "##[" in m.group("message"):
                out.append(f"a forged workflow command in the output: {line[:200]!r}")
        elif "##[" in line:
            out.append(f"a forged ##[ command in the output: {line[:200]!r}")
    return out


GFM_EXTENSIONS = ("table", "autolink", "strikethrough", "tagfilter", "tasklist")
# The tags penguin-lint's own Markdown renders to; links only to the files.
_OWN_TAGS = {"h2", "h3", "p", "strong", "em", "br", "code", "table", "thead", "tbody", "tr", "th", "td"}


def render_markdown(markdown: str) -> Optional[str]:
    """HTML as GitHub renders Markdown: cmark-gfm with GitHub's extensions,
    raw HTML kept (GitHub's sanitizer lets <a> and <img> through). None
    without cmarkgfm (the test extra installs it)."""
    try:
        import cmarkgfm
        from cmarkgfm.cmark import Options
    except ImportError:  # pragma: no cover
        return None
    return cmarkgfm.markdown_to_html_with_extensions(
        markdown, options=Options.CMARK_OPT_UNSAFE, extensions=GFM_EXTENSIONS)


def html_problems(html: str, own_links=()) -> List[str]:
    """Links, images, raw tags and mention-looking text (GitHub links
    ``@user``, ``@org/team``, ``#1`` and ``GH-1`` outside code) in rendered
    HTML that penguin-lint's own Markdown does not make."""
    out = []
    outside = re.sub(r"<code>.*?</code>", "<code></code>", html, flags=re.S)
    for closing, name, attrs in re.findall(r"<\s*(/?)\s*([A-Za-z][\w-]*)([^>]*)>", outside):
        name = name.lower()
        if name == "a" and not closing:
            href = re.search(r'href="([^"]*)"', attrs)
            if not (own_links and href and href.group(1).startswith(tuple(own_links))):
                out.append(f"a link: <a{attrs[:150]}>")
        elif name != "a" and (name not in _OWN_TAGS or (
                attrs.strip() and not re.fullmatch(r' align="(left|right|center)"', attrs))):
            out.append(f"a tag: <{closing}{name}{attrs[:150]}>")
    if "<!--" in outside:
        out.append("raw HTML (omitted by the renderer)")
    text = re.sub(r"<[^>]*>", "", outside)
    for m in re.finditer(r"@[A-Za-z0-9]|#[0-9]|(?i:gh-[0-9])", text):
        out.append(f"a mention or reference: {text[max(0, m.start() - 20):m.end() + 20]!r}")
    return out


def markdown_problems(markdown: str, own_links=()) -> List[str]:
    html = render_markdown(markdown)
    return [] if html is None else html_problems(html, own_links)


def judge_preview(outcome: Outcome) -> List[str]:
    """``preview --format markdown``: a leaderboard table whose repository
    text renders inert, or one error line and exit 2."""
    if outcome.error:
        return [f"preview: exception: {outcome.error.strip().splitlines()[-1]}\n{outcome.error}"]
    problems = log_problems(outcome.stdout) + log_problems(outcome.stderr)
    if outcome.outside:
        problems.append(f"preview: touched outside the repository: {outcome.outside[:3]}")
    if outcome.code == 2:
        if outcome.stderr.count("\n") != 1 or not outcome.stderr.startswith("penguin-lint: error: ") \
                or "internal error" in outcome.stderr:
            problems.append(f"preview: exit 2: {outcome.stderr.strip()[:500]}")
    elif outcome.code != 0:
        problems.append(f"preview: exit {outcome.code}: {outcome.stderr.strip()[:500]}")
    else:
        problems += [f"preview: {p}" for p in markdown_problems(outcome.stdout)]
    return problems


def _judge_finding(root: Path, f: dict) -> List[str]:
    out = []
    path = f.get("path")
    if f.get("code") not in CODES:
        out.append(f"unknown code {f.get('code')!r}")
    if not isinstance(path, str) or not path or path.startswith("/"):
        out.append(f"bad path {path!r}")
        return out
    if any(seg in ("", ".", "..") for seg in path.split("/")):
        out.append(f"path not inside the repository: {path!r}")
    line = f.get("line")
    if line is not None:
        if not isinstance(line, int) or line < 1:
            out.append(f"bad line {line!r} in {path}")
        else:
            out.extend(_judge_position(root / path, path, line, f.get("column"), f.get("end_line"),
                                       f.get("end_column")))
    return out


def _judge_position(file: Path, path: str, line: int, column=None, end_line=None, end_column=None) -> List[str]:
    """A position must be inside its file, with lines ended by LF only (as git,
    GitHub and editors count them) and columns in code points."""
    if not file.is_file() or file.is_symlink():
        return []
    raw = file.read_bytes()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        text = None  # columns of text that is not UTF-8 are not judged
    lines = (raw.decode("utf-8", "replace") if text is None else text).lstrip("\ufeff").split("\n")
    if len(lines) > 1 and lines[-1] == "":
        lines.pop()  # a final newline ends the last line, it starts none
    out = []
    for name, ln, col in (("", line, column), ("end ", end_line, end_column)):
        if ln is None:
            continue
        if not isinstance(ln, int) or not 1 <= ln <= len(lines):
            out.append(f"{name}line {ln} is outside {path} ({len(lines)} lines)")
            continue
        if text is not None and col is not None and not (isinstance(col, int) and 1 <= col <= len(lines[ln - 1]) + 1):
            out.append(f"{name}column {col} is outside line {ln} of {path}")
    return out


# -- the campaign ---------------------------------------------------------------------------

def make_input(rng: random.Random) -> Tuple[Tree, List[str], str]:
    """(tree, command-line arguments, output format) for one input."""
    if rng.random() < fuzz_harbor.SHARE:  # Harbor row schemas a pull request wrote
        return fuzz_harbor.make_input(rng, OUTPUT_FORMATS)
    tree = mutated_repository(rng) if rng.random() < 0.7 else random_tree(rng)
    fmt = "json" if rng.random() < 0.6 else rng.choice(OUTPUT_FORMATS)
    if rng.random() < 0.8:
        args = ["--all"]
    else:
        files = [p for p in tree if "\x00" not in p]
        args = rng.sample(files, min(len(files), rng.randint(1, 3))) if files else ["--all"]
    return tree, args, fmt


def _signature(problem: str) -> str:
    first = problem.splitlines()[0] if problem else ""
    first = re.sub(r"/tmp/\S+", "<tmp>", first)
    first = re.sub(r"\d+(\.\d+)?", "N", first)
    return first[:160]


def campaign(minutes: Optional[float], inputs: Optional[int], seed: int, crash_dir: Path,
             verbose: bool = False) -> int:
    rng = random.Random(seed)
    deadline = time.monotonic() + minutes * 60 if minutes else None
    n = 0
    findings = Counter()
    crashes: Dict[str, int] = {}
    slowest: List[Tuple[float, str]] = []
    started = time.monotonic()
    saved = 0
    with tempfile.TemporaryDirectory(prefix="penguin-fuzz-") as tmp:
        secret = Path(tmp) / "secret"
        secret.mkdir()
        (secret / "meta_info.yaml").write_text(f"{SECRET}: 1\n")
        while True:
            if inputs is not None and n >= inputs:
                break
            if deadline is not None and time.monotonic() >= deadline:
                break
            n += 1
            tree, args, fmt = make_input(rng)
            if rng.random() < 0.05:
                tree[_random_path(rng)] = Link(str(secret / "meta_info.yaml"))
            root = Path(tmp) / "repo"
            shutil.rmtree(root, ignore_errors=True)
            write_tree(root, tree)
            cli_args = [str(root / a) if a != "--all" else a for a in args]
            outcome = run_cli(root, ["--format", fmt, *cli_args])
            problems = judge(root, tree, fmt, outcome)
            if fmt == "github":  # the other half of the job summary
                problems += judge_preview(run_cli(root, ["--format", "markdown"], command="preview"))
            slowest.append((outcome.cpu, f"input {n}"))
            slowest = sorted(slowest, reverse=True)[:5]
            if fmt == "json" and outcome.code in (0, 1) and not problems:
                for f in json.loads(outcome.stdout)["findings"]:
                    findings[f["code"]] += 1
            for problem in problems:
                sig = _signature(problem)
                crashes[sig] = crashes.get(sig, 0) + 1
                if crashes[sig] <= 3:
                    saved += 1
                    _save(crash_dir, n, root, tree, ["--format", fmt, *args], problem)
                if verbose or crashes[sig] == 1:
                    print(f"[input {n}] {problem.splitlines()[0][:200]}", flush=True)
            if verbose and n % 500 == 0:
                print(f"... {n} inputs, {len(crashes)} problem kinds", flush=True)
    elapsed = time.monotonic() - started
    print(f"inputs run: {n} in {elapsed:.0f} s ({n / max(elapsed, 1e-9):.0f}/s), seed {seed}")
    print(f"findings (json runs): {sum(findings.values())} across {len(findings)} codes: "
          + ", ".join(f"{c} {k}" for c, k in sorted(findings.items())))
    print("slowest inputs (CPU s): " + ", ".join(f"{t:.2f}" for t, _ in slowest))
    if crashes:
        print(f"problems: {sum(crashes.values())} in {len(crashes)} kinds (saved {saved} to {crash_dir}):")
        for sig, count in sorted(crashes.items(), key=lambda kv: -kv[1]):
            print(f"  {count:6d}  {sig}")
        return 1
    print("problems: none (no exception, no exit 2, no input over "
          f"{CPU_LIMIT:.0f} s of CPU, nothing touched outside the repository)")
    return 0


def _save(crash_dir: Path, n: int, root: Path, tree: Tree, args: List[str], problem: str) -> None:
    digest = hashlib.sha1(problem.encode("utf-8", "replace")).hexdigest()[:8]
    dest = crash_dir / f"input-{n:06d}-{digest}"
    dest.mkdir(parents=True, exist_ok=True)
    shutil.copytree(root, dest / "repo", symlinks=True, dirs_exist_ok=True)
    (dest / "problem.txt").write_text(problem, encoding="utf-8", errors="replace")
    (dest / "args.json").write_text(json.dumps(args, ensure_ascii=True))
    (dest / "README").write_text("reproduce: python -m penguin_lint --root repo " + " ".join(args) + "\n")


def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m tests.fuzz", description=__doc__.split("\n\n")[0])
    ap.add_argument("--minutes", type=float, help="run for this long")
    ap.add_argument("--inputs", type=int, help="run this many inputs")
    ap.add_argument("--seed", type=int, default=None, help="random seed (default: from the clock)")
    ap.add_argument("--crash-dir", type=Path, default=None,
                    help="where failing inputs go (default: a new folder under the temp dir)")
    ap.add_argument("--yaml-differential", action="store_true",
                    help="compare the YAML loader with yaml.safe_load on generated texts "
                         "(tests/yaml_differential.py) instead; needs --minutes")
    ap.add_argument("-v", "--verbose", action="store_true")
    a = ap.parse_args(argv)
    if a.minutes is None and (a.inputs is None or a.yaml_differential):
        ap.error("give --minutes N" + ("" if a.yaml_differential else " or --inputs N"))
    seed = a.seed if a.seed is not None else int(time.time())
    crash_dir = a.crash_dir or Path(tempfile.gettempdir()) / f"penguin-lint-fuzz-{seed}"
    if a.yaml_differential:
        from tests.yaml_differential import campaign as yaml_campaign

        return yaml_campaign(a.minutes, seed, crash_dir, a.verbose)
    return campaign(a.minutes, a.inputs, seed, crash_dir, a.verbose)


if __name__ == "__main__":
    sys.exit(main())
