// Finding the `penguin-lint lsp` to start: no VS Code API here, so that node's
// test runner can check the order and the trust rules on their own.
import * as path from "path";

/** A program and its arguments, started without a shell. */
export interface Candidate {
  command: string;
  args: string[];
  /** where it came from, for the log and the notification */
  from: string;
}

export interface Settings {
  /** `penguin-lint.path` of the user's settings */
  userPaths: string[];
  /** `penguin-lint.path` of the workspace's (or the folder's) own settings, if any */
  workspacePaths?: string[];
  /** VS Code's workspace trust */
  trusted: boolean;
  /** the workspace's folders, absolute */
  folders: string[];
  /** the interpreter the Python extension has selected, if it is installed */
  python?: string;
}

export interface Choice {
  candidates: Candidate[];
  /** what was left out for want of trust, said in the log */
  refused: string[];
}

export function inside(file: string, folder: string): boolean {
  const rel = path.relative(folder, file);
  return rel === "" || (!rel.startsWith("..") && !path.isAbsolute(rel));
}

/** The programs to try, in order: `penguin-lint.path`'s entries, then
 * `python -m penguin_lint` with the selected interpreter, then `penguin-lint`
 * on PATH. A workspace's own settings are code the workspace brings: used
 * only when it is trusted. */
export function candidates(s: Settings): Choice {
  const out: Candidate[] = [];
  const refused: string[] = [];
  const fromWorkspace = s.workspacePaths !== undefined && s.workspacePaths.length > 0;
  if (fromWorkspace && !s.trusted) {
    refused.push(`penguin-lint.path of the workspace's settings (${s.workspacePaths!.join(", ")}): the workspace is not trusted`);
  }
  const paths = fromWorkspace && s.trusted ? s.workspacePaths! : s.userPaths;
  for (const p of paths) {
    if (typeof p !== "string" || p.trim() === "") continue;
    // a relative path of the workspace's settings is the workspace's program
    const command = fromWorkspace && s.trusted && !path.isAbsolute(p) && p.includes("/") && s.folders.length
      ? path.resolve(s.folders[0], p) : p;
    out.push({ command, args: [], from: "penguin-lint.path" });
  }
  if (s.python) {
    if (!s.trusted && s.folders.some((f) => inside(s.python!, f))) {
      refused.push(`the selected Python interpreter ${s.python}: it lies in the workspace, which is not trusted`);
    } else {
      out.push({ command: s.python, args: ["-m", "penguin_lint"], from: "the Python extension's interpreter" });
    }
  }
  out.push({ command: "penguin-lint", args: [], from: "PATH" });
  return { candidates: out, refused };
}

export interface Ran {
  /** exit status, null when the program did not start or was stopped */
  code: number | null;
  stdout: string;
  stderr: string;
  /** why it did not start (ENOENT...) */
  error?: string;
}

/** Runs a program without a shell, with a time limit. */
export type Runner = (command: string, args: string[]) => Promise<Ran>;

export interface Found {
  server?: Candidate;
  /** a penguin-lint whose `lsp` is older than this extension needs */
  old?: Candidate;
  /** one line for each candidate that did not do */
  tried: string[];
}

/** The first candidate whose `lsp --help` names `--select` (what this
 * extension passes): a server new enough to start. */
export async function findServer(list: Candidate[], run: Runner): Promise<Found> {
  const tried: string[] = [];
  let old: Candidate | undefined;
  for (const c of list) {
    const shown = [c.command, ...c.args].join(" ");
    const r = await run(c.command, [...c.args, "lsp", "--help"]);
    if (r.code === 0 && /--select\b/.test(r.stdout)) {
      return { server: c, old, tried };
    }
    if (r.code === 0) {
      old = old ?? c;
      tried.push(`${shown} (${c.from}): too old, its lsp takes no --select`);
    } else {
      const why = r.error ?? (r.stderr.trim().split("\n").pop() || `exit status ${r.code}`);
      tried.push(`${shown} (${c.from}): ${why}`);
    }
  }
  return { old, tried };
}

/** `--select`/`--ignore` as the command line takes them: one comma list each. */
export function ruleArgs(select: string[], ignore: string[]): string[] {
  const out: string[] = [];
  for (const [name, codes] of [["select", select], ["ignore", ignore]] as const) {
    const clean = (codes ?? []).filter((c) => typeof c === "string").map((c) => c.trim()).filter((c) => c);
    if (clean.length) out.push(`--${name}=${clean.join(",")}`);
  }
  return out;
}

/** Whether version `have` (`0.1.0`, `0.2.0 (commit ...)`) is at least `need`. */
export function atLeast(have: string | undefined, need: string): boolean {
  if (!have) return false;
  const parse = (v: string) => (v.match(/^\s*(\d+)\.(\d+)\.(\d+)/) ?? []).slice(1).map(Number);
  const a = parse(have), b = parse(need);
  if (a.length !== 3) return false;
  for (let i = 0; i < 3; i++) {
    if (a[i] !== b[i]) return a[i] > b[i];
  }
  return true;
}
