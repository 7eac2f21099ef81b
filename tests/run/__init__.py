"""Kinds of run from the command line: paths, --all, diff, staged, standard input, usage errors (cli.py, pipeline.py)."""
