"""A run, step by step: the request and its options (``request.py``,
``options.py``), one class per kind of run (``whole.py``, ``paths.py``,
``diff.py``, ``staged.py``, ``stdin.py``), and the one engine that runs them
all (``execute.py``). The shared steps have small modules of their own: the
root, the configuration at a ref, the base tree, the cache, ``--fix``, and
what ``preview`` opens."""
