"""Every code block of the README and docs/ is checked by the suite: commands run (penguin-lint's
in a copy of the example repository, with the files they name), sample output is what the tool
prints, TOML, YAML and JSON parse and configuration examples load, the Python example runs.
A block no check knows fails the suite, so a new snippet cannot go unchecked."""
from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
from pathlib import Path
from typing import List, NamedTuple

import pytest
import yaml

try:
    import tomllib
except ImportError:  # Python < 3.11
    import tomli as tomllib

from penguin_lint.core.config import parse_config
from penguin_lint.core.layout import FILE_KINDS
from penguin_lint.rules import rule_codes
from penguin_lint.address import PROJECT_URL
from penguin_lint.version import __version__
from tests.conftest import lint
from tests.pr.test_blame import EXP1, commit, debt, edit, meta  # noqa: F401  (debt is a fixture)
from tests.gate.test_gate_suppressions import SUMMARY, WRONG_MEAN, change, pr  # noqa: F401  (pr is a fixture)

PROJECT = Path(__file__).resolve().parents[2]
FENCE = re.compile(r"^(`{3,})(\w*)\n(.*?)^\1[ \t]*$", re.S | re.M)


class Block(NamedTuple):
    page: str
    lang: str
    text: str

    @property
    def id(self) -> str:
        return f"{self.page}:{self.text.splitlines()[0][:40] if self.text else ''}"


# Pages whose blocks another test file checks, block by block (they configure
# other programs: editors, a CI matrix).
CHECKED_ELSEWHERE = {
    "docs/editors.md": "tests/integration/test_editors.py",
    "docs/sharding.md": "tests/docs/test_docs_sharding.py",
}


def blocks() -> List[Block]:
    pages = [PROJECT / "README.md", *sorted((PROJECT / "docs").glob("*.md"))]
    pages = [p for p in pages if p.relative_to(PROJECT).as_posix() not in CHECKED_ELSEWHERE]
    return [Block(p.relative_to(PROJECT).as_posix(), m.group(2), m.group(3))
            for p in pages for m in FENCE.finditer(p.read_text(encoding="utf-8"))]


def test_pages_checked_elsewhere_are_checked_there():
    for page, test in CHECKED_ELSEWHERE.items():
        if (PROJECT / page).exists():
            assert page in (PROJECT / test).read_text(encoding="utf-8"), (page, test)


ALL = blocks()


def of(lang: str, page: str = "", start: str = "") -> List[Block]:
    return [b for b in ALL if b.lang == lang and b.page.endswith(page) and b.text.startswith(start)]


def one(lang: str, page: str, start: str = "") -> Block:
    (block,) = of(lang, page, start)
    return block


# -- commands ---------------------------------------------------------------------------------

def commands(block: Block) -> List[str]:
    """The commands of a bash block (every line) or a console block (the `$ ` lines), comments
    dropped, `a && b` split."""
    lines = block.text.splitlines()
    if block.lang == "console":
        lines = [ln[2:] for ln in lines if ln.startswith("$ ")]
    out = []
    for line in lines:
        words = shlex.split(line, comments=True)
        while words:
            cut = words.index("&&") if "&&" in words else len(words)
            out.append(shlex.join(words[:cut]))
            words = words[cut + 1:]
    return out


# What a command that is not penguin-lint's is checked by (it installs, or it is the suite).
OTHER_COMMANDS = {
    "python3 -m venv .venv": "the standard library",
    ".venv/bin/pip install -q .": "test_the_install_commands_name_what_exists",
    "pip install .": "test_the_install_commands_name_what_exists",
    ".venv/bin/pip install -q '.[test]'": "test_the_install_commands_name_what_exists",
    f"pip install 'git+{PROJECT_URL}@<commit-sha>'": "test_the_install_commands_name_what_exists",
    f"pip install 'git+{PROJECT_URL}@v{__version__}'": "tests/package/test_release.py (the pin is this release)",
    f"pip install penguin_lint-{__version__}-py3-none-any.whl": ".ci/release-check (the wheel installed alone)",
    ".venv/bin/python -m pytest -q -n auto": "this suite",
    "pip install pre-commit": "tests/integration/test_precommit.py",
    "pre-commit install": "tests/integration/test_precommit.py",
    "git commit -m 'Add sql-puzzles'": "tests/integration/test_precommit.py",
}
# Words a reader replaces, and what the sandbox has in their place.
PLACEHOLDERS = {"PATH...": "packages"}
# Blocks whose output is compared with the tool's by a test below.
OUTPUT_CHECKED = {
    ("docs/configuration.md", "$ penguin-lint --all\n"): "test_configuration_error_example",
    ("docs/fix.md", "$ penguin-lint --all --fix --diff"): "test_fix_example",
    ("docs/pre-commit.md", "$ pip install pre-commit"): "test_pre_commit_example_output",
    ("docs/preview.md", "$ penguin-lint preview --root examples/clean"): "test_preview_example",
    ("docs/preview.md", "$ penguin-lint preview --root fixed-copy"): "test_preview_before_example",
    ("docs/preview.md", "$ penguin-lint preview --root examples/harbor"): "test_preview_harbor_example",
    ("docs/pull-requests.md", "$ penguin-lint --diff-base main"): "test_pull_request_example",
}


def penguin_commands() -> List[tuple]:
    out = []
    for b in ALL:
        if b.lang not in ("bash", "console"):
            continue
        if any(b.page == page and b.text.startswith(start) for page, start in OUTPUT_CHECKED):
            continue
        for cmd in commands(b):
            words = shlex.split(cmd)
            name = words[0].rsplit("/", 1)[-1]
            if name == "penguin-lint":
                out.append(pytest.param([PLACEHOLDERS.get(w, w) for w in words[1:]], id=f"{b.page}: {cmd}"))
    return out


@pytest.fixture(scope="module")
def sandbox(tmp_path_factory):
    """A copy of the example repository as a git repository, with what the docs' commands name:
    an origin/main, a tag v1.2.0, Harbor files where Harbor keeps them and where `[kinds]` or
    `--kind` would find them, the examples beside it, this project's docs."""
    work = tmp_path_factory.mktemp("docs")
    shutil.copytree(PROJECT / "examples", work / "examples")
    root = work / "repo"
    shutil.copytree(PROJECT / "examples/repo", root)
    shutil.copytree(PROJECT / "examples/harbor/clean/leaderboard", root / "leaderboard")
    (root / "boards").mkdir()
    definition = yaml.safe_load((root / "leaderboard/leaderboard.yaml").read_text(encoding="utf-8"))
    (root / "boards/main.json").write_text(json.dumps(definition, indent=2), encoding="utf-8")
    (root / "results").mkdir()
    shutil.copy(root / "leaderboard/rows.yaml", root / "results/2026-11.yaml")
    shutil.copytree(PROJECT / "docs", root / "docs")
    env = dict(os.environ, GIT_AUTHOR_NAME="T", GIT_AUTHOR_EMAIL="t@example.com", GIT_COMMITTER_NAME="T",
               GIT_COMMITTER_EMAIL="t@example.com", GIT_CONFIG_NOSYSTEM="1", GIT_CONFIG_GLOBAL=os.devnull)
    for args in (["init", "-q", "-b", "main"], ["add", "-A"], ["commit", "-q", "-m", "base"],
                 ["update-ref", "refs/remotes/origin/main", "HEAD"],
                 ["symbolic-ref", "refs/remotes/origin/HEAD", "refs/remotes/origin/main"], ["tag", "v1.2.0"]):
        subprocess.run(["git", *args], cwd=root, env=env, check=True, capture_output=True)
    return work


@pytest.mark.parametrize("args", penguin_commands())
def test_every_penguin_lint_command_runs(args, sandbox, monkeypatch):
    # With --root the command runs beside the examples; without, in the repository.
    monkeypatch.chdir(sandbox if "--root" in args else sandbox / "repo")
    run = lint(None, *args)
    assert run.code in (0, 1), run.output + run.stderr
    assert "Traceback" not in run.output + run.stderr
    if args[:2] == ["rules", "--write-docs"]:
        assert run.output.strip() == "0 generated file(s) changed"  # the docs are what it writes


def test_every_other_command_is_one_the_suite_knows():
    other = {cmd for b in ALL if b.lang in ("bash", "console") for cmd in commands(b)
             if shlex.split(cmd)[0].rsplit("/", 1)[-1] != "penguin-lint"}
    assert sorted(other - set(OTHER_COMMANDS)) == []


def test_the_install_commands_name_what_exists():
    project = tomllib.loads((PROJECT / "pyproject.toml").read_text(encoding="utf-8"))
    assert project["project"]["name"] == "penguin-lint" and "test" in project["project"]["optional-dependencies"]
    assert "penguin-lint" in project["project"]["scripts"]
    assert PROJECT_URL.endswith("/penguin-lint")  # pip installs the project at that address


def test_every_console_block_with_output_is_compared_with_the_tool():
    with_output = [b for b in of("console") if any(not ln.startswith("$ ") for ln in b.text.splitlines())]
    unchecked = [b.id for b in with_output
                 if not any(b.page == page and b.text.startswith(start) for page, start in OUTPUT_CHECKED)]
    assert unchecked == []
    for page, start in OUTPUT_CHECKED:
        assert of("console", page, start), (page, start)


def test_every_block_is_checked():
    """A block of a language no check reads fails: add its check here."""
    checked = {"bash", "console", "text", "toml", "yaml", "json", "python"}
    assert sorted({b.id for b in ALL if b.lang not in checked}) == []


def output_of(block: Block) -> List[str]:
    return [ln for ln in block.text.splitlines() if not ln.startswith("$ ")]


def text_run(cwd: Path, *args: str, monkeypatch) -> List[str]:
    monkeypatch.chdir(cwd)
    run = lint(None, *args)
    return (run.output + run.stderr).splitlines()


def test_readme_example_output_is_what_the_example_repository_gives(monkeypatch):
    got = text_run(PROJECT, "--all", "--root", "examples/repo", "--no-cache", monkeypatch=monkeypatch)
    block = one("text", "README.md", "experiments/")
    lines = block.text.splitlines()
    for finding, hint in zip(lines[::2], lines[1::2]):
        assert finding in got
        assert got[got.index(finding) + 1] == hint


def test_harbor_example_output(monkeypatch):
    got = text_run(PROJECT, "--all", "--root", "examples/harbor/broken", "--no-cache", monkeypatch=monkeypatch)
    lines = one("text", "harbor.md", "leaderboard/rows.yaml").text.splitlines()
    assert got[got.index(lines[0]):got.index(lines[0]) + 2] == lines


def test_configuration_error_example(sandbox, monkeypatch, tmp_path):
    block = one("console", "configuration.md")
    root = tmp_path / "repo"
    shutil.copytree(PROJECT / "examples/repo", root)
    (root / ".penguin-lint.toml").write_text('select = ["PL999"]\n')
    monkeypatch.chdir(root)
    run = lint(None, *shlex.split(commands(block)[0])[1:])
    assert run.code == 2
    assert run.stderr.splitlines() == output_of(block)


def example_copy(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    shutil.copytree(PROJECT / "examples/repo", root)
    return root


def test_fix_example(tmp_path, monkeypatch):
    block = one("console", "fix.md")
    root = example_copy(tmp_path)
    monkeypatch.chdir(root)
    expected, got = [], []
    for part in re.split(r"^(?=\$ )", block.text, flags=re.M)[1:]:
        cmd, *shown = part.rstrip("\n").split("\n")
        run = lint(None, *shlex.split(cmd[2:], comments=True)[1:], "--no-cache")
        expected += [ln for ln in shown if ln != "..."]
        got += [ln for ln in (run.output + run.stderr).splitlines() if ln in shown]
    assert got == expected


def test_pre_commit_example_output(tmp_path, monkeypatch):
    # What the hook prints below pre-commit's own lines is penguin-lint's output for the staged file.
    block = one("console", "pre-commit.md")
    shown = output_of(block)
    fix_head = "penguin-lint (fix)" + "." * 55 + "Passed"
    ours = shown[shown.index("") + 1:shown.index(fix_head)]
    root = example_copy(tmp_path)
    monkeypatch.chdir(root)
    run = lint(None, "packages/sql-puzzles/benchmark_config.toml", "--no-cache")
    assert run.code == 1 and run.output.splitlines() == ours
    # the hook is verbose (its notices show on a passing commit): pre-commit adds its duration
    assert shown[:2] == ["penguin-lint" + "." * 61 + "Failed", "- hook id: penguin-lint"]
    assert re.fullmatch(r"- duration: \d+(\.\d+)?s", shown[2]) and shown[3] == "- exit code: 1"
    # then the fixing hook: nothing to repair, and what is left is not its to fail on
    run = lint(None, "--fix", "--exit-zero", "packages/sql-puzzles/benchmark_config.toml", "--no-cache")
    assert run.code == 0 and shown[-1] == fix_head


def test_preview_example(monkeypatch):
    block = one("console", "preview.md", "$ penguin-lint preview --root examples/clean")
    monkeypatch.chdir(PROJECT)
    run = lint(None, *shlex.split(commands(block)[0])[1:])
    assert run.code == 0 and run.output.splitlines() == output_of(block)


def test_preview_harbor_example(monkeypatch):
    block = one("console", "preview.md", "$ penguin-lint preview --root examples/harbor")
    monkeypatch.chdir(PROJECT)
    run = lint(None, *shlex.split(commands(block)[0])[1:])
    assert run.code == 0 and run.output.splitlines() == output_of(block)


def test_preview_before_example(tmp_path, monkeypatch):
    block = one("console", "preview.md", "$ penguin-lint preview --root fixed-copy")
    shutil.copytree(PROJECT / "examples", tmp_path / "examples")
    shutil.copytree(PROJECT / "examples/repo", tmp_path / "fixed-copy")
    monkeypatch.chdir(tmp_path / "fixed-copy")
    lint(None, "--all", "--fix", "--no-cache")
    monkeypatch.chdir(tmp_path)
    run = lint(None, *shlex.split(commands(block)[0])[1:])
    assert run.output.rstrip("\n").splitlines() == output_of(block)


def test_pull_request_example(debt):
    # A base with old debt elsewhere; the change edits one experiment's model_name and adds a
    # configuration that would ignore the leaderboard rules.
    block = one("console", "pull-requests.md", "$ penguin-lint --diff-base main")
    edit(debt, f"{EXP1}/meta_info.yaml", meta("exp-1", "bench-a", model="other-model"))
    edit(debt, ".penguin-lint.toml", 'ignore = ["PL4"]\n')
    commit(debt)
    run = lint(debt, *shlex.split(commands(block)[0])[1:], fmt="text")
    got = re.sub(r"against main \([0-9a-f]{7}\)", "against main (c6adf16)", run.output + run.stderr)
    assert got.splitlines() == output_of(block)


def test_suppression_examples(tmp_path, monkeypatch, pr):
    # The comment silences examples/repo's PL104 and is itself used.
    toml = one("toml", "suppressions.md", "# packages/").text
    root = example_copy(tmp_path / "example")
    config = root / "packages/code-review-test/benchmark_config.toml"
    config.write_text(config.read_text().replace("runs = 1\n", toml.splitlines()[1] + "\n"))
    run = lint(root, "--all", "--no-cache")
    assert "PL104" not in run.codes() and "PL008" not in run.codes()
    # A comment that suppresses nothing is PL008, at the place the example gives.
    pl008 = one("text", "suppressions.md", "packages/").text.splitlines()
    config.write_text(config.read_text().replace('status = "draft"\n', 'status = "draft"  # penguin-lint: disable=PL203\n'))
    assert pl008[0] in lint(root, "--all", "--no-cache", fmt="text").output.splitlines()
    # A suppression a change adds is a notice in the run that reviews it.
    notice = one("text", "suppressions.md", "experiments/").text.strip()
    change(pr, {SUMMARY: WRONG_MEAN})
    assert notice in lint(pr, "--diff-base", "main", fmt="text").output.splitlines()
    # disable-file is read as a suppression of its code for the whole file (here, where nothing
    # is unreferenced, one that suppresses nothing).
    comment = one("yaml", "suppressions.md").text
    meta_info = next(root.glob("experiments/*/*/meta_info.yaml"))
    meta_info.write_text(comment + meta_info.read_text())
    rel = meta_info.relative_to(root).as_posix()
    assert [(f["path"], f["line"]) for f in lint(root, "--all", "--no-cache").findings
            if f["code"] == "PL008" and "PL306" in f["message"]] == [(rel, 2)]


def test_layout_trees_name_the_files_penguin_lint_reads():
    from penguin_lint.core import layout
    source = Path(layout.__file__).read_text(encoding="utf-8")
    for block in of("text"):
        if "──" not in block.text:
            continue
        names = re.findall(r"([\w.*-]+\.(?:toml|yaml|md|json))", block.text)
        assert names, block.id
        for name in names:
            stem = name.split("*")[0].split("-<")[0].rsplit(".", 1)[0]
            assert stem in source or stem in {"README", "rows"}, (block.id, name)


def test_every_text_block_is_checked():
    checked = {one("text", "README.md", "experiments/").id, one("text", "harbor.md", "leaderboard/rows.yaml").id,
               *(b.id for b in of("text", "suppressions.md"))}
    trees = {b.id for b in of("text") if "──" in b.text}
    assert sorted({b.id for b in of("text")} - checked - trees) == []


# -- data ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("block", of("toml"), ids=lambda b: b.id)
def test_toml_blocks_parse_and_configurations_load(block):
    data = tomllib.loads(block.text)
    if not block.page.endswith("suppressions.md"):  # the rest are .penguin-lint.toml
        config = parse_config(block.text.encode(), FILE_KINDS, rule_codes())
        assert config is not None and data


@pytest.mark.parametrize("block", of("yaml"), ids=lambda b: b.id)
def test_yaml_blocks_parse(block):
    data = yaml.safe_load(block.text)
    assert data is not None or all(ln.startswith("#") for ln in block.text.splitlines())


def test_the_cache_step_is_a_step_list_for_the_actions_job():
    (block,) = of("yaml", "cache.md")
    steps = yaml.safe_load(block.text)
    assert [s.get("uses", s.get("run")) for s in steps] == ["actions/cache@v4", "penguin-lint --all"]
    assert steps[1]["env"]["PENGUIN_LINT_CACHE_DIR"] == steps[0]["with"]["path"]


@pytest.mark.parametrize("block", of("json"), ids=lambda b: b.id)
def test_json_blocks_parse_and_name_the_report_keys(block, tmp_path):
    shown = json.loads(block.text)
    real = lint(example_copy(tmp_path), "--all", "--no-cache").json
    assert set(shown) <= set(real) and set(shown["summary"]) <= set(real["summary"])
    assert set(shown["findings"][0]) == set(real["findings"][0])


def test_the_python_api_example_runs(tmp_path, monkeypatch):
    (block,) = of("python")
    bench = tmp_path / "bench"
    shutil.copytree(PROJECT / "examples/repo", bench)
    env = dict(os.environ, GIT_AUTHOR_NAME="T", GIT_AUTHOR_EMAIL="t@example.com", GIT_COMMITTER_NAME="T",
               GIT_COMMITTER_EMAIL="t@example.com", GIT_CONFIG_NOSYSTEM="1", GIT_CONFIG_GLOBAL=os.devnull)
    for args in (["init", "-q", "-b", "main"], ["add", "-A"], ["commit", "-q", "-m", "base"],
                 ["update-ref", "refs/remotes/origin/main", "HEAD"]):
        subprocess.run(["git", *args], cwd=bench, env=env, check=True, capture_output=True)
    monkeypatch.chdir(tmp_path)
    printed = []
    exec(compile(block.text, "docs/python-api.md", "exec"), {"print": lambda *a: printed.append(a)})
    # the last run: the leaderboard with only PL4 selected, its one planted mistake
    assert [p[:5] for p in printed[:-1]] == [("leaderboards/code-eval/leaderboard.yaml", 17, 5, "PL403", "error")]
    assert printed[-1] == (1, 0, 1)  # errors, warnings, files


# -- options named in the text ------------------------------------------------------------------

# Options of other programs that the docs name, with the program.
OTHER_OPTIONS = {
    "--minutes": "python -m tests.fuzz", "--huge": "python -m benchmarks.run", "--waits": "python -m benchmarks.run",
    "--repeat": "python -m benchmarks.run", "--editor": "python -m benchmarks.run",
    "--linter": "python -m benchmarks.run", "--instructions": "python -m benchmarks.run",
    "--scale": "python -m benchmarks.run", "--scale-top": "python -m benchmarks.run",
    "--no-deps": "pip", "--no-build-isolation": "pip", "--no-index": "pip", "--require-hashes": "pip",
    "--only-binary": "pip", "--config": "harbor hub leaderboard", "--rows": "harbor hub leaderboard",
    "--freeze": "pre-commit autoupdate", "--hook-stage": "pre-commit run", "--batch": "git cat-file",
    "--unshallow": "git fetch", "--porcelain": "git status", "--events": "benchmarks/parse_floor.py",
    "--ours": "benchmarks/parse_floor.py", "--cached": "git diff-index",
    "--prefix": "npm",
    "--sample": "python -m tests.mutate", "--tests": "python -m tests.mutate",
}


def test_every_option_the_docs_name_exists():
    from penguin_lint import cli
    known = set(OTHER_OPTIONS)
    for command in (cli.lint, *cli.SUBCOMMANDS.values()):
        for param in command.params:
            known |= {o for o in param.opts + param.secondary_opts if o.startswith("--")}
    unknown = {}
    for page in [PROJECT / "README.md", *sorted((PROJECT / "docs").glob("*.md"))]:
        for span in re.findall(r"`([^`\n]+)`", page.read_text(encoding="utf-8")):
            for option in re.findall(r"(?<![\w-])--[a-z][a-z0-9-]*", span):
                if option not in known:
                    unknown.setdefault(option, page.name)
    assert unknown == {}


# -- the rule pages' examples ---------------------------------------------------------------------

def rule_page_examples():
    out = []
    for page in sorted((PROJECT / "docs/rules").glob("PL*.md")):
        text = page.read_text(encoding="utf-8")
        for label, m in zip(re.findall(r"^(Bad|Good), `", text, re.M), FENCE.finditer(text)):
            if m.group(2) != "text":  # a text example describes a link or a folder, not a file's text
                out.append(pytest.param(page.stem, label, m.group(2), m.group(3), id=f"{page.stem}-{label}"))
    return out


@pytest.mark.parametrize("code,label,lang,text", rule_page_examples())
def test_rule_page_examples_are_data_as_written(code, label, lang, text):
    """A good example is a file that loads; so is a bad one, unless what it shows is that the file
    does not load (PL001)."""
    loads = {"yaml": yaml.safe_load, "toml": tomllib.loads, "json": json.loads}[lang]
    if code == "PL001" and label == "Bad":
        with pytest.raises(Exception):
            loads(text)
    else:
        loads(text)
