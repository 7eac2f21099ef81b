"""The configuration a run is judged by: the working tree's, or the base's
at a ref (a pull request does not choose what it is judged by)."""
from __future__ import annotations

import os
from contextlib import closing
from pathlib import Path
from typing import Callable, Optional

from penguin_lint.core.config import CONFIG_FILE, Config, ConfigError, parse_config
from penguin_lint.core.layout import FILE_KINDS
from penguin_lint.core.repo import Repository
from penguin_lint.pr.git import GitError
from penguin_lint.rules import rule_codes


def tree_file(tree, rel: str) -> Optional[bytes]:
    from penguin_lint.pr.basetree import BaseRepository

    return BaseRepository(tree, Path("."), Config()).read_bytes(rel)


def status_folder(status_cache, config) -> Optional[Path]:
    """``status_cache`` as a folder: given, or decided by the configuration."""
    return status_cache(config) if callable(status_cache) else status_cache


def base_config(tree, warn: Callable[[str], None]) -> Config:
    """The configuration in a base tree. An invalid one there does not block
    the pull request that repairs it: the defaults apply (every rule), and
    one warning line says so."""
    raw = tree_file(tree, CONFIG_FILE)
    if raw is None:
        return Config()
    try:
        return parse_config(raw, FILE_KINDS, rule_codes())
    except ConfigError as e:
        warn(f"the base's {e}; this run uses the defaults (every rule)")
        return Config()


def pull_request_base(root: Path, env) -> Optional[str]:
    """``origin/<base branch>`` when GitHub says this run is a pull request's
    (GITHUB_EVENT_NAME pull_request or pull_request_target, with
    GITHUB_BASE_REF) and ``root`` lies in its checkout (GITHUB_WORKSPACE);
    else None."""
    if env.get("GITHUB_EVENT_NAME") not in ("pull_request", "pull_request_target"):
        return None
    base, workspace = env.get("GITHUB_BASE_REF", "").strip(), env.get("GITHUB_WORKSPACE", "")
    if not base or not workspace:
        return None
    try:
        Path(os.path.realpath(root)).relative_to(os.path.realpath(workspace))
    except ValueError:
        return None  # a folder outside the checkout is not what the event describes
    return f"origin/{base}"


class BaseConfigFile:
    """The base as PL502 reads it: its .penguin-lint.toml's bytes (None: none)."""

    def __init__(self, raw: Optional[bytes]):
        self.raw = raw

    def read_bytes(self, rel: str) -> Optional[bytes]:
        return self.raw


def config_at(root: Path, ref: str, warn: Callable[[str], None], review: bool = False,
              status_cache=None):
    """(the base's .penguin-lint.toml for PL502, configuration, the
    suppressions the change adds or None) at the merge base of ``ref`` and
    HEAD, for --config-base; those suppressions only with ``review`` (--all).
    ``status_cache``: as for ``base.open_diff``."""
    from penguin_lint.pr.basetree import GitTree
    from penguin_lint.pr.git import GitRepo

    with closing(GitRepo(root)) as g:
        try:
            label, mb = g.diff_base(ref)
            tree = GitTree(g.top, mb, g.prefix, objects=g.objects)
            based_on, config = BaseConfigFile(tree_file(tree, CONFIG_FILE)), base_config(tree, warn)
        except GitError as e:
            raise GitError(f"cannot read {CONFIG_FILE} at the merge base of {ref} "
                           f"(a pull request is judged by its base's settings): {e}") from None
        if not review:
            return based_on, config, None
        try:
            return based_on, config, _added_index(g, label, mb, tree, root, config,
                                                  status_folder(status_cache, config), warn)
        except GitError as e:
            raise GitError(f"cannot list what changed since the merge base of {ref} "
                           f"(the suppressions a pull request adds hide nothing in its run): {e}") from None


def _added_index(g, label: str, mb: Optional[str], tree, root: Path, config, status_cache=None, warn=None):
    """The suppressions that the work tree adds to the base ``tree``
    (suppressions.AddedIndex), found once before an --all run starts: only
    the changed YAML and TOML files that mention ``penguin-lint:`` are read."""
    from penguin_lint.loaders import format_of
    from penguin_lint.pr.basetree import BaseRepository
    from penguin_lint.suppressions import MARK, AddedIndex, added_codes

    repo = Repository(root, config)  # its own: its documents are not the run's
    change = g.change(label, mb, scope=repo.walk_roots() + [CONFIG_FILE], cache_root=status_cache, warn=warn)
    renames = change.renames
    base = None
    added = {}
    mark = MARK.encode("ascii")
    for p in change.paths:
        if format_of(p) not in ("yaml", "toml") or not repo.is_file(p):
            continue  # deleted, renamed away, or of a format without comments
        raw = repo.read_bytes(p)
        if raw is None or mark not in raw:
            continue
        doc = repo.load(p)
        if doc is None or not doc.directives:
            continue
        if base is None:
            base = BaseRepository(tree, root, config)
        old = renames.get(p, p)
        if old != p:
            # renamed: the same bytes add nothing; changed, the file is new
            # to the board and every suppression in it is added
            if doc.content_id is not None and doc.content_id == base.blob_id(old):
                repo.forget(p)
                continue
            old = None
        base_doc = base.load(old) if old is not None and base.is_file(old) else None
        codes = added_codes(doc.directives, base_doc.directives if base_doc is not None else ())
        if codes:
            added[p] = codes
        repo.forget(p)
    return AddedIndex(added)


def config_findings(result, repo, config, base, rules) -> None:
    """PL502 on the working tree's .penguin-lint.toml when it differs from
    the base's, which the run used (--config-base): an invalid one is an
    error of the pull request, a changed one a warning per setting."""
    from penguin_lint.engine.context import Context
    from penguin_lint.engine.subject import Subject

    rule = next((r for r in rules if r.code == "PL502"), None)
    if rule is None:
        return
    ctx = Context(repo, config)
    ctx.base = base
    ctx.config_from_base = True
    found = list(rule.check(Subject(CONFIG_FILE, "config", {}, False), ctx))
    if found:
        result.findings = sorted(result.findings + found, key=lambda f: f.sort_key())
