"""docs/editors.md and `penguin-lint schemas`: the editor snippets parse, and
every schema association they make names an existing schema and matches
exactly the files of its kind."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import tomli

from penguin_lint.address import SCHEMA_ID_PREFIX
from penguin_lint.core.config import Config
from penguin_lint.core.layout import FILE_KINDS, Layout
from tests.conftest import lint

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "editors.md"
SCHEMAS = ROOT / "schemas"
SCHEMA_DIR = ".schemas"


def _blocks(lang: str):
    return re.findall(r"```" + lang + r"\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)


def _regex(glob: str, suffix: bool) -> "re.Pattern":
    """A glob as the editors read it: ``*`` within one folder, ``**/`` any
    folders; yaml-language-server and VS Code match the end of a path
    (``suffix``), taplo the path from the configuration's folder."""
    out = ""
    i = 0
    while i < len(glob):
        if glob.startswith("**/", i):
            out += "(?:.*/)?"
            i += 3
        elif glob[i] == "*":
            out += "[^/]*"
            i += 1
        else:
            out += re.escape(glob[i])
            i += 1
    return re.compile(("(?:^|.*/)" if suffix else "^") + out + r"\Z")


def _schema_name(path: str) -> str:
    assert path.startswith(("./" + SCHEMA_DIR + "/", SCHEMA_DIR + "/")), path
    name = path.rsplit("/", 1)[1]
    assert (SCHEMAS / name).is_file(), f"no schema {name}"
    return name


def _globs(value):
    return [value] if isinstance(value, str) else list(value)


def _lua_schemas(lua: str):
    """yamlls' ``schemas`` table of the Neovim snippet: ["path"] = "glob" or { "glob", ... }."""
    assert lua.count("{") == lua.count("}") and lua.count("(") == lua.count(")") and lua.count('"') % 2 == 0
    out = {}
    for key, value in re.findall(r'\["([^"]+)"\]\s*=\s*(\{[^}]*\}|"[^"]*")', lua):
        out[key] = re.findall(r'"([^"]*)"', value)
    return out


# Harbor's other spellings, and files that lie near the layout's without being its
OTHER_PATHS = ["leaderboard/leaderboard.yml", "leaderboard/leaderboard.json", "hub/leaderboard/rows-2.yml",
               "leaderboard/rows.json", "leaderboards/lb/notes.yaml", "experiments/lb/exp/test/attempt-1.json",
               "experiments/lb/exp/test/notes.yaml", "packages/bench/notes.toml"]


def _example_files():
    """(path relative to its repository, the schema of its kind or None) for
    every file of the examples and a few more."""
    layout = Layout(Config())
    paths = list(OTHER_PATHS)
    for repo in ("repo", "clean", "harbor"):
        base = ROOT / "examples" / repo
        paths += [p.relative_to(base).as_posix() for p in sorted(base.rglob("*")) if p.is_file()]
    out = []
    for rel in paths:
        kind = layout.classify_file(rel)
        out.append((rel, FILE_KINDS[kind[0]] + ".json" if kind else None))
    return out


def _check(associations, suffix: bool, kinds):
    """Each association names a schema and matches files of its kind only,
    one at least; every schema of ``kinds`` is associated."""
    files = _example_files()
    assert {schema for schema, _ in associations} == set(kinds)
    for schema, glob in associations:
        rx = _regex(glob, suffix)
        matched = [(rel, want) for rel, want in files if rx.match(rel)]
        assert matched, f"{glob} matches no example file"
        assert all(want == schema for _, want in matched), (glob, schema, matched)


YAML_SCHEMAS = {"leaderboard.json", "meta_info.json", "summary.json", "attempt.json",
                "harbor_leaderboard.json", "harbor_rows.json"}


def test_the_editor_snippets_parse_and_associate_every_schema_with_its_files():
    settings = [json.loads(b) for b in _blocks("json")]
    (vscode,) = [s for s in settings if "yaml.schemas" in s]  # (the extension starts the server)
    assert vscode["yaml.yamlVersion"] == "1.1"
    assert all(s["editor.codeActionsOnSave"] == {"source.fixAll.penguin-lint": "explicit"} for s in settings)
    _check([(_schema_name(k), g) for k, v in vscode["yaml.schemas"].items() for g in _globs(v)], True,
           YAML_SCHEMAS)
    _check([(_schema_name(e["url"]), g) for e in vscode["json.schemas"] for g in e["fileMatch"]], True,
           {"harbor_leaderboard.json", "harbor_rows.json"})

    taplo, helix = [tomli.loads(b) for b in _blocks("toml")]
    _check([(_schema_name(r["schema"]["path"]), g) for r in taplo["rule"] for g in r["include"]], False,
           {"benchmark_config.json", "task_config.json"})

    assert helix["language-server"]["penguin-lint"] == {"command": "penguin-lint", "args": ["lsp"]}
    yaml_ls = helix["language-server"]["yaml-language-server"]["config"]["yaml"]
    assert yaml_ls["yamlVersion"] == "1.1"
    _check([(_schema_name(k), g) for k, v in yaml_ls["schemas"].items() for g in _globs(v)], True, YAML_SCHEMAS)
    assert all("penguin-lint" in lang["language-servers"] for lang in helix["language"])

    # Neovim 0.7 and 0.11 (nvim-lint's: test_editor_commands.py; the first run in Neovim: test_neovim.py)
    old, new = [b for b in _blocks("lua") if '"penguin-lint", "lsp"' in b]
    for lua in (old, new):
        assert 'cmd = { "penguin-lint", "lsp" }' in lua and 'yamlVersion = "1.1"' in lua
        assert '"yaml-language-server", "--stdio"' in lua and '"taplo", "lsp", "stdio"' in lua
        _check([(_schema_name(k), g) for k, v in _lua_schemas(lua).items() for g in v], True, YAML_SCHEMAS)

    # the folder the snippets name is the one the documented command writes
    assert f"penguin-lint schemas --write {SCHEMA_DIR} " in DOC.read_text(encoding="utf-8")


def test_schemas_are_written_into_the_repository_and_their_folder_printed(tmp_path):
    dest = tmp_path / "repo" / SCHEMA_DIR
    r = lint(None, "schemas", "--write", str(dest))
    assert r.code == 0, r.stderr
    expected = sorted(p.name for p in SCHEMAS.glob("*.json"))
    assert sorted(p.name for p in dest.iterdir()) == expected
    for name in expected:
        assert (dest / name).read_bytes() == (SCHEMAS / name).read_bytes()
    r = lint(None, "schemas", "--path")
    assert r.code == 0
    assert sorted(p.name for p in Path(r.output.strip()).glob("*.json")) == expected
    # a link where a schema goes is replaced, never written through
    outside = tmp_path / "outside.json"
    outside.write_text("{}")
    (dest / "attempt.json").unlink()
    (dest / "attempt.json").symlink_to(outside)
    r = lint(None, "schemas", "--write", str(dest))
    assert r.code == 2 and "not a regular file" in r.stderr
    assert outside.read_text() == "{}"
    # all or nothing: a link at the last name leaves every other file as it was
    (dest / "attempt.json").unlink()
    last = sorted(expected)[-1]
    (dest / last).unlink()
    (dest / last).symlink_to(outside)
    r = lint(None, "schemas", "--write", str(dest))
    assert r.code == 2 and not (dest / "attempt.json").exists()


@pytest.mark.parametrize("dest", [SCHEMA_DIR + "/", SCHEMA_DIR, "docs/schemas", "docs/schemas/"])
def test_schemas_are_never_written_through_a_link_of_the_repository(tmp_path, monkeypatch, dest):
    """A committed link (.schemas, or docs on the way to docs/schemas) would
    send the files anywhere; "DIR/" (shell completion's slash) names what
    the link leads to. As for --output: one error line, nothing written."""
    repo, outside = tmp_path / "repo", tmp_path / "outside"
    (repo / ".git").mkdir(parents=True)
    outside.mkdir()
    (outside / "attempt.json").write_text("theirs")
    (repo / SCHEMA_DIR).symlink_to(outside)
    (repo / "docs").symlink_to(outside)
    (outside / "schemas").mkdir()
    monkeypatch.chdir(repo)
    r = lint(None, "schemas", "--write", dest)
    assert r.code == 2, (r.code, r.output, r.stderr)
    lines = r.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("penguin-lint: error: ") and "link" in lines[0], r.stderr
    assert sorted(p.name for p in outside.rglob("*")) == ["attempt.json", "schemas"]
    assert (outside / "attempt.json").read_text() == "theirs"
    # the folder itself, named through no link, is written
    assert lint(None, "schemas", "--write", "real/" + SCHEMA_DIR + "/").code == 0


def test_every_schema_has_a_stable_id():
    for path in sorted(SCHEMAS.glob("*.json")):
        schema = json.loads(path.read_text(encoding="utf-8"))
        # a name (no address that could be dead), the same in every copy
        assert schema["$id"] == SCHEMA_ID_PREFIX + path.name
        assert SCHEMA_ID_PREFIX == "urn:penguin-lint:schema:"
