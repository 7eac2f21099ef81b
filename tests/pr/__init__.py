"""Why a finding is reported in a pull request: blame, focus, the base tree, the index (penguin_lint/pr/)."""
