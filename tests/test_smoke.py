from tests.conftest import lint


def test_valid_repository_is_clean(repo):
    run = lint(repo(), "--all")
    assert run.findings == []
    assert run.code == 0


def test_missing_field_reported_with_line(repo):
    root = repo({"packages/bench-a/CASE-001-one/task_config.toml": 'id = "CASE-001-one"\ntitle = "One"\n'})
    run = lint(root, "--all")
    assert run.at("PL101") == [("packages/bench-a/CASE-001-one/task_config.toml", 1)]
    assert run.code == 1
