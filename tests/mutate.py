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

The tests that exercise the module (``--tests``; by default those TESTS
names, else its concept's folder) are collected once, in one pytest
session, and run once with a line tracer; each mutant is then run, in a
process forked from that session, against the tests that reached its line
(quickest first, stopping at the first failure), the function it changes
given the mutated code. A change at module or class level (run once, at
import) is run against all of them in a new pytest process that imports
the mutated module in place of the original. The working tree is never
written. A mutant that fails a test, or runs past its time limit, is
killed; one that passes them, or that no test reaches, survives. The
survivors are printed with their lines, then the kill rate; the exit
status is 1 when one survived. docs/development.md says when to run it,
and names the survivors known to be equivalent.
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
from dataclasses import dataclass
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Set, Tuple

PROJECT = Path(__file__).resolve().parents[1]
ENV_MODULE, ENV_CODE, ENV_PLAN = "PENGUIN_MUTANT_MODULE", "PENGUIN_MUTANT_CODE", "PENGUIN_MUTANT_PLAN"

#: the tests first traced for a module (otherwise: its concept's folder, as tests/test_layout.py names it)
TESTS: Dict[str, List[str]] = {
    "penguin_lint.run.baseline": ["tests/run/test_baseline.py", "tests/run/test_baseline_file.py",
                                  "tests/pr/test_baseline_diff.py", "tests/engine/test_shard_diff.py"],
    "penguin_lint.consent": ["tests/gate/test_gate_consent.py", "tests/gate/test_gate_exceptions.py",
                             "tests/gate/test_gate_suppressions.py",
                             "tests/engine/test_merge_consent.py", "tests/pr/test_hook_own_suppressions.py",
                             "tests/core/test_config_exceptions.py", "tests/rules/test_suppressions.py"],
    "penguin_lint.pr.blame": ["tests/pr", "tests/gate/test_gate_renames.py", "tests/gate/test_gate_suppressions.py"],
    "penguin_lint.suppressions": ["tests/rules/test_suppressions.py", "tests/rules/test_suppression_comments.py",
                                  "tests/gate/test_gate_consent.py",
                                  "tests/gate/test_gate_suppressions.py",
                                  "tests/gate/test_gate_all_suppressions.py", "tests/gate/test_gate_exceptions.py",
                                  "tests/pr/test_hook_own_suppressions.py", "tests/fixes/test_fixes.py",
                                  "tests/engine/test_merge_consent.py"],
    "penguin_lint.rules.pl303_summary_mismatch": ["tests/rules/test_summary_verdicts.py",
                                                  "tests/rules/test_rules_experiments.py",
                                                  "tests/rules/test_precision.py", "tests/fixes/test_exact_total.py",
                                                  "tests/loaders/test_exact_sum.py", "tests/rules/test_hints.py",
                                                  "tests/rules/test_rule_index.py", "tests/docs/test_docs.py"],
    "penguin_lint.rules.pl403_inconsistent_expression": ["tests/rules/test_expression_verdicts.py",
                                                         "tests/rules/test_rules_leaderboards.py",
                                                         "tests/rules/test_values_as_written.py",
                                                         "tests/rules/test_rule_index.py", "tests/docs/test_docs.py"],
    "penguin_lint.rules._expressions": ["tests/rules/test_expression_verdicts.py",
                                        "tests/rules/test_rules_leaderboards.py",
                                        "tests/rules/test_values_as_written.py", "tests/gate/test_huge_board.py",
                                        "tests/pr/test_focus.py", "tests/rules/test_rule_index.py"],
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
    #: the outermost function the change is in ("Class.method"), or "" at module or class level
    function: str = ""
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
        self.points: List[Tuple[int, Tuple[int, ...], str, str]] = []
        self.scope: List[str] = []  # class names, then the outermost function's
        self.function = ""
        self.statement: Tuple[int, ...] = ()  # the lines of the statement being visited (its header)

    def _point(self, where: ast.AST, lines: Tuple[int, ...], what: str) -> bool:
        if where.lineno in self.skip:
            return False
        # a line the tracer sees: a constant folded into its statement has no line event of its own
        reach = tuple(sorted(set(lines) | set(self.statement)))
        self.points.append((where.lineno, reach, what, self.function))
        return len(self.points) - 1 == self.target

    def visit(self, node):
        if not isinstance(node, ast.stmt):
            return super().visit(node)
        outer = self.statement
        body = getattr(node, "body", None)
        end = body[0].lineno if isinstance(body, list) and body else (node.end_lineno or node.lineno) + 1
        self.statement = tuple(range(node.lineno, max(end, node.lineno + 1)))
        try:
            return super().visit(node)
        finally:
            self.statement = outer

    # what is never mutated: docstrings, annotations, imports, `__all__`, `if TYPE_CHECKING`
    def _body(self, body: list) -> list:
        """A body's statements visited, its docstring left as it is."""
        first = body[0] if body else None
        if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str):
            return body[:1] + [self.visit(s) for s in body[1:]]
        return [self.visit(s) for s in body]

    def visit_Module(self, node):
        node.body = self._body(node.body)
        return node

    def visit_FunctionDef(self, node):
        node.decorator_list = [self.visit(d) for d in node.decorator_list]
        node.args = self._arguments(node.args)
        outermost = not self.function
        if outermost:
            self.function = ".".join(self.scope + [node.name])
        node.body = self._body(node.body)
        if outermost:
            self.function = ""
        return node

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_ClassDef(self, node):
        node.bases = [self.visit(b) for b in node.bases]
        node.decorator_list = [self.visit(d) for d in node.decorator_list]
        self.scope.append(node.name)
        node.body = self._body(node.body)
        self.scope.pop()
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

    def visit_Assign(self, node):
        if any(isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets):
            return node  # what `import *` takes: the tests import names one by one
        return self.generic_visit(node)

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
    for i, (line, lines, what, function) in enumerate(counter.points):
        m = _Mutator(i, skip)
        mutated = ast.fix_missing_locations(m.visit(copy.deepcopy(tree)))
        if ast.dump(mutated) == original:
            continue
        out.append(Mutant(i, line, lines, what, function, compile(mutated, str(path), "exec", dont_inherit=True)))
    return out


# --- running the mutants -------------------------------------------------------
#
# The campaign runs inside one pytest session over the module's tests (this
# file loaded as a plugin, ``-p tests.mutate``): once collected, every run
# is a forked child of it, so each costs the time of its tests only. A
# change inside a function is made by giving that function its mutated code
# (every reference to it sees the change); a change at module or class level
# (run once, at import) is run in a new pytest process that imports the
# mutated module in place of the original (SITECUSTOMIZE).

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

PYTEST = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:xdist", "-p", "no:randomly",
          "--no-header", "-o", "addopts=", "-W", "ignore"]


def _env(**extra: str) -> Dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PENGUIN_MUTANT_")}
    env["PENGUIN_LINT_JOBS"] = "1"  # the engine in the test's own process, where the mutant is
    env.pop("PYTEST_ADDOPTS", None)
    env.update(extra)
    return env


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


def _code_named(code, qualname: str):
    """The code object of the function ``qualname`` inside a module's code."""
    for c in code.co_consts:
        if hasattr(c, "co_code"):
            if getattr(c, "co_qualname", None) == qualname:
                return c
            found = _code_named(c, qualname)
            if found is not None:
                return found
    return None


def _function_named(module, qualname: str):
    """The function object ``qualname`` of ``module`` (a method through its class)."""
    obj, owner = module, None
    for part in qualname.split("."):
        owner, obj = obj, (vars(obj).get(part) if isinstance(obj, type) else getattr(obj, part, None))
    for attr in ("__func__", "fget"):  # staticmethod, classmethod, property
        obj = getattr(obj, attr, obj)
    while hasattr(obj, "__wrapped__"):
        obj = obj.__wrapped__
    return obj if hasattr(obj, "__code__") else None


class _Session:
    """The campaign of one module, inside a pytest session."""

    def __init__(self, session, plan: dict):
        self.session, self.plan = session, plan
        self.items = {item.nodeid: item for item in session.items}
        self.err = os.fdopen(os.dup(2), "w", buffering=1)

    def say(self, text: str) -> None:
        if not self.plan.get("quiet"):
            self.err.write(text + "\n")

    # a forked child: its output thrown away, its own process group and temporary folder
    def _fork(self, body) -> int:
        pid = os.fork()
        if pid:
            return pid
        code = 4
        try:
            os.setpgid(0, 0)
            null = os.open(os.devnull, os.O_WRONLY)
            os.dup2(null, 1)
            os.dup2(null, 2)
            factory = self.session.config._tmp_path_factory
            factory._basetemp = Path(tempfile.mkdtemp(prefix="m-", dir=str(factory.getbasetemp())))
            try:
                code = body()
            finally:
                import shutil

                shutil.rmtree(str(factory._basetemp), ignore_errors=True)
        finally:
            os._exit(code)

    def _run(self, ids: Sequence[str], tracer=None) -> int:
        items = [self.items[i] for i in ids]
        hook = self.session.config.hook
        import threading

        for i, item in enumerate(items):
            if tracer is not None:
                t = tracer(item.nodeid)
                sys.settrace(t)
                threading.settrace(t)  # the threads a test starts (a loader's, a server's)
            hook.pytest_runtest_protocol(item=item, nextitem=items[i + 1] if i + 1 < len(items) else None)
            sys.settrace(None)
            threading.settrace(None)
            if self.session.testsfailed and tracer is None:
                return 1
        return 1 if self.session.testsfailed else 0

    def trace(self, path: Path) -> Tuple[Dict[str, Set[int]], Dict[str, float]]:
        out = Path(self.plan["work"]) / "trace.json"
        failed: List[str] = []

        def body() -> int:
            lines: Dict[str, Set[int]] = {}
            durations: Dict[str, float] = {}
            last = [None, 0.0]

            def tracer(nodeid):
                if last[0] is not None:
                    durations[last[0]] = time.perf_counter() - last[1]
                last[0], last[1] = nodeid, time.perf_counter()
                return _tracer(str(path), lines.setdefault(nodeid, set()))

            class Failures:
                @staticmethod
                def pytest_runtest_logreport(report):
                    if report.failed:
                        failed.append(report.nodeid)

            self.session.config.pluginmanager.register(Failures(), "mutate-failures")
            self._run(list(self.items), tracer)
            if last[0] is not None:
                durations[last[0]] = time.perf_counter() - last[1]
            out.write_text(json.dumps({"lines": {k: sorted(v) for k, v in lines.items()},
                                       "durations": durations, "failed": failed}))
            return 0

        pid = self._fork(body)
        _, status = os.waitpid(pid, 0)
        if not out.exists():
            raise SystemExit("the tests could not be traced")
        data = json.loads(out.read_text())
        failed = set(data["failed"])
        if failed:
            # a test that fails unmutated (one timed, slowed down by the tracer) would kill every mutant
            self.say("  left out, they fail before any mutation:\n    " + "\n    ".join(sorted(failed)))
        return {k: set(v) for k, v in data["lines"].items() if k not in failed}, data["durations"]

    def start(self, m: Mutant, module, ids: List[str]):
        """A running mutant: (pid or process, whether forked)."""
        original = _function_named(module, m.function) if m.function else None
        new = _code_named(m.code, m.function) if original is not None else None
        if new is not None and len(new.co_freevars) == len(original.__code__.co_freevars):
            def body() -> int:
                original.__code__ = new
                return self._run(ids)
            return self._fork(body), True
        code = Path(self.plan["work"]) / f"mutant-{m.index}.bin"
        code.write_bytes(marshal.dumps(m.code))
        pythonpath = os.pathsep.join(p for p in (self.plan["work"], os.environ.get("PYTHONPATH")) if p)
        proc = subprocess.Popen(PYTEST + ["-x", *ids], cwd=self.plan["root"], stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL, start_new_session=True,
                                env=_env(PYTHONPATH=pythonpath,
                                         **{ENV_MODULE: self.plan["module"], ENV_CODE: str(code)}))
        return proc, False

    def campaign(self) -> List[dict]:
        import importlib

        plan = self.plan
        path = Path(plan["path"])
        module = importlib.import_module(plan["module"])
        _preimport(plan["module"].partition(".")[0])
        all_mutants = mutants(path)
        chosen = all_mutants
        if plan.get("sample") is not None and plan["sample"] < len(all_mutants):
            chosen = sorted(random.Random(plan.get("seed", 0)).sample(all_mutants, plan["sample"]),
                            key=lambda m: m.index)
        if plan.get("only"):
            chosen = [m for m in chosen if m.index in set(plan["only"])]
        Path(plan["work"], "sitecustomize.py").write_text(
            SITECUSTOMIZE.format(code=ENV_CODE, module=ENV_MODULE, origin=str(path)))
        self.session.config._tmp_path_factory.getbasetemp()  # made once, shared by every child
        self.say(f"{plan['module']}: {len(all_mutants)} mutants, {len(chosen)} to run; "
                 f"tracing {len(self.items)} tests")
        began = time.perf_counter()
        reached, durations = self.trace(path)
        # a change at module or class level (a constant, a rule's documentation) is run against
        # every test, those that read it without running the module's code (the docs') included
        anywhere = sorted(reached)
        self.say(f"  traced in {time.perf_counter() - began:.0f}s: "
                 f"{sum(1 for lines in reached.values() if lines)} tests reach the module")
        results: List[dict] = []
        queue = list(chosen)
        running: Dict[int, tuple] = {}
        jobs = max(1, int(plan.get("jobs") or 1))
        n = 0
        while queue or running:
            while queue and len(running) < jobs:
                m = queue.pop(0)
                pool = [t for t, lines in reached.items() if lines.intersection(m.lines)] if m.function \
                    else anywhere
                ids = sorted(pool, key=lambda t: durations.get(t, 0.0))
                if not ids:
                    n += 1
                    results.append(self._result(m, "unreached", 0, 0.0, n, len(chosen)))
                    continue
                budget = plan.get("timeout") or 3 * sum(durations.get(t, 0.0) for t in ids) + 10
                handle, forked = self.start(m, module, ids)
                if not forked:
                    budget += 30
                key = handle if forked else -handle.pid
                running[key] = (m, handle, forked, time.perf_counter(), budget, len(ids))
            time.sleep(0.02)
            for key, (m, handle, forked, t0, budget, count) in list(running.items()):
                if forked:
                    pid, status = os.waitpid(handle, os.WNOHANG)
                    rc = None if pid == 0 else os.waitstatus_to_exitcode(status)
                else:
                    rc = handle.poll()
                took = time.perf_counter() - t0
                if rc is None and took > budget:
                    pid = handle if forked else handle.pid
                    try:
                        os.killpg(pid, signal.SIGKILL)
                    except ProcessLookupError:
                        pass
                    os.waitpid(handle, 0) if forked else handle.wait()
                    rc = "timeout"
                if rc is None:
                    continue
                del running[key]
                verdict = "timeout" if rc == "timeout" else "survived" if rc == 0 else \
                    "killed" if rc in (1, 2, 3) else f"error {rc}"
                n += 1
                results.append(self._result(m, verdict, count, took, n, len(chosen)))
        return sorted(results, key=lambda r: r["index"])

    def _result(self, m: Mutant, verdict: str, tests: int, took: float, n: int, total: int) -> dict:
        self.say(f"  [{n}/{total}] line {m.line}: {verdict}" + (f" ({tests} tests, {took:.1f}s)" if tests else ""))
        return {"index": m.index, "line": m.line, "what": m.what, "verdict": verdict, "tests": tests,
                "seconds": round(took, 2)}


def _preimport(top: str) -> None:
    """Import the package's modules once, before forking, so that no child pays for it."""
    import importlib
    import pkgutil

    package = sys.modules[top]
    for info in pkgutil.walk_packages(getattr(package, "__path__", []), top + "."):
        if info.name.endswith(".__main__"):
            continue  # it runs the command line
        try:
            importlib.import_module(info.name)
        except Exception:  # an optional dependency missing: the tests that need it skip
            pass


try:
    import pytest
except ImportError:  # pragma: no cover - the campaign runs under pytest
    pytest = None

if pytest is not None:
    @pytest.hookimpl(tryfirst=True)
    def pytest_runtestloop(session):  # a hook when loaded with -p tests.mutate
        raw = os.environ.get(ENV_PLAN)
        if not raw:
            return None
        plan = json.loads(raw)
        try:
            results = _Session(session, plan).campaign()
        except SystemExit as e:
            results = {"error": str(e)}
        Path(plan["out"]).write_text(json.dumps(results))
        return True


# --- the command -----------------------------------------------------------------

def resolve(name: str, root: Path = PROJECT) -> Tuple[str, Path]:
    """(dotted module name, path) of ``name``, given either way, under ``root``."""
    if name.endswith(".py") or "/" in name:
        path = (root / name).resolve()
        dotted = ".".join(path.relative_to(root.resolve()).with_suffix("").parts)
    else:
        dotted, path = name, root.joinpath(*name.split(".")).with_suffix(".py")
    if dotted.endswith(".__init__") or not path.is_file():
        raise SystemExit(f"{name}: not a module file of the project (packages' __init__ are not mutated)")
    return dotted, path


def default_tests(dotted: str) -> List[str]:
    if dotted in TESTS:
        return TESTS[dotted]
    parts = dotted.split(".")
    folder = FOLDERS.get(parts[1], "rules") if len(parts) > 2 else "rules"
    return [f"tests/{folder}"]


def campaign(dotted: str, path: Path, tests: Sequence[str], sample: Optional[int] = None, seed: int = 0,
             timeout: Optional[float] = None, jobs: int = 1, only: Sequence[int] = (),
             quiet: bool = False, root: Path = PROJECT) -> List[dict]:
    """Run the campaign of one module (``dotted``, importable from ``root``, where
    the tests run); its mutants' results."""
    if sys.version_info < (3, 11):
        raise SystemExit("the mutation campaign needs Python 3.11 or later (code objects' co_qualname)")
    with tempfile.TemporaryDirectory(prefix="mutate-") as work:
        out = Path(work) / "results.json"
        plan = {"module": dotted, "path": str(path), "sample": sample, "seed": seed, "timeout": timeout,
                "jobs": jobs, "only": list(only), "work": work, "out": str(out), "quiet": quiet, "root": str(root)}
        # the plugin (this file) is imported from the project, wherever the tests run
        pythonpath = os.pathsep.join(p for p in (str(PROJECT), os.environ.get("PYTHONPATH")) if p)
        proc = subprocess.run(PYTEST + ["-p", "tests.mutate", "--basetemp", str(Path(work) / "tmp"), *tests],
                              cwd=root, env=_env(PYTHONPATH=pythonpath, **{ENV_PLAN: json.dumps(plan)}),
                              stdout=subprocess.PIPE, stderr=None, text=True)
        if not out.exists():
            raise SystemExit(f"the campaign did not run (pytest exited {proc.returncode}):\n{proc.stdout[-3000:]}")
        results = json.loads(out.read_text())
    if isinstance(results, dict):
        raise SystemExit(results["error"])
    return results


def report(dotted: str, path: Path, results: List[dict], root: Path = PROJECT) -> str:
    """The survivors with their lines, then the kill rate."""
    lines = path.read_text(encoding="utf-8").splitlines()
    rel = path.relative_to(root)
    survivors = [r for r in results if r["verdict"] in ("survived", "unreached")]
    errors = [r for r in results if r["verdict"].startswith("error")]
    out = []
    for r in survivors:
        tag = "no test reaches it" if r["verdict"] == "unreached" else f"passes {r['tests']} tests"
        out.append(f"{rel}:{r['line']}: #{r['index']} {r['what']}  [{tag}]")
        out.append(f"    {lines[r['line'] - 1].strip()}")
    for r in errors:
        out.append(f"{rel}:{r['line']}: #{r['index']} {r['what']}  [the run failed: {r['verdict']}]")
    counted = len(results) - len(errors)
    killed = counted - len(survivors)
    rate = 100.0 * killed / counted if counted else 100.0
    out.append(f"{dotted}: {killed} of {counted} mutants killed ({rate:.0f}%), {len(survivors)} survived")
    return "\n".join(out)


def main(argv: Optional[Sequence[str]] = None) -> int:
    p = argparse.ArgumentParser(prog="python -m tests.mutate", description=__doc__.split("\n\n")[0])
    p.add_argument("modules", nargs="+", metavar="MODULE", help="a module, dotted or as a path")
    p.add_argument("--sample", type=int, help="run K mutants drawn at random (by --seed) instead of all")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--only", type=int, nargs="+", default=(), metavar="N", help="run only these mutants (#N)")
    p.add_argument("--tests", nargs="+", help="the tests to trace (default: the module's own, see TESTS)")
    p.add_argument("--timeout", type=float, help="seconds per mutant (default: 3x its tests' traced time + 10)")
    p.add_argument("--jobs", type=int, default=1, help="mutants run at once")
    p.add_argument("--list", action="store_true", help="list the mutants; run none")
    p.add_argument("--root", type=Path, default=PROJECT, help="where the module and its tests are (the project)")
    a = p.parse_args(argv)
    survived = 0
    for name in a.modules:
        dotted, path = resolve(name, a.root)
        if a.list:
            for m in mutants(path):
                where = f" in {m.function}" if m.function else ""
                print(f"{path.relative_to(a.root.resolve())}:{m.line}: #{m.index} {m.what}{where}")
            continue
        results = campaign(dotted, path, a.tests or default_tests(dotted), a.sample, a.seed, a.timeout, a.jobs,
                           a.only, root=a.root.resolve())
        print(report(dotted, path, results, a.root.resolve()), flush=True)
        survived += sum(r["verdict"] in ("survived", "unreached") for r in results)
    return 1 if survived else 0


if __name__ == "__main__":
    sys.exit(main())
