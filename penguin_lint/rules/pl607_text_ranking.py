"""PL607 text-ranking (w): a rank rule on a field that is not a number or date sorts as text."""
from penguin_lint.findings import WARNING
from penguin_lint.rules._harbor import SCHEMA_KEY, accessors, parse_accessor, schema_properties
from penguin_lint.rules.base import Rule

_NUMERIC = {"number", "integer", "boolean"}  # Harbor sorts booleans as 0 and 1
_DATE_FORMATS = {"date", "date-time"}


class TextRanking(Rule):
    """Harbor compares two values numerically only when both are numbers
    (booleans count as 0 and 1); strings compare as text, case-insensitively,
    so ``"10"`` ranks before ``"9"``, and objects or lists count as missing. A
    rank rule on a property whose schema type is not a number is therefore
    usually a mistake, unless the strings are dates (``format: date`` or
    ``date-time``), whose text order is their time order. Properties without a
    ``type`` are not judged.
    """

    code = "PL607"
    name = "text-ranking"
    severity = WARNING
    summary = "a rank rule on a field that is not a number or date sorts as text"
    kinds = ("harbor_leaderboard",)
    bad = ("leaderboard/leaderboard.yaml",
           "metadata_schema:\n  properties:\n    model: {type: string}\n"
           "rank_by:\n  - accessor: metadata.model\n    direction: asc\n")
    good = ("leaderboard/leaderboard.yaml",
            "metrics_schema:\n  properties:\n    accuracy: {type: number}\n"
            "rank_by:\n  - accessor: metrics.accuracy\n    direction: desc\n")

    def check(self, subject, ctx):
        doc = ctx.valid_doc(subject.path)
        if doc is None:
            return
        for path, accessor, what in accessors(doc.data, rank_only=True):
            parsed = parse_accessor(accessor)
            if parsed is None:
                continue
            section, prop = parsed
            declared = schema_properties(doc.data.get(SCHEMA_KEY[section], {}))
            sub = declared[0].get(prop) if declared is not None else None
            if not isinstance(sub, dict):
                continue  # undeclared (PL603) or not judged
            typ = sub.get("type")
            types = {typ} if isinstance(typ, str) else {t for t in typ if isinstance(t, str)} \
                if isinstance(typ, list) else set()
            types.discard("null")
            if not types or types <= _NUMERIC:
                continue
            if types == {"string"} and sub.get("format") in _DATE_FORMATS:
                continue
            if types <= {"object", "array"}:
                message = (f"{what} sorts by '{accessor}', "
                           f"{'an object' if types == {'object'} else 'a list'}: Harbor ranks it as a missing value")
                hint = "rank by a number (or a date) that the object's column shows"
            else:
                kind = "a string" if types == {"string"} else " or ".join(sorted(types))
                message = f"{what} sorts by '{accessor}', {kind}: it ranks as text ('10' before '9')"
                hint = ("rank by a number, or give the property format: date / date-time if it holds "
                        "ISO dates")
            yield self.finding(subject, message, pos=doc.value_pos(path), hint=hint)
