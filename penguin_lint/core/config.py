"""`.penguin-lint.toml` at the repository root.

    select = ["PL"]                 # codes or prefixes
    ignore = ["PL207"]
    max-file-size = 5242880          # bytes, or "5MiB"
    base-branch = "main"
    cache-dir = ".cache/penguin-lint"  # a folder inside the repository
    baseline = ".penguin-lint-baseline.json"  # old debt that does not fail --all
    allow-added-suppressions = ["PL203"]  # may apply in a pull request, with a reason
    approval-label = "lint-exception"     # set by a maintainer: added ones apply

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
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, List, Optional, Tuple

from penguin_lint.findings import Position


CONFIG_FILE = ".penguin-lint.toml"
DEFAULT_SIZE_LIMIT = 5 * 1024 * 1024
#: where ``--write-baseline`` writes and ``--all`` reads the baseline, unless ``baseline`` says
DEFAULT_BASELINE = ".penguin-lint-baseline.json"
_SIZE = re.compile(r"^\s*(\d+)\s*(B|KB|KiB|MB|MiB|GB|GiB)?\s*$", re.I)
_UNITS = {None: 1, "b": 1, "kb": 1000, "kib": 1024, "mb": 1000**2, "mib": 1024**2, "gb": 1000**3, "gib": 1024**3}


class ConfigError(Exception):
    """A configuration problem: reported as one line, exit 2."""


@dataclass
class Config:
    """The settings of `.penguin-lint.toml`, with the defaults for what it leaves out."""

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
    #: ``cache-dir``: the cache folder, relative to the root (None: the
    #: default); --cache-dir and $PENGUIN_LINT_CACHE_DIR come first
    cache_dir: Optional[str] = None
    #: ``baseline``: the baseline file, relative to the root
    baseline: str = DEFAULT_BASELINE
    #: ``allow-added-suppressions``: codes or prefixes whose suppressions a
    #: pull request adds apply in its run when the comment gives a reason
    allow_added_suppressions: List[str] = field(default_factory=list)
    #: ``approval-label``: the label whose setting makes them all apply
    approval_label: Optional[str] = None

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
            shown = pattern if len(pattern) <= 60 else pattern[:57] + "..."
            raise ConfigError(f"{CONFIG_FILE}: glob '{shown}' has more than {_MAX_ALTERNATIVES} alternatives")
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


# The configuration is input from the pull request too: it is read with the
# guards data files have (size, nesting, dotted-key parts, number size), and
# every problem in it is one line naming its line and column.
MAX_CONFIG_SIZE = 256 * 1024
# max-file-size can raise PL004's limit this far and no further: past it a
# single file's text alone would outweigh everything else a run holds.
MAX_SIZE_LIMIT = 64 * 1024 * 1024


class _Located:
    """Builds ConfigErrors that say where in the file the problem is."""

    def __init__(self, doc):
        self.doc = doc

    def error(self, path, message: str, key: bool = False) -> ConfigError:
        pos = self.doc.key_pos(path) if key else self.doc.value_pos(path)
        return ConfigError(f"{CONFIG_FILE}:{pos.line}:{pos.column}: {message}")


def _codes(value, path, where: _Located, known_codes) -> List[str]:
    setting = ".".join(f'"{p}"' if "." in p or "*" in p or "/" in p else p for p in path)
    try:
        return rule_list(value, known_codes, f"'{setting}'")
    except ValueError as e:
        raise where.error(path, str(e)) from None


def rule_list(value, known_codes, setting: str) -> List[str]:
    """The rule codes or prefixes that ``value`` names, as the command line
    and the configuration both accept them: a string with commas
    (``"PL104,PL203"``) or a list of such strings; codes in any case,
    prefixes (``PL2``) and rule names (``summary-mismatch``, when
    ``known_codes`` maps codes to names). ``setting`` names where the value
    was written, for the ValueError an unknown code raises."""
    names = {n: c for c, n in known_codes.items()} if isinstance(known_codes, dict) else {}
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, (list, tuple)) or not all(isinstance(v, str) for v in value):
        raise ValueError(f"{setting} must be a list of rule codes or prefixes, or a string of them with commas, "
                         f"such as [\"PL1\", \"PL203\"] or \"PL1,PL203\"")
    out = []
    for item in value:
        pieces = [p.strip() for p in item.split(",")]
        if not any(pieces):
            raise ValueError(f"{setting} holds an empty rule code (it would match every rule)")
        for v in pieces:
            if not v:
                continue  # "PL104,": a trailing comma adds nothing
            code = names.get(v.lower(), v.upper())
            if not any(k.startswith(code) for k in known_codes):
                import difflib  # only to word this error

                close = difflib.get_close_matches(v.lower(), list(names), n=1, cutoff=0.6)
                more = f"; did you mean '{close[0]}' ({names[close[0]]})?" if close else ""
                raise ValueError(f"unknown rule code or prefix '{v}' in {setting}{more} (see `penguin-lint rules`)")
            out.append(code)
    return out


def parse_size(value) -> int:
    if isinstance(value, bool):
        raise ConfigError(f"{CONFIG_FILE}: 'max-file-size' must be a size such as 5242880 or \"5MiB\"")
    size = None
    if isinstance(value, int) and value > 0:
        size = value
    elif isinstance(value, str):
        m = _SIZE.match(value)
        if m and len(m.group(1)) <= 20:
            size = int(m.group(1)) * _UNITS[(m.group(2) or "b").lower()]
    if not size:
        raise ConfigError(f"{CONFIG_FILE}: 'max-file-size' must be a size such as 5242880 or \"5MiB\"")
    if size > MAX_SIZE_LIMIT:
        raise ConfigError(f"{CONFIG_FILE}: 'max-file-size' is at most {MAX_SIZE_LIMIT // (1024 * 1024)}MiB")
    return size


def load_config(root: Path, known_kinds, known_codes) -> Config:
    """The working tree's configuration (defaults when there is none)."""
    path = root / CONFIG_FILE
    if path.is_symlink():
        # never followed (it could point outside the repository), never ignored in silence
        raise ConfigError(f"{CONFIG_FILE}: is a symbolic link; write the configuration in the file itself")
    if not path.is_file():
        return Config()
    try:
        # never more than one byte past the limit, and never through a link
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
        try:
            raw = os.read(fd, MAX_CONFIG_SIZE + 1)
        finally:
            os.close(fd)
    except OSError as e:
        raise ConfigError(f"{CONFIG_FILE}: cannot be read: {e.strerror}") from None
    return parse_config(raw, known_kinds, known_codes=known_codes)


def parse_config(raw: bytes, known_kinds, known_codes) -> Config:
    """A configuration from the bytes of a ``.penguin-lint.toml`` (from the
    working tree or from a git tree: the caller decides which).

    ``known_kinds`` are the kinds ``[kinds]`` may name, ``known_codes`` the
    rule codes that ``select``, ``ignore`` and ``per-file-ignores`` may name
    (``rules.rule_codes()``: the registry is above this layer). Any problem
    raises ConfigError with one line naming the place.
    """
    # codes -> names (rules.rule_codes()), or plain codes
    known_codes = dict(known_codes) if isinstance(known_codes, dict) else list(known_codes)
    doc = _config_document(raw)
    data = doc.data
    where = _Located(doc)
    cfg = Config()
    known = {"select", "ignore", "per-file-ignores", "max-file-size", "base-branch", "layout", "kinds",
             "cache-dir", "baseline", "allow-added-suppressions", "approval-label"}
    for key in data:
        if key not in known:
            import difflib  # only to word this error

            close = difflib.get_close_matches(str(key), sorted(known), n=1, cutoff=0.6)
            meant = f"did you mean '{close[0]}'? " if close else ""
            raise where.error((key,), f"unknown setting '{key}' ({meant}known: {', '.join(sorted(known))})", key=True)
    # settings checked in this order: the first problem is the one reported
    _rule_settings(cfg, data, where, known_codes)
    _run_settings(cfg, data, where)
    _layout_settings(cfg, data, where, known_kinds)
    _exception_settings(cfg, data, where, known_codes)
    return cfg


def _config_document(raw: bytes):
    """The parsed TOML document, or ConfigError at its first problem."""
    from penguin_lint.loaders import load_bytes

    if len(raw) > MAX_CONFIG_SIZE:
        raise ConfigError(f"{CONFIG_FILE}: over {MAX_CONFIG_SIZE // 1024} KiB, too large for a configuration file")
    doc = load_bytes(raw, CONFIG_FILE, ".toml")
    if doc.problems or not doc.parsed:
        first = min(doc.problems, key=lambda p: (p.pos.line, p.pos.column) if p.pos else (0, 0))
        pos = first.pos or Position(1, 1)
        message = "not valid TOML: " + first.message[len("TOML does not parse: "):] \
            if first.message.startswith("TOML does not parse: ") else first.message
        raise ConfigError(f"{CONFIG_FILE}:{pos.line}:{pos.column}: {message}")
    return doc


def _rule_settings(cfg: Config, data: dict, where: _Located, known_codes) -> None:
    """``select``, ``ignore`` and ``per-file-ignores``."""
    if "select" in data:
        cfg.select = _codes(data["select"], ("select",), where, known_codes)
    if "ignore" in data:
        cfg.ignore = _codes(data["ignore"], ("ignore",), where, known_codes)
    if not [c for c in known_codes if matches_any(c, cfg.select) and not matches_any(c, cfg.ignore)]:
        path = ("select",) if "select" in data else ("ignore",)
        raise where.error(path, "'select' and 'ignore' leave no rule enabled")
    pfi = data.get("per-file-ignores", {})
    if not isinstance(pfi, dict):
        raise where.error(("per-file-ignores",), "'per-file-ignores' must be a table of glob = [codes]")
    for glob, codes in pfi.items():
        cfg.per_file_ignores.append((glob, _codes(codes, ("per-file-ignores", glob), where, known_codes)))
        _checked_glob(glob, ("per-file-ignores", glob), where)


def _run_settings(cfg: Config, data: dict, where: _Located) -> None:
    """``max-file-size``, ``base-branch``, ``cache-dir`` and ``baseline``."""
    if "max-file-size" in data:
        try:
            cfg.size_limit = parse_size(data["max-file-size"])
        except ConfigError as e:
            raise where.error(("max-file-size",), str(e)[len(CONFIG_FILE) + 2:]) from None
    if "base-branch" in data:
        branch = data["base-branch"]
        if not isinstance(branch, str) or not branch.strip() or branch.startswith("-") \
                or any(not c.isprintable() or c.isspace() for c in branch):
            raise where.error(("base-branch",), "'base-branch' must be a branch name such as \"main\"")
        cfg.base_branch = branch
    if "cache-dir" in data:
        folder = data["cache-dir"]
        if not _inside_folder(folder) or ".git" in folder.split("/"):
            raise where.error(("cache-dir",), "cache-dir must be a relative folder inside the repository, "
                                              "outside .git")
        cfg.cache_dir = folder.strip("/")
    if "baseline" in data:
        name = data["baseline"]
        if not _inside_folder(name) or name.endswith("/") or ".git" in name.split("/") \
                or any(not c.isprintable() for c in name):
            raise where.error(("baseline",), "baseline must be a file path inside the repository, outside .git")
        cfg.baseline = name


def _layout_settings(cfg: Config, data: dict, where: _Located, known_kinds) -> None:
    """``layout`` and ``kinds``, and a ``cache-dir`` outside the layout."""
    layout = data.get("layout", {})
    if not isinstance(layout, dict):
        raise where.error(("layout",), "'layout' must be a table of folder = \"path\"")
    for key, value in layout.items():
        if key not in cfg.layout:
            raise where.error(("layout", key), f"unknown layout folder '{key}' (known: {', '.join(cfg.layout)})",
                              key=True)
        if not _inside_folder(value):
            raise where.error(("layout", key), f"layout.{key} must be a relative folder inside the repository")
        cfg.layout[key] = value.strip("/")
    kinds = data.get("kinds", {})
    if not isinstance(kinds, dict):
        raise where.error(("kinds",), "'kinds' must be a table of glob = kind")
    for glob, kind in kinds.items():
        if not isinstance(kind, str) or kind not in known_kinds:
            what = f"unknown kind '{kind}'" if isinstance(kind, str) else \
                f"a kind is a name, not {'an' if _toml_type(kind)[0] in 'aei' else 'a'} {_toml_type(kind)}"
            raise where.error(("kinds", glob), f"kinds.\"{glob}\": {what} "
                                               f"(known: {', '.join(sorted(known_kinds))})")
        _checked_glob(glob, ("kinds", glob), where)
        cfg.kinds.append((glob.strip("/"), kind))
    if cfg.cache_dir is not None:
        # The run skips its cache folder: inside a layout folder it would hide
        # what lies there from this run and be reported by a run without it.
        for top in list(cfg.layout.values()) + ["leaderboard"]:
            if cfg.cache_dir == top or cfg.cache_dir.startswith(top + "/") or top.startswith(cfg.cache_dir + "/"):
                raise where.error(("cache-dir",), f"cache-dir must lie outside the layout's folders ({top}/)")


# GitHub's limit on a label's name
MAX_LABEL = 50


def _exception_settings(cfg: Config, data: dict, where: _Located, known_codes) -> None:
    """``allow-added-suppressions`` and ``approval-label``: the exceptions
    the maintainers consent to (read from the base in a pull request)."""
    key = "allow-added-suppressions"
    if key in data:
        cfg.allow_added_suppressions = _codes(data[key], (key,), where, known_codes)
        from penguin_lint.suppressions import UNSUPPRESSIBLE

        never = [c for c in cfg.allow_added_suppressions if c in UNSUPPRESSIBLE]
        if never:
            raise where.error((key,), f"'{key}' names {never[0]}, which no comment can suppress")
    if "approval-label" in data:
        label = data["approval-label"]
        if not isinstance(label, str) or not label.strip() or label != label.strip() \
                or len(label) > MAX_LABEL or any(not c.isprintable() for c in label):
            raise where.error(("approval-label",), f"'approval-label' must be a label's name such as "
                                                   f"\"lint-exception\" (at most {MAX_LABEL} characters)")
        cfg.approval_label = label


def _inside_folder(value) -> bool:
    """Whether ``value`` names a folder inside the repository: relative,
    never up (``..``), with ``/`` only."""
    return (isinstance(value, str) and bool(value.strip("/")) and not value.startswith("/")
            and ".." not in value.split("/") and "\\" not in value)


def _checked_glob(glob: str, path, where: _Located) -> None:
    if not glob.strip("/"):
        raise where.error(path, "an empty glob matches nothing", key=True)
    try:
        _compile_glob(glob)
    except ConfigError as e:
        raise where.error(path, str(e)[len(CONFIG_FILE) + 2:], key=True) from None


def _toml_type(value) -> str:
    return {bool: "boolean", int: "integer", float: "float", list: "array", dict: "table"}.get(type(value), "value")


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

