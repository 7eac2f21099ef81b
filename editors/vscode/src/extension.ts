// penguin-lint for VS Code: starts `penguin-lint lsp` for each workspace folder
// that holds a benchmark repository, for its YAML, TOML and JSON files.
import { execFile } from "child_process";
import * as vscode from "vscode";
import {
  CloseAction,
  ErrorAction,
  LanguageClient,
  LanguageClientOptions,
  ServerOptions,
  State,
} from "vscode-languageclient/node";
import { Candidate, Ran, atLeast, candidates, findServer, ruleArgs } from "./server";

const NAME = "penguin-lint";
const INSTALL = "pip install 'penguin-lint[lsp]'";
/** the oldest server this extension works with (its lsp takes --select/--ignore) */
const MIN_VERSION = "0.1.0";
const FIX_ALL = vscode.CodeActionKind.SourceFixAll.append(NAME);
/** what a folder holds when it is a benchmark repository (penguin-lint's own test) */
const LAYOUT = ["packages", "leaderboards", "experiments", "leaderboard"];

let log: vscode.OutputChannel;
let status: vscode.StatusBarItem;
const clients = new Map<string, LanguageClient>();
/** one notification until the next restart asked for: no stream of them */
let notified = false;
let context: vscode.ExtensionContext;
/** the start under way: a restart waits for it instead of racing it */
let starting: Promise<void> = Promise.resolve();

export async function activate(ctx: vscode.ExtensionContext): Promise<void> {
  context = ctx;
  log = vscode.window.createOutputChannel(NAME);
  status = vscode.window.createStatusBarItem("penguin-lint.status", vscode.StatusBarAlignment.Left, 0);
  status.name = NAME;
  status.command = "penguin-lint.showLog";
  ctx.subscriptions.push(
    log,
    status,
    vscode.commands.registerCommand("penguin-lint.restart", () => restart(true)),
    vscode.commands.registerCommand("penguin-lint.showLog", () => log.show(true)),
    vscode.commands.registerCommand("penguin-lint.fixAll", fixAll),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration(NAME)) restart(false);
    }),
    vscode.workspace.onDidChangeWorkspaceFolders(() => restart(false)),
    vscode.workspace.onDidGrantWorkspaceTrust(() => restart(false)),
  );
  await watchPython();
  await restart(false);
}

export async function deactivate(): Promise<void> {
  await stopAll();
}

function restart(asked: boolean): Promise<void> {
  if (asked) notified = false;
  starting = starting.then(async () => {
    await stopAll();
    await startAll();
  }).catch((e) => {
    log.appendLine(`penguin-lint: ${e instanceof Error ? e.message : e}`);
  });
  return starting;
}

async function stopAll(): Promise<void> {
  const all = [...clients.values()];
  clients.clear();
  await Promise.all(all.map((c) => c.stop().catch(() => undefined)));
}

async function holdsRepository(folder: vscode.WorkspaceFolder): Promise<boolean> {
  const kinds = await Promise.all([".penguin-lint.toml", ...LAYOUT].map(async (name) => {
    try {
      return (await vscode.workspace.fs.stat(vscode.Uri.joinPath(folder.uri, name))).type;
    } catch {
      return undefined;
    }
  }));
  return kinds[0] === vscode.FileType.File || kinds.slice(1).some((t) => t !== undefined && (t & vscode.FileType.Directory) !== 0);
}

async function startAll(): Promise<void> {
  const folders = [];
  for (const f of vscode.workspace.workspaceFolders ?? []) {
    if (f.uri.scheme === "file" && (await holdsRepository(f))) folders.push(f);
  }
  if (!folders.length) {
    show("none", "no benchmark repository in this workspace");
    return;
  }
  show("starting", "finding the server");
  for (const folder of folders) {
    const server = await locate(folder);
    if (!server) return;
    await startClient(folder, server);
  }
}

function run(command: string, args: string[]): Promise<Ran> {
  // never a shell; in the extension's own folder, where `python -m` finds no
  // module of the workspace
  return new Promise((resolve) => {
    execFile(command, args, { cwd: context.extensionPath, timeout: 30000, shell: false, windowsHide: true },
      (err, stdout, stderr) => {
        const e = err as (NodeJS.ErrnoException & { code?: number | string }) | null;
        if (e && typeof e.code === "string") {
          resolve({ code: null, stdout: "", stderr: "", error: `${e.code}: ${e.message}` });
        } else {
          resolve({ code: e ? (typeof e.code === "number" ? e.code : null) : 0, stdout: String(stdout), stderr: String(stderr) });
        }
      });
  });
}

async function locate(folder: vscode.WorkspaceFolder): Promise<Candidate | undefined> {
  const config = vscode.workspace.getConfiguration(NAME, folder.uri);
  const seen = config.inspect<string[]>("path");
  const workspacePaths = seen?.workspaceFolderValue ?? seen?.workspaceValue;
  const choice = candidates({
    userPaths: seen?.globalValue ?? [],
    workspacePaths,
    trusted: vscode.workspace.isTrusted,
    // this folder first: a relative path of its settings is relative to it
    folders: [folder, ...(vscode.workspace.workspaceFolders ?? []).filter((f) => f !== folder)].map((f) => f.uri.fsPath),
    python: await pythonOf(folder),
  });
  for (const r of choice.refused) log.appendLine(`penguin-lint: not used: ${r}`);
  const found = await findServer(choice.candidates, run);
  for (const t of found.tried) log.appendLine(`penguin-lint: tried ${t}`);
  if (found.server) {
    log.appendLine(`penguin-lint: server: ${[found.server.command, ...found.server.args].join(" ")} (${found.server.from})`);
    return found.server;
  }
  if (found.old) {
    failed(`the penguin-lint found (${found.old.command}) is too old for this extension. Upgrade it: ${INSTALL.replace("install", "install -U")}`);
  } else {
    failed(`no penguin-lint language server found. Install it: ${INSTALL} (in the Python environment VS Code selects, or on PATH), or set penguin-lint.path`);
  }
  return undefined;
}

async function startClient(folder: vscode.WorkspaceFolder, server: Candidate): Promise<void> {
  const config = vscode.workspace.getConfiguration(NAME, folder.uri);
  const args = [...server.args, "lsp", ...ruleArgs(config.get<string[]>("select") ?? [], config.get<string[]>("ignore") ?? [])];
  const serverOptions: ServerOptions = {
    command: server.command,
    args,
    // (no transport named: one would add --stdio to the arguments)
    options: { cwd: context.extensionPath, shell: false },
  };
  let running = false;
  const clientOptions: LanguageClientOptions = {
    // the folder's files by name (VS Code has no TOML language of its own); a
    // RelativePattern, which the client hands to VS Code as it is, matches
    // the folder whatever characters its path holds
    documentSelector: [{
      scheme: "file",
      pattern: new vscode.RelativePattern(folder, "**/*.{yaml,yml,toml,json}") as unknown as string,
    }],
    workspaceFolder: folder,
    outputChannel: log,
    revealOutputChannelOn: 4, // never: the status bar and one notification say it
    errorHandler: {
      error: () => ({ action: ErrorAction.Continue }),
      // a server that stops is not started again by itself: no loop of restarts
      closed: () => {
        if (running) failed("the penguin-lint language server stopped (its log says why). Restart it with 'penguin-lint: Restart Server'");
        else failed(`the penguin-lint language server did not start (its log says why): ${INSTALL}`);
        return { action: CloseAction.DoNotRestart, handled: true };
      },
    },
    initializationFailedHandler: () => false,
    middleware: {
      // The server pushes an open file's diagnostics and also answers VS
      // Code's pull for them (textDocument/diagnostic, asked on open and on
      // each change, and again when the server asks for a refresh): taking
      // both would show each finding twice. The pull is what VS Code keeps.
      handleDiagnostics: () => undefined,
    },
  };
  const client = new LanguageClient(NAME, NAME, serverOptions, clientOptions);
  clients.set(folder.uri.toString(), client);
  client.onDidChangeState((e) => {
    if (e.newState === State.Running) running = true;
  });
  log.appendLine(`penguin-lint: starting ${[server.command, ...args].join(" ")} for ${folder.uri.fsPath}`);
  try {
    await client.start();
  } catch {
    // said by the error handler
  }
  if (client.state !== State.Running) {
    clients.delete(folder.uri.toString());
    failed(`the penguin-lint language server did not start (its log says why): ${INSTALL}`);
    return;
  }
  const version = client.initializeResult?.serverInfo?.version;
  if (!atLeast(version, MIN_VERSION)) {
    running = false;
    clients.delete(folder.uri.toString());
    await client.stop().catch(() => undefined);
    failed(`penguin-lint ${version ?? "(no version)"} is older than this extension needs (${MIN_VERSION}): ${INSTALL.replace("install", "install -U")}`);
    return;
  }
  show("running", `penguin-lint ${version} (${[server.command, ...args].join(" ")})`);
}

function show(state: "none" | "starting" | "running" | "failed", detail: string): void {
  const icon = { none: "$(circle-slash)", starting: "$(sync~spin)", running: "$(check)", failed: "$(error)" }[state];
  status.text = `${icon} ${NAME}`;
  status.tooltip = `${NAME}: ${detail}. Click for the server's log.`;
  status.backgroundColor = state === "failed" ? new vscode.ThemeColor("statusBarItem.errorBackground") : undefined;
  if (state === "none") status.hide();
  else status.show();
}

function failed(message: string): void {
  log.appendLine(`penguin-lint: ${message}`);
  show("failed", message);
  if (notified) return;
  notified = true;
  void vscode.window.showErrorMessage(message, "Show Log").then((pick) => {
    if (pick) log.show(true);
  });
}

async function fixAll(): Promise<void> {
  const editor = vscode.window.activeTextEditor;
  if (!editor) return;
  const doc = editor.document;
  const whole = new vscode.Range(0, 0, doc.lineCount, 0);
  const actions = (await vscode.commands.executeCommand<vscode.CodeAction[]>(
    "vscode.executeCodeActionProvider", doc.uri, whole, FIX_ALL.value, 10)) ?? [];
  for (const a of actions) {
    if (!a.kind || !FIX_ALL.contains(a.kind)) continue;
    if (a.edit) await vscode.workspace.applyEdit(a.edit);
    if (a.command) await vscode.commands.executeCommand(a.command.command, ...(a.command.arguments ?? []));
    return;
  }
  void vscode.window.setStatusBarMessage(`${NAME}: nothing to fix in this file`, 3000);
}

// -- the Python extension's selected interpreter ----------------------------------
interface PythonApi {
  environments?: {
    getActiveEnvironmentPath(resource?: vscode.Uri): { path: string };
    resolveEnvironment(env: { path: string }): Promise<{ executable?: { uri?: vscode.Uri } } | undefined>;
    onDidChangeActiveEnvironmentPath?: vscode.Event<unknown>;
  };
}

async function pythonApi(): Promise<PythonApi | undefined> {
  const ext = vscode.extensions.getExtension<PythonApi>("ms-python.python");
  if (!ext) return undefined;
  try {
    return ext.isActive ? ext.exports : await ext.activate();
  } catch (e) {
    log.appendLine(`penguin-lint: the Python extension did not answer: ${e instanceof Error ? e.message : e}`);
    return undefined;
  }
}

async function pythonOf(folder: vscode.WorkspaceFolder): Promise<string | undefined> {
  const api = await pythonApi();
  try {
    const env = api?.environments;
    if (!env) return undefined;
    const resolved = await env.resolveEnvironment(env.getActiveEnvironmentPath(folder.uri));
    return resolved?.executable?.uri?.fsPath;
  } catch {
    return undefined;
  }
}

async function watchPython(): Promise<void> {
  const event = (await pythonApi())?.environments?.onDidChangeActiveEnvironmentPath;
  if (event) context.subscriptions.push(event(() => restart(false)));
}
