"""One benchmark repository as the language server keeps it between requests.

Its configuration, rules and :class:`OverlayRepository` are made once (the
configuration again when ``.penguin-lint.toml`` is saved). A change to one
file re-lints that file and the open files the rules say it affects
(``Rule.affected_by``: the leaderboards that read a ``meta_info.yaml`` or a
``summary.yaml``, a summary's attempts...) through the engine's path run,
which checks what those paths touch, not the repository.
"""
from __future__ import annotations

from pathlib import Path
from typing import Dict, Iterable, List, Optional, Set

from penguin_lint.cache.folder import cache_folder, inside
from penguin_lint.core.config import CONFIG_FILE, Config, ConfigError, load_config
from penguin_lint.core.layout import FILE_KINDS
from penguin_lint.engine.context import Context
from penguin_lint.engine.runner import Engine, enabled_rules
from penguin_lint.findings import Finding
from penguin_lint.fixes import FileFix, WriteRefused, plan
from penguin_lint.lsp.overlay import OverlayRepository
from penguin_lint.pr.history import FolderHistory
from penguin_lint.rules import all_rules, rule_codes


class Project:
    def __init__(self, root: Path, select: Iterable[str] = (), ignore: Iterable[str] = ()):
        self.root = root
        #: the rule codes ``penguin-lint lsp --select/--ignore`` gave (over the configuration's)
        self.select: List[str] = list(select)
        self.ignore: List[str] = list(ignore)
        #: why the repository cannot be linted (an invalid configuration), or None
        self.error: Optional[str] = None
        self.error_shown: Optional[str] = None
        self.load_config()

    def load_config(self) -> None:
        try:
            self.config = load_config(self.root, FILE_KINDS, rule_codes())
            self.error = None
        except ConfigError as e:
            self.config = Config()
            self.error = str(e)
        self.rules = enabled_rules(self.config, self.select or None, self.ignore)
        # what git says of a folder's last commit, asked again once the
        # configuration is (the time a hint proposes for last_update)
        self.history = FolderHistory(self.root)
        old = getattr(self, "repo", None)
        self.repo = OverlayRepository(self.root, self.config)
        if old is not None:
            self.repo.overlay.update(old.overlay)

    def in_cache(self, rel: str) -> bool:
        """Whether ``rel`` lies in the folder where ``--all`` keeps its cache
        (what the workspace's run writes there changes nothing it reports)."""
        folder = inside(self.root, cache_folder(self.root, None, self.config.cache_dir)[0])
        return bool(folder) and (rel == folder or rel.startswith(folder + "/"))

    # -- buffers --------------------------------------------------------------
    def set_buffer(self, rel: str, text: str) -> bool:
        return self.repo.set_buffer(rel, text.encode("utf-8", "surrogatepass"))

    def drop_buffer(self, rel: str) -> None:
        self.repo.drop_buffer(rel)

    def buffer_is_saved(self, rel: str) -> bool:
        self.repo.refresh()
        return self.repo.buffer_is_saved(rel)

    # -- linting --------------------------------------------------------------
    def _engine(self) -> Engine:
        self.repo.refresh()
        engine = Engine(self.repo, self.config, self.rules)
        engine.ctx.history = self.history
        return engine

    def lints(self, rel: str) -> bool:
        """Whether ``rel`` is a file penguin-lint checks (a file of the layout,
        of a configured kind, or the configuration)."""
        if self.error is not None:
            return rel == CONFIG_FILE
        return Engine(self.repo, self.config, self.rules).subject(rel, False).kind != "file"

    def affected(self, rel: str, among: Iterable[str]) -> Set[str]:
        """The paths of ``among`` whose findings a change to ``rel`` can change:
        the subjects the rules name, and the files directly in a folder they
        name (a folder's check reports in its files: PL306 in an experiment's
        meta_info.yaml)."""
        among = set(among)
        if not among:
            return set()
        engine = self._engine()
        out: Set[str] = set()
        for rule in self.rules:
            for dep in rule.affected_by(rel, engine.ctx):
                out.update(p for p in among if p == dep or p.rpartition("/")[0] == dep)
        return out

    def lint(self, paths: Iterable[str]) -> Dict[str, List[Finding]]:
        """The findings in each of ``paths`` (files, buffers over them first)."""
        paths = sorted(set(paths))
        out: Dict[str, List[Finding]] = {p: [] for p in paths}
        if self.error is not None:
            return out
        result = self._engine().run_paths(paths, report_in=paths)
        for f in result.findings:
            if f.path in out:
                out[f.path].append(f)
        return out

    # -- fixes ----------------------------------------------------------------
    def plan_fixes(self, rel: str, findings: List[Finding], unsafe: bool = False) -> Optional[FileFix]:
        """The repair ``--fix`` would make for ``findings`` in ``rel``, planned
        on the buffer's text (None: nothing to repair)."""
        data = self.repo.overlay.get(rel)

        def read(path: str) -> bytes:
            if path != rel or data is None:
                raise WriteRefused(f"{path}: not open")
            return data

        self.repo.refresh()
        ctx = Context(self.repo, self.config)
        fixes, _refused = plan(findings, str(self.root), ctx, {r.code: r for r in all_rules()},
                               unsafe, self.config.size_limit, read=read)
        return fixes[0] if fixes else None
