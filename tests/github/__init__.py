"""What GitHub sees: the Action, annotations, the job summary, forged commands (penguin_lint/github/, action.yml)."""
