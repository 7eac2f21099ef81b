"""docs/editors.md for Zed, Emacs and the linters that run a command on the
buffer: the snippets parse, and the ALE and nvim-lint ones run as those
plugins run them (the command on a buffer, its output read with the
snippet's own pattern, in Neovim)."""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

from tests.conftest import VALID, write_repo
from tests.real_programs import need

DOC = Path(__file__).resolve().parents[2] / "docs" / "editors.md"
SUMMARY = "experiments/lb/exp-1/test/summary.yaml"
BUFFER = "n_attempt: 2\nscore_mean: 40.0\nscore_std: high\n"


def _block(lang: str, contains: str) -> str:
    (text,) = [b for b in re.findall(r"```" + lang + r"\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)
               if contains in b]
    return text


def _balanced(lisp: str) -> None:
    depth = 0
    for ch in re.sub(r'"[^"]*"', '""', lisp):
        depth += {"(": 1, ")": -1}.get(ch, 0)
        assert depth >= 0
    assert depth == 0


def _nvim(tmp_path: Path, root: Path, lua: str) -> dict:
    out = tmp_path / "out.json"
    script = tmp_path / "run.lua"
    script.write_text(f"local OUT = {json.dumps(str(out))}\nlocal FILE = {json.dumps(str(root / SUMMARY))}\n"
                      f"local BUFFER = {json.dumps(BUFFER)}\n" + lua)
    # penguin-lint on the editor's PATH, as the page says it must be
    env = dict(os.environ, HOME=str(tmp_path), PATH=os.path.dirname(sys.executable) + os.pathsep
               + os.environ.get("PATH", ""))
    proc = subprocess.run([need("nvim", package="neovim"), "--headless", "-u", "NONE", "-i", "NONE", "-c", f"luafile {script}"],
                          cwd=str(root), env=env, capture_output=True, timeout=120, stdin=subprocess.DEVNULL)
    assert out.exists(), proc.stderr.decode("utf-8", "replace")[-2000:]
    return json.loads(out.read_text())


def test_zed_and_eglot_start_the_language_server():
    zed = json.loads(_block("jsonc", '"lsp"'))
    assert zed["lsp"]["penguin-lint"]["binary"] == {"path": "penguin-lint", "arguments": ["lsp"]}
    assert all("penguin-lint" in zed["languages"][lang]["language_servers"] for lang in ("YAML", "TOML"))
    eglot = _block("elisp", "eglot")
    _balanced(eglot)
    assert '("penguin-lint" "lsp")' in eglot


def test_flycheck_runs_the_command_the_other_linters_run():
    flycheck = _block("elisp", "flycheck")
    _balanced(flycheck)
    assert ':command ("penguin-lint" "--format" "concise" "--stdin-filename" source-original "-")' in flycheck
    assert ":standard-input t" in flycheck
    assert '(file-name) ":" line ":" column ": " (id "PL" (one-or-more digit)) " "' in flycheck


def test_nvim_lint_reads_every_finding_of_the_buffer(tmp_path):
    root = write_repo(tmp_path / "repo", {}, VALID)
    snippet = _block("lua", 'require("lint")')
    # nvim-lint itself is stood in for: what the snippet hands it is run as nvim-lint runs it
    lua = """
package.loaded["lint.parser"] = { from_pattern = function(pattern, groups, _, defaults)
  return { pattern = pattern, groups = groups, defaults = defaults } end }
package.loaded["lint"] = { linters = {}, linters_by_ft = {}, try_lint = function() end }
vim.cmd("edit " .. vim.fn.fnameescape(FILE))
""" + snippet + """
local linter = require("lint").linters.penguin_lint
local args = {}
for _, a in ipairs(linter.args) do table.insert(args, type(a) == "function" and a() or a) end
local output = vim.fn.system(vim.list_extend({ linter.cmd }, args), BUFFER)
local found = {}
for line in vim.gsplit(output, "\\n") do
  local got = { line:match(linter.parser.pattern) }
  if #got > 0 then
    local item = {}
    for i, name in ipairs(linter.parser.groups) do item[name] = got[i] end
    table.insert(found, item)
  end
end
local f = io.open(OUT, "w")
f:write(vim.fn.json_encode({ found = found, output = output, filetypes = require("lint").linters_by_ft }))
f:close()
vim.cmd("qall!")
"""
    seen = _nvim(tmp_path, root, lua)
    lines = seen["output"].splitlines()
    # every finding; the summary lines match no pattern
    assert lines[2:] == ["Found 2 errors, 0 warnings (1 file checked, and 1 dependent file re-checked).",
                         "[*] 1 fixable with `--fix`."]
    assert [{k: v for k, v in f.items() if k != "message"} for f in seen["found"]] == [
        {"lnum": "2", "col": "13", "code": "PL303"}, {"lnum": "3", "col": "12", "code": "PL102"}], seen["output"]
    assert set(seen["filetypes"]) == {"yaml", "toml"}


def test_ale_reads_every_finding_of_the_buffer(tmp_path):
    root = write_repo(tmp_path / "repo", {}, VALID)
    snippet = _block("vim", "ale#linter#Define")
    definition = snippet.replace("call ale#linter#Define('yaml', ", "let g:linter = ", 1).rstrip()
    assert definition.endswith("\\})")
    definition = definition[:-1]
    vim_script = tmp_path / "ale.vim"
    vim_script.write_text(definition + "\n")
    lua = """
vim.cmd("source " .. vim.fn.fnameescape(VIM_SCRIPT))
local linter = vim.g.linter
local command = linter.command:gsub("%%e", vim.fn.shellescape("penguin-lint")):gsub("%%s", vim.fn.shellescape(FILE))
local output = vim.fn.system(command, BUFFER)
local found = vim.fn.eval("g:linter.callback(0, " .. vim.fn.string(vim.split(output, "\\n")) .. ")")
local f = io.open(OUT, "w")
f:write(vim.fn.json_encode({ found = found, output = output }))
f:close()
vim.cmd("qall!")
"""
    seen = _nvim(tmp_path, root, f"local VIM_SCRIPT = {json.dumps(str(vim_script))}\n" + lua)
    lines = seen["output"].splitlines()
    assert len(lines) == 4 and lines[2].startswith("Found 2 errors")
    assert [{k: v for k, v in f.items() if k != "text"} for f in seen["found"]] == [
        {"lnum": 2, "col": 13, "code": "PL303"}, {"lnum": 3, "col": 12, "code": "PL102"}], seen["output"]
