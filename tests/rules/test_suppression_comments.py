"""Where a suppression comment is one: one per line (the rest of the line is
its text); a '#' inside a TOML multi-line string is data."""
from tests.conftest import lint

SUMMARY = "experiments/lb/exp-1/test/summary.yaml"
TASK = "packages/bench-a/CASE-001-one/task_config.toml"
WRONG_MEAN = "n_attempt: 2\nscore_mean: 70.0\nscore_std: 0.0\n"


def found(run):
    return [(f["code"], f["path"], f["line"]) for f in run.findings]


def test_the_rest_of_a_line_is_the_comment_s_text(repo):
    text = WRONG_MEAN.replace("70.0\n", "70.0  # penguin-lint: disable=PL303 as # penguin-lint: disable=PL303 said\n")
    run = lint(repo({SUMMARY: text}), "--all")
    assert found(run) == [] and run.json["summary"]["suppressed"] == 1


def test_a_hash_inside_a_toml_multiline_string_is_data(repo):
    text = ('id = "CASE-001-one"\ntitle = "One"\ndescription = """The first task,\n'
            'see # penguin-lint: disable-file=PL104\nand more."""\nruns = 1\n')
    run = lint(repo({TASK: text}), "--all")
    assert found(run) == [("PL104", TASK, 6)]


def test_codes_run_to_a_space_or_the_comment_is_malformed(repo):
    text = WRONG_MEAN.replace("70.0\n", "70.0  # penguin-lint: disable=PL303;why\n")
    run = lint(repo({SUMMARY: text}), "--all")
    assert [(f["code"], f["line"], f["column"], f["message"]) for f in run.findings] == [
        ("PL303", 2, 13, "score_mean is 70.0 but the 2 attempts average 50"),
        ("PL008", 2, 19, "suppression comment is not 'disable=CODE,...' or 'disable-file=CODE,...'; "
                         "it suppresses nothing")]
