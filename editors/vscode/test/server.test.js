// Finding the server: the order of the candidates, what an untrusted
// workspace cannot choose, and which answer of `lsp --help` will do.
const test = require("node:test");
const assert = require("node:assert/strict");
const { candidates, findServer, ruleArgs, atLeast } = require("../out/server.js");

const base = { userPaths: [], trusted: true, folders: ["/w/repo"] };
const commands = (choice) => choice.candidates.map((c) => [c.command, ...c.args].join(" "));

test("the settings' paths first, then the selected Python, then PATH", () => {
  const choice = candidates({ ...base, userPaths: ["/opt/pl/bin/penguin-lint", " "], python: "/usr/bin/python3" });
  assert.deepEqual(commands(choice), ["/opt/pl/bin/penguin-lint", "/usr/bin/python3 -m penguin_lint", "penguin-lint"]);
  assert.deepEqual(choice.refused, []);
});

test("a workspace's own path is used only when the workspace is trusted", () => {
  const s = { ...base, userPaths: ["/home/u/bin/penguin-lint"], workspacePaths: [".venv/bin/penguin-lint"] };
  assert.deepEqual(commands(candidates(s)), ["/w/repo/.venv/bin/penguin-lint", "penguin-lint"]);
  const untrusted = candidates({ ...s, trusted: false });
  assert.deepEqual(commands(untrusted), ["/home/u/bin/penguin-lint", "penguin-lint"]);
  assert.match(untrusted.refused[0], /not trusted/);
});

test("an interpreter inside an untrusted workspace is not run", () => {
  const s = { ...base, python: "/w/repo/.venv/bin/python" };
  assert.deepEqual(commands(candidates(s)), ["/w/repo/.venv/bin/python -m penguin_lint", "penguin-lint"]);
  const untrusted = candidates({ ...s, trusted: false });
  assert.deepEqual(commands(untrusted), ["penguin-lint"]);
  assert.deepEqual(commands(candidates({ ...s, trusted: false, python: "/w/repository/bin/python" })),
    ["/w/repository/bin/python -m penguin_lint", "penguin-lint"]);
});

test("the first candidate whose lsp takes --select; an older one is remembered", async () => {
  const calls = [];
  const answers = {
    "/missing": { code: null, stdout: "", stderr: "", error: "ENOENT: spawn /missing ENOENT" },
    "/py": { code: 1, stdout: "", stderr: "Traceback\n/py: No module named penguin_lint\n" },
    "/old": { code: 0, stdout: "Usage: penguin-lint lsp [OPTIONS]\n  -h, --help\n", stderr: "" },
    "penguin-lint": { code: 0, stdout: "Options:\n  --select CODES  Only these\n", stderr: "" },
  };
  const run = async (command, args) => { calls.push([command, ...args].join(" ")); return answers[command]; };
  const list = ["/missing", "/py", "/old", "penguin-lint"].map((command) => ({ command, args: [], from: "t" }));
  const found = await findServer(list, run);
  assert.equal(found.server.command, "penguin-lint");
  assert.equal(found.old.command, "/old");
  assert.deepEqual(calls, ["/missing lsp --help", "/py lsp --help", "/old lsp --help", "penguin-lint lsp --help"]);
  assert.match(found.tried[0], /ENOENT/);
  assert.match(found.tried[1], /No module named penguin_lint/);
  const none = await findServer(list.slice(0, 3), run);
  assert.equal(none.server, undefined);
  assert.equal(none.old.command, "/old");
});

test("select and ignore as the command line takes them", () => {
  assert.deepEqual(ruleArgs(["PL3", " pl104 ", ""], []), ["--select=PL3,pl104"]);
  assert.deepEqual(ruleArgs([], ["summary-mismatch"]), ["--ignore=summary-mismatch"]);
  assert.deepEqual(ruleArgs([], []), []);
});

test("versions compare by number", () => {
  assert.ok(atLeast("0.1.0", "0.1.0"));
  assert.ok(atLeast("0.10.0 (commit abc)", "0.9.1"));
  assert.ok(!atLeast("0.0.9", "0.1.0"));
  assert.ok(!atLeast(undefined, "0.1.0"));
  assert.ok(!atLeast("dev", "0.1.0"));
});
