"""The spec's JSON: ``{"version": 1, "findings": [...], "summary": {...}}``."""
from __future__ import annotations

import json


def report(result, stream, **_):
    doc = {
        "version": 1,
        "findings": [f.to_dict() for f in result.findings],
        "summary": {"files": result.files, "errors": result.errors, "warnings": result.warnings,
                    "suppressed": getattr(result, "suppressed", 0)},
    }
    if getattr(result, "fixed", None) is not None:
        doc["summary"]["fixed"] = result.fixed
    # ensure_ascii keeps control characters and odd bytes as \u escapes.
    json.dump(doc, stream, indent=2, ensure_ascii=True)
    stream.write("\n")
