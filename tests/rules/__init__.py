"""What each rule finds, its hints and inline suppressions (penguin_lint/rules/)."""
