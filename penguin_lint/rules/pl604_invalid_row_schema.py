"""PL604 invalid-row-schema: `metadata_schema` / `metrics_schema` is not a valid JSON Schema."""
from penguin_lint.rules._harbor import compiled
from penguin_lint.rules.base import Rule


class InvalidRowSchema(Rule):
    """``metadata_schema`` and ``metrics_schema`` are JSON Schemas (draft 2020-12
    unless ``$schema`` names another draft) that Harbor's server applies to
    every row. A schema its meta-schema rejects (``type: float``,
    ``required: true``, an invalid ``pattern``), a ``$schema`` naming no draft,
    or a ``$ref`` that does not resolve inside the schema fails every upload.
    References are never fetched from the network, so a ``$ref`` to an http(s)
    URL is reported too: define the sub-schema under ``$defs``.

    The schemas come from the pull request, so what they may cost is bounded
    before any row is checked: a pattern must compile for RE2, the
    linear-time engine rows are matched with (back references, lookaround,
    atomic groups, possessive repeats and repeat counts above 1000 do not),
    and a schema whose ``$ref``s fan out (26 ``$defs`` that each ``anyOf`` two
    references to the next apply 2**26 schemas to one value), chain more than
    100 deep, or loop without descending into the value is refused with the
    reason.
    """

    code = "PL604"
    name = "invalid-row-schema"
    summary = "`metadata_schema` / `metrics_schema` is not a valid JSON Schema"
    kinds = ("harbor_leaderboard",)
    bad = ("leaderboard/leaderboard.yaml",
           "metrics_schema:\n  type: object\n  properties:\n    accuracy:\n      type: float\n")
    good = ("leaderboard/leaderboard.yaml",
            "metrics_schema:\n  type: object\n  properties:\n    accuracy:\n      type: number\n")

    def check(self, subject, ctx):
        sections = compiled(ctx, subject.path)
        if not sections:
            return
        doc = ctx.valid_doc(subject.path)
        for section in sections.values():
            for p in section.problems:
                # a problem of the whole schema is shown at its key
                pos = doc.value_pos((section.key,) + p.path) if p.path else doc.key_pos((section.key,))
                yield self.finding(subject, p.message, pos=pos, hint=p.hint)
