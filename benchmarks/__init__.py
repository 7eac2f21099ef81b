"""Speed benchmarks for penguin-lint: synthetic repositories and the runner that times them.

`python -m benchmarks.generate` writes a valid repository; `python -m benchmarks.run` times
penguin-lint against check-jsonschema, the parse floor and git's own status on three sizes
of repository, and prints the results against the targets.
"""
