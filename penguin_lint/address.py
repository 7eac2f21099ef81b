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


def rule_docs(code: str, uri: bool = False) -> str:
    """The address of rule ``code``'s documentation page. ``uri``:
    percent-encoded, as SARIF's ``helpUri`` and Markdown links need it (the
    placeholder's ``<>`` are no URI characters)."""
    from urllib.parse import quote

    url = f"{RULE_DOCS_URL}{code}.md"
    return quote(url, safe=":/") if uri else url
