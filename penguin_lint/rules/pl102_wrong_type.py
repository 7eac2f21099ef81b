"""PL102 wrong-type: a value of the wrong type (with a "quote it" hint when YAML/TOML typed it)."""
from penguin_lint.rules.base import DATA_FILE_KINDS, ProblemRule


class WrongType(ProblemRule):
    """YAML types unquoted values on its own: ``1.0`` is a number, ``yes`` is
    true, ``2026-10-29`` is a date. Where the schema wants a string, the hint
    shows the quoted form; where it wants a number, a quoted number is named.
    """

    code = "PL102"
    name = "wrong-type"
    summary = 'a value of the wrong type (with a "quote it" hint when YAML/TOML typed it)'
    source = "schema"
    kinds = DATA_FILE_KINDS
    fixable = "safe"  # a value YAML/TOML typed, quoted as written (fixes/quoting.py)
    bad = ('meta_info.yaml', 'model_name: 1.5\nalgorithm: yes\n')
    good = ('meta_info.yaml', 'model_name: "1.5"\nalgorithm: "yes"\n')
