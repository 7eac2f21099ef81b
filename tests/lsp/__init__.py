"""The language server (penguin_lint/lsp/)."""
