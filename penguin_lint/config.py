"""`.penguin-lint.toml` at the repository root.

    select = ["PL"]                 # codes or prefixes
    ignore = ["PL207"]
    max-file-size = 5242880          # bytes, or "5MiB"
    base-branch = "main"

    [per-file-ignores]
    "experiments/legacy/**" = ["PL3"]

    [layout]                         # top folders of the penguin layout
    packages = "packages"
    data = "data"
    leaderboards = "leaderboards"
    experiments = "experiments"

    [kinds]                          # any kind for any glob
    "hub/*/board.yaml" = "harbor_leaderboard"
"""
from __future__ import annotations

import re
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, List, Optional, Tuple

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

CONFIG_FILE = ".penguin-lint.toml"
DEFAULT_SIZE_LIMIT = 5 * 1024 * 1024
_SIZE = re.compile(r"^\s*(\d+)\s*(B|KB|KiB|MB|MiB|GB|GiB)?\s*$", re.I)
_UNITS = {None: 1, "b": 1, "kb": 1000, "kib": 1024, "mb": 1000**2, "mib": 1024**2, "gb": 1000**3, "gib": 1024**3}


class ConfigError(Exception):
    """A configuration problem: reported as one line, exit 2."""


@dataclass
class Config:
    select: List[str] = field(default_factory=lambda: ["PL"])
    ignore: List[str] = field(default_factory=list)
    per_file_ignores: List[Tuple[str, List[str]]] = field(default_factory=list)
    size_limit: int = DEFAULT_SIZE_LIMIT
    base_branch: Optional[str] = None
    layout: Dict[str, str] = field(default_factory=lambda: {
        "packages": "packages", "data": "data",
        "leaderboards": "leaderboards", "experiments": "experiments",
    })
    kinds: List[Tuple[str, str]] = field(default_factory=list)

    def ignored_for(self, path: str) -> List[str]:
        out: List[str] = []
        for pattern, codes in self.per_file_ignores:
            if glob_match(path, pattern):
                out.extend(codes)
        return out


def glob_match(path: str, pattern: str) -> bool:
    """Glob where ``**`` spans folders and ``*`` stays within one."""
    return _glob_re(pattern).match(path) is not None


_GLOB_CACHE: Dict[str, "re.Pattern[str]"] = {}


def _glob_re(pattern: str):
    rx = _GLOB_CACHE.get(pattern)
    if rx is None:
        out, i = [], 0
        while i < len(pattern):
            c = pattern[i]
            if pattern.startswith("**/", i):
                out.append("(?:.*/)?")
                i += 3
                continue
            if pattern.startswith("**", i):
                out.append(".*")
                i += 2
                continue
            if c == "*":
                out.append("[^/]*")
            elif c == "?":
                out.append("[^/]")
            elif c == "{":
                j = pattern.find("}", i)
                if j != -1:
                    out.append("(?:" + "|".join(re.escape(a) for a in pattern[i + 1:j].split(",")) + ")")
                    i = j + 1
                    continue
                out.append(re.escape(c))
            else:
                out.append(re.escape(c))
            i += 1
        rx = _GLOB_CACHE[pattern] = re.compile("(?:" + "".join(out) + r")\Z")
    return rx


def _codes(value, key: str) -> List[str]:
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ConfigError(f"{CONFIG_FILE}: '{key}' must be a list of rule codes or prefixes")
    return [v.strip().upper() for v in value]


def parse_size(value) -> int:
    if isinstance(value, bool):
        raise ConfigError(f"{CONFIG_FILE}: 'max-file-size' must be a size such as 5242880 or \"5MiB\"")
    if isinstance(value, int) and value > 0:
        return value
    if isinstance(value, str):
        m = _SIZE.match(value)
        if m:
            return int(m.group(1)) * _UNITS[(m.group(2) or "b").lower()]
    raise ConfigError(f"{CONFIG_FILE}: 'max-file-size' must be a size such as 5242880 or \"5MiB\"")


def load_config(root: Path, known_kinds) -> Config:
    cfg = Config()
    path = root / CONFIG_FILE
    if not path.is_file() or path.is_symlink():
        return cfg
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError, OSError) as e:
        raise ConfigError(f"{CONFIG_FILE}: cannot be read: {e}") from None
    known = {"select", "ignore", "per-file-ignores", "max-file-size", "base-branch", "layout", "kinds"}
    unknown = sorted(set(data) - known)
    if unknown:
        raise ConfigError(f"{CONFIG_FILE}: unknown setting '{unknown[0]}' (known: {', '.join(sorted(known))})")
    if "select" in data:
        cfg.select = _codes(data["select"], "select")
    if "ignore" in data:
        cfg.ignore = _codes(data["ignore"], "ignore")
    pfi = data.get("per-file-ignores", {})
    if not isinstance(pfi, dict):
        raise ConfigError(f"{CONFIG_FILE}: 'per-file-ignores' must be a table of glob = [codes]")
    cfg.per_file_ignores = [(k, _codes(v, f"per-file-ignores.{k}")) for k, v in pfi.items()]
    if "max-file-size" in data:
        cfg.size_limit = parse_size(data["max-file-size"])
    if "base-branch" in data:
        if not isinstance(data["base-branch"], str):
            raise ConfigError(f"{CONFIG_FILE}: 'base-branch' must be a string")
        cfg.base_branch = data["base-branch"]
    layout = data.get("layout", {})
    if not isinstance(layout, dict):
        raise ConfigError(f"{CONFIG_FILE}: 'layout' must be a table")
    for key, value in layout.items():
        if key not in cfg.layout:
            raise ConfigError(f"{CONFIG_FILE}: unknown layout folder '{key}' (known: {', '.join(cfg.layout)})")
        if not isinstance(value, str) or not value or value.startswith("/") or ".." in value.split("/"):
            raise ConfigError(f"{CONFIG_FILE}: layout.{key} must be a relative folder inside the repository")
        cfg.layout[key] = value.strip("/")
    kinds = data.get("kinds", {})
    if not isinstance(kinds, dict):
        raise ConfigError(f"{CONFIG_FILE}: 'kinds' must be a table of glob = kind")
    for glob, kind in kinds.items():
        if kind not in known_kinds:
            raise ConfigError(f"{CONFIG_FILE}: kinds.\"{glob}\": unknown kind '{kind}' "
                              f"(known: {', '.join(sorted(known_kinds))})")
        cfg.kinds.append((glob.strip("/"), kind))
    return cfg


def matches_any(code: str, prefixes) -> bool:
    return any(code.startswith(p) for p in prefixes)


def glob_roots(pattern: str) -> str:
    """The literal folder a glob starts in ('' for the repository root)."""
    parts = pattern.split("/")
    lit = []
    for p in parts[:-1]:
        if any(ch in p for ch in "*?[{"):
            break
        lit.append(p)
    return "/".join(lit)

