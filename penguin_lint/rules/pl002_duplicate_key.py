"""PL002 duplicate-key: a key repeated in one mapping (PyYAML silently keeps the last)."""
from penguin_lint.rules.base import DATA_FILE_KINDS, ProblemRule


class DuplicateKey(ProblemRule):
    """A repeated key hides one of its values: PyYAML and ``json.loads`` keep the
    last one without a word, TOML refuses the file. The finding is at each later
    occurrence and names the line of the first. Every other rule reads the file
    as its consumer does: in YAML and JSON its findings, their lines and
    ``--fix`` are about the last value, and the hidden ones are not judged.
    """

    code = "PL002"
    name = "duplicate-key"
    summary = 'a key repeated in one mapping (PyYAML silently keeps the last)'
    source = "load"
    kinds = DATA_FILE_KINDS
    bad = ('summary.yaml', 'n_attempt: 3\nscore_mean: 71.5\nscore_mean: 69.2\n')
    good = ('summary.yaml', 'n_attempt: 3\nscore_mean: 69.2\nscore_std: 1.5\n')
