"""PL306 unreferenced-experiment (w): an experiment no leaderboard value uses."""
import weakref

from penguin_lint.findings import WARNING
from penguin_lint.loaders.scalars import written
from penguin_lint.rules.base import Rule

# Per lint run: leaderboard path -> experiment ids its values read (None when
# the leaderboard is missing or does not parse). Every experiment of a
# leaderboard asks the same question.
_REFS = weakref.WeakKeyDictionary()


def referenced_experiments(ctx, lb_file):
    cache = _REFS.setdefault(ctx, {})
    if lb_file in cache:
        return cache[lb_file]
    doc = ctx.valid_doc(lb_file)
    refs = None
    if doc is not None and isinstance(doc.data.get("values"), list):
        refs = set()
        # Leaves carry experiment_id; operations nest expressions in args.
        # The loader bounds nesting, but a stack needs no recursion at all.
        stack = list(doc.data["values"])
        while stack:
            item = stack.pop()
            if not isinstance(item, dict):
                continue
            eid = item.get("experiment_id")
            if isinstance(eid, str):
                refs.add(eid)
            args = item.get("args")
            if isinstance(args, list):
                stack.extend(args)
    cache[lb_file] = refs
    return refs


class UnreferencedExperiment(Rule):
    """
    An experiment under ``experiments/<leaderboard-id>/`` is there to be
    shown by that leaderboard: some leaf of its ``values`` (directly or
    inside an operation's ``args``) names it with ``experiment_id``. One
    that no value uses is published data nobody sees; either a value is
    missing from ``leaderboard.yaml`` or the experiment is left over. Only
    checked when the leaderboard parses and has a ``values`` list.
    """

    code = "PL306"
    name = "unreferenced-experiment"
    severity = WARNING
    summary = "an experiment no leaderboard value uses"
    kinds = ("experiment",)
    # referenced or not is the leaderboard's to say; meta_info.yaml only places the finding
    reads_contents_below = False
    reports_below = ("meta_info.yaml",)
    bad = ("leaderboards/lb/leaderboard.yaml",
           "# experiments/lb/ holds exp-1 and exp-2\nvalues:\n  - experiment_id: exp-1\n    phase: test\n")
    good = ("leaderboards/lb/leaderboard.yaml",
            "# experiments/lb/ holds exp-1 and exp-2\nvalues:\n  - experiment_id: exp-1\n    phase: test\n"
            "  - experiment_id: exp-2\n    phase: test\n")

    def check(self, subject, ctx):
        g = subject.groups
        if any(v.startswith(".") for v in g.values()):
            return
        if any(k not in g for k in ("leaderboard",)):
            return  # mapped by [kinds] outside the layout: no experiment to read
        lb_file = ctx.layout.leaderboard_file(g["leaderboard"])
        refs = referenced_experiments(ctx, lb_file)
        if refs is None or g["experiment"] in refs:
            return
        meta = f"{subject.path}/meta_info.yaml"
        path, pos = subject.path, None
        if ctx.repo.is_file(meta):
            path = meta
            doc = ctx.valid_doc(meta)
            if doc is not None and "experiment_id" in doc.data:
                pos = doc.value_pos(("experiment_id",))
        yield self.finding(subject, f"experiment '{g['experiment']}' is not used by any value of {lb_file}",
                           path=path, pos=pos,
                           hint=self._hint(g["experiment"], lb_file))

    @staticmethod
    def _hint(name, lb_file):
        # the name written so that safe_load reads it back as the folder's name
        text = written(name, "yaml")
        if text is None:  # a name no YAML file can hold (not UTF-8)
            return "rename the experiment's folder, or remove the experiment"
        return f"add a value naming experiment_id: {text} to {lb_file}, or remove the experiment"

    affects = (("under", "experiments", 2, None, None),
               ("under", "leaderboards", 2, 2, "leaderboard.yaml"))

    def affected_by(self, changed, ctx):
        exp_root = ctx.layout.roots["experiments"] + "/"
        if changed.startswith(exp_root):
            parts = changed[len(exp_root):].split("/")
            if len(parts) >= 2:
                # a new experiment is reported where it lives; one that was
                # there before changes its references only through the
                # leaderboard file (below)
                exp_dir = ctx.layout.experiment_dir(parts[0], parts[1])
                if ctx.base is None or not ctx.base.is_dir(ctx.base_path(exp_dir)):
                    yield exp_dir
            return
        lb_root = ctx.layout.roots["leaderboards"] + "/"
        if changed.startswith(lb_root):
            lb = changed[len(lb_root):].split("/", 1)[0]
            if changed == ctx.layout.leaderboard_file(lb):
                group = ctx.layout.experiments_group(lb)
                for exp in ctx.repo.subdirs(group):
                    yield f"{group}/{exp}"
