"""Hover: what penguin-lint knows of the text under the cursor.

On a leaf of a leaderboard, the number it reads and from which file; on an
entry, its mean, standard deviation and rank as ``penguin-lint preview``
computes them; on a finding, its rule's name, what it means and its page;
on a ``# penguin-lint: disable=...`` comment, the rules it names.
"""
from __future__ import annotations

from typing import List, Optional

from penguin_lint.address import rule_docs
from penguin_lint.findings import Finding
from penguin_lint.lsp.cursor import Spot
from penguin_lint.lsp.knowledge import Knowledge
from penguin_lint.output.markdown import code_span, md
from penguin_lint.preview.board import Entries
from penguin_lint.rules import get_rule, rule_codes
from penguin_lint.rules._expressions import DEFAULT_METRIC, show
from penguin_lint.suppressions import MARK, find_directives

LEAF_KEYS = ("experiment_id", "phase", "metric")


# A value from a file is quoted in at most this many characters, as
# messages quote it (show()); a message, which quotes values so, in at most
# MESSAGE: a hover of a 2 MiB id is a line, not 2 MB.
VALUE = 60
MESSAGE = 500


def _short(text, limit: int = VALUE) -> str:
    text = str(text)
    return text if len(text) <= limit else text[:limit - 3] + "..."


def _code(text, limit: int = VALUE) -> str:
    """Repository text as one inert code span, shortened."""
    return code_span(_short(text, limit), cell=False)


def escape_markdown(text, limit: int = MESSAGE) -> str:
    return md(_short(text, limit), cell=False)


def leaf(know: Knowledge, board: str, spot: Optional[Spot]) -> Optional[str]:
    if spot is None or spot.key not in LEAF_KEYS:
        return None
    fields = dict(spot.siblings, **{spot.key: spot.value})
    exp, phase, metric = fields.get("experiment_id"), fields.get("phase"), fields.get("metric") or DEFAULT_METRIC
    summary = know.summary_path(board, exp, phase)
    if summary is None:
        return f"reads {_code(metric)} of {_code(exp)}, phase {_code(phase)}: no such summary.yaml"
    data = know.top_level(summary)
    if metric not in data:
        return f"reads {_code(metric)} from {_code(summary, MESSAGE)}, which has no such key"
    return f"reads {_code(metric)} = **{_code(show(data[metric]))}** from {_code(summary, MESSAGE)}"


def entry(know: Knowledge, board: str, line: int, kept: dict, generation: int) -> Optional[str]:
    """The entry of ``values`` that 1-based ``line`` is in, as preview computes
    it. Its rank reads every entry's mean: a board's entries are kept in
    ``kept`` while the server's ``generation`` (its count of changes) stays
    the same, and each hover computes its own entry only."""
    got = kept.get(board)
    if got is None or got[0] != generation:
        got = kept[board] = (generation, Entries(know.repo, board))
    entries = got[1]
    if entries.stop is not None and line >= entries.stop:
        return f"no entry computed here: {escape_markdown(entries.note)} (line {entries.stop})"
    index = entries.index_at(line)
    if index is None:
        return None
    row = entries.row(index)
    label = ", ".join(_short(row.label[f]) for f in ("model_name", "algorithm", "phase")
                      if row.label.get(f) is not None)
    head = f"entry {row.index + 1}" + (f" ({escape_markdown(label)})" if label else "")
    if row.mean is None:
        return f"{head}: no number: {escape_markdown(row.problem or 'cannot be computed')}"
    std = f"{row.std:.4g}" if row.std is not None else f"none ({escape_markdown(row.std_note or '')})"
    rank = f"{row.rank}" if row.rank is not None else "not ranked"
    out = f"{head}: mean **{row.mean:.4g}**, std {std}, rank **{rank}**"
    if row.warning:
        out += f"\n\n{escape_markdown(row.warning)}"
    return out


def finding(findings: List[Finding]) -> Optional[str]:
    parts = []
    for f in findings:
        rule = get_rule(f.code)
        # a rule's summary is the project's own Markdown (its code spans stay code)
        parts.append(f"**{f.code}** {_code(rule.name)}: {rule.summary}"
                     f" ([{f.code}]({rule_docs(f.code, uri=True)}))")
    return "\n\n".join(parts) or None


def suppression(text: str, fmt: str, line: int, column: int, here: str) -> Optional[str]:
    """The rules a ``penguin-lint:`` comment at 1-based ``line`` (whose text
    is ``here``) names, when ``column`` (0-based characters) is in the comment."""
    if MARK not in here:
        return None  # no comment to read the whole file for
    for d in find_directives(text, fmt):
        if d.line != line or column < d.column - 1:
            continue
        known = set(rule_codes())
        lines = [f"`penguin-lint: {d.scope}` ({'this line' if d.scope == 'disable' else 'the whole file'}):"]
        for code in d.codes:
            if code in known:
                rule = get_rule(code)
                lines.append(f"- **{code}** {_code(rule.name)}: {rule.summary}"
                             f" ([page]({rule_docs(code, uri=True)}))")
            else:
                lines.append(f"- {_code(code)}: no such rule")
        if d.problem:
            lines.append(escape_markdown(d.problem))
        return "\n".join(lines)
    return None
