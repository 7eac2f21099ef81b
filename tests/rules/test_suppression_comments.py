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


def test_a_malformed_comment_spans_to_its_end(repo):
    text = WRONG_MEAN.replace("70.0\n", "70.0  # penguin-lint: disable=PL303;why\n")
    [pl008] = [f for f in lint(repo({SUMMARY: text}), "--all").findings if f["code"] == "PL008"]
    # from the '#' to the end of "why"
    assert (pl008["column"], pl008["end_column"]) == (19, len(text.splitlines()[1]) + 1)


def test_quotes_closing_a_toml_multiline_string_do_not_hide_the_comment_after_them(repo):
    # '""""' ends the string with one quote of its text: the comment after it is one
    text = 'id = "CASE-001-one"\ntitle = "One"\ndescription = """The first "task""""  # penguin-lint: disable=PL303\n'
    run = lint(repo({TASK: text}), "--all")
    assert found(run) == [("PL008", TASK, 3)]


def test_a_comment_after_a_yaml_syntax_error_is_not_read(repo):
    # past the error nothing is known: PL001 reports the file, and no comment there is judged
    text = "n_attempt: 2\nscore_mean: 70.0: x\nscore_std: 0.0  # penguin-lint: disable=PL303\n"
    run = lint(repo({SUMMARY: text}), "--all")
    assert [c for c, _, _ in found(run)] == ["PL001"]


def test_comments_are_looked_for_among_the_first_thousand_candidates_only(repo):
    # a thousand directive-like lines in a block scalar use up the scan: the real comment after them is not read
    notes = "".join(f"  see # penguin-lint: disable=PL303 ({i})\n" for i in range(1000))
    text = "notes: |\n" + notes + WRONG_MEAN.replace("70.0\n", "70.0  # penguin-lint: disable=PL303\n")
    run = lint(repo({SUMMARY: text}), "--all")
    assert ("PL303", SUMMARY, 1003) in found(run)
    assert run.json["summary"]["suppressed"] == 0


def test_json_has_no_comments(repo):
    # a JSON string that reads like a comment is text: nothing to judge as a suppression
    root = repo({"hub/board.json": '{"name": "x",\n  "title": "a # penguin-lint: disable=PL303"}\n',
                 ".penguin-lint.toml": '[kinds]\n"hub/*.json" = "harbor_leaderboard"\n'})
    run = lint(root, "--all")
    assert [f for f in run.findings if f["code"] == "PL008"] == [] and run.at("PL001") == []


def test_a_comment_of_another_form_or_naming_no_codes_spans_from_its_hash_to_its_end(repo):
    for comment, message in (
            ("# penguin-lint: enable=PL303",
             "suppression comment is not 'disable=CODE,...' or 'disable-file=CODE,...'; it suppresses nothing"),
            ("# penguin-lint: disable=PL303,X1,Y2",
             "suppression comment names 'X1', 'Y2', which are not rule codes (such as PL104); "
             "that part suppresses nothing"),
            ("# penguin-lint: disable=",
             "suppression comment names no rule code; it suppresses nothing"),
            # a word that is no code is quoted whole up to 40 characters with its quotes
            (f"# penguin-lint: disable=PL303,{'X' * 38}",
             f"suppression comment names '{'X' * 38}', which is not a rule code (such as PL104); "
             "that part suppresses nothing")):
        text = WRONG_MEAN.replace("70.0\n", f"70.0  {comment}\n")
        run = lint(repo({SUMMARY: text}), "--all")
        assert [(f["line"], f["column"], f["end_column"], f["message"]) for f in run.findings
                if f["code"] == "PL008"] == [(2, 19, 19 + len(comment), message)]


def test_a_toml_string_s_quotes_and_escapes_decide_where_its_comment_starts(repo):
    cases = [
        # a '#' inside a basic string after an escaped quote is text
        ('description = "\\"# penguin-lint: disable-file=PL104"\n', [("PL104", TASK, 4)]),
        # an escaped backslash ends the string: the comment after it is one
        ('description = "ends in \\\\"  # penguin-lint: disable-file=PL104\n', []),
        # a comment right after a literal string, an empty one too
        ("description = 'The first task.'# penguin-lint: disable-file=PL104\n", []),
        ("description = 'The first task.'\nnote = ''  # penguin-lint: disable-file=PL104\n", []),
        # a literal string left open: the line holds no comment, and the file does not parse
        ("description = 'The first task.\n# penguin-lint: disable-file=PL303\n",
         [("PL008", TASK, 4), ("PL001", TASK, 5)]),
        # a '#' inside a literal string is text; one right after a string is a comment
        ("description = 'see # penguin-lint: disable-file=PL104'\n", [("PL104", TASK, 4)]),
        ('description = "The first task."# penguin-lint: disable-file=PL104\n', []),
        ('description = """The first "task""""# penguin-lint: disable-file=PL104\n', []),
        ('description = """The first task."""# penguin-lint: disable-file=PL104\n', []),
        ('description = "The first task."\nnote = """"""  # penguin-lint: disable-file=PL104\n', []),
        # a '#' line inside a multi-line literal string is text
        ("description = '''\n# penguin-lint: disable-file=PL104\n'''\n", [("PL104", TASK, 6)]),
    ]
    for line, findings in cases:
        text = 'id = "CASE-001-one"\ntitle = "One"\n' + line + "runs = 1\n"
        assert found(lint(repo({TASK: text}), "--all")) == findings, line


def test_a_line_comment_that_suppresses_some_of_its_codes_names_the_others(repo):
    text = WRONG_MEAN.replace("70.0\n", "70.0  # penguin-lint: disable=PL303,PL104,PL203\n")
    [f] = [f for f in lint(repo({SUMMARY: text}), "--all").findings if f["code"] == "PL008"]
    assert (f["line"], f["message"], f["hint"]) == (
        2, "suppression of PL104, PL203 suppresses nothing on this line", "remove PL104, PL203 from it")
    text = WRONG_MEAN.replace("score_std: 0.0\n", "score_std: 0.0  # penguin-lint: disable=PL104\n")
    [f] = [f for f in lint(repo({SUMMARY: text}), "--all").findings if f["code"] == "PL008"]
    assert (f["line"], f["hint"]) == (3, "remove it")
