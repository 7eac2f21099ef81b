"""The Markdown of a GitHub step summary: every finding, grouped by file,
each linked to its line in the commit under review.

GitHub refuses a step summary over 1 MiB (the step then shows none), so the
text is built against a byte budget and says where it was cut. Everything
taken from the repository (paths, messages, hints) goes through ``md``:
plain words as they are, anything else in a code span, where neither
cmark-gfm (links, autolinks, HTML, emphasis) nor GitHub (``@mentions``,
``#12`` references) reads it. Links are percent-encoded, so no file name can
close a link or a table cell.
"""
from __future__ import annotations

import re
from typing import Callable, Dict, List, Optional
from urllib.parse import quote

from penguin_lint.reporters.wording import NEW_ONLY_HINT, files_checked, has_old, holds_none, no_changes, why
from penguin_lint.rules import get_rule
from penguin_lint.rules.docs import rule_url
from penguin_lint.output.markdown import md, md_text
from penguin_lint.version import __version__

#: the summary's heading names the release that ran (the Action installs from its own tag)
HEAD = f"## penguin-lint {__version__}\n\n"

#: GitHub's cap is 1 MiB per step; stay a little under it.
LIMIT = 1_000_000
#: room kept for the closing "cut here" note
_NOTE_ROOM = 400

CUT_NOTE = "not listed: GitHub caps a step summary at 1 MiB."
_CODE = re.compile(r"PL[0-9]{3}\Z")


def rule_cell(code: str, name: str) -> str:
    """The rule column: a registered rule's code links its page (an address
    made of our constant and the code, never of repository text)."""
    if _CODE.match(code or ""):
        try:
            get_rule(code)
        except KeyError:
            pass
        else:
            return f"[{code}]({rule_url(code, uri=True)}) {md(name)}"
    return f"{md(code)} {md(name)}"


def plural(n: int, word: str) -> str:
    return f"{n} {word}{'s' if n != 1 else ''}"


def _size(text: str) -> int:
    return len(text.encode("utf-8", "surrogateescape"))


def file_url(blob_base: Optional[str], path: str) -> Optional[str]:
    if not blob_base or not path:
        return None
    try:
        raw = path.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:  # no file name decodes to it: no link
        return None
    return f"{blob_base}/{quote(raw, safe='/')}"


def _groups(findings) -> Dict[str, List]:
    groups: Dict[str, List] = {}
    for f in findings:  # dicts keep the order of the first finding per file
        groups.setdefault(f.path, []).append(f)
    return groups


def render(result, findings, blob_base: Optional[str] = None,
           exists: Optional[Callable[[str], bool]] = None, budget: int = LIMIT) -> str:
    """``findings`` in the order to show them (files follow the order of
    their first finding); ``blob_base`` is ``<server>/<owner>/<repo>/blob/<sha>``
    or None for no links."""
    e, w = result.errors, result.warnings
    files = md(files_checked(result), cell=False)
    head = HEAD
    if no_changes(result):
        return head + md(no_changes(result), cell=False) + "\n\n"
    added = _added_section(result, blob_base, budget // 4)
    if not findings and getattr(result, "nothing_checked", False):  # no green check on nothing
        return head + f"Nothing checked ({files}).\n\n" + added
    if not findings:
        return head + (f"Nothing to check: {files}.\n\n" if holds_none(result)
                       else f"All checks passed ({files}).\n\n") + added
    budget -= _size(added)
    parts = [head + f"**{plural(e, 'error')}, {plural(w, 'warning')}** ({files})\n\n"
             + (f"{md(NEW_ONLY_HINT, cell=False)}\n\n" if has_old(result) else "")]
    used = _size(parts[0])
    shown = 0
    cut = False
    for path, group in _groups(findings).items():
        missing = exists is not None and bool(path) and not exists(path)
        url = None if missing else file_url(blob_base, path)
        name = md(path, cell=False) if path else "(repository)"
        title = f"[{name}]({url})" if url else name
        ge = sum(1 for f in group if f.severity == "error")
        counts = ", ".join(c for c in (plural(ge, "error") if ge else "",
                                       plural(len(group) - ge, "warning") if len(group) > ge else "") if c)
        section = (f"### {title}\n\n" if not missing else f"### {title} (missing)\n\n") \
            + f"{counts}\n\n| | line | rule | message |\n|---|---|---|---|\n"
        rows = []
        for f in group:
            icon = ":x:" if f.severity == "error" else ":warning:"
            line = ""
            if f.line is not None:
                line = f"[{int(f.line)}]({url}#L{int(f.line)})" if url else str(int(f.line))
            # prose, its values in code spans: every message reads the same way
            msg = md_text(f.message) + (f"<br>*hint:* {md_text(f.hint)}" if f.hint else "")
            because = why(f, result)
            if because:  # already in the base, or caused by which change
                msg += f"<br>*{md_text(because)}*"
            rows.append(f"| {icon} | {line} | {rule_cell(f.code, f.name)} | {msg} |\n")
        cost = _size(section) + 1
        if used + cost + _size(rows[0]) + _NOTE_ROOM > budget:
            cut = True
            break
        parts.append(section)
        used += cost
        for row in rows:
            if used + _size(row) + _NOTE_ROOM > budget:
                cut = True
                break
            parts.append(row)
            used += _size(row)
            shown += 1
        parts.append("\n")
        if cut:
            break
    if cut:
        parts.append(f"**{plural(len(findings) - shown, 'more finding')} {CUT_NOTE}** "
                     f"The step's log prints every finding.\n\n")
    return "".join(parts) + added


def _added_section(result, blob_base: Optional[str], budget: int) -> str:
    """The inline suppressions the change adds, one line each: the reviewer
    sees every one (they apply once merged)."""
    added = list(getattr(result, "suppressions_added", None) or ())
    if not added:
        return ""
    text = f"### {plural(len(added), 'suppression')} added by this change\n\n" + _consent_note(added)
    for i, a in enumerate(added):
        url = file_url(blob_base, a.path)
        where = f"{md(a.path, cell=False)}:{int(a.line)}"
        where = f"[{where}]({url}#L{int(a.line)})" if url else where
        row = f"- :mag: {where}: {md_text(a.message, cell=False)}\n"
        if _size(text) + _size(row) + _NOTE_ROOM > budget:
            text += f"- {plural(len(added) - i, 'more suppression')} {CUT_NOTE} The step's log prints every one.\n"
            break
        text += row
    return text + "\n"


def _consent_note(added) -> str:
    """What applies in this run of the suppressions the change adds: only
    what the maintainers consented to (each line says how)."""
    applied = [a for a in added if a.applied]
    if not applied:
        return "They suppress nothing in this run; they apply once merged.\n\n"
    labels = sorted({a.label for a in applied if a.label})
    note = ""
    if labels:
        note = f"**Approved by the label {md(labels[0], cell=False)}**: set by a maintainer for this commit. "
    if all(set(a.codes) <= set(a.applied) for a in added):
        return note + "They apply in this run, as each line says.\n\n"
    return note + ("Those the maintainers consented to apply in this run, as each line says; "
                   "the others apply once merged.\n\n")


def render_failure(message: str, fix: str) -> str:
    """The summary of a run in which the linter could not run; ``fix`` is
    Markdown written by penguin-lint itself, ``message`` is escaped."""
    return (f"{HEAD}:x: **penguin-lint could not run:** {md(message, cell=False)}\n\n"
            f"**Fix:** {fix}\n\n")
