"""``path:line:col: CODE message``, a hint line where one helps, a summary."""
from __future__ import annotations

from penguin_lint.output.log_guard import defuse, safe_line, sanitize
from penguin_lint.reporters.wording import (FIX_MARK, NEW_ONLY_HINT, files_checked, fixable_summary, has_old,
                                            no_changes, passed, why)

_RED, _YELLOW, _BOLD, _DIM, _CYAN, _RESET = "\x1b[31m", "\x1b[33m", "\x1b[1m", "\x1b[2m", "\x1b[36m", "\x1b[0m"


def report(result, stream, color: bool = False, left_to_list: str = "", **_):
    """``left_to_list``: who lists the findings instead (the fixing hook's
    "the penguin-lint hook lists"): only the summary is written."""
    def c(code, text):
        return f"{code}{text}{_RESET}" if color else text

    for f in ([] if left_to_list else result.findings):
        loc = safe_line(f.path)  # the path starts the line: it must not start a CI command
        if f.line is not None:
            loc += f":{f.line}:{f.column or 1}"
        sev = _RED if f.severity == "error" else _YELLOW
        # defuse: a ``##[`` anywhere in a line is a command to GitHub's runner
        # [*]: --fix repairs it (as ruff marks its fixable findings)
        mark = f"{c(_CYAN, FIX_MARK)} " if getattr(f, "fix", None) == "safe" else ""
        stream.write(defuse(f"{c(_BOLD, loc)}: {c(sev + _BOLD, sanitize(f.code))} {mark}{sanitize(f.message)}"
                            + (c(_DIM, " (warning)") if f.severity != "error" else "")) + "\n")
        if f.hint:
            stream.write(defuse(f"    {c(_CYAN, 'hint:')} {sanitize(f.hint)}") + "\n")
        because = why(f, result)
        if because:
            stream.write(defuse(f"    {c(_DIM, 'note:')} {because}") + "\n")
    if has_old(result) and not left_to_list:
        stream.write(defuse(f"{c(_DIM, 'note:')} {NEW_ONLY_HINT}") + "\n")
    for a in ([] if left_to_list else getattr(result, "suppressions_added", None) or ()):
        # the reviewer sees every suppression a change adds
        loc = safe_line(a.path) + f":{a.line}:{a.column}"
        stream.write(defuse(f"{c(_BOLD, loc)}: {sanitize(a.message)}" + c(_DIM, " (notice)")) + "\n")
    e, w = result.errors, result.warnings
    files = files_checked(result)
    fixed = getattr(result, "fixed", None)
    if fixed is not None:
        # --fix: what was repaired, and what is left for the author
        done = f"Fixed {fixed} finding{'s' if fixed != 1 else ''}"
        if not e and not w:
            stream.write(f"{done}; none remain ({files}).\n")
        else:
            left = e + w
            by = f"; {left_to_list} {'it' if left == 1 else 'them'}" if left_to_list else ""
            stream.write(f"{done}; {left} remain{'s' if left == 1 else ''}: {e} error{'s' if e != 1 else ''}, "
                         f"{w} warning{'s' if w != 1 else ''} ({files}){by}.\n")
    elif no_changes(result):
        stream.write(no_changes(result) + "\n")
    elif getattr(result, "baseline_written", None) is not None:
        # --write-baseline: what was recorded, and what to do with it
        stream.write(defuse(f"Wrote {safe_line(result.baseline_written)} ({files}): commit it, and the findings "
                            "it records no longer fail a run.") + "\n")
    elif getattr(result, "nothing_checked", False) and not e and not w:
        # no green check on nothing: the run read none of what it was given
        stream.write(f"Nothing checked ({files}).\n")
    elif not e and not w:
        stream.write(f"{passed(result)}.\n")
    else:
        parts = []
        parts.append(f"{e} error{'s' if e != 1 else ''}")
        parts.append(f"{w} warning{'s' if w != 1 else ''}")
        if getattr(result, "nothing_checked", False):
            parts.append("nothing checked")
        omitted = getattr(result, "omitted", 0)
        more = f"; {omitted:,} more not listed one by one" if omitted else ""
        stream.write(f"Found {', '.join(parts)} ({files}{more}).\n")
        fixable = fixable_summary(result)
        if fixable:
            stream.write(defuse(fixable) + "\n")
