"""The words every report uses for what a run checked."""
from __future__ import annotations

import posixpath
from typing import Optional

from penguin_lint.output.log_guard import sanitize


# what a data file nothing parses is (engine.runner: Result.unchecked)
NOT_READ = "no file the harness reads"


def files_checked(result) -> str:
    """"3 files checked", with what a pull-request run compared with, the
    files it re-checked because they read what changed, and what --new-only
    hid: "1 file checked against main (3f2a1c9), and 1 dependent file
    re-checked; 1 older finding in touched files not shown"."""
    n = result.files
    dependents = getattr(result, "dependents", 0) or 0
    own = n - dependents
    compared = getattr(result, "compared_with", None)
    against = f" against {sanitize(compared)}" if compared else ""
    if holds_none(result):
        shard = result.shard
        text = f"shard {shard['index']}/{shard['count']} holds none of the {_count(result.shard_of, 'file')}" \
            + (f" checked{against}" if against else "")
    elif dependents and not own:
        text = f"{_count(dependents, 'dependent file')} re-checked{against}"
    else:
        text = f"{_count(own, 'file')} checked{against}"
        if dependents:
            text += f", and {_count(dependents, 'dependent file')} re-checked"
    unchecked = getattr(result, "unchecked", None) or ()
    if unchecked:
        names = ", ".join(sanitize(p) for p in unchecked[:3]) + (", ..." if len(unchecked) > 3 else "")
        text += f"; not checked, {NOT_READ}: {names}"
    hidden = getattr(result, "hidden", 0)
    if hidden:
        text += f"; {_count(hidden, 'older finding')} in touched files not shown"
    baselined = getattr(result, "baselined", 0)
    if baselined:
        text += f"; {_count(baselined, 'finding')} baselined"
    return text


def holds_none(result) -> bool:
    """Whether ``result`` is a part of a sharded run that holds no file of
    the run (the others hold them all): it checked nothing, rightly."""
    shard = getattr(result, "shard", None)
    return bool(getattr(result, "shard_of", None)) and not result.files and bool(shard) and "index" in shard


def passed(result) -> str:
    """The line of a report without findings: "All checks passed (3 files
    checked)", or, for a part that holds no file of a sharded run, "Nothing
    to check: shard 3/8 holds none of the 14 files" (no green check on
    nothing, no failure either)."""
    files = files_checked(result)
    return f"Nothing to check: {files}" if holds_none(result) else f"All checks passed ({files})"


def _count(n: int, noun: str) -> str:
    return f"{n:,} {noun}{'s' if n != 1 else ''}"


def no_changes(result) -> Optional[str]:
    """"No changes against main (3f2a1c9)." for a pull-request run whose
    change is empty, else None."""
    if getattr(result, "no_changes", False) and not result.findings:
        against = getattr(result, "compared_with", None)
        if against:
            return f"No changes against {sanitize(against)}."
        # a repository without a commit yet has nothing to compare with
        return "Nothing staged." if getattr(result, "staged", False) else "No changes."
    return None


#: said once in a report that holds older findings of touched files
NEW_ONLY_HINT = ("findings marked 'already in ...' were there before this change, in files it touches; "
                 "`--new-only` reports only what the change introduces")


def why(finding, result) -> Optional[str]:
    """Why a change is shown ``finding``: "already in main (3f2a1c9)" for an
    old finding of a touched file, "after your change to <path>" for a
    finding elsewhere that the change caused; None otherwise (new in a
    touched file, or a run without a change)."""
    if finding.scope == "touched" and finding.new is False:
        compared = getattr(result, "compared_with", None)
        return f"already in {sanitize(compared)}" if compared else "already there before this change"
    if finding.scope == "dependent" and finding.caused_by:
        paths = [sanitize(p) for p in finding.caused_by]
        named = ", ".join(paths[:3]) + (f" and {len(paths) - 3} more" if len(paths) > 3 else "")
        if finding.new is None and not getattr(result, "compared_with", None):
            # outside git nothing tells what the file held before: not blamed as a change
            return f"in a file that reads {named} (no base to compare with: it may have been there before)"
        return f"after your change to {named}"
    return None


def has_old(result) -> bool:
    """Whether the report shows an older finding of a touched file."""
    return any(f.scope == "touched" and f.new is False for f in result.findings)


FIX_MARK = "[*]"


def fixable_summary(result) -> Optional[str]:
    """"[*] 2 fixable with `--fix` (1 more with `--fix --unsafe-fixes`)."
    for the findings a repair would fix, else None. A --staged run (the
    hook) repairs in the working tree: the line says to stage the result."""
    safe = [f for f in result.findings if getattr(f, "fix", None) == "safe"]
    unsafe = sum(1 for f in result.findings if getattr(f, "fix", None) == "unsafe")
    if not safe and not unsafe:
        return None
    if getattr(result, "staged", False):
        paths = sorted({f.path for f in result.findings if getattr(f, "fix", None) in ("safe", "unsafe")})
        named = " ".join(_shell_word(p) for p in paths[:5]) + (" ..." if len(paths) > 5 else "")
        flags = "--fix" if safe else "--fix --unsafe-fixes"
        root_arg = getattr(result, "root_arg", None)
        if root_arg:
            flags = f"--root {_shell_word(root_arg)} {flags}"
        n = len(safe) or unsafe
        stage = f"then stage the repaired file{'s' if len(paths) != 1 else ''} (git add) and commit again."
        if safe and getattr(result, "pre_commit", False):
            # under pre-commit, penguin-lint may not be on PATH: its fixing hook
            # is, and it takes paths as git names them (from the top, not the root)
            safe_paths = sorted({f.path for f in safe})
            top = [posixpath.normpath(posixpath.join(root_arg, p)) if root_arg else p for p in safe_paths]
            named = " ".join(_shell_word(p) for p in top[:5]) + (" ..." if len(top) > 5 else "")
            add = "" if getattr(result, "pre_commit_fix", True) else \
                "add the penguin-lint-fix hook to .pre-commit-config.yaml (docs/pre-commit.md), then "
            return (f"{FIX_MARK} {len(safe)} fixable: {add}run `pre-commit run penguin-lint-fix --files "
                    f"{sanitize(named)}`, {stage}")
        return f"{FIX_MARK} {n} fixable: run `penguin-lint {flags} {sanitize(named)}`, {stage}"
    text = f"{FIX_MARK} {len(safe)} fixable with `--fix`" if safe else "No fix with `--fix` alone"
    if unsafe:
        text += f" ({unsafe} more with `--fix --unsafe-fixes`)"
    return text + "."


def _shell_word(path: str) -> str:
    import shlex

    return shlex.quote(path)
