"""Instructions counted by valgrind (callgrind): a second measure of the hook, free of noise.

CPU time of a run of a tenth of a second varies by a third between rounds on a shared machine;
the number of instructions a process executes does not (the hash seed is fixed). Each process of
a run is counted apart, so the rows can tell penguin-lint's own process from the git processes
it starts: the hook's growth with the repository is git's reading of the index, and penguin-lint's
part can be judged alone. Instructions are not time (a page fault or a cache miss costs time and
no instruction), so these rows stand beside the CPU rows, not in their place.

`python -m benchmarks.run --waits --instructions`; needs `valgrind` on PATH (Debian's package).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

_COLLECTED = re.compile(r"^==\d+== Collected : (\d+)$", re.M)
_COMMAND = re.compile(r"^==\d+== Command: (\S+)", re.M)


@dataclass
class Count:
    """Instructions of one run: its first process (the command itself) and git's processes."""

    own: int
    git: int
    others: int
    returncode: int

    @property
    def total(self) -> int:
        return self.own + self.git + self.others


def available() -> bool:
    return shutil.which("valgrind") is not None


def count(cmd: list[str], cwd: Path, env: dict | None = None) -> Count:
    """Run ``cmd`` once under callgrind, every child process traced, and add up the instructions
    of each kind of process. The command's own process is the one with the lowest pid."""
    env = dict(os.environ if env is None else env, PYTHONHASHSEED="0")
    with tempfile.TemporaryDirectory(prefix="pl-instructions-") as logs:
        proc = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
                        "--trace-children=yes", f"--log-file={logs}/%p.log", *cmd],
                       cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, check=False)
        procs = []
        for log in Path(logs).glob("*.log"):
            text = log.read_text(errors="replace")
            n, prog = _COLLECTED.search(text), _COMMAND.search(text)
            if n and prog:
                procs.append((int(log.stem), os.path.basename(prog.group(1)), int(n.group(1))))
    if not procs:
        raise RuntimeError(f"valgrind counted nothing for {' '.join(cmd)}")
    procs.sort()
    own = procs[0][2]
    git = sum(n for _, prog, n in procs[1:] if prog == "git")
    return Count(own, git, sum(n for _, prog, n in procs[1:] if prog != "git"), proc.returncode)


def fmt_i(n: int) -> str:
    return f"{n / 1e6:.1f} M"
