"""Every line penguin-lint writes for a person (errors, warnings, rule docs)
goes out through here: sanitized, and unable to act as a CI workflow command
(``::`` opening a line, ``##[`` anywhere), whatever configuration value or
file name it quotes. The command line also guards stdout and stderr as a
whole (``reporters.guarded_std``)."""
from __future__ import annotations

import click

from penguin_lint.output.log_guard import safe_line


def say(message, err: bool = True) -> None:
    """One message as one line: a newline in it is escaped, never printed."""
    click.echo(safe_line(message), err=err)


def show(text) -> None:
    """Text of penguin-lint's own (rule docs, tables), each line made safe."""
    click.echo("\n".join(safe_line(line) for line in str(text).split("\n")))
