"""What a pull request changed, as git sees it.

The changed set is everything between the merge base of a base ref and HEAD,
plus staged, unstaged and untracked files: one ``git diff <merge-base>``
(the working tree against the merge base, renames detected, old and new name
both kept) and one ``git ls-files --others``. Names travel NUL-separated and
are decoded like the file system's own, so spaces, non-ASCII characters and
odd bytes come back exactly as ``os.scandir`` names them.

gitpython is imported inside the functions: ``--version``, ``--all`` and
path runs outside git never pay for it. Every git failure becomes a
:class:`GitError` with a one-line message.
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple

DEFAULT_BRANCHES = ("origin/HEAD", "main", "origin/main", "master", "origin/master")
HISTORY_HINT = "fetch the full history (git fetch --unshallow; with actions/checkout, fetch-depth: 0)"


def _fetch_hint(ref: str) -> str:
    branch = ref[len("origin/"):] if ref.startswith("origin/") else "<base branch>"
    return f"fetch the base (git fetch origin {_show(branch)}) or {HISTORY_HINT}"


class GitError(Exception):
    """Git trouble: one line on stderr, exit 2."""


def _show(text: str) -> str:
    from penguin_lint.reporters import sanitize

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
        try:
            # gitpython refuses to import without a git executable
            from git import InvalidGitRepositoryError, NoSuchPathError, Repo
        except ImportError as e:
            raise GitError(f"git is not available: {str(e).splitlines()[0] if str(e) else e}") from None
        root = Path(os.path.realpath(root))
        try:
            self.repo = Repo(root, search_parent_directories=True)
        except (InvalidGitRepositoryError, NoSuchPathError):
            raise GitError(f"not a git repository: {_show(str(root))} "
                           "(give paths or use --all to lint without git)") from None
        if self.repo.bare or self.repo.working_tree_dir is None:
            raise GitError(f"git repository without a work tree: {_show(str(root))}")
        top = Path(os.path.realpath(self.repo.working_tree_dir))
        try:
            rel = root.relative_to(top).as_posix()
        except ValueError:  # pragma: no cover - Repo() found it by walking up from root
            raise GitError(f"{_show(str(root))} is outside the git work tree {_show(str(top))}") from None
        # Repository-relative names from git start with this ("" at the top).
        self.prefix = "" if rel == "." else rel + "/"

    # -- plumbing --------------------------------------------------------------
    def run(self, *args: str, ok_codes: Sequence[int] = (0,)) -> Tuple[int, bytes]:
        """(status, raw stdout) of ``git args``; other statuses raise GitError."""
        from git import GitCommandError, GitCommandNotFound

        try:
            status, out, err = self.repo.git.execute(
                ["git", "-c", "core.quotepath=off", *args],
                with_extended_output=True, with_exceptions=False,
                stdout_as_string=False, strip_newline_in_stdout=False)
        except GitCommandNotFound:
            raise GitError("git is not installed or not on PATH") from None
        except GitCommandError as e:  # pragma: no cover - with_exceptions=False
            status, out, err = e.status, b"", str(e.stderr)
        if status not in ok_codes:
            lines = [ln.strip() for ln in (err.decode("utf-8", "replace") if isinstance(err, bytes) else str(err)).splitlines()]
            lines = [ln for ln in lines if ln]
            msg = lines[0] if lines else f"exit status {status}"
            raise GitError(f"git {args[0]} failed: {_show(msg)}")
        return status, out

    def rev(self, spec: str) -> Optional[str]:
        """The object id ``spec`` names, or None."""
        status, out = self.run("rev-parse", "--verify", "--quiet", spec, ok_codes=(0, 1, 128))
        return out.decode("ascii", "replace").strip() if status == 0 and out.strip() else None

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

    def diff(self, commit: str) -> List[Tuple[str, str, Optional[str]]]:
        """(status letter, path, old path for renames and copies) of the
        working tree against ``commit``, top-relative."""
        # Run at the top of the work tree: names are top-relative whatever
        # diff.relative says.
        raw = self.run("diff", "--name-status", "-z", "-M", "--no-color", "--no-ext-diff", commit, "--")[1]
        parts = raw.split(b"\0")
        out: List[Tuple[str, str, Optional[str]]] = []
        i = 0
        while i < len(parts) and parts[i]:
            status = parts[i].decode("ascii", "replace")
            if status[:1] in ("R", "C") and i + 2 < len(parts):
                out.append((status[0], os.fsdecode(parts[i + 2]), os.fsdecode(parts[i + 1])))
                i += 3
            elif i + 1 < len(parts):
                out.append((status[0], os.fsdecode(parts[i + 1]), None))
                i += 2
            else:  # pragma: no cover - truncated output
                break
        return out

    def untracked(self, under: Sequence[str] = ()) -> List[str]:
        """Untracked, not ignored files; only below ``under`` (top-relative
        folders) when given, since walking the rest of the tree is wasted."""
        spec = ["--"] + [f":(literal){u}" for u in under] if under else []
        raw = self.run("ls-files", "--others", "--exclude-standard", "-z", *spec)[1]
        return [os.fsdecode(p).rstrip("/") for p in raw.split(b"\0") if p]

    def index_files(self) -> List[str]:
        raw = self.run("ls-files", "-z")[1]
        return [os.fsdecode(p) for p in raw.split(b"\0") if p]

    def cat(self, obj: str) -> Optional[bytes]:
        """Content of the blob ``obj``; None when it is not a blob (a folder)."""
        status, out = self.run("cat-file", "blob", obj, ok_codes=(0, 128))
        return out if status == 0 else None

    # -- names -----------------------------------------------------------------
    def to_root(self, top_path: str) -> Optional[str]:
        """A top-relative name made relative to the linted root (None if outside)."""
        if not self.prefix:
            return top_path
        return top_path[len(self.prefix):] if top_path.startswith(self.prefix) else None

    def to_top(self, rel: str) -> str:
        return self.prefix + rel


def changed_paths(root: Path, base: Optional[str], scope: Sequence[str] = ()) -> Tuple[List[str], str]:
    """Paths under ``root`` (relative to it, ``/``-separated) that changed
    since the merge base of ``base`` (default: the default branch) and HEAD,
    with staged, unstaged and untracked files; deleted and renamed files are
    included under their old and new names. Untracked files are looked for
    only in the ``scope`` folders (root-relative) when given.
    Returns (paths, base label)."""
    g = GitRepo(root)
    # a scope at the root itself ("") means the whole tree
    under = [g.to_top(s) for s in scope] if scope and "" not in scope else (
        [g.prefix.rstrip("/")] if g.prefix else [])
    if not g.head_born():
        # No commit yet: everything staged or present is being added.
        names = g.index_files() + g.untracked(under)
        label = base or "HEAD"
    else:
        label, sha = g.resolve_base(base)
        mb = g.merge_base(label, sha)
        # The two scans of the work tree are git's own cost of a diff run;
        # run side by side they cost the longer of the two, not the sum.
        from concurrent.futures import ThreadPoolExecutor

        with ThreadPoolExecutor(max_workers=2) as pool:
            diff = pool.submit(g.diff, mb)
            untracked = pool.submit(g.untracked, under)
            names = []
            for _, path, old in diff.result():
                names.append(path)
                if old is not None:
                    names.append(old)
            names += untracked.result()
    out = {r for r in (g.to_root(n) for n in names) if r}
    return sorted(out), label


class BaseTree:
    """Files as they were at the merge base of a base ref and HEAD (what a
    pull request started from). A repository without commits has an empty
    base. Renames in the change are followed back to the old name."""

    def __init__(self, root: Path, base: Optional[str]):
        self.git = GitRepo(root)
        self.commit: Optional[str] = None
        if self.git.head_born():
            label, sha = self.git.resolve_base(base)
            self.commit = self.git.merge_base(label, sha)
        self._renamed_from: Optional[Dict[str, str]] = None

    def _blob(self, top: str) -> Optional[str]:
        # "<commit>:<path>" takes the rest literally as the path, so no ^{blob}.
        return self.git.rev(f"{self.commit}:{top}")

    def read(self, rel: str) -> Optional[bytes]:
        """The base content of the file now at ``rel`` (following a rename
        back to its old name), or None when the change adds it."""
        if self.commit is None:
            return None
        top = self.git.to_top(rel)
        blob = self._blob(top)
        if blob is None:
            if self._renamed_from is None:
                self._renamed_from = {
                    path: old for status, path, old in self.git.diff(self.commit)
                    if status == "R" and old is not None}
            old = self._renamed_from.get(top)
            blob = self._blob(old) if old is not None else None
        return self.git.cat(blob) if blob is not None else None
