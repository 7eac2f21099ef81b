"""PL501 published-in-pr: a pull request adds or sets ``status: published``."""
from penguin_lint.rules.base import WARNING, Rule

WHAT = {"benchmark_config": "benchmark", "leaderboard": "leaderboard"}


class PublishedInPr(Rule):
    """
    Benchmarks and leaderboards are submitted with ``status = "draft"``;
    maintainers publish them after review. A pull request that adds a
    ``benchmark_config.toml`` or ``leaderboard.yaml`` with
    ``status: published``, or changes ``draft`` to ``published``, gets this
    warning naming the file. The rule runs only against git: in diff mode
    (``--diff-base``, or no paths) it compares with the merge base; on paths
    in a git work tree (the pre-commit hook) it compares with HEAD. A renamed
    file is compared with its old name.
    """

    code = "PL501"
    name = "published-in-pr"
    severity = WARNING
    summary = "a pull request adds or sets `status: published`"
    kinds = tuple(WHAT)
    fixable = "unsafe"  # published set back to draft (fixes/status.py)
    bad = ("leaderboards/swe-lite/leaderboard.yaml",
           "# new in this pull request\nleaderboard_id: swe-lite\nstatus: published\n")
    good = ("leaderboards/swe-lite/leaderboard.yaml",
            "# new in this pull request\nleaderboard_id: swe-lite\nstatus: draft\n")

    def alike_on_base(self, kind):
        # it reads the base only for the file it checks: the same bytes on
        # both sides have no finding, as the base (with no base of its own) has none
        return True

    def check(self, subject, ctx):
        base = ctx.base
        if base is None:
            return
        doc = ctx.valid_doc(subject.path)
        if doc is None or doc.data.get("status") != "published":
            return
        what = WHAT[subject.kind]
        before_path = ctx.base_path(subject.path)
        blob_id = getattr(base, "blob_id", None)
        if doc.content_id is not None and blob_id is not None and doc.content_id == blob_id(before_path):
            return  # the same bytes: published before the change, and not parsed again to say so
        before = base.load(before_path)
        if before is None:
            message = f"{what} '{subject.path}' is added with status 'published'"
        else:
            prev = before.data.get("status") if before.parsed and isinstance(before.data, dict) else None
            if prev == "published":
                return
            shown = f"'{prev}'" if isinstance(prev, str) else "no valid status"
            message = f"{what} '{subject.path}' changes status from {shown} to 'published'"
        yield self.finding(subject, message, pos=doc.value_pos(("status",)),
                           hint="submit it with status 'draft'; maintainers publish after review")
