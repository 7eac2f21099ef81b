"""The content cache: a unit's findings, reused while nothing it read changed.

A unit (see ``engine.Engine.units``) is checked with a ``ReadLog`` that notes
every listing and file its checks read. The cache stores, per unit, those
inputs with what they held (a listing's entries; a file's blob id, of the bytes
parsed, and its stat) and the findings. The next run reuses the findings only when
every input still holds the same; anything else runs the unit again.

Everything that could change a verdict without changing a file is in the
settings key that names the cache file: the tool's version and code, the
schemas, the configuration, the enabled rules and the run's options.

The cache is advisory. A record is used only when what it describes is
proven unchanged: a folder by its entries, or by its inode and change time
(which, unlike its modification time, nobody can set back: tar, ``rsync -t``
and cache restores set folder times); a file by its bytes, or by its size,
times and inode. A cache file is plain JSON, never executable data, checked
by a small header before the rest is read; a damaged, foreign or oversized
one is ignored (one warning for the run) and its unit runs again. A cache
folder that git tracks (a pull request can commit one) is never used,
however it was named.
"""
from __future__ import annotations

import hashlib
import json
import os
import stat as _stat
import sys
import time
from pathlib import Path
from typing import Dict, Iterable, List, Optional, Tuple

from penguin_lint.version import __version__
from penguin_lint.core.atomic import replace_file
from penguin_lint.cache.contentid import ContentIds
from penguin_lint.findings import ERROR, WARNING, Finding
from penguin_lint.suppressions import CARRIER
from penguin_lint.core.repo import Entry, ReadLog, Repository, _plain_rel as _plain, file_state

FORMAT = 3
DEFAULT_DIR = ".penguin-lint-cache"
ENV_DIR = "PENGUIN_LINT_CACHE_DIR"
# Far above any honest record: the largest on the benchmark's large
# repository (a leaderboard with 50 experiments) is 150 KB. A bigger file
# is not read at all.
MAX_ENTRY_BYTES = 4 * 1024 * 1024
# Honest records hold one bracket per 38 bytes or more; a file packed
# denser (``[[],[],...]``) would cost many times its size to parse.
MIN_BYTES_PER_BRACKET = 8
# A folder or file changed this close to the start of the run may change
# again within the same clock tick: its time stamps are not trusted.
RACY_NS = 1_000_000_000
# Settings folders kept side by side (one per configuration in use).
KEEP_SETTINGS = 8

# files a unit may have read besides listing them (their signatures are checked too)
_DATA_SUFFIXES = (".toml", ".yaml", ".yml", ".json")
_O_READ = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
_FIELDS = ("code", "name", "severity", "path", "message", "line", "column",
           "end_line", "end_column", "hint", "subject")


class CacheWarning(Exception):
    """Why the cache is not used this run (one warning line, not a failure)."""


def cache_folder(root: Path, given: Optional[str], configured: Optional[str] = None) -> Tuple[Path, bool]:
    """The cache folder and whether it is one the repository names for itself
    (the default, or ``cache-dir`` of its configuration, a folder inside it).
    --cache-dir (``given``) comes first, then $PENGUIN_LINT_CACHE_DIR, then
    ``configured``, then the default."""
    chosen = given or os.environ.get(ENV_DIR) or None
    if chosen:
        return Path(os.path.abspath(chosen)), False
    return root / (configured or DEFAULT_DIR), True


def inside(root: Path, folder: Path) -> Optional[str]:
    """``folder`` as a path relative to ``root`` when it lies below it, links
    resolved (a folder reached through a link is where the link leads), else None."""
    real_root = os.path.realpath(root)
    real = os.path.realpath(folder)
    if real == real_root:
        return ""
    if not real.startswith(real_root.rstrip(os.sep) + os.sep):
        return None
    return os.path.relpath(real, real_root).replace(os.sep, "/")


def refuse_linked(root: Path, folder: Path) -> None:
    """Raise CacheWarning when ``folder``, named inside ``root``, is reached
    through a symbolic link below ``root`` or lies in a ``.git`` folder: a
    pull request can commit ``.cache -> /elsewhere``, and the cache would be
    written outside the repository."""
    base, full = os.path.abspath(root), os.path.abspath(folder)
    if not full.startswith(base.rstrip(os.sep) + os.sep):
        return  # named outside the repository: the user's own folder
    path = base
    for part in os.path.relpath(full, base).split(os.sep):
        path = os.path.join(path, part)
        if part == ".git":
            raise CacheWarning(f"the cache folder {folder} is inside a .git folder; the cache is not used")
        if os.path.islink(path):
            link = os.path.relpath(path, base).replace(os.sep, "/")
            if path == full:
                raise CacheWarning(f"{link} is a symbolic link, not a folder; the cache is not used")
            raise CacheWarning(f"the cache folder {os.path.relpath(full, base)}/ is reached through the "
                               f"symbolic link {link}; the cache is not used")
        if not os.path.lexists(path):
            return


def refuse_tracked(root: Path, folder: Path, ids: ContentIds) -> None:
    """Raise CacheWarning when git tracks ``folder`` or anything in it (a
    pull request can commit records), however the folder was named, or when
    it is reached through a link in the repository (``refuse_linked``)."""
    refuse_linked(root, folder)
    rel = inside(root, folder)
    # the repository's own folders by their relative name; any other by its
    # absolute one (git refuses a path outside its work tree: not tracked)
    spec = rel if rel else os.path.realpath(folder)
    shown = f"{rel}/" if rel else f"{folder}"
    if ids.tracks_under(spec):
        raise CacheWarning(f"the cache folder {shown} is tracked by git; the cache is not used")


def skipped_folder(root: Path, folder: Path) -> Optional[str]:
    """The path, relative to ``root``, that --all leaves out as the run's
    cache folder: only where the cache is kept, and only a real folder."""
    rel = inside(root, folder)
    if not rel:
        return None
    try:
        if not _stat.S_ISDIR(os.lstat(os.path.realpath(folder)).st_mode):
            return None
    except OSError:
        return None
    return rel


def settings_key(config, rule_codes: Iterable[str], options: dict) -> str:
    h = hashlib.blake2b(digest_size=16)
    parts = [f"format {FORMAT}", f"version {__version__}", f"python {sys.version_info[:2]}",
             _code_stamp(), _schema_stamp(), f"yaml {_yaml_stamp()}", repr(config),
             " ".join(sorted(rule_codes)),
             repr(sorted((k, repr(v)) for k, v in options.items() if not k.startswith("_")))]
    for p in parts:
        h.update(p.encode("utf-8", "surrogatepass"))
        h.update(b"\0")
    return h.hexdigest()


# The code that verdicts come from (reporters and the command line only
# print them).
_VERDICT_MODULES = ("findings.py", "suppressions.py")
_VERDICT_PACKAGES = ("core", "engine", "loaders", "rules", "validation")


def _code_stamp() -> str:
    # An edited checkout (an editable install) must not reuse the verdicts
    # of the code before the edit: the size and time stamp of every module.
    base = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # the package
    paths = [os.path.join(base, m) for m in _VERDICT_MODULES]
    for pkg in _VERDICT_PACKAGES:
        try:
            with os.scandir(os.path.join(base, pkg)) as it:
                paths += [de.path for de in it if de.name.endswith(".py")]
        except OSError:
            pass
    out = []
    for path in sorted(paths):
        try:
            st = os.stat(path)
        except OSError:
            continue
        out.append(f"{os.path.relpath(path, base)} {st.st_size} {st.st_mtime_ns}")
    return "\n".join(out)


def _schema_stamp() -> str:
    from penguin_lint.core.layout import FILE_KINDS
    from penguin_lint.validation.schema import _load_schema_text

    h = hashlib.blake2b(digest_size=16)
    for kind in sorted(FILE_KINDS):
        name = FILE_KINDS[kind]
        if not name:
            continue
        try:
            h.update(f"{kind}={name}\0".encode() + _load_schema_text(name).encode("utf-8") + b"\0")
        except OSError:
            h.update(f"{kind}=missing\0".encode())
    return h.hexdigest()


def _yaml_stamp() -> str:
    # PyYAML's files, found without importing it (a run whose verdicts all
    # come from the cache never parses YAML): another version or a build
    # without libyaml has other files
    import importlib.util

    spec = importlib.util.find_spec("yaml")
    out = []
    for folder in (spec.submodule_search_locations or []) if spec is not None else []:
        try:
            with os.scandir(folder) as it:
                for de in it:
                    if de.name.endswith((".py", ".so", ".pyd")):
                        st = de.stat()
                        out.append(f"{de.name} {st.st_size} {st.st_mtime_ns}")
        except OSError:
            pass
    return " ".join(sorted(out))


def listing_id(entries: Optional[Dict[str, Entry]]) -> str:
    if entries is None:
        return "none"
    # one string hashed once: a listing is a handful of entries, and the
    # calls, not the hashing, are what a run of 30,000 folders pays for
    text = "".join([f"{e.name}\0{e.is_dir:d}{e.is_file:d}{e.is_symlink:d}{e.executable:d}{e.size}\0"
                    for e in sorted(entries.values())])
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).hexdigest()


_EMPTY_LISTING = listing_id({})


def unit_key(unit) -> str:
    return json.dumps([[top, bool(rec)] for top, rec in unit], ensure_ascii=False)


class UnitCache:
    """Per-unit findings of earlier runs, checked against the work tree."""

    def __init__(self, folder: Path, key: str, repo: Repository, ids: ContentIds,
                 in_repo: bool = False):
        self.folder = folder
        self.key = key
        self.repo = repo
        self.ids = ids
        self.started_ns = time.time_ns()
        # one file per unit: a run holds one record at a time (flat memory),
        # and runs in parallel (shards, several terminals) never overwrite
        # each other's records
        self.dir = folder / f"v{FORMAT}" / key
        self._used: set = set()
        self._write_error: Optional[str] = None
        self._listing_ok: Dict[str, bool] = {}
        self._file_ok: Dict[str, bool] = {}
        self._inputs_memo: Dict[str, list] = {}
        self._stats: Dict[str, object] = {}
        self.hits = self.misses = 0
        from penguin_lint.rules import all_rules

        self._codes = {r.code for r in all_rules()}
        self.damaged: List[str] = []
        refuse_tracked(repo.root, folder, ids)
        if in_repo:
            rel = os.path.relpath(folder, repo.root).replace(os.sep, "/")
            try:
                st = os.lstat(folder)
            except FileNotFoundError:
                st = None
            except OSError as e:
                raise CacheWarning(f"cannot use the cache folder {rel}/: {e.strerror}") from None
            if st is not None and not _stat.S_ISDIR(st.st_mode):
                raise CacheWarning(f"{rel} is not a folder; the cache is not used")
        try:
            # made before the run lists the repository: the folder is then
            # part of the listing this run records, and the next run's too
            self._prepare_folder()
        except OSError as e:
            raise CacheWarning(f"cannot use the cache folder {folder}: {e.strerror}") from None

    # -- reading ---------------------------------------------------------------
    def _entry(self, key: str) -> Path:
        return self.dir / (hashlib.blake2b(key.encode("utf-8", "surrogatepass"), digest_size=16).hexdigest() + ".json")

    def _header(self, key: str) -> bytes:
        """What a record of unit ``key`` under these settings starts with:
        checked before anything else is read or parsed."""
        head = json.dumps({"format": FORMAT, "settings": self.key, "unit": key}, separators=(",", ":"))
        return head[:-1].encode("ascii") + b',"record":'

    def _read(self, key: str):
        """The record stored for unit ``key``, None when there is none or
        the file is not one this tool wrote for this unit and these settings
        (noted as damage: the run then says so once)."""
        try:
            fd = os.open(self._entry(key), _O_READ)
        except FileNotFoundError:
            return None
        except OSError:
            self.damaged.append("unreadable")
            return None
        header = self._header(key)
        try:
            st = os.fstat(fd)
            if not _stat.S_ISREG(st.st_mode):
                self.damaged.append("not a file")
                return None
            if st.st_size > MAX_ENTRY_BYTES:
                self.damaged.append("too large")
                return None
            data = os.read(fd, len(header))
            if data != header:
                self.damaged.append("foreign")
                return None
            chunks = [data]
            total = len(data)
            while True:
                chunk = os.read(fd, 1 << 20)
                if not chunk:
                    break
                chunks.append(chunk)
                total += len(chunk)
                if total > MAX_ENTRY_BYTES:
                    self.damaged.append("too large")
                    return None
        except OSError:
            self.damaged.append("unreadable")
            return None
        finally:
            os.close(fd)
        body = b"".join(chunks)[len(header):]
        if body[-1:] != b"}" or (body.count(b"[") + body.count(b"{")) * MIN_BYTES_PER_BRACKET > len(body):
            self.damaged.append("malformed")
            return None
        try:
            return json.loads(body[:-1])
        except (ValueError, RecursionError):
            self.damaged.append("malformed")
            return None

    def reader(self) -> ReadLog:
        return ReadLog()

    def lookup(self, unit, avoid: frozenset = frozenset()) -> Optional[Tuple[List[Finding], int, List[str]]]:
        """The unit's findings, file count and empty folders when every input is unchanged.
        ``avoid``: files whose verdicts this run judges otherwise (the
        suppressions a pull request adds hide nothing in its own run): a
        record that read one of them is not used."""
        key = unit_key(unit)
        self._used.add(self._entry(key).name)
        rec = self._read(key)
        parsed = _parse_record(rec, self._codes) if rec is not None else None
        if rec is not None and parsed is None:
            self.damaged.append("malformed")
        if parsed is not None and avoid and not avoid.isdisjoint(parsed[3]):
            parsed = None
        if parsed is None or not self._still_valid(parsed):
            self.misses += 1
            return None
        self.hits += 1
        findings, files, listings, _files = parsed
        # the unit's empty folders, as its walk saw them (engine.gitlinks)
        empty = [rel for rel, (_stamp, lid, _children) in listings.items()
                 if lid == _EMPTY_LISTING and any(rel == top or (rec and rel.startswith(top + "/"))
                                                  for top, rec in unit)]
        return findings, files, empty

    def _still_valid(self, parsed) -> bool:
        _f, _n, listings, files = parsed
        for rel, (mtime, lid, children) in listings.items():
            ok = self._listing_ok.get(rel)
            if ok is None:
                ok = self._listing_ok[rel] = self._listing_same(rel, mtime, lid, children)
            if not ok:
                return False
        file_id = self.ids.hash_file
        for rel, (fid, sig) in files.items():
            ok = self._file_ok.get(rel)
            if ok is None:
                if listings.get(rel.rpartition("/")[0]) is not None:
                    # its folder (and every folder above) holds the same
                    # entries as then: still a regular file, or still not one;
                    # unchanged time stamps, size and inode vouch for the bytes
                    # (no git, no hashing), else the content id decides
                    ok = fid == "absent" or (sig is not None and self._signature(rel) == sig) \
                        or file_id(rel) == fid
                else:
                    ok = file_state(self.repo, rel, file_id) == fid
                self._file_ok[rel] = ok
            if not ok:
                return False
        return True

    def _signature(self, rel: str) -> Optional[list]:
        try:
            return _signature_of(self._lstat(rel))
        except OSError:
            return None

    def _lstat(self, rel: str):
        """``os.lstat`` of a repository path, once per run: a package's task
        file is both an entry of its folder's record and a file read."""
        st = self._stats.get(rel)
        if st is None:
            try:
                st = os.lstat(os.path.join(self.repo._root_str, rel))
            except OSError as e:
                st = e
            self._stats[rel] = st
        if isinstance(st, OSError):
            raise st
        return st

    def _listing_same(self, rel: str, stamp, lid: str, children) -> bool:
        root = self.repo._root_str
        if stamp is not None:
            # Adding, removing or renaming an entry changes its folder's
            # change time, which (unlike the modification time that tar or
            # rsync -t restore) cannot be set back; sizes and modes (which
            # listings in packages hold) do not change it.
            try:
                st = os.lstat(os.path.join(root, rel) if rel else root)
                same = (_stat.S_ISDIR(st.st_mode) and st.st_ctime_ns == stamp[1]
                        and st.st_mtime_ns == stamp[0] and st.st_ino == stamp[2])
                if same and children:
                    prefix = f"{rel}/" if rel else ""
                    folder = os.path.join(root, prefix)
                    stats, lstat = self._stats, os.lstat
                    for name, size, executable in children:
                        if type(name) is not str or "/" in name or name in ("", ".", ".."):
                            raise ValueError(name)  # never a path out of the folder
                        cst = lstat(folder + name)
                        if name.endswith(_DATA_SUFFIXES):
                            stats[prefix + name] = cst  # read again as a file the unit read
                        if (not _stat.S_ISREG(cst.st_mode) or cst.st_size != size
                                or bool(cst.st_mode & 0o111) != executable):
                            same = False
                            break
                if same:
                    return True
            except (OSError, TypeError, ValueError):
                pass  # a malformed record is only a miss
        return listing_id(self.repo.entries(rel)) == lid

    # -- writing ---------------------------------------------------------------
    def inputs(self, reads: ReadLog) -> dict:
        """What ``reads`` read, as plain data for ``store`` (computed where the
        unit ran, a worker process included)."""
        repo = self.repo
        root = repo._root_str
        names = set(reads.listings)
        for rel in list(names):  # a listing is reached through its parents
            while rel:
                rel = rel.rpartition("/")[0]
                if rel in names:
                    break  # its own parents are added when it is (or was) walked up from
                names.add(rel)
        listings = {}
        memo = self._inputs_memo
        for rel in names:
            known = memo.get(rel)
            if known is not None:
                listings[rel] = known
                continue
            if not (rel == "" or _plain(rel)):
                continue
            ents = repo.entries(rel)
            stamp = None
            children = None
            if ents is not None:  # a real folder, reached without links
                try:
                    st = os.lstat(os.path.join(root, rel) if rel else root)
                    # the change time is never older than the modification time
                    if _stat.S_ISDIR(st.st_mode) and st.st_ctime_ns < self.started_ns - RACY_NS:
                        stamp = [st.st_mtime_ns, st.st_ctime_ns, st.st_ino]
                except OSError:
                    pass
            if ents:
                children = [[e.name, e.size, e.executable]
                            for e in ents.values() if e.is_file and e.size >= 0] or None
            listings[rel] = memo[rel] = [stamp, listing_id(ents), children]
        files = {}
        recent = self.started_ns - RACY_NS
        stats = reads.stats
        for rel, fid in reads.files.items():
            if not _plain(rel):
                continue
            if fid is None:  # a document not read from the work tree by load_file
                fid = file_state(repo, rel, self.ids.hash_file)
            sig = stats.get(rel)
            # a file changed just before or during this run may change again
            # within the same clock tick: only its content id is kept
            files[rel] = [fid, list(sig) if sig is not None and sig[0] < recent and sig[3] < recent else None]
        # parents first: a folder swapped for a link fails its parent's
        # check before any time stamp below it is read
        ordered = {rel: listings[rel] for rel in sorted(listings, key=lambda r: (r.count("/") + (r != ""), r))}
        return {"listings": ordered, "read": files}

    def store(self, unit, findings: List[Finding], files: int, inputs: dict,
              avoid: frozenset = frozenset()) -> None:
        """Write the record of a unit that ran (a failure is reported by
        ``save``); not one that read a file of ``avoid`` (see ``lookup``):
        its verdict holds for this run only."""
        if self._write_error is not None:
            return
        if avoid and not avoid.isdisjoint(inputs["read"]):
            return
        key = unit_key(unit)
        record = {"findings": [[getattr(f, k) for k in _FIELDS] for f in findings if f.code != CARRIER],
                  "suppressions": [_carrier_out(f) for f in findings if f.code == CARRIER],
                  "count": files, **inputs}
        # ASCII: a file name that is not UTF-8 (a lone surrogate here) is
        # written as an escape that reads back as the same name
        data = self._header(key) + json.dumps(record, separators=(",", ":")).encode("ascii") + b"}"
        target = self._entry(key)
        if len(data) > MAX_ENTRY_BYTES:
            try:  # it would be ignored when read back; an older one is stale
                os.unlink(target)
            except OSError:
                pass
            return
        self._used.add(target.name)
        try:
            # concurrent runs: a reader sees the old record or the new one
            replace_file(str(target), data, suffix=".json", mode=0o644)
        except OSError as e:
            self._write_error = f"cannot write the cache in {self.folder}: {e.strerror}"

    def damage_warning(self) -> Optional[str]:
        """The run's one line about damaged records, if any were met."""
        if not self.damaged:
            return None
        n = len(self.damaged)
        what = "record was" if n == 1 else "records were"
        kinds = ", ".join(sorted(set(self.damaged)))
        return (f"{n} cache {what} damaged ({kinds}) and ignored in {self.folder}; "
                f"{'its unit was' if n == 1 else 'their units were'} checked again")

    def save(self, keep_others: bool = False) -> None:
        """Drop the records of units this run no longer has (unless it is a
        shard, which saw only its part) and of settings no longer in use."""
        if self._write_error is not None:
            raise CacheWarning(self._write_error)
        try:
            if not keep_others:
                with os.scandir(self.dir) as it:
                    stale = [de.name for de in it if de.name.endswith(".json") and de.name not in self._used]
                for name in stale:
                    os.unlink(self.dir / name)
            os.utime(self.dir)  # marks these settings as in use, for _prune
            self._prune(self.dir.parent)
        except OSError:
            pass

    def _prepare_folder(self) -> None:
        prepare_root(self.folder)
        for sub in (self.dir.parent, self.dir):
            sub.mkdir(exist_ok=True)
            if not _stat.S_ISDIR(os.lstat(sub).st_mode):
                raise OSError(0, "not a folder")

    def _prune(self, versions: Path) -> None:
        """Keep the KEEP_SETTINGS most recently used settings folders, and
        no folder of another record format."""
        import shutil

        try:
            with os.scandir(versions.parent) as it:
                formats = [de.name for de in it if de.name[:1] == "v" and de.name[1:].isdigit()
                           and de.name != versions.name and de.is_dir(follow_symlinks=False)]
            for name in formats:
                shutil.rmtree(versions.parent / name, ignore_errors=True)
        except OSError:
            pass
        try:
            olds = []
            with os.scandir(versions) as it:
                for de in it:
                    if de.is_dir(follow_symlinks=False):
                        olds.append((de.stat(follow_symlinks=False).st_mtime_ns, de.name))
            olds.sort(reverse=True)
            for _, name in olds[KEEP_SETTINGS:]:
                shutil.rmtree(versions / name, ignore_errors=True)
        except OSError:
            pass


def _signature_of(st) -> Optional[list]:
    if not _stat.S_ISREG(st.st_mode):
        return None
    return [st.st_mtime_ns, st.st_size, st.st_ino, st.st_ctime_ns]


def prepare_root(folder: Path) -> None:
    """Make the cache folder (a real folder, not a link), marked as a cache."""
    new = not os.path.lexists(folder)
    folder.mkdir(parents=True, exist_ok=True)
    if not _stat.S_ISDIR(os.lstat(folder).st_mode):
        raise OSError(0, "not a folder")
    if new:
        # as ruff does: git never picks the folder up
        _write_small(folder / ".gitignore", b"# Created by penguin-lint automatically.\n*\n")
        _write_small(folder / "CACHEDIR.TAG",
                     b"Signature: 8a477f597d28d172789f06886806bc55\n"
                     b"# This file is a cache directory tag created by penguin-lint.\n")


def _write_small(path: Path, data: bytes) -> None:
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o644)
    except FileExistsError:
        return
    with os.fdopen(fd, "wb") as f:
        f.write(data)


def _opt_int(v) -> bool:
    return v is None or (type(v) is int and 0 <= v < 1 << 31)


def _opt_str(v) -> bool:
    return v is None or type(v) is str


def _carrier_out(f: Finding) -> list:
    """A suppression-ledger carrier (suppressions.Ledger.carriers) as plain data."""
    # (never one with codes a change adds: a unit that read such a file is not stored)
    first, second = f.directive[:2]
    if first == "suppressed":
        return ["s", list(second)]
    d = first
    return ["d", f.path, d.line, d.column, d.end_column, d.scope, list(d.codes), d.problem, d.own_line,
            sorted(second)]


def _carrier_in(item) -> Optional[Finding]:
    """The carrier ``_carrier_out`` wrote, or None when it is not well formed."""
    from penguin_lint.suppressions import FILE, LINE, Directive

    if not isinstance(item, list) or not item:
        return None
    if item[0] == "s" and len(item) == 2 and isinstance(item[1], list) and len(item[1]) == 5:
        path, line, column, code, message = item[1]
        if type(path) is str and _opt_int(line) and _opt_int(column) and type(code) is str \
                and type(message) is str:
            return Finding(code=CARRIER, name="", severity="", path=path, message="",
                           directive=("suppressed", (path, line, column, code, message)))
        return None
    if item[0] == "d" and len(item) == 10:
        _, path, line, column, end_column, scope, codes, problem, own_line, used = item
        if (type(path) is str and all(type(v) is int for v in (line, column, end_column))
                and scope in (LINE, FILE) and isinstance(codes, list) and all(type(c) is str for c in codes)
                and _opt_str(problem) and type(own_line) is bool
                and isinstance(used, list) and all(type(c) is str for c in used)):
            d = Directive(line, column, end_column, scope, tuple(codes), problem, own_line)
            return Finding(code=CARRIER, name="", severity="", path=path, message="",
                           line=line, column=column, directive=(d, frozenset(used)))
    return None


def _parse_record(rec, codes):
    """(findings, file count, listings, files read) of a well-formed record, else None."""
    if not isinstance(rec, dict):
        return None
    raw = rec.get("findings")
    n = rec.get("count")
    listings = rec.get("listings")
    files = rec.get("read")
    if type(n) is not int or not isinstance(raw, list) or not isinstance(listings, dict) \
            or not isinstance(files, dict):
        return None
    findings = []
    for item in raw:
        if not isinstance(item, list) or len(item) != len(_FIELDS):
            return None
        code, name, severity, path, message, line, column, end_line, end_column, hint, subject = item
        if (code not in codes or type(name) is not str or severity not in (ERROR, WARNING)
                or type(path) is not str or type(message) is not str
                or not all(_opt_int(v) for v in (line, column, end_line, end_column))
                or not _opt_str(hint) or not _opt_str(subject)):
            return None
        findings.append(Finding(code=code, name=name, severity=severity, path=path, message=message,
                                line=line, column=column, end_line=end_line, end_column=end_column,
                                hint=hint, subject=subject))
    for item in rec.get("suppressions", ()):
        f = _carrier_in(item)
        if f is None:
            return None
        findings.append(f)
    parsed_listings = {}
    depth = -1
    for rel, v in listings.items():
        # parents first (as written): a folder swapped for a link fails its
        # parent's check before any time stamp below it is read
        d = rel.count("/") + (rel != "")
        if d < depth:
            return None
        depth = d
        if not (isinstance(v, list) and len(v) == 3 and type(v[1]) is str):
            return None
        stamp = v[0]
        if stamp is not None and not (isinstance(stamp, list) and len(stamp) == 3
                                      and all(type(x) is int and 0 <= x < 1 << 63 for x in stamp)):
            return None
        children = v[2]
        if children is not None and not isinstance(children, list):
            return None
        if not (rel == "" or _plain(rel)):
            return None
        if rel and rel.rpartition("/")[0] not in parsed_listings:
            return None  # every folder comes with the folders above it
        parsed_listings[rel] = (v[0], v[1], children)
    parsed_files = {}
    for rel, item in files.items():
        if not (isinstance(item, list) and len(item) == 2 and type(item[0]) is str and _plain(rel)):
            return None
        sig = item[1]
        if sig is not None and not (isinstance(sig, list) and len(sig) == 4
                                    and all(type(v) is int for v in sig)):
            return None
        parsed_files[rel] = (item[0], sig)
    return findings, n, parsed_listings, parsed_files
