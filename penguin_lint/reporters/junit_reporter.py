"""``--format junit``: JUnit XML, as CI systems read test results.

One ``testsuite`` per file, one ``testcase`` per finding with its
``failure``; a run without findings is one suite with one passing case that
says what was checked; a run that checked nothing has a failing one. Every
text passes ``sanitize``: XML 1.0 holds no control character, and file
content must not drive the reader's terminal either.
"""
from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import Dict, List

from penguin_lint.output.log_guard import sanitize
from penguin_lint.reporters.wording import files_checked


def _case(suite: ET.Element, f) -> None:
    line, col = int(f.line or 1), int(f.column or 1)
    path = sanitize(f.path) or "."
    case = ET.SubElement(suite, "testcase", name=f"{sanitize(f.code)} {sanitize(f.name)} at line {line}",
                         classname=path, file=path, line=str(line))
    failure = ET.SubElement(case, "failure", message=sanitize(f.message), type=sanitize(f.severity))
    text = f"{path}:{line}:{col}: {sanitize(f.code)} {sanitize(f.message)}"
    if f.hint:
        text += f"\nhint: {sanitize(f.hint)}"
    failure.text = text


def build(result) -> ET.Element:
    by_file: Dict[str, List] = {}
    for f in sorted(result.findings, key=lambda f: f.sort_key()):
        by_file.setdefault(f.path or "", []).append(f)
    root = ET.Element("testsuites", name="penguin-lint")
    for path, findings in by_file.items():
        suite = ET.SubElement(root, "testsuite", name=sanitize(path) or ".", tests=str(len(findings)),
                              failures=str(len(findings)), errors="0", skipped="0")
        for f in findings:
            _case(suite, f)
    failed = bool(getattr(result, "nothing_checked", False))
    if failed or not by_file:
        # one case that says what was checked: failing where that was nothing
        checked = files_checked(result)
        suite = ET.SubElement(root, "testsuite", name="penguin-lint", tests="1", failures=str(int(failed)),
                              errors="0", skipped="0")
        case = ET.SubElement(suite, "testcase", name=("Nothing checked" if failed else "All checks passed"),
                             classname="penguin-lint")
        if failed:
            ET.SubElement(case, "failure", message=f"Nothing checked ({checked})", type="error").text = checked
        else:
            ET.SubElement(case, "system-out").text = checked
    total = sum(int(s.get("tests")) for s in root)
    root.set("tests", str(total))
    root.set("failures", str(sum(int(s.get("failures")) for s in root)))
    root.set("errors", "0")
    return root


def report(result, stream, **_):
    root = build(result)
    ET.indent(root)
    stream.write('<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n")
