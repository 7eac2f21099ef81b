"""The language server in a real editor: headless Neovim (0.7, the
distribution's package) starts ``penguin-lint lsp`` with
``vim.lsp.start_client``, attaches it to a buffer with
``vim.lsp.buf_attach_client``, and reads what it published with
``vim.diagnostic.get``; a Lua script writes what Neovim saw to a file."""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

from tests.conftest import VALID, write_repo
from tests.real_programs import need

SUMMARY = "experiments/lb/exp-1/test/summary.yaml"
BOARD = "leaderboards/lb/leaderboard.yaml"

SCRIPT = r"""
local out = {}
local function finish()
  local f = io.open(OUT, "w")
  f:write(vim.fn.json_encode(out))
  f:close()
  vim.cmd("qall!")
end
local client = vim.lsp.start_client({
  name = "penguin-lint", cmd = { PYTHON, "-m", "penguin_lint", "lsp" }, root_dir = ROOT,
  offset_encoding = "utf-16",
})
vim.cmd("edit " .. vim.fn.fnameescape(ROOT .. "/" .. FILE))
local buf = vim.api.nvim_get_current_buf()
vim.lsp.buf_attach_client(buf, client)
local function seen()
  local got = {}
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    table.insert(got, { code = d.code, lnum = d.lnum, col = d.col, source = d.source, message = d.message })
  end
  return got
end
-- the file as it is on disk: its findings
vim.wait(30000, function() return #vim.diagnostic.get(buf) > 0 end, 20)
out.opened = seen()
-- a leaf's hover, asked through Neovim's client
local board = vim.fn.bufadd(ROOT .. "/" .. BOARD)
vim.fn.bufload(board)
vim.lsp.buf_attach_client(board, client)
local answers = vim.lsp.buf_request_sync(board, "textDocument/hover", {
  textDocument = { uri = vim.uri_from_bufnr(board) }, position = { line = 6, character = 20 } }, 10000)
for _, r in pairs(answers or {}) do
  if r.result then out.hover = r.result.contents.value end
end
-- the buffer repaired, not saved: the diagnostics go
vim.api.nvim_buf_set_lines(buf, 1, 2, false, { "score_mean: 50.0" })
vim.wait(30000, function() return #vim.diagnostic.get(buf) == 0 end, 20)
out.repaired = seen()
out.modified = vim.api.nvim_buf_get_option(buf, "modified")
finish()
"""


def test_neovim_shows_the_findings_of_a_buffer_and_follows_its_edits(tmp_path):
    root = write_repo(tmp_path / "repo", {SUMMARY: "n_attempt: 2\nscore_mean: 40.0\nscore_std: 0.0\n"}, VALID)
    out = tmp_path / "seen.json"
    script = tmp_path / "check.lua"
    script.write_text("".join(f"local {k} = {json.dumps(str(v))}\n" for k, v in {
        "OUT": out, "ROOT": root.resolve(), "FILE": SUMMARY, "BOARD": BOARD, "PYTHON": sys.executable}.items())
        + SCRIPT)
    env = dict(os.environ, HOME=str(tmp_path), XDG_CONFIG_HOME=str(tmp_path / "config"),
               XDG_DATA_HOME=str(tmp_path / "data"), XDG_STATE_HOME=str(tmp_path / "state"))
    proc = subprocess.run([need("nvim", package="neovim"), "--headless", "-u", "NONE", "-i", "NONE", "-c", f"luafile {script}"],
                          cwd=str(root), env=env, capture_output=True, timeout=120,
                          stdin=subprocess.DEVNULL)
    assert out.exists(), proc.stderr.decode("utf-8", "replace")[-2000:]
    seen = json.loads(out.read_text())
    # Neovim counts lines and columns from 0
    assert [(d["code"], d["lnum"], d["col"], d["source"]) for d in seen["opened"]] == \
        [("PL303", 1, 12, "penguin-lint")]
    assert seen["opened"][0]["message"].startswith("score_mean is 40.0 but the 2 attempts average 50")
    # the leaf reads the buffer's number, as preview computes the entry
    assert seen["hover"] == ("reads `score_mean` = **`40.0`** from `experiments/lb/exp-1/test/summary.yaml`"
                             "\n\n---\n\nentry 1 (m, baseline, test): mean **40**, std 0, rank **1**")
    assert seen["repaired"] == [] and seen["modified"] is True
    assert (root / SUMMARY).read_text().startswith("n_attempt: 2\nscore_mean: 40.0")  # nothing saved


def _lua_blocks():
    text = (Path(__file__).resolve().parents[2] / "docs/editors.md").read_text(encoding="utf-8")
    return [b for b in re.findall(r"```lua\n(.*?)```", text, re.S) if '"penguin-lint", "lsp"' in b]


CHECK = r"""
vim.cmd("filetype on")
vim.cmd("edit " .. vim.fn.fnameescape(FILE))
local buf = vim.api.nvim_get_current_buf()
vim.wait(30000, function() return #vim.diagnostic.get(buf) > 0 end, 20)
local out = { names = {}, found = {} }
for _, c in pairs(vim.lsp.get_active_clients()) do table.insert(out.names, c.name) end
for _, d in ipairs(vim.diagnostic.get(buf)) do table.insert(out.found, { d.code, d.lnum, d.source }) end
local f = io.open(OUT, "w")
f:write(vim.fn.json_encode(out))
f:close()
vim.cmd("qall!")
"""


def test_the_documented_init_for_neovim_0_7_starts_penguin_lint(tmp_path):
    """The first Neovim snippet of docs/editors.md as an init file, in the
    Neovim this machine has (Debian's 0.7.2 where .ci/run installs it): the
    server starts for a YAML buffer and its findings are Neovim's
    diagnostics; servers whose program is absent are skipped."""
    nvim = need("nvim", package="neovim")
    old, new = _lua_blocks()
    assert "vim.lsp.start_client" in old and "vim.lsp.config" in new and "vim.lsp.enable" in new
    root = write_repo(tmp_path / "repo", {SUMMARY: "n_attempt: 2\nscore_mean: 40.0\nscore_std: 0.0\n"}, VALID)
    out = tmp_path / "seen.json"
    script = tmp_path / "init.lua"
    script.write_text(old + f"local OUT = {json.dumps(str(out))}\nlocal FILE = {json.dumps(SUMMARY)}\n" + CHECK)
    env = dict(os.environ, HOME=str(tmp_path), XDG_CONFIG_HOME=str(tmp_path / "config"),
               XDG_DATA_HOME=str(tmp_path / "data"), XDG_STATE_HOME=str(tmp_path / "state"),
               PATH=os.path.dirname(sys.executable) + os.pathsep + "/usr/bin:/bin")  # penguin-lint, no yamlls
    proc = subprocess.run([nvim, "--headless", "-u", "NONE", "-i", "NONE", "-c", f"luafile {script}"],
                          cwd=str(root), env=env, capture_output=True, timeout=120, stdin=subprocess.DEVNULL)
    assert out.exists(), proc.stderr.decode("utf-8", "replace")[-2000:]
    seen = json.loads(out.read_text())
    assert seen["found"] == [["PL303", 1, "penguin-lint"]]
    assert "penguin-lint" in seen["names"]
    # the 0.11 snippet is Lua this Neovim's LuaJIT compiles (it runs only on 0.11 and later)
    new_file = tmp_path / "new.lua"
    new_file.write_text(new)
    proc = subprocess.run([nvim, "--headless", "-u", "NONE", "-i", "NONE", "-c",
                           f"lua assert(loadfile({json.dumps(str(new_file))}))", "-c", "qall!"],
                          env=env, capture_output=True, timeout=60, stdin=subprocess.DEVNULL)
    assert proc.returncode == 0 and not proc.stderr.strip(), proc.stderr
