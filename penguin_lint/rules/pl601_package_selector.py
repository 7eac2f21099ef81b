"""PL601 package-selector: neither or both of `package` and `package_id`."""
from penguin_lint.findings import Position
from penguin_lint.rules.base import Rule


class PackageSelector(Rule):
    """A Harbor leaderboard belongs to one dataset, named either by its slug
    (``package: org/dataset``) or by its UUID (``package_id``). Harbor refuses
    a definition with neither, and one with both (even when they agree). A
    definition exported for ``harbor hub leaderboard update`` (it carries
    ``leaderboard_id``) cannot change its dataset and is not checked.
    """

    code = "PL601"
    name = "package-selector"
    summary = "neither or both of `package` and `package_id`"
    kinds = ("harbor_leaderboard",)
    bad = ("leaderboard/leaderboard.yaml",
           "package: acme/my-dataset\npackage_id: 3726ace0-0452-4939-8cdb-964cc8d077cf\nname: main\ntitle: Main\n")
    good = ("leaderboard/leaderboard.yaml", "package: acme/my-dataset\nname: main\ntitle: Main\n")

    def check(self, subject, ctx):
        doc = ctx.valid_doc(subject.path)
        if doc is None or "leaderboard_id" in doc.data:
            return
        # null is how Harbor's own models spell "not given"
        given = [k for k in ("package", "package_id") if doc.data.get(k) is not None]
        if not given:
            yield self.finding(subject, "neither 'package' nor 'package_id' is given",
                               pos=Position(1, 1),
                               hint="name the dataset: package: <org>/<dataset>, or package_id: <UUID>")
        elif len(given) == 2:
            spans = sorted(((doc.key_pos((k,)), doc.value_pos((k,))) for k in given),
                           key=lambda s: (s[0].line, s[0].column))
            start, last = spans[0][0], spans[1][1]
            # one finding spanning both keys: one mistake, two lines
            yield self.finding(
                subject, "both 'package' and 'package_id' are given; Harbor takes exactly one",
                pos=Position(start.line, start.column, last.end_line or last.line,
                             last.end_column or last.column),
                hint="keep one of them (the slug is easier to read)")
