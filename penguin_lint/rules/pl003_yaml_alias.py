"""PL003 yaml-alias: anchors, aliases, merge keys, directives or non-data tags in a data file."""
from penguin_lint.rules.base import DATA_FILE_KINDS, ProblemRule


class YamlAlias(ProblemRule):
    """Anchors and aliases make a reviewer read one thing while the loader sees
    another, and a few hundred bytes of them can expand to billions of nodes.
    In a PenguinHarness data file penguin-lint never expands them; write
    values out instead.

    Directives (`%YAML`, `%TAG`, any other `%` line) and the tags with which
    `yaml.safe_load` builds something other than data (`!!set`, `!!omap`,
    `!!pairs`, `!!binary`, `!!timestamp`) are reported here too: the file
    loads, but not as the plain mappings, lists, text and numbers it should hold.

    Harbor files (a Harbor Hub leaderboard definition or rows file) are read
    as Harbor reads them, with ``yaml.safe_load``: anchors, aliases and
    ``<<`` merge keys are expanded there, and the expanded data is checked (a
    finding in a value reached through an alias is placed at the alias).
    In them PL003 reports only what cannot be expanded: an alias that would
    make the file hold more than 1,000,000 values or nest deeper than 64
    levels (a "billion laughs"), a value that contains itself, or more than
    100,000 aliases. An alias naming no anchor, an anchor defined twice and a
    ``<<`` of a scalar are PL001 there, since ``yaml.safe_load`` refuses them.

    It also reports a key that two merged mappings give different values
    (``<<: [*base, {status: hide}]`` where ``*base`` has its own ``status``),
    or that a merged mapping sets over a value it merges itself, unless the
    mapping sets the key itself: PyYAML's releases disagree on which value
    wins (up to 6.0.3 the first mapping of a list and the last ``<<``; 6.0.4
    the last source, except for keys that are one Python object, such as
    one-character ones, and a merged mapping's pairs as written), so no
    reading of it is the harness's in every release. Set the key in the
    mapping itself, whose own keys win in every release.
    """

    code = "PL003"
    name = "yaml-alias"
    summary = 'anchors, aliases, merge keys, directives or non-data tags in a data file (Harbor files expand aliases, bounded)'
    source = "load"
    kinds = DATA_FILE_KINDS
    bad = ('leaderboard.yaml', 'author: &a {name: Lab}\nvalues:\n  - <<: *a\n')
    good = ('leaderboard.yaml', 'author:\n  name: Lab\n')
