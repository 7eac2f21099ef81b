"""PL201 id-mismatch: an id differs from its folder name."""
from penguin_lint.rules.base import Rule

# kind -> (key in the file, layout group naming the folder)
ID_KEYS = {
    "benchmark_config": ("id", "benchmark"),
    "task_config": ("id", "task"),
    "leaderboard": ("leaderboard_id", "leaderboard"),
    "meta_info": ("experiment_id", "experiment"),
}


class IdMismatch(Rule):
    """Ids are how files refer to each other, and folders are how the
    repository finds them: a benchmark's ``id`` equals ``packages/<id>``, a
    task's ``id`` its folder, ``leaderboard_id`` its ``leaderboards/<id>``,
    ``experiment_id`` its ``experiments/<leaderboard>/<id>``.
    """

    code = "PL201"
    name = "id-mismatch"
    summary = "an id differs from its folder name"
    kinds = tuple(ID_KEYS)
    fixable = "safe"  # the id set to the folder name (fixes/ids.py)
    bad = ("packages/sql-puzzles/benchmark_config.toml", 'id = "sql-puzzle"\n')
    good = ("packages/sql-puzzles/benchmark_config.toml", 'id = "sql-puzzles"\n')

    def check(self, subject, ctx):
        doc = ctx.valid_doc(subject.path)
        if doc is None:
            return
        key, group = ID_KEYS[subject.kind]
        value = doc.data.get(key)
        folder = subject.groups.get(group)
        if isinstance(value, str) and folder is not None and value != folder:
            yield self.finding(subject, f"{key} '{value}' differs from its folder name '{folder}'",
                               pos=doc.value_pos((key,)),
                               hint=f'set {key} to "{folder}" or rename the folder')
