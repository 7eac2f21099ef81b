"""PL304 unknown-source: an attempt record's source is not a task of the benchmark."""
from penguin_lint.core.layout import ATTEMPT_RE, safe_segment
from penguin_lint.engine.finding_cap import MAX_PER_FILE_AND_CODE
from penguin_lint.loaders.scalars import did_you_mean
from penguin_lint.rules.base import Rule
from penguin_lint.rules.pl307_unknown_benchmark import changed_benchmark, closest, experiments_using


def attempt_files(ctx, exp_dir):
    for phase in ctx.repo.subdirs(exp_dir):
        if phase.startswith("."):
            continue
        for fname in ctx.repo.files(f"{exp_dir}/{phase}"):
            if ATTEMPT_RE.match(fname):
                yield f"{exp_dir}/{phase}/{fname}"


class UnknownSource(Rule):
    """
    Each record of an attempt's ``results`` scores one task, named by
    ``source``: the task folder ``packages/<benchmark_id>/<source>/`` of
    the benchmark the experiment's ``meta_info.yaml`` names. A source that
    is no such folder is a typo or a task that was renamed or removed, and
    the attempt's score then counts a question the benchmark does not have.
    The check is skipped when ``meta_info.yaml`` is missing or invalid, or
    the benchmark has no package (PL301, PL307).
    """

    code = "PL304"
    name = "unknown-source"
    summary = "an attempt record's `source` is not a task of the benchmark"
    kinds = ("attempt",)
    bad = ("experiments/lb/exp-1/test/attempt-1.yaml",
           "score: 85.0\nresults:\n  - source: CASE-002-race-in-cache-evicton   # typo\n    score: 85.0\n")
    good = ("experiments/lb/exp-1/test/attempt-1.yaml",
            "score: 85.0\nresults:\n  - source: CASE-002-race-in-cache-eviction\n    score: 85.0\n")

    def check(self, subject, ctx):
        g = subject.groups
        if any(v.startswith(".") for v in g.values()):
            return
        if any(k not in g for k in ("leaderboard", "experiment")):
            return  # mapped by [kinds] outside the layout: no experiment to read
        exp_dir = ctx.layout.experiment_dir(g["leaderboard"], g["experiment"])
        meta = ctx.valid_doc(f"{exp_dir}/meta_info.yaml")
        if meta is None:
            return
        bid = meta.data.get("benchmark_id")
        if not safe_segment(bid):
            return
        pkg = ctx.layout.package_dir(ctx.repo.join(bid))
        if not ctx.repo.is_dir(pkg):
            return  # PL307's
        doc = ctx.valid_doc(subject.path)
        if doc is None or not isinstance(doc.data.get("results"), list):
            return
        key = ("PL304 tasks", pkg)
        if key not in ctx.cache:  # every attempt of an experiment asks the same
            tasks = [t for t in ctx.repo.subdirs(pkg) if not t.startswith(".")]
            ctx.cache[key] = (tasks, frozenset(tasks))
        tasks, known = ctx.cache[key]
        unknown = 0
        for i, rec in enumerate(doc.data["results"]):
            source = rec.get("source") if isinstance(rec, dict) else None
            if type(source) is str and source in known:
                continue  # (asked first: nearly every source is a task)
            if not safe_segment(source):
                continue  # a non-string or unsafe source is the schema's (PL102/PL202)
            unknown += 1
            # past the findings a report lists, no search for a near name (a
            # file of 50,000 unknown sources would cost a search each)
            near = closest(source, tasks) if unknown <= MAX_PER_FILE_AND_CODE else None
            hint = did_you_mean(near) if near is not None else None
            if hint is None and tasks:
                more = ", ..." if len(tasks) > 8 else ""
                hint = f"tasks of {bid}: {', '.join(tasks[:8])}{more}"
            elif hint is None:
                hint = f"{pkg}/ has no task folders"
            yield self.finding(subject, f"source '{source}' is not a task of benchmark '{bid}' "
                                        f"({pkg}/{source}/ does not exist)",
                               pos=doc.value_pos(("results", i, "source")), hint=hint)

    affects = (("kind", "meta_info"), ("under", "packages", 2, None, None))

    def affected_by(self, changed, ctx):
        kind = ctx.layout.classify_file(changed)
        if kind is not None and kind[0] == "meta_info":
            # another benchmark_id: every attempt of the experiment is judged anew
            yield from attempt_files(ctx, changed.rpartition("/")[0])
            return
        b = changed_benchmark(changed, ctx)
        depth = ctx.layout.roots["packages"].count("/") + 3  # packages/<b>/<task>
        parts = changed.split("/")
        if b is None or len(parts) < depth:
            return
        task_dir = "/".join(parts[:depth])
        if ctx.repo.is_dir(task_dir):
            # A task that is still there (an edit inside it, a new task)
            # cannot add a finding: no experiment is read. A file there is a
            # file beside the tasks (benchmark_config.toml, when the base had
            # no folder of that name) or a task folder replaced by a file.
            return
        if ctx.base is not None and not ctx.base.is_dir(ctx.base_path(task_dir)):
            return  # not a task folder before the change either
        if ctx.base is None and len(parts) == depth and "." in parts[-1]:
            return  # with nothing to compare with, a deleted file is not a task
        # A task folder that is gone (deleted or renamed) can break the
        # attempts naming it.
        for exp_dir in experiments_using(ctx, b):
            yield from attempt_files(ctx, exp_dir)
