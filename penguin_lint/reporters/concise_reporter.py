"""``--format concise``: one line a finding, ``path:line:col: CODE message``,
then the text format's summary lines (as ruff's ``--output-format concise``).

Editors that run a command on the buffer (ALE, nvim-lint, flycheck) read
each line with one pattern: no hint, note or notice line comes between.
"""
from __future__ import annotations

from penguin_lint.output.log_guard import defuse, safe_line, sanitize
from penguin_lint.reporters import text_reporter
from penguin_lint.reporters.wording import FIX_MARK, fixable_summary


class _SummaryOnly:
    """The result as the text reporter's summary sees it: every count, no
    finding or notice to list."""

    def __init__(self, result):
        self._result = result
        self.findings = []
        self.suppressions_added = []

    def __getattr__(self, name):
        return getattr(self._result, name)


def report(result, stream, **options):
    for f in result.findings:
        # the path starts the line: it must not start a CI command
        loc = safe_line(f.path) + f":{f.line or 1}:{f.column or 1}"
        # [*]: --fix repairs it, as in the text format (and ruff's)
        mark = f"{FIX_MARK} " if getattr(f, "fix", None) == "safe" else ""
        stream.write(defuse(f"{loc}: {sanitize(f.code)} {mark}{sanitize(f.message)}") + "\n")
    text_reporter.report(_SummaryOnly(result), stream, color=False)
    fixable = fixable_summary(result)
    if fixable and result.findings:
        stream.write(defuse(fixable) + "\n")
