"""GitHub Actions workflow commands: ``::error file=...,line=...::message``.

File content reaches the message, so everything is escaped as the runner
requires: ``%``, CR and LF in the message (a newline there would otherwise
start a second command), and ``:`` and ``,`` in properties too. Other control
characters become visible escapes.

GitHub shows at most 10 error and 10 warning annotations per step: errors
come first, and when ``$GITHUB_STEP_SUMMARY`` is set the whole table is
written there as Markdown.
"""
from __future__ import annotations

import os
from typing import List

from penguin_lint.reporters import sanitize

SHOWN_PER_LEVEL = 10  # what GitHub displays per step and severity
SUMMARY_ROWS = 1000  # the summary file is capped at 1 MiB per step


def _printable(text: str) -> str:
    # CR and LF are kept for the %-escapes; the rest (NUL, ESC, U+2028...)
    # becomes \\xNN so nothing can act as a line break or a terminal escape.
    return "".join(ch if ch in "\r\n" else sanitize(ch) for ch in str(text))


def escape_data(text) -> str:
    return (_printable("" if text is None else text)
            .replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A"))


def escape_property(text) -> str:
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def annotation(f) -> str:
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
    return f"::{level} {','.join(props)}::{escape_data(message)}"


def ordered(findings) -> List:
    """Most important first: errors, then warnings, each in report order."""
    return sorted(findings, key=lambda f: 0 if f.severity == "error" else 1)


def report(result, stream, **_):
    findings = ordered(result.findings)
    for f in findings:
        stream.write(annotation(f) + "\n")
    e, w = result.errors, result.warnings
    hidden = max(0, e - SHOWN_PER_LEVEL) + max(0, w - SHOWN_PER_LEVEL)
    summary_path = os.environ.get("GITHUB_STEP_SUMMARY")
    if hidden:
        where = "the job summary" if summary_path else "the log above"
        stream.write(f"::notice title=penguin-lint::{hidden} more findings than GitHub annotates; "
                     f"every finding is in {where}\n")
    stream.write(f"penguin-lint: {e} error{'s' if e != 1 else ''}, "
                 f"{w} warning{'s' if w != 1 else ''} ({result.files} files checked)\n")
    if summary_path:
        with open(summary_path, "a", encoding="utf-8") as out:
            out.write(markdown_summary(result, findings))


_MD_SPECIAL = set("\\`*_{}[]()<>#+-.!|~&")


def md(text) -> str:
    """Text for a Markdown table cell: visible control characters, every
    Markdown and HTML special character backslash-escaped."""
    return "".join("\\" + ch if ch in _MD_SPECIAL else ch for ch in sanitize(text))


def markdown_summary(result, findings=None) -> str:
    findings = ordered(result.findings) if findings is None else findings
    e, w = result.errors, result.warnings
    lines = ["## penguin-lint", ""]
    if not findings:
        lines += [f"All checks passed ({result.files} files checked).", ""]
        return "\n".join(lines) + "\n"
    lines += [f"**{e} error{'s' if e != 1 else ''}, {w} warning{'s' if w != 1 else ''}** "
              f"({result.files} files checked)", "",
              "| | file | line | rule | message |", "|---|---|---|---|---|"]
    for f in findings[:SUMMARY_ROWS]:
        icon = ":x:" if f.severity == "error" else ":warning:"
        msg = md(f.message) + (f"<br>*hint:* {md(f.hint)}" if f.hint else "")
        line = "" if f.line is None else f"{int(f.line)}"
        lines.append(f"| {icon} | {md(f.path)} | {line} | {md(f.code)} {md(f.name)} | {msg} |")
    if len(findings) > SUMMARY_ROWS:
        lines += ["", f"… and {len(findings) - SUMMARY_ROWS} more (run penguin-lint locally for all)."]
    return "\n".join(lines) + "\n\n"
