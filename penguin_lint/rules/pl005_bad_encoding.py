"""PL005 bad-encoding: not UTF-8, or a NUL byte."""
from penguin_lint.rules.base import DATA_FILE_KINDS, ProblemRule


class BadEncoding(ProblemRule):
    """Data files are UTF-8 text. A byte-order mark is accepted and CRLF line
    endings are fine; invalid UTF-8 or a NUL byte is reported at its position.
    """

    code = "PL005"
    name = "bad-encoding"
    summary = 'not UTF-8, or a NUL byte'
    source = "load"
    kinds = DATA_FILE_KINDS
    bad = ('meta_info.yaml', 'model_name: caf\\xe9  # saved as Latin-1')
    good = ('meta_info.yaml', 'model_name: café')
