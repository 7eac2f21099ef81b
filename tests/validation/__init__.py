"""Schema validation: the compiled check against jsonschema (penguin_lint/validation/)."""
