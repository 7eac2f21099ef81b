"""The language server (``penguin-lint lsp``): live diagnostics and fixes in
an editor, for unsaved buffers, cross-file rules included. Needs pygls (the
``lsp`` extra); nothing below this package imports it."""
