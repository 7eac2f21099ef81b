"""Reporters turn findings into bytes; they never know where findings came from.

One module per output format: ``text_reporter``, ``json_reporter``,
``sarif_reporter``. GitHub's annotations and job summary are in
``penguin_lint.github``, which reporters do not import; ``penguin_lint.formats``
picks the writer of a format.
"""
