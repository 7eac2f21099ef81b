"""PL201 id-mismatch: an id differs from its folder name."""
import re

from penguin_lint.loaders.scalars import written
from penguin_lint.rules.base import Rule

# kind -> (key in the file, layout group naming the folder)
ID_KEYS = {
    "benchmark_config": ("id", "benchmark"),
    "task_config": ("id", "task"),
    "leaderboard": ("leaderboard_id", "leaderboard"),
    "meta_info": ("experiment_id", "experiment"),
}

# A folder name is proposed as an id (and --fix writes it) only if it is a
# valid one for its kind (benchmark and leaderboard ids: letters, digits and '-').
STRICT = re.compile(r"[A-Za-z0-9-]+\Z")
SAFE = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,254}\Z")


def id_pattern(kind: str):
    return STRICT if kind in ("benchmark_config", "leaderboard") else SAFE


class IdMismatch(Rule):
    """Ids are how files refer to each other, and folders are how the
    repository finds them: a benchmark's ``id`` equals ``packages/<id>``, a
    task's ``id`` its folder, ``leaderboard_id`` its ``leaderboards/<id>``,
    ``experiment_id`` its ``experiments/<leaderboard>/<id>``. The hint
    proposes the folder name as the id, quoted as the file's parser reads it
    back, when that name is a valid id (what ``--fix`` writes); otherwise it
    says to rename the folder.
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
                               pos=doc.value_pos((key,)), hint=self._hint(subject.kind, key, folder, doc.fmt))

    @staticmethod
    def _hint(kind, key, folder, fmt):
        # the value proposed is written so that the file's parser reads it back as the folder name
        text = written(folder, fmt, '"') if id_pattern(kind).match(folder) else None
        if text is None:
            return f"the folder name is not a valid id: rename the folder, and set {key} to its new name"
        return f"set {key} to {text} or rename the folder"
