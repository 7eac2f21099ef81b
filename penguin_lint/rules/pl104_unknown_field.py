"""PL104 unknown-field: a key the schema does not define, with "did you mean" when close."""
from penguin_lint.findings import WARNING
from penguin_lint.rules.base import DATA_FILE_KINDS, ProblemRule


class UnknownField(ProblemRule):
    """A key no schema defines is usually a typo (``refrences``) or a field from
    another format (``runs``, ``[origin]``). ``meta_info.yaml`` and
    ``summary.yaml`` allow other keys.
    """

    code = "PL104"
    name = "unknown-field"
    severity = WARNING
    summary = 'a key the schema does not define, with "did you mean" when close'
    source = "schema"
    kinds = DATA_FILE_KINDS
    bad = ('benchmark_config.toml', 'refrences = ["https://arxiv.org/abs/2601.00001"]\n')
    good = ('benchmark_config.toml', 'references = ["https://arxiv.org/abs/2601.00001"]\n')
