"""``--statistics``: one line per rule code instead of the findings, as
ruff prints them: how many, the code, ``[*]`` when ``--fix`` repairs some
of them, the rule's name. Most frequent first. With ``--format json``, a
list of ``{"code", "name", "count", "fixable"}``."""
from __future__ import annotations

import json
from collections import Counter
from typing import Dict, List

from penguin_lint.output.log_guard import defuse, sanitize
from penguin_lint.reporters.wording import FIX_MARK, files_checked, fixable_summary, passed


def rows(result) -> List[Dict[str, object]]:
    counts = Counter(f.code for f in result.findings)
    names: Dict[str, str] = {}
    fixable = set()
    for f in result.findings:
        names.setdefault(f.code, f.name)
        if getattr(f, "fix", None) == "safe":
            fixable.add(f.code)
    return [{"code": code, "name": names[code], "count": n, "fixable": code in fixable}
            for code, n in sorted(counts.items(), key=lambda item: (-item[1], item[0]))]


def report(result, stream, json_format: bool = False, **_):
    table = rows(result)
    if json_format:
        stream.write(json.dumps(table, indent=2, ensure_ascii=True) + "\n")
        return
    width = max((len(str(r["count"])) for r in table), default=1)
    for r in table:
        mark = FIX_MARK if r["fixable"] else "[ ]"
        stream.write(defuse(f"{r['count']:>{width}}\t{sanitize(r['code'])}\t{mark} {sanitize(r['name'])}") + "\n")
    e, w = result.errors, result.warnings
    stream.write(f"Found {e} error{'s' if e != 1 else ''}, {w} warning{'s' if w != 1 else ''} "
                 f"({files_checked(result)}).\n" if table else f"{passed(result)}.\n")
    fixable = fixable_summary(result)
    if fixable:
        stream.write(defuse(fixable) + "\n")
