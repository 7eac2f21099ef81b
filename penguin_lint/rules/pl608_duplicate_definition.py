"""PL608 duplicate-definition: two Harbor definitions in one board folder."""
from penguin_lint.rules._harbor_paths import DEFINITION_KIND, DEFINITION_NAMES, folder_of, is_definition_path, join
from penguin_lint.rules.base import Rule


class DuplicateDefinition(Rule):
    """A board's ``leaderboard/`` folder holds one definition:
    ``leaderboard.yaml``, ``leaderboard.yml`` or ``leaderboard.json``. With
    two, which one is the board depends on what ``harbor hub leaderboard
    create --config`` is given, while penguin-lint checks the board's rows
    against the first of them (``.yaml``, then ``.yml``, then ``.json``): a
    second definition added beside the first would decide what its rows are
    judged by. Each definition of such a folder is reported.
    """

    code = "PL608"
    name = "duplicate-definition"
    summary = "two Harbor definitions in one board folder (`leaderboard.yaml` beside `leaderboard.json`)"
    kinds = (DEFINITION_KIND,)
    bad = ("leaderboard/leaderboard.yaml", "(with leaderboard/leaderboard.json beside it)")
    good = ("leaderboard/leaderboard.yaml", "(the board's only definition)")

    def check(self, subject, ctx):
        folder, _, own = subject.path.rpartition("/")
        if own not in DEFINITION_NAMES:
            return  # a definition that [kinds] names: its folder's other files are not its rivals
        others = [n for n in DEFINITION_NAMES if n != own and ctx.repo.is_file(join(folder, n))]
        if others:
            used = next(n for n in DEFINITION_NAMES if n == own or n in others)
            yield self.finding(
                subject, f"this board has {len(others) + 1} definitions: {own} and {', '.join(others)} "
                         f"(its rows are checked against {used}; Harbor reads the one --config names)",
                hint="keep one definition in the board's folder")

    affects = (("harbor_definition",),)

    def affected_by(self, changed, ctx):
        # a definition added or removed beside another changes what that one finds
        if is_definition_path(changed, ctx) and changed.rpartition("/")[2] in DEFINITION_NAMES:
            folder = folder_of(changed)
            for name in DEFINITION_NAMES:
                path = join(folder, name)
                if path != changed and ctx.repo.is_file(path):
                    yield path
