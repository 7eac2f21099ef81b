"""PL008: a suppression that suppresses nothing removed, or, when only some
of its codes are unused, rewritten without them. Malformed comments and
unknown codes are left to the author (what was meant is unknown)."""
from __future__ import annotations

import re
from typing import List

from penguin_lint.fixes.source import Edit, Source
from penguin_lint.suppressions import FORM

_UNUSED = re.compile(r"suppression of ([A-Z0-9, ]+) suppresses nothing")


def fix(finding, source: Source, ctx) -> List[Edit]:
    m = _UNUSED.match(finding.message)
    if m is None or finding.line is None:
        return []
    unused = {c.strip() for c in m.group(1).split(",")}
    directive = next((d for d in source.doc.directives
                      if (d.line, d.column) == (finding.line, finding.column) and d.problem is None), None)
    if directive is None:
        return []
    start = source.offset(directive.line, directive.column)
    end = source.offset(directive.line, directive.end_column)
    if start is None or end is None or source.text[start:start + 1] != "#":
        return []
    comment = source.text[start:end]
    kept = [c for c in directive.codes if c not in unused]
    if kept:
        body = comment[comment.index(":") + 1:].lstrip(" \t")
        form = re.match(FORM, body)
        if form is None:
            return []
        new = f"# penguin-lint: {form.group('kind')}={','.join(kept)}{form.group('rest')}"
        return [Edit("PL008", None, start, end, new, None, finding.line)]
    line_start = source.offset(directive.line, 1)
    if directive.own_line:
        # the whole line goes, with its line break
        nxt = source.offset(directive.line + 1, 1)
        stop = nxt if nxt is not None else len(source.text)
        return [Edit("PL008", None, line_start, stop, "", None, finding.line)]
    cut = start
    while cut > line_start and source.text[cut - 1] in " \t":
        cut -= 1
    return [Edit("PL008", None, cut, end, "", None, finding.line)]
