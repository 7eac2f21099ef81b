"""The package as installed: every folder of it is a package the build ships."""
import re
from pathlib import Path

PROJECT = Path(__file__).resolve().parents[2]


def test_every_package_folder_is_listed_for_the_build():
    listed = set(re.findall(r'"(penguin_lint(?:\.\w+)*)"', (PROJECT / "pyproject.toml").read_text()))
    found = {".".join(p.parent.relative_to(PROJECT).parts) for p in (PROJECT / "penguin_lint").rglob("__init__.py")}
    assert found - listed == set()


def _imports():
    """module -> the package modules it imports, wherever the import is
    written (in a function, under TYPE_CHECKING)."""
    import ast

    root = PROJECT / "penguin_lint"
    modules = {}
    for path in root.rglob("*.py"):
        parts = path.relative_to(PROJECT).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        modules[name] = path
    edges = {m: set() for m in modules}
    for name, path in modules.items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                assert node.level == 0, f"{name}: relative import"
                subs = [f"{node.module}.{a.name}" for a in node.names if f"{node.module}.{a.name}" in modules]
                targets = subs + ([node.module] if len(subs) < len(node.names) else [])
            elif isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            else:
                continue
            edges[name].update(t for t in targets if t in modules and t != name)
    return edges


def _cycle(edges):
    state = {}

    def visit(m, stack):
        state[m] = 1
        for n in sorted(edges[m]):
            if state.get(n) == 1:
                return stack[stack.index(n):] + [n]
            if n not in state:
                found = visit(n, stack + [n])
                if found:
                    return found
        state[m] = 2
        return None

    for m in sorted(edges):
        if m not in state:
            found = visit(m, [m])
            if found:
                return found
    return None


def test_no_import_cycle_counting_lazy_and_type_only_imports():
    edges = _imports()
    assert len(edges) > 100
    assert _cycle(edges) is None, " -> ".join(_cycle(edges))


def test_the_cycle_finder_finds_one():
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": set()}) == ["a", "b", "c", "a"]


def test_lower_layers_do_not_import_the_ones_above():
    """findings, loaders and validation know no rule, engine, pull request
    or output; the rules know no pull request, cache or GitHub; output
    safety imports nothing of the package and the reporters nothing of
    GitHub; nothing below the command line imports it."""
    edges = _imports()
    below = {
        "penguin_lint.findings": ("penguin_lint.",),
        "penguin_lint.records": ("penguin_lint.",),
        "penguin_lint.loaders": ("penguin_lint.rules", "penguin_lint.engine", "penguin_lint.pr",
                                 "penguin_lint.cache", "penguin_lint.github", "penguin_lint.pipeline"),
        "penguin_lint.validation": ("penguin_lint.rules", "penguin_lint.engine", "penguin_lint.pr",
                                    "penguin_lint.cache", "penguin_lint.github", "penguin_lint.pipeline"),
        "penguin_lint.core": ("penguin_lint.rules", "penguin_lint.engine", "penguin_lint.pr",
                              "penguin_lint.github", "penguin_lint.pipeline"),
        "penguin_lint.rules": ("penguin_lint.pr", "penguin_lint.cache", "penguin_lint.github",
                               "penguin_lint.pipeline", "penguin_lint.engine.runner"),
        # output safety sits below both the reporters and GitHub
        "penguin_lint.output": ("penguin_lint.",),
        "penguin_lint.reporters": ("penguin_lint.github",),
    }
    for module, imported in edges.items():
        for layer, banned in below.items():
            if module == layer or module.startswith(layer + "."):
                # records (dataclasses made on first use) is below every layer
                bad = [i for i in imported if i.startswith(banned) and not i.startswith(layer)
                       and i != "penguin_lint.records"]
                assert not bad, f"{module} imports {bad}"
        if module != "penguin_lint.__main__":
            assert "penguin_lint.cli" not in imported, module


def test_the_cache_key_follows_every_module_verdicts_come_from():
    """An edited checkout must not reuse the verdicts of the code before the
    edit: the cache's code stamp names every module of the layers that make
    verdicts, wherever they live in the package."""
    from penguin_lint.cache.settings import _code_stamp

    stamped = {line.rsplit(" ", 2)[0] for line in _code_stamp().splitlines()}
    for rel in ("findings.py", "suppressions.py", "core/config.py", "core/repo.py", "engine/runner.py",
                "engine/context.py", "loaders/yaml_fast.py", "rules/pl303_summary_mismatch.py",
                "validation/schema.py"):
        assert rel in stamped, rel
        assert (PROJECT / "penguin_lint" / rel).is_file()
