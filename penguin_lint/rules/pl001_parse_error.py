"""PL001 parse-error: YAML, TOML or JSON that does not parse (with the parser's line and column)."""
from penguin_lint.rules.base import DATA_FILE_KINDS, ProblemRule


class ParseError(ProblemRule):
    """A data file must parse before anything else can be checked. The finding
    points inside the file, at the line and column an editor shows (lines end at
    LF only); a flow mapping, sequence or quoted string left open names the line
    where it opened, and a tab in indentation gets a hint. Nesting deeper than
    any data file needs, more than 1,000,000 values or 250,000 mappings and
    sequences in one file, numbers too large to read, more than one YAML
    document, and YAML tags that would construct objects (``!!python/...``)
    are refused here too: data is loaded safely.
    """

    code = "PL001"
    name = "parse-error"
    summary = "YAML, TOML or JSON that does not parse (with the parser's line and column)"
    source = "load"
    kinds = DATA_FILE_KINDS
    bad = ('benchmark_config.toml', 'id = "my-bench\ntitle = "My benchmark"\n')
    good = ('benchmark_config.toml', 'id = "my-bench"\ntitle = "My benchmark"\n')
