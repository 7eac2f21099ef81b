"""PL603 unresolved-accessor: a column, display or rank accessor naming no property of its schema."""

from penguin_lint.loaders.scalars import did_you_mean
from penguin_lint.rules._harbor import SCHEMA_KEY, accessors, matches_pattern, parse_accessor, schema_properties
from penguin_lint.rules.base import Rule


class UnresolvedAccessor(Rule):
    """Columns (``accessor``, ``display_accessor``) and rank rules read one
    value of each row: ``metadata.<name>`` is the property ``<name>`` of
    ``metadata_schema``, ``metrics.<name>`` one of ``metrics_schema``. The part
    after the first dot is a single property name: Harbor does not descend into
    nested objects, so ``metrics.scores.mean`` reads a property literally named
    ``scores.mean``. An accessor that names no declared property shows an empty
    column (or ranks nothing), usually because of a typo or a renamed metric.
    Schemas whose properties come from a ``$ref`` are not judged, nor an
    update (``leaderboard_id``) that leaves the schema as it is on Harbor.
    """

    code = "PL603"
    name = "unresolved-accessor"
    summary = ("a column, display or rank accessor naming no property of its schema (the part after "
               "the first dot is one property name: Harbor does not descend into nested objects)")
    kinds = ("harbor_leaderboard",)
    bad = ("leaderboard/leaderboard.yaml",
           "metrics_schema:\n  type: object\n  properties:\n    accuracy: {type: number}\n"
           "columns:\n  - id: pass_at_1\n    header: pass@1\n    accessor: metrics.pass_at_1\n    type: number\n")
    good = ("leaderboard/leaderboard.yaml",
            "metrics_schema:\n  type: object\n  properties:\n    accuracy: {type: number}\n"
            "    pass_at_1: {type: number}\n"
            "columns:\n  - id: pass_at_1\n    header: pass@1\n    accessor: metrics.pass_at_1\n    type: number\n")

    def check(self, subject, ctx):
        doc = ctx.valid_doc(subject.path)
        if doc is None:
            return
        for path, accessor, what in accessors(doc.data):
            parsed = parse_accessor(accessor)
            if parsed is None:
                continue  # not an accessor at all: the schema reports it (PL103)
            section, prop = parsed
            key = SCHEMA_KEY[section]
            if key not in doc.data and "leaderboard_id" in doc.data:
                continue  # a partial update keeps the schema already on Harbor
            schema = doc.data.get(key, {})
            declared = schema_properties(schema)
            if declared is None:
                continue
            props, patterns = declared
            if prop in props or matches_pattern(prop, patterns):
                continue
            import difflib  # only when a finding is worded

            close = difflib.get_close_matches(prop, list(props), n=1, cutoff=0.7)
            if "." in prop and prop.split(".", 1)[0] in props:
                hint = (f"'{prop.split('.', 1)[0]}' is a property, but Harbor does not descend into it: "
                        f"give the value its own property in {key}")
            elif close and did_you_mean(f"{section}.{close[0]}") is not None:
                hint = did_you_mean(f"{section}.{close[0]}")
            else:
                hint = f"declare '{prop}' under {key}.properties, or point the accessor at a declared property"
            yield self.finding(subject, f"{what} '{accessor}' names no property of {key}",
                               pos=doc.value_pos(path), hint=hint)
