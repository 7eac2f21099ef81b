"""PL501 (unsafe): ``status: published`` set back to ``draft``. Unsafe
because it changes what the file says: a maintainer may have meant it."""
from __future__ import annotations

from typing import List

from penguin_lint.fixes.source import Edit, Source, read_scalar, string_like
from penguin_lint.fixes.summary import key_at


def fix(finding, source: Source, ctx) -> List[Edit]:
    key = key_at(source, finding, [("status",)])
    if key is None or source.doc.get(*key) != "published":
        return []
    found = source.scalar(key)
    if found is None:
        return []
    start, end, token = found
    text = string_like("draft", source.fmt, token)
    if read_scalar(text, source.fmt) != "draft":
        return []
    return [Edit("PL501", key, start, end, text, "draft", finding.line or 0)]
