"""The spec's JSON: ``{"version": 1, "findings": [...], "summary": {...}}``."""
from __future__ import annotations

import json


def report(result, stream, **_):
    summary = {"files": result.files, "errors": result.errors, "warnings": result.warnings}
    if getattr(result, "compared_with", None):
        # a pull-request run: what it compared with, and what --new-only hid
        summary["compared_with"] = result.compared_with
        summary["hidden"] = result.hidden
        summary["no_changes"] = result.no_changes
    doc = {
        "version": 1,
        "findings": [f.to_dict() for f in result.findings],
        "summary": summary,
    }
    added = getattr(result, "suppressions_added", None) or []
    if added or getattr(result, "compared_with", None):
        # a pull-request run: the inline suppressions the change adds (they
        # apply once merged; here they suppress nothing)
        doc["suppressions_added"] = [a.to_dict() for a in added]
    omitted = getattr(result, "omitted", 0)
    if omitted:  # findings folded into "N more" ones, past the cap per file and code
        doc["summary"]["omitted"] = omitted
    doc["summary"]["suppressed"] = getattr(result, "suppressed", 0)
    if getattr(result, "fixed", None) is not None:
        doc["summary"]["fixed"] = result.fixed
    # ensure_ascii keeps control characters and odd bytes as \u escapes;
    # one write: the output guard then reads the report in a few blocks,
    # not in a million pieces.
    stream.write(json.dumps(doc, indent=2, ensure_ascii=True) + "\n")
