"""What a pull request changed, as git sees it.

The change is everything between the merge base of a base ref and HEAD —
one tree-to-tree ``git diff-tree``, which never scans the work tree — plus
what is staged, unstaged or untracked, from one ``git status
--porcelain=v2``, limited to the layout's folders. Renames are detected and
both names kept. Names travel NUL-separated and are decoded like the file
system's own, so spaces, non-ASCII characters and odd bytes come back
exactly as ``os.scandir`` names them. Every git command runs read-only: no
index refresh, no lock, nothing written into ``.git``.

git runs as a plain subprocess (no library in between, nothing imported
that ``--version``, ``--all`` or path runs outside git would pay for).
Every git failure becomes a :class:`GitError` with a one-line message.
"""
from __future__ import annotations

import os
import subprocess
from pathlib import Path
from dataclasses import field
from typing import Callable, Dict, List, Optional, Sequence, Set, Tuple

from penguin_lint.records import record

# Read-only git: no index refresh, no lock, no file-system monitor started.
READ_ONLY = ("--no-optional-locks", "-c", "core.fsmonitor=false", "-c", "core.quotepath=off",
             "-c", "diff.autoRefreshIndex=false")

DEFAULT_BRANCHES = ("origin/HEAD", "main", "origin/main", "master", "origin/master")
HISTORY_HINT = "fetch the full history (git fetch --unshallow; with actions/checkout, fetch-depth: 0)"


def _fetch_hint(ref: str) -> str:
    branch = ref[len("origin/"):] if ref.startswith("origin/") else "<base branch>"
    return f"fetch the base (git fetch origin {_show(branch)}) or {HISTORY_HINT}"


class GitError(Exception):
    """Git trouble: one line on stderr, exit 2."""


def git_pipe(top: str, *args: str) -> subprocess.Popen:
    """A read-only git command that answers lines written to it (``cat-file
    --batch`` and its kin), started in ``top``."""
    try:
        return subprocess.Popen(["git", *READ_ONLY, *args], cwd=top, stdin=subprocess.PIPE,
                                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    except OSError as e:
        raise GitError(f"cannot run git: {e.strerror}") from None


class GitObjects:
    """One ``git cat-file --batch`` process, asked by object id."""

    def __init__(self, top: str):
        self.top = top
        self._proc: Optional[subprocess.Popen] = None
        self.last_size = 0  # the size git gave for the last object read

    def _start(self) -> subprocess.Popen:
        if self._proc is None:
            self._proc = git_pipe(self.top, "cat-file", "--batch")
        return self._proc

    def resolve(self, spec: str) -> Optional[str]:
        """The object id revision ``spec`` names, or None."""
        return self._ask(spec)[0]

    def read(self, oid: str, limit: Optional[int] = None) -> Tuple[Optional[str], bytes]:
        """(type, content) of object ``oid`` (an id, or any revision such as
        ``HEAD^{commit}``: cat-file resolves names as rev-parse does); (None,
        b"") when it is missing. With ``limit``, an object over it yields
        only its first ``limit + 1`` bytes, as a file read with that limit."""
        _, kind, data = self._ask(oid, limit)
        return kind, data

    def _ask(self, name: str, limit: Optional[int] = None) -> Tuple[Optional[str], Optional[str], bytes]:
        """(object id, type, content) of ``name``; (None, None, b"") when
        missing. The header gives the size before the content: past
        ``limit``, the rest is read through and dropped, never held."""
        proc = self._start()
        try:
            proc.stdin.write(name.encode("utf-8", "surrogateescape") + b"\n")
            proc.stdin.flush()
            header = proc.stdout.readline().split()
        except (OSError, ValueError):
            raise GitError("git cat-file ended unexpectedly") from None
        if len(header) != 3 or header[-1] in (b"missing", b"ambiguous"):
            if header[-1:] == [b"missing"] or header[-1:] == [b"ambiguous"]:
                return None, None, b""
            raise GitError("git cat-file ended unexpectedly")
        oid, kind, size = header[0].decode("ascii", "replace"), header[1].decode("ascii", "replace"), int(header[2])
        self.last_size = size
        keep = size if limit is None or size <= limit else limit + 1
        data = proc.stdout.read(keep)
        got, rest = len(data), size - keep
        while rest > 0:
            chunk = proc.stdout.read(min(rest, 1 << 20))
            if not chunk:
                break
            rest -= len(chunk)
        proc.stdout.read(1)  # the newline after the content
        if got != keep or rest:
            raise GitError("git cat-file ended unexpectedly")
        return oid, kind, data

    def close(self) -> None:
        if self._proc is not None:
            try:
                self._proc.stdin.close()
                self._proc.wait(timeout=5)
            except (OSError, subprocess.TimeoutExpired):  # pragma: no cover
                self._proc.kill()
            self._proc = None


def _show(text: str) -> str:
    from penguin_lint.output.log_guard import sanitize

    return sanitize(text)


def in_work_tree(root: Path) -> bool:
    """Whether ``root`` lies in a git work tree (a cheap look for ``.git``)."""
    cur = Path(os.path.abspath(root))
    while True:
        if os.path.lexists(cur / ".git"):
            return True
        if cur.parent == cur:
            return False
        cur = cur.parent


class GitRepo:
    """A work tree seen from the linted root (which may be a subfolder)."""

    def __init__(self, root: Path):
        root = Path(os.path.realpath(root))
        self.top = str(root)
        self.prefix = ""
        self._revs: Dict[str, Optional[str]] = {}
        self._objects = None
        status, out = self.run("rev-parse", "--is-bare-repository", "--show-toplevel", "--git-path", "index",
                               ok_codes=(0, 128))
        lines = out.decode("utf-8", "surrogateescape").splitlines()
        if status != 0:
            raise GitError(f"not a git repository: {_show(str(root))} "
                           "(give paths or use --all to lint without git)")
        if lines[:1] == ["true"] or len(lines) < 2:
            raise GitError(f"git repository without a work tree: {_show(str(root))}")
        top = Path(os.path.realpath(os.fsdecode(os.fsencode(lines[1]))))
        #: the index file (relative names are relative to where git ran)
        self.index = os.path.join(str(root), lines[2]) if len(lines) > 2 else None
        self.top = str(top)
        try:
            rel = root.relative_to(top).as_posix()
        except ValueError:  # pragma: no cover - git found it by walking up from root
            raise GitError(f"{_show(str(root))} is outside the git work tree {_show(str(top))}") from None
        # Repository-relative names from git start with this ("" at the top).
        self.prefix = "" if rel == "." else rel + "/"

    # -- plumbing --------------------------------------------------------------
    def run(self, *args: str, ok_codes: Sequence[int] = (0,), env=None,
            locks: bool = False) -> Tuple[int, bytes]:
        """(status, raw stdout) of ``git args`` run at the top of the work
        tree; other statuses raise GitError. ``locks``: git may write the
        index it is given (only ever a copy, see status_index.py)."""
        import subprocess

        flags = READ_ONLY[1:] if locks else READ_ONLY
        try:
            proc = subprocess.run(["git", *flags, *args], cwd=self.top, stdin=subprocess.DEVNULL,
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
        except FileNotFoundError:
            raise GitError("git is not installed or not on PATH") from None
        except OSError as e:
            raise GitError(f"cannot run git: {e.strerror}") from None
        status, out, err = proc.returncode, proc.stdout, proc.stderr
        if status not in ok_codes:
            lines = [ln.strip() for ln in (err.decode("utf-8", "replace") if isinstance(err, bytes) else str(err)).splitlines()]
            lines = [ln for ln in lines if ln]
            msg = lines[0] if lines else f"exit status {status}"
            raise GitError(f"git {args[0]} failed: {_show(msg)}")
        return status, out

    @property
    def objects(self):
        """One ``git cat-file --batch`` for the whole run: revisions are
        resolved and base trees read through it, not a process each."""
        if self._objects is None:
            self._objects = GitObjects(self.top)
        return self._objects

    def take_objects(self):
        """The cat-file process, handed to a caller that closes it (the base
        tree, which outlives this object)."""
        objects = self.objects
        self._objects = None
        return objects

    def close(self) -> None:
        if self._objects is not None:
            self._objects.close()
            self._objects = None

    def rev(self, spec: str) -> Optional[str]:
        """The object id ``spec`` names (``HEAD^{commit}``, ``main^{commit}``), or None."""
        if spec not in self._revs:
            self._revs[spec] = None
            if spec and "\n" not in spec and "\r" not in spec and "\0" not in spec:
                self._revs[spec] = self.objects.resolve(spec)
        return self._revs[spec]

    def head_born(self) -> bool:
        return self.rev("HEAD^{commit}") is not None

    def is_shallow(self) -> bool:
        return self.run("rev-parse", "--is-shallow-repository")[1].strip() == b"true"

    def resolve_base(self, ref: Optional[str]) -> Tuple[str, str]:
        """(label, commit) of the base ref, or of the default branch when ``ref`` is None."""
        if ref is not None:
            if not ref or ref.startswith("-") or any(c in ref for c in "\0\n\r"):
                raise GitError(f"invalid git revision '{_show(ref)}'")
            sha = self.rev(ref + "^{commit}")
            if sha is None:
                if self.is_shallow():
                    raise GitError(f"'{_show(ref)}' is not in this shallow clone: {_fetch_hint(ref)}")
                raise GitError(f"unknown git revision '{_show(ref)}'")
            return ref, sha
        for name in DEFAULT_BRANCHES:
            sha = self.rev(name + "^{commit}")
            if sha is not None:
                return name, sha
        extra = f"; this is a shallow clone: {_fetch_hint('')}" if self.is_shallow() else ""
        raise GitError("no default branch to compare with (none of origin/HEAD, main, master "
                       f"exists): give --diff-base REF, or use --all{extra}")

    def merge_base(self, label: str, sha: str) -> str:
        status, out = self.run("merge-base", sha, "HEAD", ok_codes=(0, 1))
        mb = out.decode("ascii", "replace").strip().split("\n")[0]
        if status == 0 and mb:
            return mb
        if self.is_shallow():
            raise GitError(f"no merge base of '{_show(label)}' and HEAD in this shallow clone: {HISTORY_HINT}")
        raise GitError(f"'{_show(label)}' and HEAD have no common history")

    def diff_base(self, base: Optional[str], default_base=None) -> Tuple[str, Optional[str]]:
        """(label, merge-base commit) of ``base`` and HEAD; the commit is None
        before the first commit. ``default_base``, called with the commit of
        the default branch when ``base`` is None, may name another ref (the
        ``base-branch`` of that branch's configuration)."""
        if not self.head_born():
            return base or "HEAD", None
        label, sha = self.resolve_base(base)
        if base is None and default_base is not None:
            other = default_base(sha)
            if other:
                label, sha = self.resolve_base(other)
        return label, self.merge_base(label, sha)

    def change(self, label: str, mb: Optional[str], scope: Sequence[str] = (),
               cache_root: Optional[Path] = None, warn: Optional[Callable[[str], None]] = None,
               worktree: bool = True) -> GitChange:
        """The change since ``mb``: the committed part from one tree-to-tree
        ``git diff-tree`` (no work-tree scan), the uncommitted part from one
        ``git status --porcelain=v2``, both limited to the ``scope`` folders
        (root-relative) when given. With ``cache_root``, the status runs on
        a copy of the index there that keeps git's untracked cache
        (status_index.py). ``worktree=False``: the committed part alone (a
        CI checkout, where git would stat and list every file of the
        repository to find nothing)."""
        if scope and "" not in scope:
            spec = ["--"] + [f":(literal){self.to_top(s)}" for s in scope]
        elif self.prefix:
            spec = ["--", f":(literal){self.prefix.rstrip('/')}"]
        else:
            spec = []
        change = GitChange(self, label, mb)
        entries: List[Tuple[str, str, Optional[str]]] = []
        if mb is not None and mb != self.rev("HEAD^{commit}"):
            raw = self.run("diff-tree", "-r", "-z", "-M", "--raw", "--no-commit-id",
                           "--no-ext-diff", mb, "HEAD", *spec)[1]
            committed = _split_raw(raw)
            entries.extend(e[:3] for e in committed)
            # a submodule or nested repository is one entry (a gitlink): git
            # shows only its commit, never its files
            change.gitlinks.update(p for p in (self.to_root(e[1]) for e in committed if e[3]) if p is not None)
        if worktree:
            entries.extend(self._uncommitted(spec, cache_root, warn))
        for status, path, old in entries:
            rpath = self.to_root(path)
            if rpath is None:
                continue
            change.entries.append((status, rpath, self.to_root(old) if old is not None else None))
        return change

    def _uncommitted(self, spec: List[str], cache_root: Optional[Path],
                     warn: Optional[Callable[[str], None]]) -> List[Tuple[str, str, Optional[str]]]:
        """What the work tree and the index change against ``HEAD``: staged,
        unstaged and untracked files, from one ``git status``."""
        found: List[Tuple[str, str, Optional[str]]] = []
        copy = None
        if cache_root is not None and self.index is not None:
            from penguin_lint.pr.status_index import StatusIndex

            index = StatusIndex(cache_root, self.index, top=self.top, warn=warn)
            copy = index.prepare()
        if copy is not None:
            from penguin_lint.pr.status_index import STATUS_FLAGS, status_env

            # no pathspec (git then ignores its untracked cache): the whole
            # work tree, narrowed below
            try:
                raw = self.run(*STATUS_FLAGS, "status", "--porcelain=v2", "-z", "-uall", "--ignore-submodules",
                               env=status_env(copy), locks=True)[1]
            except GitError:
                # the cache is advisory: a copy git cannot read is dropped
                index.discard("could not be read by git")
                copy = None
            else:
                index.done()
                status_entries = _split_status_v2(raw)
                if spec:
                    tops = [s[len(":(literal)"):] for s in spec[1:]]
                    status_entries = [e for e in status_entries
                                      if any(_under(e[1], t) or (e[2] is not None and _under(e[2], t)) for t in tops)]
                found.extend(status_entries)
        if copy is None:
            raw = self.run("status", "--porcelain=v2", "-z", "-uall", "--ignore-submodules", *spec)[1]
            found.extend(_split_status_v2(raw))
        return found

    # -- names -----------------------------------------------------------------
    def to_root(self, top_path: str) -> Optional[str]:
        """A top-relative name made relative to the linted root (None if outside)."""
        if not self.prefix:
            return top_path
        return top_path[len(self.prefix):] if top_path.startswith(self.prefix) else None

    def to_top(self, rel: str) -> str:
        return self.prefix + rel


@record
class GitChange:
    """A change as git sees it: its base and what it touched.

    ``entries`` are (status letter, path, old path for renames) relative to
    the linted root: the commits since the merge base (tree to tree), then
    what is staged, unstaged or untracked in the work tree. Whether a path
    still exists is for the caller to look up in the work tree."""

    git: "GitRepo"
    label: str  # the base as the user named it ("origin/main", "HEAD")
    commit: Optional[str]  # the merge base; None when HEAD has no commit yet
    entries: List[Tuple[str, str, Optional[str]]] = field(default_factory=list)
    #: paths the change made gitlinks (mode 160000: a submodule, a nested repository)
    gitlinks: Set[str] = field(default_factory=set)

    @property
    def paths(self) -> List[str]:
        out = set()
        for _, path, old in self.entries:
            out.add(path)
            if old is not None:
                out.add(old)
        return sorted(out)

    @property
    def renames(self) -> Dict[str, str]:
        """new path -> old path."""
        return {path: old for status, path, old in self.entries if status == "R" and old is not None}


def _under(path: str, top: str) -> bool:
    return path == top or path.startswith(top + "/")


def _split_raw(raw: bytes) -> List[Tuple[str, str, Optional[str], bool]]:
    """``git diff-tree -r -z --raw`` as (status letter, path, old path,
    whether the new entry is a gitlink)."""
    parts = raw.split(b"\0")
    out: List[Tuple[str, str, Optional[str], bool]] = []
    i = 0
    while i < len(parts) and parts[i].startswith(b":"):
        fields = parts[i][1:].split(b" ")
        if len(fields) < 5:  # pragma: no cover - not raw output
            break
        status = fields[4].decode("ascii", "replace")
        gitlink = fields[1] == b"160000"
        if status[:1] in ("R", "C") and i + 2 < len(parts):
            out.append((status[0], os.fsdecode(parts[i + 2]), os.fsdecode(parts[i + 1]), gitlink))
            i += 3
        elif i + 1 < len(parts):
            out.append((status[0], os.fsdecode(parts[i + 1]), None, gitlink))
            i += 2
        else:  # pragma: no cover - truncated output
            break
    return out


def _split_status_v2(raw: bytes) -> List[Tuple[str, str, Optional[str]]]:
    """``git status --porcelain=v2 -z`` as (status letter, path, old path)."""
    parts = raw.split(b"\0")
    out: List[Tuple[str, str, Optional[str]]] = []
    i = 0
    while i < len(parts):
        rec = parts[i]
        i += 1
        if not rec:
            continue
        kind = rec[:1]
        if kind == b"1":
            fields = rec.split(b" ", 8)
            xy = fields[1].decode("ascii", "replace")
            out.append(("D" if "D" in xy else "M", os.fsdecode(fields[8]), None))
        elif kind == b"2":
            fields = rec.split(b" ", 9)
            old = os.fsdecode(parts[i]) if i < len(parts) else None
            i += 1
            out.append(("R", os.fsdecode(fields[9]), old))
        elif kind == b"u":
            fields = rec.split(b" ", 10)
            out.append(("M", os.fsdecode(fields[10]), None))
        elif kind == b"?":
            out.append(("A", os.fsdecode(rec[2:]).rstrip("/"), None))
    return out


def gitlinks_among(root: Path, paths: Sequence[str]) -> Set[str]:
    """Which of ``paths`` (folders relative to ``root``) the index records as
    gitlinks (mode 160000), from one read-only ``git ls-files`` run in
    ``root`` (its names come back relative to it)."""
    found: Set[str] = set()
    # a command line stays far below the system's limit; one run for any
    # honest repository
    batch: List[str] = []
    size = 0
    for i, p in enumerate(paths):
        batch.append(f":(literal){p or '.'}")  # "" is the root itself
        size += len(p) + 11
        if size > 100_000 or i == len(paths) - 1:
            found.update(_ls_gitlinks(root, batch))
            batch, size = [], 0
    return found


def gitlinks_below(root: Path, repo, paths: Sequence[str]) -> Set[str]:
    """The gitlinks at or below the command-line ``paths`` (root-relative;
    ``""`` is the layout's top folders) that are not files, for a path run: a
    submodule the work tree lacks is seen by no walk, git alone knows of it.
    Nothing outside a git work tree."""
    folders = {r for p in paths if p == "" or not repo.is_file(p) for r in ([p] if p else repo.walk_roots())}
    if not folders or not in_work_tree(root):
        return set()
    return gitlinks_among(root, sorted(folders))


def _ls_gitlinks(root: Path, specs: List[str]) -> Set[str]:
    import subprocess
    import tempfile

    # Read as it comes and kept only where a gitlink is: the index lists
    # every file, and holding all of it would grow with the repository.
    out: Set[str] = set()
    with tempfile.TemporaryFile() as err:
        try:
            proc = subprocess.Popen(["git", *READ_ONLY, "ls-files", "-s", "-z", "--", *specs], cwd=str(root),
                                    stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=err)
        except FileNotFoundError:
            raise GitError("git is not installed or not on PATH (needed to tell an empty folder "
                           "from a submodule)") from None
        except OSError as e:
            raise GitError(f"cannot run git: {e.strerror}") from None
        with proc:
            tail = b""
            while True:
                chunk = proc.stdout.read(1 << 16)
                if not chunk:
                    break
                data = tail + chunk
                cut = data.rfind(b"\0") + 1
                tail = data[cut:]
                if b"160000 " in data[:cut]:
                    _gitlinks_in(data[:cut], out)
            _gitlinks_in(tail, out)
        if proc.returncode != 0:
            err.seek(0)
            lines = [ln.strip() for ln in err.read(1 << 16).decode("utf-8", "replace").splitlines() if ln.strip()]
            raise GitError(f"git ls-files failed: {_show(lines[0] if lines else f'exit status {proc.returncode}')}")
    return out


def _gitlinks_in(records: bytes, out: Set[str]) -> None:
    for rec in records.split(b"\0"):
        head, tab, name = rec.partition(b"\t")
        if tab and head.startswith(b"160000 "):
            out.add(os.fsdecode(name))


def read_change(root: Path, base: Optional[str], scope: Sequence[str] = ()) -> GitChange:
    """What changed under ``root`` since the merge base of ``base`` (default:
    the default branch) and HEAD."""
    g = GitRepo(root)
    try:
        label, mb = g.diff_base(base)
        return g.change(label, mb, scope)
    finally:
        g.close()


def changed_paths(root: Path, base: Optional[str], scope: Sequence[str] = ()) -> Tuple[List[str], str]:
    """Paths under ``root`` (relative to it, ``/``-separated) that changed
    since the merge base of ``base`` (default: the default branch) and HEAD,
    with staged, unstaged and untracked files; deleted and renamed files are
    included under their old and new names. Returns (paths, base label)."""
    change = read_change(root, base, scope)
    return change.paths, change.label
