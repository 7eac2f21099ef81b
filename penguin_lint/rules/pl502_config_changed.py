"""PL502 config-changed: a pull request adds, changes or deletes ``.penguin-lint.toml``."""
from __future__ import annotations

from typing import List, Optional, Tuple

from penguin_lint.core.config import CONFIG_FILE, Config, ConfigError
from penguin_lint.rules.base import WARNING, Rule


def _codes(values) -> str:
    return ", ".join(values) if values else "nothing"


def config_changes(old: Config, new: Config) -> List[Tuple[tuple, str]]:
    """(key path in the file, what changed) for each setting that differs."""
    out: List[Tuple[tuple, str]] = []
    for key, attr in (("select", "select"), ("ignore", "ignore")):
        a, b = list(getattr(old, attr)), list(getattr(new, attr))
        if a == b:
            continue
        gained = [c for c in b if c not in a]
        lost = [c for c in a if c not in b]
        parts = []
        if gained:
            parts.append(f"{key} gains {_codes(gained)}")
        if lost:
            parts.append(f"{key} loses {_codes(lost)}")
        out.append(((key,), "; ".join(parts) or f"{key} changes order"))
    a, b = dict(old.per_file_ignores), dict(new.per_file_ignores)
    for glob in sorted(set(a) | set(b)):
        if a.get(glob) != b.get(glob):
            if glob not in a:
                text = f"per-file-ignores gains '{glob}' = {_codes(b[glob])}"
            elif glob not in b:
                text = f"per-file-ignores loses '{glob}'"
            else:
                text = f"per-file-ignores '{glob}' changes from {_codes(a[glob])} to {_codes(b[glob])}"
            out.append((("per-file-ignores", glob), text))
    if old.size_limit != new.size_limit:
        out.append((("max-file-size",), f"max-file-size changes from {old.size_limit} to {new.size_limit} bytes"))
    a3, b3 = list(old.allow_added_suppressions), list(new.allow_added_suppressions)
    if a3 != b3:  # which suppressions a pull request may add: the maintainers' consent
        gained, lost = [c for c in b3 if c not in a3], [c for c in a3 if c not in b3]
        parts = [f"allow-added-suppressions gains {_codes(gained)}"] if gained else []
        parts += [f"allow-added-suppressions loses {_codes(lost)}"] if lost else []
        out.append((("allow-added-suppressions",), "; ".join(parts) or "allow-added-suppressions changes order"))
    if old.approval_label != new.approval_label:
        out.append((("approval-label",), f"approval-label changes from {_show(old.approval_label)} "
                                         f"to {_show(new.approval_label)}"))
    if old.base_branch != new.base_branch:
        out.append((("base-branch",), f"base-branch changes from {_show(old.base_branch)} to {_show(new.base_branch)}"))
    if old.cache_dir != new.cache_dir:
        out.append((("cache-dir",), f"cache-dir changes from {_show(old.cache_dir)} to {_show(new.cache_dir)}"))
    if old.baseline != new.baseline:
        out.append((("baseline",), f"baseline changes from {_show(old.baseline)} to {_show(new.baseline)}"))
    for name in sorted(set(old.layout) | set(new.layout)):
        if old.layout.get(name) != new.layout.get(name):
            out.append((("layout", name), f"layout.{name} changes from {_show(old.layout.get(name))} "
                                          f"to {_show(new.layout.get(name))}"))
    a2, b2 = dict(old.kinds), dict(new.kinds)
    for glob in sorted(set(a2) | set(b2)):
        if a2.get(glob) != b2.get(glob):
            out.append((("kinds", glob), f"kinds '{glob}' changes from {_show(a2.get(glob))} to {_show(b2.get(glob))}"))
    return out


def _show(value: Optional[str]) -> str:
    return "(unset)" if value is None else f"'{value}'"


class ConfigChanged(Rule):
    """
    ``.penguin-lint.toml`` decides what the gate checks, so a pull request
    must not be able to switch the gate off: in diff mode (``--diff-base``,
    the GitHub Action) the configuration is read from the merge base, and a
    pull request that adds, changes or deletes the file gets this warning on
    it, one per setting that changed, naming what changed ("ignore gains
    PL"). The run itself uses the base's configuration, so an ``ignore``,
    ``select``, per-file ignore, ``[layout]``, ``base-branch``,
    ``allow-added-suppressions`` or ``approval-label`` in the pull request
    takes effect only once it is merged. A maintainer can try a
    configuration change locally with ``--config-from-worktree``. Path runs
    (the pre-commit hook on the contributor's own machine) read the working
    tree's configuration and warn the same way against ``HEAD``. An invalid
    file in the pull request is an error (once merged it would stop every
    run); an invalid one on the base is not the pull request's: the run uses
    the defaults and says so. The baseline file (``.penguin-lint-baseline.json``,
    or ``baseline`` in the configuration) is treated alike: a pull request is
    judged by the base's, and a change to it gets this warning on it.
    """

    code = "PL502"
    name = "config-changed"
    severity = WARNING
    summary = "a pull request adds, changes or deletes `.penguin-lint.toml`"
    kinds = ("config",)
    bad = (".penguin-lint.toml", '# changed in this pull request\nignore = ["PL3"]\n')
    good = (".penguin-lint.toml", "# as on the base branch\nselect = [\"PL\"]\n")

    def alike_on_base(self, kind):
        return False  # it compares the working tree's file with the base's

    def check(self, subject, ctx):
        base = ctx.base
        if base is None or subject.path != CONFIG_FILE:
            return
        old_raw = base.read_bytes(CONFIG_FILE)
        new_raw = ctx.repo.read_bytes(CONFIG_FILE)
        if old_raw == new_raw:
            return
        hint = ("configuration changes take effect once merged; try one locally with "
                "--config-from-worktree")
        uses = ("; the run uses the base's configuration" if ctx.config_from_base
                else "; this run uses it as it is in the working tree")
        from penguin_lint.core.config import parse_config
        from penguin_lint.core.layout import FILE_KINDS
        from penguin_lint.rules import rule_codes

        def parsed(raw):
            if raw is None:
                return Config(), None
            try:
                return parse_config(raw, FILE_KINDS, rule_codes()), None
            except ConfigError as e:
                return None, str(e)

        old, _ = parsed(old_raw)
        new, error = parsed(new_raw)
        if old is None:
            old = Config()
        if new_raw is None:
            yield self.finding(subject, f"{CONFIG_FILE} is deleted in this pull request; "
                                        f"{uses[2:]}", hint=hint)
            return
        verb = "added" if old_raw is None else "changed"
        if error is not None:
            import re

            from penguin_lint.findings import Position

            m = re.match(re.escape(CONFIG_FILE) + r":(\d+):(\d+): (.*)", error)
            pos, what = (Position(int(m.group(1)), int(m.group(2))), m.group(3)) if m else (None, error)
            # Merged, it would stop every run: an error of this pull request.
            from dataclasses import replace

            from penguin_lint.findings import ERROR

            yield replace(self.finding(subject, f"{CONFIG_FILE} is {verb} in this pull request and is not valid "
                                                f"({what}){uses}", pos=pos,
                                       hint="fix it before merging: once merged it would stop every run"),
                          severity=ERROR)
            return
        doc = ctx.doc(subject.path)
        for key, text in config_changes(old, new):
            pos = doc.key_pos(key) if doc is not None else None
            yield self.finding(subject, f"{CONFIG_FILE} is {verb} in this pull request: {text}; "
                                        f"{uses[2:]}", pos=pos, hint=hint)
