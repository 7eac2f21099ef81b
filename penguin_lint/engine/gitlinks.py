"""PL007 for the submodules (gitlinks) of an --all run that no walk sees into.

Git alone knows a gitlink whose folder is empty or absent: one read-only
``git ls-files`` over the walked top folders tells (0.1 s of CPU for 43,000
entries). A run with a cache keeps the answer beside its records, known by
the index file's size, times and inode: while git has not rewritten the
index, a warm run asks nothing.
"""
from __future__ import annotations

import json
import os
from pathlib import Path
from typing import List, Optional, Set

from penguin_lint.findings import Finding

MEMO = "gitlinks.memo"  # not a record (records end in .json)


def gitlink_findings(engine, empty: Set[str], absent: bool = False, memo_dir: Optional[Path] = None) -> List[Finding]:
    """PL007 for the gitlinks whose folder is one of the ``empty`` folders
    (actions/checkout leaves a submodule so) and, with ``absent``, those with
    no folder in the work tree at all."""
    rule = next((r for r in engine.rules if r.code == "PL007"), None)
    if rule is None or not (empty or absent):
        return []
    from penguin_lint.pr.git import GitError, gitlinks_among, in_work_tree

    root = engine.repo.root
    if not in_work_tree(root):
        return []
    roots = [r for r in engine.repo.walk_roots() if r == "" or engine.repo.is_dir(r)]
    stamp = _index_stamp(root, roots)
    found = _remembered(memo_dir, stamp)
    if found is None:
        try:
            found = gitlinks_among(root, roots) if roots else set()
        except GitError:
            if empty:
                raise  # an empty folder git cannot tell from a submodule: said, as before
            return []  # a '.git' that is no repository (or no git): nothing git tracks
        _remember(memo_dir, stamp, found)
    links = {p for p in found if p in empty or (absent and not os.path.lexists(root / p))}
    if not links:
        return []
    engine.ctx.gitlinks = engine.ctx.gitlinks | links
    out: List[Finding] = []
    for path in sorted(links):
        out.extend(f for f in rule.check(engine.subject(path, True), engine.ctx) if f.path == path)
    return out


def _index_stamp(root: Path, roots: List[str]) -> Optional[list]:
    """The index file's path, size, times and inode (and the folders asked
    about), or None when it cannot be found without asking git."""
    if any(os.environ.get(v) for v in ("GIT_INDEX_FILE", "GIT_DIR", "GIT_WORK_TREE")):
        return None
    cur = Path(os.path.abspath(root))
    while not os.path.lexists(cur / ".git"):
        if cur.parent == cur:
            return None
        cur = cur.parent
    dot = cur / ".git"
    try:
        if os.path.isfile(dot):  # a linked work tree or a submodule: "gitdir: <path>"
            with open(dot, "rb") as f:
                head = f.read(4096).decode("utf-8", "replace").strip()
            if not head.startswith("gitdir: "):
                return None
            dot = cur / head[len("gitdir: "):]
        index = dot / "index"
        st = os.stat(index)
    except OSError:
        return None
    return [str(index), st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino, roots]


def _remembered(memo_dir: Optional[Path], stamp: Optional[list]) -> Optional[Set[str]]:
    if memo_dir is None or stamp is None:
        return None
    try:
        with open(memo_dir / MEMO, "rb") as f:
            memo = json.loads(f.read(1 << 20))
    except (OSError, ValueError):
        return None
    links = memo.get("links") if isinstance(memo, dict) else None
    if memo.get("stamp") != stamp or not isinstance(links, list) or not all(isinstance(p, str) for p in links):
        return None
    return set(links)


def _remember(memo_dir: Optional[Path], stamp: Optional[list], links: Set[str]) -> None:
    if memo_dir is None or stamp is None or not os.path.isdir(memo_dir) or os.path.islink(memo_dir):
        return
    from penguin_lint.core.atomic import replace_file

    try:
        replace_file(str(memo_dir / MEMO), json.dumps({"stamp": stamp, "links": sorted(links)}).encode())
    except OSError:
        pass  # only a memo: the next run asks git again
