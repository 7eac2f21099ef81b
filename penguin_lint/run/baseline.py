"""The baseline: old debt recorded once (``--all --write-baseline``) so
that it no longer fails ``--all``, its shards or ``merge``.

An entry is matched by the rule code, the path and a fingerprint of the
finding's content, never its line number: the message with its numbers
left out (as blame fingerprints findings, ``pr/blame.py``) and the text of
the line it points at. A comment inserted above a baselined finding leaves
it baselined. Each entry has a count: a new finding with the same
fingerprint in the same file is one more than recorded, and fails (as
ESLint's bulk suppressions and PHPStan's baseline count).

The file is read as untrusted input (a pull request can change it): within
a size bound, every value checked; anything else is one error line. In a
pull request the base's file is used, never the change's.
"""
from __future__ import annotations

import json
import os
import re
import stat
from collections import Counter
from pathlib import Path
from typing import Dict, Iterable, List, Optional, Tuple

from penguin_lint.findings import Finding, placeless
from penguin_lint.run.request import PenguinLintError

#: a baseline bigger than this is refused (a finding in each of 43k files is a few MiB)
MAX_BASELINE_BYTES = 32 * 1024 * 1024
# A baseline of version 1 recorded messages without any of their numbers,
# which let a finding about another id pass as a recorded one: still read
# so, until written again (version 2 keeps all but a place's numbers).
_NUMBER = re.compile(r"\d+(?:\.\d+)?(?:[eE][-+]?\d+)?")
VERSION = 2


class Entries(Counter):
    """A baseline's entries, key -> count, with the version that wrote them."""
    version = VERSION

Key = Tuple[str, str, str, str]


def _line_text(repo, f: Finding, lines_of: Dict[str, Optional[List[bytes]]]) -> str:
    """A digest of the line a finding points at ("" when there is none).
    A finding at the very start of a file is about the whole file (a
    required field missing): its line says nothing of where, and a comment
    inserted on top must not unrecord it."""
    path, line = f.path, f.line
    if line is None or not path or (line == 1 and (f.column or 1) == 1):
        return ""
    if path not in lines_of:
        raw = repo.read_bytes(path) if repo.is_file(path) else None
        # lines as findings count them: ended by LF only (a lone CR, NEL or
        # U+2028 is a character of its line, as in loaders/positions.py)
        lines_of[path] = raw.split(b"\n") if raw is not None else None
    lines = lines_of[path]
    if lines is None or not 1 <= line <= len(lines):
        return ""
    import hashlib  # only for a baseline's line fingerprints

    return hashlib.blake2b(lines[line - 1].strip(), digest_size=8).hexdigest()


def keys(findings: Iterable[Finding], repo, version: int = VERSION) -> List[Key]:
    """The baseline key of each finding: (code, path, message without the
    numbers that say where (``findings.placeless``; a version 1 baseline:
    without any), digest of its line)."""
    lines_of: Dict[str, Optional[List[bytes]]] = {}
    plain = placeless if version >= 2 else (lambda m: _NUMBER.sub("#", m))
    return [(f.code, f.path, plain(f.message), _line_text(repo, f, lines_of)) for f in findings]


def render(findings: List[Finding], repo) -> bytes:
    """The baseline file recording ``findings``: sorted, one entry per key."""
    counts = Counter(keys(findings, repo))
    entries = [{"code": c, "path": p, "message": m, "context": x, "count": n}
               for (c, p, m, x), n in sorted(counts.items())]
    return (json.dumps({"version": VERSION, "findings": entries}, indent=2, ensure_ascii=False) + "\n").encode("utf-8")


def parse(raw: bytes, name: str) -> Counter:
    """The entries of a baseline file, key -> count; PenguinLintError when
    it is not one penguin-lint wrote."""
    def bad(why: str) -> PenguinLintError:
        return PenguinLintError(f"{name}: not a baseline penguin-lint wrote ({why}); "
                                f"write it again with --all --write-baseline")

    if len(raw) > MAX_BASELINE_BYTES:
        raise bad(f"larger than {MAX_BASELINE_BYTES >> 20} MiB")
    try:
        doc = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise bad("not JSON") from None
    if not isinstance(doc, dict) or doc.get("version") not in (1, VERSION) or type(doc.get("version")) is not int \
            or not isinstance(doc.get("findings"), list):
        raise bad(f"an object with version {VERSION} (or 1) and a list of findings is expected")
    out = Entries()
    out.version = doc["version"]
    for e in doc["findings"]:
        if not isinstance(e, dict) or not all(isinstance(e.get(k), str) for k in ("code", "path", "message",
                                                                                  "context")):
            raise bad("an entry is not a finding's code, path, message and context")
        n = e.get("count")
        if not isinstance(n, int) or isinstance(n, bool) or not 1 <= n < 1 << 31:
            raise bad("an entry's count is not a positive number")
        out[(e["code"], e["path"], e["message"], e["context"])] += n
    return out


def apply(result, entries: Counter, repo, within=None) -> None:
    """Take the findings ``entries`` record out of ``result``, up to each
    entry's count, in report order; count them (``result.baselined``) and
    what the baseline records (``result.baseline_entries``).

    The findings --new-only held back (``result.held``) are matched too, as
    the report without it would be: one the baseline records is baselined,
    not hidden. ``within`` (a test of a path): the paths whose every finding
    the run reports; their entries left unmatched are stale. None: the run
    cannot tell (a path run, the hook), and says nothing of stale entries."""
    held = list(result.held)
    pool = result.findings
    if held:
        pool = sorted(pool + held, key=Finding.sort_key)
    left = Counter(entries)
    matched = set()
    for f, k in zip(pool, keys(pool, repo, getattr(entries, "version", VERSION))):
        if left[k] > 0:
            left[k] -= 1
            matched.add(id(f))
    result.findings = [f for f in result.findings if id(f) not in matched]
    if held:
        result.held = [f for f in held if id(f) not in matched]
        result.hidden = len(result.held)
    result.baselined = len(matched)
    result.baseline_entries = sum(entries.values())
    if within is not None:
        recorded = sum(n for k, n in entries.items() if within(k[1]))
        result.baseline_within = (recorded, recorded - sum(n for k, n in left.items() if within(k[1])))


def _folder(root: Path, rel: str, verb: str) -> Tuple[Optional[int], str]:
    """(a descriptor of the folder ``rel`` lies in, the file's name), the
    folders opened one by one from the root without following a link, as
    every other writer refuses one on the way (a committed link would lead
    outside the repository or into ``.git``); (None, name) when a folder is
    missing. Links and ``.git`` are one error line."""
    from penguin_lint.core.repo import _plain_rel

    parts = rel.split("/")
    if not _plain_rel(rel) or ".git" in parts:
        raise PenguinLintError(f"{rel}: not a file path inside the repository; the baseline is not {verb}")
    nofollow = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_NOFOLLOW", 0)
    try:
        fd = os.open(str(root), os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError as e:
        raise PenguinLintError(f"{rel}: the baseline is not {verb}: {e.strerror}") from None
    for seg in parts[:-1]:
        try:
            st = os.stat(seg, dir_fd=fd, follow_symlinks=False)
            if stat.S_ISLNK(st.st_mode):
                raise PenguinLintError(f"{rel}: a folder on the way is a symbolic link; "
                                       f"the baseline is not {verb} through it")
            nxt = os.open(seg, nofollow, dir_fd=fd) if stat.S_ISDIR(st.st_mode) else None
        except FileNotFoundError:
            nxt = None
        except OSError as e:
            os.close(fd)
            raise PenguinLintError(f"{rel}: the baseline is not {verb}: {e.strerror}") from None
        except PenguinLintError:
            os.close(fd)
            raise
        os.close(fd)
        if nxt is None:
            return None, parts[-1]
        fd = nxt
    return fd, parts[-1]


def read_worktree(root: Path, rel: str) -> Optional[bytes]:
    """The working tree's baseline file (None: there is none); never
    through a link (at the file or on the way), never more than one byte
    past the bound."""
    fd, name = _folder(root, rel, "read")
    if fd is None:
        return None
    try:
        try:
            st = os.stat(name, dir_fd=fd, follow_symlinks=False)
        except FileNotFoundError:
            return None
        if stat.S_ISLNK(st.st_mode):
            raise PenguinLintError(f"{rel}: is a symbolic link; a baseline is a file in the repository")
        if not stat.S_ISREG(st.st_mode):
            return None
        fh = os.open(name, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0), dir_fd=fd)
        with os.fdopen(fh, "rb") as f:
            return f.read(MAX_BASELINE_BYTES + 1)
    except OSError as e:
        raise PenguinLintError(f"{rel}: cannot be read: {e.strerror}") from None
    finally:
        os.close(fd)


def read_at(root: Path, ref: str, rel: str) -> Optional[bytes]:
    """The baseline file at the merge base of ``ref`` and HEAD (a pull
    request is judged by its base's baseline)."""
    from contextlib import closing

    from penguin_lint.pr.basetree import GitTree
    from penguin_lint.pr.git import GitError, GitRepo

    try:
        with closing(GitRepo(root)) as g:
            _label, mb = g.diff_base(ref)
            return read_tree(GitTree(g.top, mb, g.prefix, objects=g.objects), rel)
    except GitError as e:
        raise PenguinLintError(f"cannot read {rel} at the merge base of {ref}: {e}") from None


def read_tree(tree, rel: str, root: Path = Path(".")) -> Optional[bytes]:
    """The baseline file in a base tree (None: there is none), within the
    baseline's own bound, not the data files' size limit."""
    from penguin_lint.core.config import Config
    from penguin_lint.pr.basetree import BaseRepository

    return BaseRepository(tree, root, Config(size_limit=MAX_BASELINE_BYTES)).read_bytes(rel)


def judge(result, repo, root: Path, rel: str, base: Optional[bytes], own: bool, within=None):
    """Apply the baseline ``base`` (the base's, in a pull request) to
    ``result`` (``within``: as :func:`apply`); the PL502 finding to add when
    the working tree's file differs from it (``own``: the run uses the
    working tree's, nothing to say)."""
    if base is not None:
        apply(result, parse(base, rel), repo, within)
    return None if own or read_worktree(root, rel) == base else rel


def write(root: Path, rel: str, raw: bytes) -> None:
    """Write the baseline file: a new file renamed over the old one, in
    the folder reached without following a link (:func:`_folder`)."""
    fd, name = _folder(root, rel, "written")
    if fd is None:
        raise PenguinLintError(f"cannot write the baseline {rel}: its folder is missing")
    tmp = f"{name}.{os.getpid()}.tmp"
    try:
        try:
            if stat.S_ISLNK(os.stat(name, dir_fd=fd, follow_symlinks=False).st_mode):
                raise PenguinLintError(f"cannot write the baseline {rel}: it is a symbolic link")
        except FileNotFoundError:
            pass
        out = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o644, dir_fd=fd)
        with os.fdopen(out, "wb") as fh:
            fh.write(raw)
        os.replace(tmp, name, src_dir_fd=fd, dst_dir_fd=fd)
    except OSError as e:
        try:
            os.unlink(tmp, dir_fd=fd)
        except OSError:
            pass
        raise PenguinLintError(f"cannot write the baseline {rel}: {e.strerror}") from None
    finally:
        os.close(fd)


def changed_finding(rel: str, rules) -> Optional[Finding]:
    """PL502 on the baseline file a pull request changes: as a change of
    the configuration, it takes effect once merged."""
    rule = next((r for r in rules if r.code == "PL502"), None)
    if rule is None:
        return None
    return Finding(code=rule.code, name=rule.name, severity=rule.severity, path=rel,
                   message=f"{rel} is changed in this pull request; the run uses the base's baseline",
                   hint="a baseline records old debt; it takes effect once merged", subject=rel)
