"""GitHub Actions workflow commands: ``::error file=...,line=...::message``.

File content reaches the message, so everything is escaped as the runner
requires: ``%``, CR and LF in the message (a newline there would otherwise
start a second command), and ``:`` and ``,`` in properties too. Other control
characters become visible escapes.

GitHub shows at most 10 error and 10 warning annotations per step, so they
are spent in the order a reviewer acts on (see ``review_order``) and one
``::notice`` counts the rest. Every finding is also printed as a plain log
line (the log has no cap), each starting with its severity so that no file
name can pose as a workflow command. With a step-summary file, every finding
is written there as Markdown too.
"""
from __future__ import annotations

import os
from typing import Callable, List, Optional

from penguin_lint.output.log_guard import defuse, emit_command, safe_line, sanitize
from penguin_lint.reporters.wording import NEW_ONLY_HINT, files_checked, has_old, no_changes, why
from penguin_lint.github import summary as job_summary
from penguin_lint.reporters.review_order import ordered
from penguin_lint.github.summary import plural

SHOWN_PER_LEVEL = 10  # what GitHub displays per step and severity


def _printable(text: str) -> str:
    # CR and LF are kept for the %-escapes; the rest (NUL, ESC, U+2028...)
    # becomes \\xNN so nothing can act as a line break or a terminal escape.
    return "".join(ch if ch in "\r\n" else sanitize(ch) for ch in str(text))


def _escape(text) -> str:
    return (_printable("" if text is None else text)
            .replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A"))


def escape_data(text) -> str:
    # ``##[`` is a command anywhere in a line; the runner parses ``::`` first,
    # but the annotation's text must not carry the other form either.
    return defuse(_escape(text))


def escape_property(text) -> str:
    # kept as it is: a file property names the file (the runner reads the
    # line as a ``::`` command, whose properties hold no command)
    return _escape(text).replace(":", "%3A").replace(",", "%2C")


def annotation(f, result=None) -> str:
    level = "error" if f.severity == "error" else "warning"
    props = []
    if f.path:
        props.append(f"file={escape_property(f.path)}")
    if f.line is not None:
        props.append(f"line={int(f.line)}")
        one_line = f.end_line is None or f.end_line == f.line
        if f.end_line is not None and f.end_line != f.line:
            props.append(f"endLine={int(f.end_line)}")
        # GitHub honours columns only for a span on one line.
        if one_line and f.column is not None:
            props.append(f"col={int(f.column)}")
            if f.end_column is not None:
                props.append(f"endColumn={int(f.end_column)}")
    props.append(f"title={escape_property(f'{f.code} {f.name}')}")
    message = f.message + (f"\nhint: {f.hint}" if f.hint else "")
    because = why(f, result) if result is not None else None
    if because:
        message += f"\n({because})"
    return f"::{level} {','.join(props)}::{escape_data(message)}"


ADDED_TITLE = "penguin-lint: suppression added"


def added_annotation(a) -> str:
    """A ``::notice`` on a suppression the change adds."""
    props = [f"file={escape_property(a.path)}", f"line={int(a.line)}", f"col={int(a.column)}"]
    if a.end_column is not None:
        props.append(f"endColumn={int(a.end_column)}")
    props.append(f"title={escape_property(ADDED_TITLE)}")
    return f"::notice {','.join(props)}::{escape_data(a.message)}"


def log_lines(f, result=None) -> List[str]:
    """A finding as plain log text: ``error: path:line:col: CODE message``."""
    loc = sanitize(f.path) or "."
    if f.line is not None:
        loc += f":{int(f.line)}:{int(f.column or 1)}"
    lines = [safe_line(f"{'error' if f.severity == 'error' else 'warning'}: {loc}: {f.code} {f.message}")]
    if f.hint:
        lines.append(safe_line(f"    hint: {f.hint}"))
    because = why(f, result) if result is not None else None
    if because:
        lines.append(safe_line(f"    note: {because}"))
    return lines


def annotated(findings) -> List:
    """The findings GitHub will show, in review order: the first
    SHOWN_PER_LEVEL of each severity."""
    shown, count = [], {"error": 0, "warning": 0}
    for f in findings:
        level = "error" if f.severity == "error" else "warning"
        if count[level] < SHOWN_PER_LEVEL:
            count[level] += 1
            shown.append(f)
    return shown


def report(result, stream, exists: Optional[Callable[[str], bool]] = None,
           summary_path: Optional[str] = None, blob_base: Optional[str] = None, **_):
    """``exists(path)`` tells whether a finding's file is there (findings
    about missing files are annotated last); ``summary_path`` is the step
    summary to append to; ``blob_base`` is where file links point."""
    review = ordered(result.findings, exists)
    shown = annotated(review)
    for f in shown:
        emit_command(stream, annotation(f, result))
    if getattr(result, "nothing_checked", False):
        # no green check on nothing, and no red one without its reason
        emit_command(stream, f"::error title=penguin-lint::{escape_data(f'Nothing checked ({files_checked(result)})')}")
    if has_old(result):
        emit_command(stream, f"::notice title=penguin-lint::{escape_data(NEW_ONLY_HINT)}")
    summary = None
    if summary_path:
        summary = job_summary.render(result, review, blob_base, exists,
                                      budget=job_summary.LIMIT - _existing(summary_path))
    hidden = len(review) - len(shown)
    if hidden:
        where = ""
        if summary is not None:
            where = ("the job summary lists as many as fit in GitHub's 1 MiB and "
                     if job_summary.CUT_NOTE in summary else "the job summary lists them all and ")
        emit_command(stream, f"::notice title=penguin-lint::{plural(hidden, 'more finding')} than GitHub annotates "
                     f"({SHOWN_PER_LEVEL} errors and {SHOWN_PER_LEVEL} warnings per step): "
                     f"{where}the log prints every one")
    added = list(getattr(result, "suppressions_added", None) or ())
    for a in added[:SHOWN_PER_LEVEL]:  # GitHub shows 10 notices per step too
        emit_command(stream, added_annotation(a))
    if len(added) > SHOWN_PER_LEVEL:
        emit_command(stream, f"::notice title=penguin-lint::{plural(len(added) - SHOWN_PER_LEVEL, 'more suppression')} "
                     f"added by this change: the log prints every one")
    for f in result.findings:
        for line in log_lines(f, result):
            stream.write(line + "\n")
    for a in added:
        stream.write(safe_line(f"notice: {a.path}:{int(a.line)}:{int(a.column)}: {a.message}") + "\n")
    nothing = ", nothing checked" if getattr(result, "nothing_checked", False) else ""
    stream.write(safe_line(f"penguin-lint: {no_changes(result)}" if no_changes(result) else
                           f"penguin-lint: {plural(result.errors, 'error')}, {plural(result.warnings, 'warning')}"
                           f"{nothing} ({files_checked(result)})") + "\n")
    if summary is not None:
        try:
            write_summary(summary_path, summary)
        except OSError as e:  # the findings are in the log; say why the summary is not
            stream.write(safe_line(f"penguin-lint: warning: cannot write the job summary: {e.strerror or e}") + "\n")


def _existing(path: str) -> int:
    try:
        return os.path.getsize(path)
    except OSError:
        return 0


def write_summary(path: str, text: str) -> None:
    with open(path, "a", encoding="utf-8", errors="surrogateescape") as out:
        out.write(text)

