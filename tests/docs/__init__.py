"""The documentation agrees with the code: generated rule pages, links, snippets (docs/)."""
