"""PL003 yaml-alias: anchors, aliases, merge keys or %YAML/%TAG directives in a data file."""
from penguin_lint.rules.base import DATA_FILE_KINDS, ProblemRule


class YamlAlias(ProblemRule):
    """Anchors and aliases make a reviewer read one thing while the loader sees
    another, and a few hundred bytes of them can expand to billions of nodes.
    penguin-lint never expands them; write values out instead.
    """

    code = "PL003"
    name = "yaml-alias"
    summary = 'anchors, aliases, merge keys or %YAML/%TAG directives in a data file'
    source = "load"
    kinds = DATA_FILE_KINDS
    bad = ('leaderboard.yaml', 'author: &a {name: Lab}\nvalues:\n  - <<: *a\n')
    good = ('leaderboard.yaml', 'author:\n  name: Lab\n')
