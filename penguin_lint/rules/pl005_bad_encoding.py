"""PL005 bad-encoding: not UTF-8, a NUL byte, or a TOML file that starts with a byte-order mark."""
from penguin_lint.rules.base import DATA_FILE_KINDS, ProblemRule


class BadEncoding(ProblemRule):
    """Data files are UTF-8 text; invalid UTF-8 or a NUL byte is reported
    at its position. CRLF line endings are fine. A byte-order mark at the
    start of a YAML or JSON file is accepted, as ``yaml.safe_load`` and
    ``json.loads`` drop one (a second one is content, or a parse error).
    ``tomllib`` reads no mark at all: a TOML file that starts with one is
    reported at line 1, column 1 (the rest of the file is still checked),
    and ``--fix`` removes the mark, changing nothing else.
    """

    code = "PL005"
    name = "bad-encoding"
    summary = 'not UTF-8, a NUL byte, or a byte-order mark in TOML'
    source = "load"
    kinds = DATA_FILE_KINDS
    fixable = "safe"  # the mark of a TOML file removed (fixes/mark.py)
    bad = ('meta_info.yaml', 'model_name: caf\\xe9  # saved as Latin-1')
    good = ('meta_info.yaml', 'model_name: café')
