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

Beside this module: ``folder`` (where the cache lives, what it refuses),
``settings`` (the key naming a cache folder) and ``records`` (a record's
plain data and its strict reading).
"""
from __future__ import annotations

import hashlib
import json
import os
import stat as _stat
import time
from pathlib import Path
from typing import Dict, List, Optional, Tuple

from penguin_lint.cache.contentid import ContentIds
from penguin_lint.cache.folder import CacheWarning, prepare_root, refuse_tracked
from penguin_lint.cache.records import FIELDS, FORMAT, carrier_out, parse_record
from penguin_lint.core.atomic import replace_file
from penguin_lint.core.repo import Entry, ReadLog, Repository, _plain_rel as _plain, file_state
from penguin_lint.findings import Finding
from penguin_lint.suppressions import CARRIER

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


def listing_id(entries: Optional[Dict[str, Entry]]) -> str:
    if entries is None:
        return "none"
    # one string hashed once: a listing is a handful of entries, and the
    # calls, not the hashing, are what a run of 30,000 folders pays for.
    # An entry is (name, is_dir, is_file, is_symlink, executable, size):
    # "name\0" then the four flags as digits and the size, then "\0".
    # (Entries sort by name, unique in a folder: their order is the names'.)
    text = "".join(map(_ENTRY_TEXT.__mod__, sorted(entries.values())))
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).hexdigest()


_ENTRY_TEXT = "%s\0%d%d%d%d%d\0"


_EMPTY_LISTING = listing_id({})


def _depth_first(rel: str):
    return (rel.count("/") + (rel != ""), rel)


# Listings whose ids a run remembers for the next units that read them.
INPUTS_MEMO_MAX = 4096


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
        self._dir_slash = os.path.join(str(self.dir), "")
        self._used: set = set()
        self._write_error: Optional[str] = None
        self._stored_name: Optional[str] = None  # of the last store
        self._listing_ok: Dict[str, bool] = {}
        self._file_ok: Dict[str, bool] = {}
        self._inputs_memo: Dict[str, list] = {}
        self._stats: Dict[str, object] = {}
        # the root and a "/", as os.path.join puts a plain relative path after it
        root = repo._root_str
        self._root_slash = root if root.endswith("/") else root + "/"
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
    def _entry(self, key: str) -> str:
        """The path of unit ``key``'s record (a string: a warm run asks for one per unit)."""
        return self._dir_slash + _record_name(key)

    def _header(self, key: str) -> bytes:
        """What a record of unit ``key`` under these settings starts with:
        checked before anything else is read or parsed."""
        head = json.dumps({"format": FORMAT, "settings": self.key, "unit": key}, separators=(",", ":"))
        return head[:-1].encode("ascii") + b',"record":'

    def _read(self, key: str, path: str):
        """The record stored for unit ``key`` at ``path``, None when there is none or
        the file is not one this tool wrote for this unit and these settings
        (noted as damage: the run then says so once)."""
        try:
            fd = os.open(path, _O_READ)
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

    def mark_used(self, unit) -> None:
        """Keep the unit's record when the cache is saved: its lookup is
        made in a worker process, whose own marks are not seen here."""
        self._used.add(_record_name(unit_key(unit)))

    def lookup(self, unit, avoid: frozenset = frozenset()) -> Optional[Tuple[List[Finding], int, List[str]]]:
        """The unit's findings, file count and empty folders when every input is unchanged.
        ``avoid``: files whose verdicts this run judges otherwise (the
        suppressions a pull request adds hide nothing in its own run): a
        record that read one of them is not used."""
        key = unit_key(unit)
        name = _record_name(key)
        self._used.add(name)
        rec = self._read(key, self._dir_slash + name)
        parsed = parse_record(rec, self._codes) if rec is not None else None
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
                st = os.lstat(self._root_slash + rel)
            except OSError as e:
                st = e
            self._stats[rel] = st
        if isinstance(st, OSError):
            raise st
        return st

    def _listing_same(self, rel: str, stamp, lid: str, children) -> bool:
        if stamp is not None:
            # Adding, removing or renaming an entry changes its folder's
            # change time, which (unlike the modification time that tar or
            # rsync -t restore) cannot be set back; sizes and modes (which
            # listings in packages hold) do not change it.
            try:
                st = os.lstat(self._root_slash + rel if rel else self.repo._root_str)
                same = (_stat.S_ISDIR(st.st_mode) and st.st_ctime_ns == stamp[1]
                        and st.st_mtime_ns == stamp[0] and st.st_ino == stamp[2])
                if same and children:
                    prefix = f"{rel}/" if rel else ""
                    folder = self._root_slash + prefix
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
        # an entry looked up depends on its folder's listing
        names = set(reads.listings)
        names.update([rel.rpartition("/")[0] for rel in reads.entries])
        for rel in list(names):  # a listing is reached through its parents
            while rel:
                rel = rel.rpartition("/")[0]
                if rel in names:
                    break  # its own parents are added when it is (or was) walked up from
                names.add(rel)
        memo = self._inputs_memo
        if len(memo) > INPUTS_MEMO_MAX:
            # most listings are a unit's own, read by it alone: the memo is
            # for those several units read (a package experiments name), and
            # bounded, so that a run's memory does not grow with the repository
            memo.clear()
        # parents first: a folder swapped for a link fails its parent's
        # check before any time stamp below it is read
        ordered = {}
        recent = self.started_ns - RACY_NS
        lstat, isdir, root_slash = os.lstat, _stat.S_ISDIR, self._root_slash
        listing = repo._listing
        # files' sizes are known (listed) in packages only
        packages = repo.layout.roots["packages"]
        sized = packages + "/"
        for rel in sorted(names, key=_depth_first):
            known = memo.get(rel)
            if known is None:
                if not (rel == "" or _plain(rel)):
                    continue
                ents = listing(rel)
                stamp = children = None
                if ents is not None:  # a real folder, reached without links
                    try:
                        st = lstat(root_slash + rel if rel else root)
                        # the change time is never older than the modification time
                        if isdir(st.st_mode) and st.st_ctime_ns < recent:
                            stamp = [st.st_mtime_ns, st.st_ctime_ns, st.st_ino]
                    except OSError:
                        pass
                    if ents and (rel == packages or rel.startswith(sized)):
                        children = [[e.name, e.size, e.executable]
                                    for e in ents.values() if e.is_file and e.size >= 0] or None
                known = memo[rel] = [stamp, listing_id(ents), children]
            ordered[rel] = known
        files = {}
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
        out = {"listings": ordered, "read": files}
        if reads.unrepeatable:
            out["unrepeatable"] = True
        return out

    def store(self, unit, findings: List[Finding], files: int, inputs: dict,
              avoid: frozenset = frozenset()) -> Tuple[Optional[str], Optional[str]]:
        """Write the record of a unit that ran (a failure is reported by
        ``save``); not one that read a file of ``avoid`` (see ``lookup``):
        its verdict holds for this run only. Returns (the record's file name
        or None, the write error or None): a worker process writes the
        records of its units and hands these to ``stored`` in the parent."""
        self._store(unit, findings, files, inputs, avoid)
        return self._stored_name, self._write_error

    def stored(self, name: Optional[str], error: Optional[str]) -> None:
        """What a worker's ``store`` wrote (a record kept) or met."""
        if name is not None:
            self._used.add(name)
        if error is not None and self._write_error is None:
            self._write_error = error

    def _store(self, unit, findings: List[Finding], files: int, inputs: dict, avoid: frozenset) -> None:
        self._stored_name = None
        if self._write_error is not None:
            return
        if avoid and not avoid.isdisjoint(inputs["read"]):
            return
        if inputs.get("unrepeatable"):
            return  # its verdict rests on more than the files it read
        key = unit_key(unit)
        record = {"findings": [[getattr(f, k) for k in FIELDS] for f in findings if f.code != CARRIER],
                  "suppressions": [carrier_out(f) for f in findings if f.code == CARRIER],
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
        name = os.path.basename(target)
        self._used.add(name)
        self._stored_name = name
        try:
            # concurrent runs: a reader sees the old record or the new one
            replace_file(target, data, suffix=".json", mode=0o644)
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


def _record_name(key: str) -> str:
    """The file name of unit ``key``'s record."""
    return hashlib.blake2b(key.encode("utf-8", "surrogatepass"), digest_size=16).hexdigest() + ".json"


def _signature_of(st) -> Optional[list]:
    if not _stat.S_ISREG(st.st_mode):
        return None
    return [st.st_mtime_ns, st.st_size, st.st_ino, st.st_ctime_ns]
