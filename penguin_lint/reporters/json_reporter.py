"""The spec's JSON: ``{"version": 1, "tool": {"name": "penguin-lint", "version":
"0.5.0"}, "findings": [...], "summary": {...}}``; ``version`` is the format's."""
from __future__ import annotations

import json


def report(result, stream, **_):
    # ensure_ascii keeps control characters and odd bytes as \u escapes;
    # one write: the output guard then reads the report in a few blocks,
    # not in a million pieces.
    stream.write(json.dumps(result.to_dict(), indent=2, ensure_ascii=True) + "\n")
