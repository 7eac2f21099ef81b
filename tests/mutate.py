"""A mutation campaign: do the tests notice when a module's verdicts change?

    python -m tests.mutate penguin_lint.run.baseline [--sample K] [--seed S]
    python -m tests.mutate penguin_lint/rules/pl303_summary_mismatch.py --tests tests/rules
    python -m tests.mutate MODULE --list            # the mutants, none run

Each mutant is the module with one small change made to its syntax tree:
a comparison turned around (``<`` to ``<=``, ``==`` to ``!=``, ``in`` to
``not in``, ...), ``and`` and ``or`` swapped, a ``not`` dropped, a constant
changed (a number plus one, ``True`` and ``False`` swapped, a string
changed), a returned value replaced by ``None``, a branch of an ``if``
removed, a loop removed, ``break`` and ``continue`` swapped. Docstrings,
annotations and lines marked ``# pragma: no mutate`` are left alone.

The tests that exercise the module are run once with a line tracer; each
mutant is then run against the tests that reached its line (quickest
first, stopping at the first failure), in a separate process that loads
the mutated code in place of the module: the working tree is never
written. A mutant that fails a test, or runs past the time limit, is
killed; one that passes them, or that no test reaches, survives. The
survivors are printed with their lines, then the kill rate.
"""
from __future__ import annotations

import argparse
import ast
import copy
import json
import marshal
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, Iterator, List, Optional, Sequence, Set, Tuple

PROJECT = Path(__file__).resolve().parents[1]
ENV_MODULE, ENV_CODE, ENV_TRACE = "PENGUIN_MUTANT_MODULE", "PENGUIN_MUTANT_CODE", "PENGUIN_MUTANT_TRACE"

#: the tests first traced for a module (otherwise: its concept's folder, as tests/test_layout.py names it)
TESTS: Dict[str, List[str]] = {
    "penguin_lint.run.baseline": ["tests/run/test_baseline.py", "tests/pr/test_baseline_diff.py",
                                  "tests/engine/test_shard_diff.py"],
    "penguin_lint.consent": ["tests/gate/test_gate_exceptions.py", "tests/gate/test_gate_suppressions.py",
                             "tests/engine/test_merge_consent.py", "tests/pr/test_hook_own_suppressions.py"],
    "penguin_lint.pr.blame": ["tests/pr/test_blame.py", "tests/pr/test_blame_verdicts.py",
                              "tests/pr/test_focus.py", "tests/pr/test_unchanged_base.py"],
    "penguin_lint.suppressions": ["tests/rules/test_suppressions.py", "tests/gate/test_gate_suppressions.py",
                                  "tests/gate/test_gate_all_suppressions.py", "tests/gate/test_gate_exceptions.py",
                                  "tests/pr/test_hook_own_suppressions.py"],
    "penguin_lint.rules.pl303_summary_mismatch": ["tests/rules/test_rules_experiments.py",
                                                  "tests/rules/test_precision.py", "tests/fixes/test_exact_total.py",
                                                  "tests/loaders/test_exact_sum.py"],
    "penguin_lint.rules.pl403_inconsistent_expression": ["tests/rules/test_rules_leaderboards.py",
                                                         "tests/rules/test_values_as_written.py"],
    "penguin_lint.rules._expressions": ["tests/rules/test_rules_leaderboards.py",
                                        "tests/rules/test_values_as_written.py", "tests/gate/test_huge_board.py"],
}
FOLDERS = {"loaders": "loaders", "validation": "validation", "core": "core", "rules": "rules", "run": "run",
           "pr": "pr", "cache": "cache", "engine": "engine", "github": "github", "lsp": "lsp",
           "fixes": "fixes", "preview": "preview", "output": "github"}


# --- the mutants -------------------------------------------------------------

COMPARE = {ast.Eq: ast.NotEq, ast.NotEq: ast.Eq, ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE,
           ast.GtE: ast.Gt, ast.In: ast.NotIn, ast.NotIn: ast.In, ast.Is: ast.IsNot, ast.IsNot: ast.Is}


@dataclass
class Mutant:
    index: int
    line: int
    lines: Tuple[int, ...]  # the lines a test must reach for the mutant to matter
    what: str
    code: object = None


def _lines(node: ast.AST) -> Tuple[int, ...]:
    return tuple(range(node.lineno, (getattr(node, "end_lineno", None) or node.lineno) + 1))


def _show(node: ast.AST) -> str:
    text = ast.unparse(node).replace("\n", " ")
    return text if len(text) <= 70 else text[:67] + "..."


class _Mutator(ast.NodeTransformer):
    """Counts the mutation points in tree order; applies the one numbered ``target``."""

    def __init__(self, target: int = -1, skip: Set[int] = frozenset()):
        self.target, self.skip = target, skip
        self.points: List[Tuple[int, Tuple[int, ...], str]] = []

    def _point(self, where: ast.AST, lines: Tuple[int, ...], what: str) -> bool:
        if where.lineno in self.skip:
            return False
        self.points.append((where.lineno, lines, what))
        return len(self.points) - 1 == self.target

    # what is never mutated: docstrings, annotations, imports, `if TYPE_CHECKING`
    def _body(self, node):
        body = node.body
        if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
                and isinstance(body[0].value.value, str):
            node.body = body[:1] + [self.visit(s) for s in body[1:]]
            return node, True
        return node, False

    def _fields_except(self, node, *names):
        for name, value in ast.iter_fields(node):
            if name in names:
                continue
            if isinstance(value, list):
                setattr(node, name, [r for r in (self.visit(v) if isinstance(v, ast.AST) else v
                                                 for v in value) if r is not None])
            elif isinstance(value, ast.AST):
                setattr(node, name, self.visit(value))
        return node

    def visit_Module(self, node):
        node, _ = self._body(node) if node.body else (node, False)
        if _:
            return node
        return self.generic_visit(node)

    def visit_FunctionDef(self, node):
        node.decorator_list = [self.visit(d) for d in node.decorator_list]
        node.args = self._arguments(node.args)
        node, had_doc = self._body(node)
        if not had_doc:
            node.body = [self.visit(s) for s in node.body]
        return node

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_ClassDef(self, node):
        node.bases = [self.visit(b) for b in node.bases]
        node.decorator_list = [self.visit(d) for d in node.decorator_list]
        node, had_doc = self._body(node)
        if not had_doc:
            node.body = [self.visit(s) for s in node.body]
        return node

    def _arguments(self, args: ast.arguments):
        args.defaults = [self.visit(d) for d in args.defaults]
        args.kw_defaults = [self.visit(d) if d is not None else None for d in args.kw_defaults]
        return args

    def visit_AnnAssign(self, node):
        if node.value is not None:
            node.value = self.visit(node.value)
        return node

    def visit_Import(self, node):
        return node

    visit_ImportFrom = visit_Import

    def visit_JoinedStr(self, node):
        # the text of an f-string is left as it is; what it formats is mutated
        node.values = [v if isinstance(v, ast.Constant) else self.visit(v) for v in node.values]
        return node

    def visit_FormattedValue(self, node):
        node.value = self.visit(node.value)
        return node

    # the mutations
    def visit_Compare(self, node):
        self.generic_visit(node)
        for i, op in enumerate(node.ops):
            new = COMPARE.get(type(op))
            if new is not None:
                before = _show(node)
                if self._point(node, _lines(node), f"{before}  ->  {type(op).__name__} to {new.__name__}"):
                    node.ops = node.ops[:i] + [new()] + node.ops[i + 1:]
        return node

    def visit_BoolOp(self, node):
        self.generic_visit(node)
        other = ast.Or if isinstance(node.op, ast.And) else ast.And
        if self._point(node, _lines(node), f"{_show(node)}  ->  {other.__name__.lower()}"):
            node.op = other()
        return node

    def visit_UnaryOp(self, node):
        self.generic_visit(node)
        if isinstance(node.op, ast.Not) and self._point(node, _lines(node), f"{_show(node)}  ->  without not"):
            return node.operand
        return node

    def visit_Constant(self, node):
        v = node.value
        if isinstance(v, bool):
            new = not v
        elif isinstance(v, (int, float)) and not isinstance(v, bool):
            new = v + 1
        elif isinstance(v, str):
            new = "XX" + v + "XX"
        elif isinstance(v, bytes):
            new = b"XX" + v + b"XX"
        else:
            return node
        if self._point(node, _lines(node), f"{_show(node)}  ->  {new!r}"[:110]):
            return ast.copy_location(ast.Constant(new), node)
        return node

    def visit_Return(self, node):
        self.generic_visit(node)
        if node.value is not None and not (isinstance(node.value, ast.Constant) and node.value.value is None):
            if self._point(node, _lines(node), f"{_show(node)}  ->  return None"):
                node.value = None
        return node

    def visit_If(self, node):
        if isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING":
            return node
        node.test = self.visit(node.test)
        node.body = [self.visit(s) for s in node.body]
        node.orelse = [self.visit(s) for s in node.orelse]
        test = f"if {_show(node.test)}"
        if self._point(node, _lines(node.test), f"{test}  ->  its branch removed"):
            node.test = ast.copy_location(ast.Constant(False), node.test)
        elif node.orelse and self._point(node, _lines(node.test), f"{test}  ->  its else removed"):
            node.test = ast.copy_location(ast.Constant(True), node.test)
        return node

    def visit_For(self, node):
        self.generic_visit(node)
        if self._point(node, _lines(node.iter), f"for ... in {_show(node.iter)}  ->  loop removed"):
            node.iter = ast.copy_location(ast.Tuple(elts=[], ctx=ast.Load()), node.iter)
        return node

    visit_AsyncFor = visit_For

    def visit_While(self, node):
        self.generic_visit(node)
        if self._point(node, _lines(node.test), f"while {_show(node.test)}  ->  loop removed"):
            node.test = ast.copy_location(ast.Constant(False), node.test)
        return node

    def visit_Break(self, node):
        if self._point(node, _lines(node), "break  ->  continue"):
            return ast.copy_location(ast.Continue(), node)
        return node

    def visit_Continue(self, node):
        if self._point(node, _lines(node), "continue  ->  break"):
            return ast.copy_location(ast.Break(), node)
        return node


def _skipped_lines(source: str) -> Set[int]:
    return {n for n, text in enumerate(source.splitlines(), 1) if "pragma: no mutate" in text}


def mutants(path: Path) -> List[Mutant]:
    """Every mutant of the module at ``path``, its code compiled with the file's line numbers."""
    source = path.read_text(encoding="utf-8")
    tree = ast.parse(source, str(path))
    skip = _skipped_lines(source)
    counter = _Mutator(skip=skip)
    counter.visit(copy.deepcopy(tree))
    original = ast.dump(tree)
    out = []
    for i, (line, lines, what) in enumerate(counter.points):
        m = _Mutator(i, skip)
        mutated = ast.fix_missing_locations(m.visit(copy.deepcopy(tree)))
        if ast.dump(mutated) == original:
            continue
        out.append(Mutant(i, line, lines, what, compile(mutated, str(path), "exec", dont_inherit=True)))
    return out


# --- loading a mutant in place of the module (in the test process) -----------

SITECUSTOMIZE = '''\
import importlib.abc, importlib.util, marshal, os, sys

class _Loader(importlib.abc.Loader):
    def create_module(self, spec):
        return None

    def exec_module(self, module):
        with open(os.environ["{code}"], "rb") as fh:
            exec(marshal.load(fh), module.__dict__)

class _Finder(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name != os.environ.get("{module}"):
            return None
        return importlib.util.spec_from_file_location(name, {origin!r}, loader=_Loader())

sys.meta_path.insert(0, _Finder())
'''


# --- which tests reach which lines ---------------------------------------------

_trace: Dict[str, Set[int]] = {}
_durations: Dict[str, float] = {}


def _tracer(target: str, hit: Set[int]):
    def local(frame, event, arg):
        if event == "line":
            hit.add(frame.f_lineno)
        return local

    def start(frame, event, arg):
        if frame.f_code.co_filename == target:
            hit.add(frame.f_lineno)
            return local
        return None

    return start


try:
    import pytest
except ImportError:  # pragma: no cover - the campaign runs pytest anyway
    pytest = None

if pytest is not None:
    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_protocol(item, nextitem):  # a hook when loaded with -p tests.mutate
        target = os.environ.get(ENV_TRACE + "_FILE")
        if not target:
            yield
            return
        import threading

        hit: Set[int] = set()
        start = _tracer(target, hit)
        began = time.perf_counter()
        sys.settrace(start)
        threading.settrace(start)
        try:
            yield
        finally:
            sys.settrace(None)
            threading.settrace(None)
            _durations[item.nodeid] = time.perf_counter() - began
            _trace[item.nodeid] = hit


def pytest_sessionfinish(session, exitstatus):
    out = os.environ.get(ENV_TRACE)
    if out and os.environ.get(ENV_TRACE + "_FILE"):
        with open(out, "w", encoding="utf-8") as fh:
            json.dump({"lines": {k: sorted(v) for k, v in _trace.items()}, "durations": _durations,
                       "status": int(exitstatus)}, fh)


def _env(**extra: str) -> Dict[str, str]:
    env = dict(os.environ)
    env["PENGUIN_LINT_JOBS"] = "1"  # the engine in the test's own process, where the tracer and the mutant are
    env.pop("PYTEST_ADDOPTS", None)
    env.update(extra)
    return env


PYTEST = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:xdist",
          "--no-header", "-o", "addopts=", "-W", "ignore"]


def trace(path: Path, tests: Sequence[str], work: Path) -> Tuple[Dict[str, Set[int]], Dict[str, float]]:
    out = work / "trace.json"
    proc = subprocess.run(PYTEST + ["-p", "tests.mutate", *tests], cwd=PROJECT, capture_output=True, text=True,
                          env=_env(**{ENV_TRACE: str(out), ENV_TRACE + "_FILE": str(path)}))
    if not out.exists():
        sys.exit(f"the tests could not be traced:\n{proc.stdout[-3000:]}{proc.stderr[-3000:]}")
    data = json.loads(out.read_text())
    if data["status"] not in (0,):
        failed = [ln for ln in proc.stdout.splitlines() if ln.startswith(("FAILED", "ERROR"))]
        sys.exit("the tests fail before any mutation; fix them first:\n" + "\n".join(failed[:20]))
    return {k: set(v) for k, v in data["lines"].items()}, data["durations"]


# --- running the mutants -----------------------------------------------------

@dataclass
class Outcome:
    mutant: Mutant
    verdict: str  # killed, timeout, survived, unreached
    tests: int = 0
    seconds: float = 0.0
    by: str = ""


def run_mutant(m: Mutant, module: str, tests: List[str], work: Path, limit: float) -> Outcome:
    if not tests:
        return Outcome(m, "unreached")
    code = work / f"mutant-{m.index}.bin"
    code.write_bytes(marshal.dumps(m.code))
    began = time.perf_counter()
    proc = subprocess.Popen(PYTEST + ["-x", *tests], cwd=PROJECT, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, start_new_session=True,
                            env=_env(PYTHONPATH=str(work), **{ENV_MODULE: module, ENV_CODE: str(code)}))
    try:
        out, _ = proc.communicate(timeout=limit)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        return Outcome(m, "timeout", len(tests), time.perf_counter() - began)
    finally:
        code.unlink()
    took = time.perf_counter() - began
    if proc.returncode == 0:
        return Outcome(m, "survived", len(tests), took)
    if proc.returncode in (1, 2, 3):
        by = next((ln.split(" ", 1)[1].split(" - ")[0] for ln in out.splitlines()
                   if ln.startswith(("FAILED ", "ERROR "))), "")
        return Outcome(m, "killed", len(tests), took, by)
    raise SystemExit(f"pytest exited {proc.returncode} on mutant {m.index} ({m.what}):\n{out[-2000:]}")


def resolve(name: str) -> Tuple[str, Path]:
    """(dotted module name, path) of ``name``, given either way."""
    if name.endswith(".py") or "/" in name:
        path = (Path.cwd() / name).resolve()
        rel = path.relative_to(PROJECT).with_suffix("")
        dotted = ".".join(rel.parts)
    else:
        dotted, path = name, PROJECT.joinpath(*name.split(".")).with_suffix(".py")
    if dotted.endswith(".__init__") or not path.is_file():
        raise SystemExit(f"{name}: not a module file of the project (packages' __init__ are not mutated)")
    return dotted, path


def default_tests(dotted: str) -> List[str]:
    if dotted in TESTS:
        return TESTS[dotted]
    parts = dotted.split(".")
    folder = FOLDERS.get(parts[1], "rules") if len(parts) > 2 else "rules"
    return [f"tests/{folder}"]


def campaign(dotted: str, path: Path, tests: Sequence[str], sample: Optional[int], seed: int,
             limit: Optional[float], jobs: int, quiet: bool = False) -> List[Outcome]:
    say = (lambda *a: None) if quiet else (lambda *a: print(*a, file=sys.stderr, flush=True))
    all_mutants = mutants(path)
    chosen = all_mutants
    if sample is not None and sample < len(all_mutants):
        chosen = sorted(random.Random(seed).sample(all_mutants, sample), key=lambda m: m.index)
    with tempfile.TemporaryDirectory(prefix="mutate-") as tmp:
        work = Path(tmp)
        (work / "sitecustomize.py").write_text(SITECUSTOMIZE.format(code=ENV_CODE, module=ENV_MODULE,
                                                                    origin=str(path)))
        say(f"{dotted}: {len(all_mutants)} mutants, {len(chosen)} to run; tracing {' '.join(tests)}")
        began = time.perf_counter()
        reached, durations = trace(path, tests, work)
        traced = time.perf_counter() - began
        # a mutant's time limit: the traced run of its tests, with room for a slower machine
        outcomes: List[Outcome] = []
        from concurrent.futures import ThreadPoolExecutor

        def one(m: Mutant) -> Outcome:
            ids = sorted((t for t, lines in reached.items() if lines.intersection(m.lines)),
                         key=lambda t: durations.get(t, 0.0))
            budget = limit or max(30.0, 3 * sum(durations.get(t, 0.0) for t in ids) + 20)
            return run_mutant(m, dotted, ids, work, budget)

        with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
            for n, o in enumerate(pool.map(one, chosen), 1):
                outcomes.append(o)
                say(f"  [{n}/{len(chosen)}] line {o.mutant.line}: {o.verdict}"
                    + (f" ({o.tests} tests, {o.seconds:.1f}s)" if o.tests else ""))
        say(f"traced in {traced:.0f}s, mutants run in {time.perf_counter() - began - traced:.0f}s")
    return outcomes


def report(dotted: str, path: Path, outcomes: List[Outcome]) -> str:
    lines = path.read_text(encoding="utf-8").splitlines()
    rel = path.relative_to(PROJECT)
    survivors = [o for o in outcomes if o.verdict in ("survived", "unreached")]
    out = []
    for o in survivors:
        m = o.mutant
        tag = "no test reaches it" if o.verdict == "unreached" else f"passes {o.tests} tests"
        out.append(f"{rel}:{m.line}: #{m.index} {m.what}  [{tag}]")
        out.append(f"    {lines[m.line - 1].strip()}")
    killed = len(outcomes) - len(survivors)
    rate = 100.0 * killed / len(outcomes) if outcomes else 100.0
    out.append(f"{dotted}: {killed} of {len(outcomes)} mutants killed ({rate:.0f}%), "
               f"{len(survivors)} survived")
    return "\n".join(out)


def main(argv: Optional[Sequence[str]] = None) -> int:
    p = argparse.ArgumentParser(prog="python -m tests.mutate", description=__doc__.split("\n\n")[0])
    p.add_argument("modules", nargs="+", metavar="MODULE", help="a module, dotted or as a path")
    p.add_argument("--sample", type=int, help="run K mutants drawn at random (by --seed) instead of all")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--tests", nargs="+", help="the tests to trace (default: the module's own, see TESTS)")
    p.add_argument("--timeout", type=float, help="seconds per mutant (default: 3x its tests' traced time + 20)")
    p.add_argument("--jobs", type=int, default=1, help="mutants run at once")
    p.add_argument("--list", action="store_true", help="list the mutants; run none")
    a = p.parse_args(argv)
    worst = 0.0
    for name in a.modules:
        dotted, path = resolve(name)
        if a.list:
            for m in mutants(path):
                print(f"{path.relative_to(PROJECT)}:{m.line}: #{m.index} {m.what}")
            continue
        outcomes = campaign(dotted, path, a.tests or default_tests(dotted), a.sample, a.seed, a.timeout, a.jobs)
        print(report(dotted, path, outcomes), flush=True)
        worst = max(worst, sum(o.verdict in ("survived", "unreached") for o in outcomes))
    return 1 if worst else 0


if __name__ == "__main__":
    sys.exit(main())
