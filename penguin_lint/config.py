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

import fnmatch
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
    """Glob where ``**`` spans folders, ``*`` and ``?`` stay within one, and
    ``{a,b}`` is either. Matching goes folder by folder, each folder name
    with fnmatch (linear-time since Python 3.9), so that a pattern from a
    pull request cannot make the matcher backtrack for hours."""
    return any(_match_segments(segs, path.split("/")) for segs in _compile_glob(pattern))


_GLOB_CACHE: Dict[str, list] = {}
_MAX_ALTERNATIVES = 64


def _expand_braces(pattern: str) -> List[str]:
    i = pattern.find("{")
    j = pattern.find("}", i + 1) if i != -1 else -1
    if i == -1 or j == -1:
        return [pattern]
    out: List[str] = []
    for alt in pattern[i + 1:j].split(","):
        out.extend(_expand_braces(pattern[:i] + alt + pattern[j + 1:]))
        if len(out) > _MAX_ALTERNATIVES:
            raise ConfigError(f"{CONFIG_FILE}: glob '{pattern}' has more than {_MAX_ALTERNATIVES} alternatives")
    return out


def _compile_glob(pattern: str) -> list:
    compiled = _GLOB_CACHE.get(pattern)
    if compiled is None:
        compiled = []
        for alt in _expand_braces(pattern):
            segs = []
            for seg in alt.strip("/").split("/"):
                if seg == "**":
                    if not segs or segs[-1] is not None:  # a/**/**/b is a/**/b
                        segs.append(None)
                else:
                    segs.append(re.compile(fnmatch.translate(seg.replace("**", "*"))))
            compiled.append(segs)
        _GLOB_CACHE[pattern] = compiled
    return compiled


def _match_segments(segs, names) -> bool:
    # The set of path positions the pattern can have reached: O(pattern x path).
    states = {0}
    n = len(names)
    for seg in segs:
        if seg is None:
            states = set(range(min(states), n + 1))
        else:
            states = {j + 1 for j in states if j < n and seg.match(names[j])}
        if not states:
            return False
    return n in states


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
    """The working tree's configuration (defaults when there is none)."""
    path = root / CONFIG_FILE
    if not path.is_file() or path.is_symlink():
        return Config()
    try:
        raw = path.read_bytes()
    except OSError as e:
        raise ConfigError(f"{CONFIG_FILE}: cannot be read: {e}") from None
    return parse_config(raw, known_kinds)


def parse_config(raw: bytes, known_kinds) -> Config:
    """A configuration from the bytes of a ``.penguin-lint.toml`` (from the
    working tree or from a git tree: the caller decides which)."""
    cfg = Config()
    try:
        data = tomllib.loads(raw.decode("utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as e:
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
    for glob in pfi:
        _compile_glob(glob)
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
        _compile_glob(glob)
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

