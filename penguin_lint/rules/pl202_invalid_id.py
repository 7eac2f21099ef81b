"""PL202 invalid-id: an id with characters its kind does not allow."""
from penguin_lint.rules.base import DATA_FILE_KINDS, ProblemRule


class InvalidId(ProblemRule):
    """Benchmark and leaderboard ids hold letters, digits and ``-`` only (no
    ``_``). Task, experiment and ``source`` ids are plain folder names: no
    ``/``, backslash, control characters or leading ``.``. Phases are lowercase.
    Ids are used as folder names, so an id that could leave the repository
    (``../../etc``) is refused and never opened.
    """

    code = "PL202"
    name = "invalid-id"
    summary = 'an id with characters its kind does not allow'
    source = "schema"
    kinds = DATA_FILE_KINDS
    bad = ('benchmark_config.toml', 'id = "my_bench"\n')
    good = ('benchmark_config.toml', 'id = "my-bench"\n')
