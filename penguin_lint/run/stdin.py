"""A standard-input run (``--stdin-filename``, an editor's unsaved buffer):
standard input stands for one file, the rest of the repository is read
from disk; compared with ``HEAD`` as a path run is."""
from __future__ import annotations

import os

from penguin_lint.core.config import Config
from penguin_lint.run.paths import PathsRun
from penguin_lint.run.request import PenguinLintError
from penguin_lint.run.targets import relative


class StdinRun(PathsRun):
    def repository(self, config: Config):
        """The repository with standard input as ``--stdin-filename``: read
        up to the size limit, the rest only counted."""
        import sys

        from penguin_lint.core.unsaved import UnsavedRepository, read_bounded

        req, root, cwd = self.req, self.root, self.cwd
        name = req.stdin_filename
        rel = relative(name, cwd, root)
        if not os.path.isabs(name) and (rel is None or not os.path.lexists(root / rel)):
            alt = relative(name, root, root)  # written relative to --root rather than to where we stand
            if alt is not None and (rel is None or os.path.lexists(root / alt)):
                rel = alt
        if not rel:
            raise PenguinLintError(f"--stdin-filename is outside the repository {root}: {name}")
        source = req.stdin if req.stdin is not None else sys.stdin.buffer
        if isinstance(source, (bytes, bytearray)):
            import io

            source = io.BytesIO(bytes(source))
        try:
            data, size = read_bounded(source, config.size_limit)
        except (OSError, ValueError) as e:
            raise PenguinLintError(f"cannot read standard input: {e}")
        repo = UnsavedRepository(root, config, {rel: (data, size)})
        if repo.entry(rel) is None:  # a name no listing can hold (a '..' in it)
            raise PenguinLintError(f"--stdin-filename is not a file path in the repository: {name}")
        self.paths = [str(root / rel)]
        return repo

    def prepare(self, engine, rel_paths) -> None:
        """Nothing: the engine's own view of submodules is enough for one file."""
