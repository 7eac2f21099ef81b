"""``--format azure``: Azure Pipelines logging commands, one per finding:
``##vso[task.logissue type=error;sourcepath=...;linenumber=...;columnnumber=...;code=...]message``.

File content reaches both the properties and the message, so they are
escaped as Azure's task library escapes them: ``%`` (``%AZP25``), CR and LF
in the message (a line break would start a line the agent reads anew), and
``;`` and ``]`` in properties too (one would end a property, the other the
command). Other control characters become visible escapes, and no value
holds ``##vso[`` or ``##[`` (``defuse``): nothing a file holds can end the
command or start another.
"""
from __future__ import annotations

from penguin_lint.output.log_guard import defuse, emit_command, safe_line, sanitize
from penguin_lint.reporters.wording import files_checked, no_changes


def _printable(text) -> str:
    # CR and LF are kept for the %-escapes; the rest becomes \xNN
    return "".join(ch if ch in "\r\n" else sanitize(ch) for ch in str("" if text is None else text))


def escape_data(text) -> str:
    return defuse(_printable(text).replace("%", "%AZP25").replace("\r", "%0D").replace("\n", "%0A"))


def escape_property(text) -> str:
    return escape_data(text).replace("]", "%5D").replace(";", "%3B")


def logissue(kind: str, message: str, **props) -> str:
    fields = [f"type={kind}"] + [f"{k}={escape_property(v)}" for k, v in props.items() if v is not None]
    return f"##vso[task.logissue {';'.join(fields)};]{escape_data(message)}"


def command(f) -> str:
    message = f"{f.code} {f.message}" + (f"\nhint: {f.hint}" if f.hint else "")
    line = int(f.line) if f.line is not None else None
    return logissue("error" if f.severity == "error" else "warning", message,
                    sourcepath=f.path or None, linenumber=line,
                    columnnumber=int(f.column) if line is not None and f.column is not None else None,
                    code=f.code)


def report(result, stream, **_):
    for f in result.findings:
        emit_command(stream, command(f))
    checked = files_checked(result)
    if getattr(result, "nothing_checked", False):  # no green check on nothing
        emit_command(stream, logissue("error", f"penguin-lint: nothing checked ({checked})"))
    e, w = result.errors, result.warnings
    stream.write(safe_line(f"penguin-lint: {no_changes(result)}" if no_changes(result) else
                           f"penguin-lint: {e} error{'s' if e != 1 else ''}, {w} warning{'s' if w != 1 else ''} "
                           f"({checked})") + "\n")
