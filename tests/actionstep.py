"""Run the steps of action.yml the way the GitHub runner does.

Each step's ``env:`` and ``run:`` are read from the file, its ``${{ }}``
expressions evaluated for the test's inputs and the outputs of the steps
before it, and the script run with ``bash --noprofile --norc -eo pipefail``
in the workspace, with the files GitHub gives a step (GITHUB_OUTPUT,
GITHUB_STEP_SUMMARY, GITHUB_EVENT_PATH, ...).
"""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, Optional

import yaml

PROJECT = Path(__file__).resolve().parents[1]
ACTION = yaml.safe_load((PROJECT / "action.yml").read_text(encoding="utf-8"))
EXPR = re.compile(r"\$\{\{\s*(.*?)\s*\}\}")
SERVER, REPOSITORY = "https://github.com", "lab/benchmarks"


def step(step_id: str) -> dict:
    return next(s for s in ACTION["runs"]["steps"] if s.get("id") == step_id)


@dataclass
class StepRun:
    code: int
    stdout: str
    stderr: str
    outputs: Dict[str, str]
    summary: str

    def commands(self):
        """Lines the runner reads as annotations."""
        return [ln for ln in re.split(r"\r\n|\r|\n", self.stdout + "\n" + self.stderr)
                if ln.lstrip().startswith(("::error", "::warning", "::notice"))]


@dataclass
class Runner:
    """One job: a workspace, RUNNER_TEMP, the event, and step outputs so far."""

    workspace: Path
    temp: Path
    inputs: Dict[str, str] = field(default_factory=dict)
    event: Optional[dict] = None
    event_name: str = "pull_request"
    base_ref: str = "main"
    action_path: Path = PROJECT
    steps: Dict[str, Dict[str, str]] = field(default_factory=dict)

    def value(self, expr: str) -> str:
        if expr.startswith("inputs."):
            name = expr[len("inputs."):]
            if name in self.inputs:
                return self.inputs[name]
            return str(ACTION["inputs"][name].get("default", ""))
        m = re.fullmatch(r"steps\.([\w-]+)\.outputs\.([\w-]+)", expr)
        if m:
            return self.steps.get(m.group(1), {}).get(m.group(2), "")
        if expr == "github.action_path":
            return str(self.action_path)
        if expr == "runner.os":
            return "Linux"
        if expr == "runner.temp":
            return str(self.temp)
        raise AssertionError(f"action.yml uses an expression the test does not know: {expr}")

    def evaluate(self, text) -> str:
        return EXPR.sub(lambda m: self.value(m.group(1)), str(text))

    def run(self, step_id: str, extra_env: Optional[Dict[str, str]] = None, timeout: int = 300) -> StepRun:
        s = step(step_id)
        assert s.get("shell") == "bash", step_id
        assert "${{" not in s["run"], "expressions are never pasted into a script"
        gh = Path(tempfile.mkdtemp(prefix=f"_{step_id}-", dir=self.temp))
        out, summary, event = gh / "output", gh / "summary.md", gh / "event.json"
        out.write_text("")
        summary.write_text("")
        event.write_text(json.dumps(self.event or {}))
        env = {k: v for k, v in os.environ.items() if not k.startswith(("GITHUB_", "PENGUIN_LINT_"))}
        env.pop("PYTHONPATH", None)
        env.update({k: self.evaluate(v) for k, v in (s.get("env") or {}).items()})
        env.update({
            "GITHUB_ACTIONS": "true", "CI": "true", "GITHUB_WORKSPACE": str(self.workspace),
            "GITHUB_EVENT_NAME": self.event_name, "GITHUB_EVENT_PATH": str(event),
            "GITHUB_OUTPUT": str(out), "GITHUB_STEP_SUMMARY": str(summary),
            "GITHUB_ACTION_PATH": str(self.action_path), "RUNNER_TEMP": str(self.temp),
            "RUNNER_OS": "Linux", "GITHUB_SERVER_URL": SERVER, "GITHUB_REPOSITORY": REPOSITORY,
            "GITHUB_SHA": "f" * 40,
        })
        if self.event_name == "pull_request":
            env["GITHUB_BASE_REF"], env["GITHUB_HEAD_REF"] = self.base_ref, "pr"
        env.update(extra_env or {})
        script = gh / "script.sh"
        script.write_text(s["run"])
        proc = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", str(script)],
                              cwd=self.workspace, env=env, capture_output=True, text=True, timeout=timeout,
                              stdin=subprocess.DEVNULL)
        outputs = dict(ln.split("=", 1) for ln in out.read_text().splitlines() if "=" in ln)
        self.steps[step_id] = outputs
        return StepRun(proc.returncode, proc.stdout, proc.stderr, outputs, summary.read_text())

    def lint(self, python: str = sys.executable, **kw) -> StepRun:
        """The lint step, with penguin-lint installed in ``python``'s
        environment (by default the test session's)."""
        self.steps.setdefault("install", {})["python"] = python
        return self.run("lint", **kw)
