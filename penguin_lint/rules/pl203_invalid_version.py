"""PL203 invalid-version: `version` is not SemVer 2.0.0."""
from penguin_lint.rules.base import DATA_FILE_KINDS, ProblemRule


class InvalidVersion(ProblemRule):
    """``version`` is Semantic Versioning 2.0.0: ``MAJOR.MINOR.PATCH`` without
    leading zeros, with an optional pre-release and build. ``2026.10.09.1``
    is a date version, not SemVer.
    """

    code = "PL203"
    name = "invalid-version"
    summary = '`version` is not SemVer 2.0.0'
    source = "schema"
    kinds = DATA_FILE_KINDS
    bad = ('benchmark_config.toml', 'version = "2026.10.09.1"\n')
    good = ('benchmark_config.toml', 'version = "1.2.0"\n')
