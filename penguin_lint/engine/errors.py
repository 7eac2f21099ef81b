"""The engine's own failure, apart from the findings it reports."""


class ToolError(Exception):
    """A failure of the tool itself: one line on stderr, exit 2."""
