"""PL204 invalid-timestamp: `last_update` is not ISO 8601 to the second with an offset."""
from penguin_lint.rules.base import DATA_FILE_KINDS, ProblemRule


class InvalidTimestamp(ProblemRule):
    """``last_update`` is an ISO 8601 date-time to the second with an explicit
    offset, best as a quoted string. A native TOML/YAML date-time must meet the
    same rule: a local time without offset is refused, never taken as UTC.
    """

    code = "PL204"
    name = "invalid-timestamp"
    summary = '`last_update` is not ISO 8601 to the second with an offset'
    source = "schema"
    kinds = DATA_FILE_KINDS
    bad = ('benchmark_config.toml', 'last_update = 2026-10-29T12:00:00\n')
    good = ('benchmark_config.toml', 'last_update = "2026-10-29T12:00:00Z"\n')
