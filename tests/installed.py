"""What the copy of penguin-lint that subprocesses run says about itself.

The suite imports ``penguin_lint`` from the checkout (``python -m pytest``
puts it first on ``sys.path``), while the language server and the Action's
step run the installed copy from a folder of their own. Where a test compares
a subprocess's output with an address that depends on the copy in use (the
rule pages shipped as package data), it asks that copy.
"""
from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from functools import lru_cache


@lru_cache(maxsize=None)
def rule_page(code: str, uri: bool = True) -> str:
    """``address.rule_docs(code)`` as a subprocess outside any Action computes it."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("GITHUB_")}
    env.pop("PYTHONPATH", None)
    with tempfile.TemporaryDirectory() as cwd:
        run = subprocess.run(
            [sys.executable, "-c",
             f"from penguin_lint.address import rule_docs; print(rule_docs({code!r}, uri={uri!r}, env={{}}))"],
            cwd=cwd, env=env, capture_output=True, text=True, check=True)
    return run.stdout.strip()
