"""The suite is laid out like the package: the test for a concept is in the
folder of that concept, and no test file stays at the top of tests/."""
from pathlib import Path

TESTS = Path(__file__).resolve().parent
PROJECT = TESTS.parent

# Each folder of tests/ and what of the project it tests: each of these must exist,
# so that a folder cannot outlive the concept it was named after.
FOLDERS = {
    "loaders": ["penguin_lint/loaders"],
    "validation": ["penguin_lint/validation"],
    "core": ["penguin_lint/core/config.py"],
    "rules": ["penguin_lint/rules", "penguin_lint/suppressions.py"],
    "run": ["penguin_lint/run", "penguin_lint/cli.py", "penguin_lint/pipeline.py"],
    "pr": ["penguin_lint/pr"],
    "cache": ["penguin_lint/cache"],
    "engine": ["penguin_lint/engine", "penguin_lint/api.py"],
    "github": ["penguin_lint/github", "penguin_lint/output", "action.yml"],
    "reporters": ["penguin_lint/reporters", "penguin_lint/formats.py"],
    "lsp": ["penguin_lint/lsp"],
    "fixes": ["penguin_lint/fixes"],
    "docs": ["docs", "penguin_lint/rules/docs.py"],
    "gate": ["docs/security.md"],
    "preview": ["penguin_lint/preview"],
    "integration": [".pre-commit-hooks.yaml", "docs/editors.md"],
    "package": ["pyproject.toml", "penguin_lint/version.py"],
}


def test_no_test_file_stays_at_the_top():
    top = sorted(p.name for p in TESTS.glob("test_*.py") if p.name != Path(__file__).name)
    assert top == [], f"move these into the folder of their concept: {top}"


def test_each_folder_is_a_concept_of_the_project():
    folders = sorted(p.name for p in TESTS.iterdir() if p.is_dir() and any(p.glob("test_*.py")))
    assert folders == sorted(FOLDERS)
    for folder, covers in FOLDERS.items():
        missing = [c for c in covers if not (PROJECT / c).exists()]
        assert missing == [], f"tests/{folder}/ tests what no longer exists: {missing}"


def test_each_folder_is_a_package():
    # Two test files of the same name in different folders import as different modules.
    for folder in FOLDERS:
        assert (TESTS / folder / "__init__.py").is_file(), folder
        assert not list((TESTS / folder).glob("*/test_*.py")), f"tests/{folder}/ nests deeper"
