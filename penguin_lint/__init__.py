"""penguin-lint: lint PenguinHarness benchmark repositories.

    >>> import penguin_lint
    >>> result = penguin_lint.lint("path/to/benchmarks")
    >>> for f in result.findings:
    ...     print(f.path, f.line, f.code, f.message)

See ``penguin_lint.api.lint`` for the options.
"""
from penguin_lint.version import __version__

__all__ = ["lint", "LintResult", "Finding", "PenguinLintError", "__version__"]


def __getattr__(name):
    # Imported on first use: `penguin-lint --version` and the Action's
    # start need none of the linter.
    if name in ("lint", "LintResult", "PenguinLintError"):
        from penguin_lint import api

        return getattr(api, name)
    if name == "Finding":
        from penguin_lint.findings import Finding

        return Finding
    raise AttributeError(f"module 'penguin_lint' has no attribute {name!r}")
