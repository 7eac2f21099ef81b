"""Where the project lives: the address its documentation links to.

``<owner>`` stands for the account that hosts the repository, as in the
README's install and Action instructions; replace it there and here together
(the JSON Schemas' ``$id`` in schemas/*.json use the same address).
"""

PROJECT_URL = "https://github.com/<owner>/penguin-lint"
#: the documentation page of rule CODE is RULE_DOCS_URL + CODE + ".md"
RULE_DOCS_URL = PROJECT_URL + "/blob/main/docs/rules/"
#: the JSON Schema NAME.json is published at SCHEMAS_URL + NAME + ".json"
SCHEMAS_URL = PROJECT_URL + "/raw/main/schemas/"


def rule_docs(code: str) -> str:
    """The address of rule ``code``'s documentation page."""
    return f"{RULE_DOCS_URL}{code}.md"
