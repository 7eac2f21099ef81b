"""PL307 unknown-benchmark: benchmark_id names no package."""
import weakref

from penguin_lint.core.layout import safe_segment
from penguin_lint.loaders.scalars import did_you_mean
from penguin_lint.rules.base import Rule

# One index per lint run: pull-request mode asks, per changed package file,
# which experiments name that package, and the answer does not change
# within a run.
_INDEX = weakref.WeakKeyDictionary()


def changed_benchmark(changed, ctx):
    """The benchmark id of a path under ``packages/<id>/`` (or the folder itself)."""
    root = ctx.layout.roots["packages"] + "/"
    if not changed.startswith(root):
        return None
    b = changed[len(root):].split("/", 1)[0]
    return b or None


def experiments_using(ctx, benchmark):
    """Experiment folders whose meta_info.yaml names ``benchmark``."""
    index = _INDEX.get(ctx)
    if index is None:
        index = {}
        root = ctx.layout.roots["experiments"]
        for group in ctx.repo.subdirs(root):
            if group.startswith("."):
                continue
            for exp in ctx.repo.subdirs(f"{root}/{group}"):
                if exp.startswith("."):
                    continue
                exp_dir = f"{root}/{group}/{exp}"
                doc = ctx.valid_doc(f"{exp_dir}/meta_info.yaml")
                bid = doc.data.get("benchmark_id") if doc is not None else None
                if isinstance(bid, str):
                    index.setdefault(bid, []).append(exp_dir)
        _INDEX[ctx] = index
    return index.get(benchmark, [])


def package_ids(ctx):
    return [d for d in ctx.repo.subdirs(ctx.layout.roots["packages"]) if not d.startswith(".")]


def closest(word, candidates):
    # strict enough that sibling tasks (CASE-001-x, CASE-002-y) are not offered for each other
    import difflib  # only when a finding is worded

    match = difflib.get_close_matches(word, candidates, n=1, cutoff=0.75)
    return match[0] if match else None


class UnknownBenchmark(Rule):
    """
    An experiment's ``meta_info.yaml`` names the benchmark it ran with
    ``benchmark_id``, which is the folder ``packages/<benchmark_id>/`` of
    that benchmark. An id naming no package usually is a typo or a renamed
    benchmark; leaderboards and the task checks of PL304 cannot use the
    experiment until it names a real package. (An id that is not a plain
    folder name at all is reported by PL202.)
    """

    code = "PL307"
    name = "unknown-benchmark"
    summary = "`benchmark_id` names no package"
    kinds = ("meta_info",)
    bad = ("experiments/lb/exp-1/meta_info.yaml",
           "experiment_id: exp-1\nbenchmark_id: sql-puzzle     # packages/sql-puzzles/ exists\n"
           "harness_name: penguin-harness\nmodel_name: qwen-coder-32b\nalgorithm: baseline\n")
    good = ("experiments/lb/exp-1/meta_info.yaml",
            "experiment_id: exp-1\nbenchmark_id: sql-puzzles\n"
            "harness_name: penguin-harness\nmodel_name: qwen-coder-32b\nalgorithm: baseline\n")

    def check(self, subject, ctx):
        doc = ctx.valid_doc(subject.path)
        if doc is None:
            return
        bid = doc.data.get("benchmark_id")
        if not safe_segment(bid):
            return  # absent, mistyped or not a folder name: PL101/PL102/PL202
        pkg = ctx.layout.package_dir(ctx.repo.join(bid))
        if ctx.repo.is_dir(pkg):
            return
        near = closest(bid, package_ids(ctx))
        hint = did_you_mean(near) if near is not None else None
        if hint is None:
            known = package_ids(ctx)
            hint = f"add {pkg}/, or name one of the packages: {', '.join(known[:8])}" if known else f"add {pkg}/"
        yield self.finding(subject, f"benchmark_id '{bid}' names no benchmark package ({pkg}/ does not exist)",
                           pos=doc.value_pos(("benchmark_id",)), hint=hint)

    affects = (("under", "packages", 1, None, None),)

    def affected_by(self, changed, ctx):
        # A package that vanishes breaks the meta_info files naming it (one
        # that appears can only clear findings, so it costs no scan).
        b = changed_benchmark(changed, ctx)
        if b is not None and not ctx.repo.is_dir(ctx.layout.package_dir(b)):
            for exp_dir in experiments_using(ctx, b):
                yield f"{exp_dir}/meta_info.yaml"
