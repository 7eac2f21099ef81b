"""The GitHub Action's step: ``python -m penguin_lint.action``.

Inputs arrive as environment variables (``action.yml`` maps each input into
``env:``; none is pasted into a shell script, so a branch name or a select
list can never run as code):

    PENGUIN_LINT_BASE     git ref to compare with (default: the pull
                          request's base branch, the commit before a push,
                          else the default branch)
    PENGUIN_LINT_ALL      "true": lint the whole repository
    PENGUIN_LINT_STRICT   "true": warnings fail the step too
    PENGUIN_LINT_SELECT   rule codes or prefixes, comma or space separated
    PENGUIN_LINT_IGNORE   idem
    PENGUIN_LINT_SARIF    write a SARIF file here (for code-scanning upload)
    PENGUIN_LINT_PATH     folder to run in (default: the workspace)

The linter runs once (JSON); annotations, the step summary and SARIF are
all made from that one result. Writes ``errors``, ``warnings`` and ``sarif``
to ``$GITHUB_OUTPUT``. Exit status is the linter's: 0, 1 on errors (or
warnings with strict), 2 on a failure of the tool or git.
"""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tempfile
from typing import Dict, List, Optional

TRUE = ("1", "true", "yes", "on")


def _flag(env: Dict[str, str], name: str) -> bool:
    return env.get(name, "").strip().lower() in TRUE


def _codes(value: str) -> str:
    return ",".join(c for c in re.split(r"[\s,]+", value or "") if c)


def base_ref(env: Dict[str, str]) -> Optional[str]:
    """The ref to compare with, as GitHub describes the run."""
    if env.get("PENGUIN_LINT_BASE", "").strip():
        return env["PENGUIN_LINT_BASE"].strip()
    if env.get("GITHUB_BASE_REF"):  # pull_request events
        return f"origin/{env['GITHUB_BASE_REF']}"
    if env.get("GITHUB_EVENT_NAME") == "push" and env.get("GITHUB_EVENT_PATH"):
        try:
            with open(env["GITHUB_EVENT_PATH"], encoding="utf-8") as fh:
                before = json.load(fh).get("before") or ""
        except (OSError, ValueError, AttributeError):
            before = ""
        if re.fullmatch(r"[0-9a-f]{40}|[0-9a-f]{64}", before) and set(before) != {"0"}:
            return before
    return None  # the linter picks the default branch


def command(env: Dict[str, str], json_out: str) -> List[str]:
    args = [sys.executable, "-m", "penguin_lint", "--format", "json", "--output", json_out, "--color", "never"]
    if _flag(env, "PENGUIN_LINT_ALL"):
        args.append("--all")
    else:
        base = base_ref(env)
        if base:
            args.append(f"--diff-base={base}")  # one argument: a ref cannot pose as an option
    for name, opt in (("PENGUIN_LINT_SELECT", "--select"), ("PENGUIN_LINT_IGNORE", "--ignore")):
        codes = _codes(env.get(name, ""))
        if codes:
            args.append(f"{opt}={codes}")
    if _flag(env, "PENGUIN_LINT_STRICT"):
        args.append("--strict")
    return args


def _set_outputs(env: Dict[str, str], values: Dict[str, str]) -> None:
    path = env.get("GITHUB_OUTPUT")
    if not path:
        return
    with open(path, "a", encoding="utf-8") as out:
        for key, value in values.items():
            out.write(f"{key}={value}\n")  # values are numbers and a path without newlines


def main(env: Optional[Dict[str, str]] = None) -> int:
    from penguin_lint.reporters import github_reporter, safe_line, sarif_reporter

    env = dict(os.environ if env is None else env)
    cwd = env.get("PENGUIN_LINT_PATH", "").strip() or "."
    fd, json_out = tempfile.mkstemp(prefix="penguin-lint-", suffix=".json")
    os.close(fd)
    try:
        proc = subprocess.run(command(env, json_out), cwd=cwd, env=env, stderr=subprocess.PIPE,
                              stdin=subprocess.DEVNULL)
        err = proc.stderr.decode("utf-8", "replace")
        for line in err.splitlines():
            # into the job's log: no line may start a workflow command
            sys.stderr.write(safe_line(line) + "\n")
        if proc.returncode not in (0, 1):
            lines = [ln for ln in err.splitlines() if ln.strip()]
            msg = lines[-1] if lines else f"penguin-lint exited with status {proc.returncode}"
            print(f"::error title=penguin-lint::{github_reporter.escape_data(msg)}")
            return 2
        with open(json_out, encoding="utf-8") as fh:
            doc = json.load(fh)
    finally:
        os.unlink(json_out)

    from penguin_lint.engine import Result
    from penguin_lint.findings import Finding
    from penguin_lint.rules import all_rules

    result = Result([Finding(**f) for f in doc["findings"]], doc["summary"]["files"],
                    omitted=doc["summary"].get("omitted", 0))
    rules = {r.code: r for r in all_rules()}
    github_reporter.report(result, sys.stdout, rules=rules)
    sys.stdout.flush()
    outputs = {"errors": str(result.errors), "warnings": str(result.warnings)}
    sarif = env.get("PENGUIN_LINT_SARIF", "").strip()
    if sarif:
        sarif_path = os.path.abspath(os.path.join(cwd, sarif))
        parent = os.path.dirname(sarif_path)
        if parent:
            os.makedirs(parent, exist_ok=True)
        with open(sarif_path, "w", encoding="utf-8") as out:
            sarif_reporter.report(result, out, rules=rules)
        outputs["sarif"] = re.sub(r"[\r\n]", "", sarif_path)
    _set_outputs(env, outputs)
    return proc.returncode


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
