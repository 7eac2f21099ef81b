"""PL605 row-mismatch: a row's metadata or metrics fail the definition's schemas."""

from penguin_lint.rules._harbor_paths import is_definition_path, rows_files_beside
from penguin_lint.rules.base import Rule


class _RowView:
    """One row of a rows document, seen as a document whose top level holds
    ``metadata`` and ``metrics``: schema errors are worded relative to the row
    and placed at their line in the rows file."""

    def __init__(self, doc, index: int):
        self._doc, self._prefix = doc, ("rows", index)
        self.fmt = doc.fmt
        self.implicit = {k[2:]: v for k, v in doc.implicit.items() if k[:2] == self._prefix}

    def value_pos(self, path):
        return self._doc.value_pos(self._prefix + tuple(path))

    def key_pos(self, path):
        return self._doc.key_pos(self._prefix + tuple(path))


class RowMismatch(Rule):
    """Harbor's server validates every row's ``metadata`` against the
    definition's ``metadata_schema`` and its ``metrics`` against
    ``metrics_schema`` after upload, and refuses the request when one fails. The
    definition is ``--definition FILE`` if given, else ``leaderboard.yaml``
    (``.yml``, ``.json``) in the rows file's folder; without one, rows are only
    checked against the rows format. A missing ``metadata`` or ``metrics`` is
    checked as ``{}`` (Harbor's default), so required properties still apply.
    Checking the rows of one file may apply 100,000 schema keywords plus 2
    for each value they hold; a schema that takes more (recursion that
    multiplies with a row's depth) stops with a finding on the row it reached.
    """

    code = "PL605"
    name = "row-mismatch"
    summary = "a row's metadata or metrics fail the definition's schemas"
    kinds = ("harbor_rows",)
    bad = ("leaderboard/rows.yaml",
           "# metrics_schema: {properties: {accuracy: {type: number}}}\nrows:\n  - metadata: {agent: terminus-2}\n"
           "    metrics:\n      accuracy: \"0.58\"\n")
    good = ("leaderboard/rows.yaml",
            "# metrics_schema: {properties: {accuracy: {type: number}}}\nrows:\n  - metadata: {agent: terminus-2}\n"
            "    metrics:\n      accuracy: 0.58\n")

    def check(self, subject, ctx):
        doc = ctx.valid_doc(subject.path)
        rows = doc.data.get("rows") if doc is not None else None
        if not isinstance(rows, list):
            return
        # here, not at the top: every run asks this rule what a change
        # affects, and only a Harbor run needs the schema machinery
        from penguin_lint.rules._harbor import (
            SECTIONS, BudgetExceeded, compiled, definition_for, iter_row_errors, rows_steps,
        )
        from penguin_lint.validation.schema import _convert, row_label
        from penguin_lint.validation.untrusted import too_deep
        def_path = definition_for(subject.path, ctx)
        if def_path is None or def_path == subject.path:
            return
        sections = compiled(ctx, def_path)
        if not sections:
            return
        allowed = left = rows_steps(rows)  # for all rows of the file together
        for i, row in enumerate(rows):
            if not isinstance(row, dict):
                continue
            if left <= 0:
                break
            view = None
            for section, key in SECTIONS:
                validator = sections[section].validator
                value = row.get(section, {})
                if validator is None or not isinstance(value, dict):
                    continue  # an unusable schema is PL604's; a non-object value the rows schema's
                view = view or _RowView(doc, i)
                try:
                    errors = iter_row_errors(validator, value, budget=left)
                    left = validator.BUDGET.left
                except BudgetExceeded:
                    yield self.finding(
                        subject, f"{row_label(i)}: checking stopped: the rows of this file took more than "
                                 f"{allowed:,} schema steps against {key} of {def_path}",
                        pos=doc.value_pos(("rows", i, section)),
                        hint="the schema makes these rows costly to check (many keywords on large values, "
                             "or recursive $refs that multiply with a row's depth); later rows are not checked")
                    left = 0
                    break
                except BaseException as e:  # noqa: B036 - a recursion panic from rpds is a BaseException
                    if not (too_deep(e) or isinstance(e, _unresolvable())):
                        raise
                    reason = "it refers to itself without end" if too_deep(e) else str(e)
                    yield self.finding(subject, f"{row_label(i)}: cannot be checked against {key} of {def_path}: {reason}",
                                       pos=doc.value_pos(("rows", i, section)))
                    continue
                for err in errors:
                    err.path.appendleft(section)
                    for p in _convert(err, view):
                        yield self.finding(subject, f"{row_label(i)}: {p.message} ({key} of {def_path})",
                                           pos=p.pos, hint=p.hint)

    affects = (("harbor_definition",),)

    def affected_by(self, changed, ctx):
        if is_definition_path(changed, ctx):
            yield from rows_files_beside(changed, ctx)


def _unresolvable():
    # imported only when a row fails to validate (see _harbor's lazy imports)
    import referencing.exceptions

    return referencing.exceptions.Unresolvable
