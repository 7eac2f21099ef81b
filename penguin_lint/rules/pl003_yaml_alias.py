"""PL003 yaml-alias: anchors, aliases, merge keys, directives or non-data tags in a data file."""
from penguin_lint.rules.base import DATA_FILE_KINDS, ProblemRule


class YamlAlias(ProblemRule):
    """Anchors and aliases make a reviewer read one thing while the loader sees
    another, and a few hundred bytes of them can expand to billions of nodes.
    penguin-lint never expands them; write values out instead.

    Directives (`%YAML`, `%TAG`, any other `%` line) and the tags with which
    `yaml.safe_load` builds something other than data (`!!set`, `!!omap`,
    `!!pairs`, `!!binary`, `!!timestamp`) are reported here too: the file
    loads, but not as the plain mappings, lists, text and numbers it should hold.
    """

    code = "PL003"
    name = "yaml-alias"
    summary = 'anchors, aliases, merge keys, directives or non-data tags in a data file'
    source = "load"
    kinds = DATA_FILE_KINDS
    bad = ('leaderboard.yaml', 'author: &a {name: Lab}\nvalues:\n  - <<: *a\n')
    good = ('leaderboard.yaml', 'author:\n  name: Lab\n')
