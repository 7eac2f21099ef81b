"""Write action/requirements-3.X.txt, one per Python the Action supports.

Each holds the pins of action/constraints.txt that apply to that Python,
each with the sha256 of every wheel PyPI has for that version which that
Python can install (on any platform a runner has), so that the Action's
install step can run ``pip install --require-hashes --only-binary :all:``:
a file that differs from the one reviewed here is refused.

    python action/lock.py           # rewrite the files (reads pypi.org)
    python action/lock.py --check   # exit 1 if a file would change

Run it after changing action/constraints.txt; tests/github/test_action.py checks
that every dependency of pyproject.toml has a hashed pin in every file.
Needs ``packaging``.
"""
from __future__ import annotations

import json
import re
import sys
import urllib.request
from pathlib import Path
from typing import Dict, List, Tuple

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name, parse_wheel_filename

HERE = Path(__file__).resolve().parent
PYTHONS = ("3.9", "3.10", "3.11", "3.12", "3.13")
INDEX = "https://pypi.org/simple/{}/"


def pins() -> List[Requirement]:
    out = []
    for line in (HERE / "constraints.txt").read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            out.append(Requirement(line))
    return out


def applies(req: Requirement, python: str) -> bool:
    return req.marker is None or req.marker.evaluate({"python_version": python,
                                                      "python_full_version": python + ".0"})


def installable(filename: str, python: str) -> bool:
    """Whether CPython ``python`` can install this wheel (on some platform)."""
    minor = int(python.split(".")[1])
    try:
        _, _, _, tags = parse_wheel_filename(filename)
    except Exception:
        return False
    for tag in tags:
        interp = tag.interpreter
        if interp in ("py3", "py2.py3") or (interp == "py" + python.replace(".", "")):
            return True
        m = re.fullmatch(r"cp3(\d+)", interp)
        if m and (int(m.group(1)) == minor or (tag.abi == "abi3" and int(m.group(1)) <= minor)):
            return True
    return False


def files(name: str) -> List[dict]:
    request = urllib.request.Request(INDEX.format(canonicalize_name(name)),
                                     headers={"Accept": "application/vnd.pypi.simple.v1+json"})
    with urllib.request.urlopen(request, timeout=60) as response:
        return json.load(response)["files"]


def render(python: str, cache: Dict[str, List[dict]]) -> str:
    lines = [f"# Python {python}: the pins of action/constraints.txt with the hash of every wheel",
             "# that Python can install. Written by action/lock.py; do not edit by hand.", ""]
    for req in pins():
        if not applies(req, python):
            continue
        [spec] = list(req.specifier)
        name = canonicalize_name(req.name)
        if name not in cache:
            cache[name] = files(name)
        hashes = sorted({f["hashes"]["sha256"] for f in cache[name]
                         if f["filename"].endswith(".whl") and not f.get("yanked")
                         and canonicalize_name(f["filename"].split("-")[0]) == name
                         and f["filename"].split("-")[1] == spec.version
                         and installable(f["filename"], python)})
        if not hashes:
            raise SystemExit(f"no wheel of {name}=={spec.version} for Python {python} "
                             f"(--only-binary would refuse it): pin another version")
        lines.append(f"{name}=={spec.version} \\")
        lines.extend(f"    --hash=sha256:{h}" + (" \\" if i < len(hashes) - 1 else "")
                     for i, h in enumerate(hashes))
    return "\n".join(lines) + "\n"


def main(argv: List[str]) -> int:
    check = "--check" in argv
    cache: Dict[str, List[dict]] = {}
    stale: List[Tuple[str, Path]] = []
    for python in PYTHONS:
        path = HERE / f"requirements-{python}.txt"
        text = render(python, cache)
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            stale.append((python, path))
            if not check:
                path.write_text(text, encoding="utf-8")
    for python, path in stale:
        print(f"{'out of date' if check else 'written'}: {path.name}")
    return 1 if check and stale else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
