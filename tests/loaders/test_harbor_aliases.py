"""Harbor files read as Harbor reads them (``yaml.safe_load``): anchors,
aliases and merge keys expanded, within a bound; PenguinHarness data files
keep PL003 for them."""
import time

import pytest
import yaml

from tests.conftest import lint
from tests.rules.test_harbor import DEF, GOOD_ROWS, ROWS, line_of

# A definition whose four display columns share one property schema through
# an anchor, as a public submission writes it.
SHARED_LINK_DEF = """\
package: acme/my-dataset
name: main
title: Main leaderboard
visibility: public
metadata_schema:
  type: object
  required: [agent, agent_link, model_link]
  properties:
    agent:
      type: string
    agent_link: &link
      type: object
      required: [url, label]
      properties:
        url:
          type: string
          format: uri
        label:
          type: string
          minLength: 1
      additionalProperties: false
    model_link: *link
    org_link: *link
  additionalProperties: false
metrics_schema:
  type: object
  required: [accuracy]
  properties:
    accuracy:
      type: number
columns:
  - id: agent
    header: Agent
    accessor: metadata.agent
    type: text
  - id: model
    header: Model
    accessor: metadata.model_link
    type: link
  - id: accuracy
    header: Accuracy
    accessor: metrics.accuracy
    type: number
rank_by:
  - accessor: metrics.accuracy
    direction: desc
"""

SHARED_LINK_ROWS = """\
rows:
  - metadata:
      agent: terminus-2
      agent_link: {url: "https://example.org/terminus", label: Terminus}
      model_link: {url: "https://example.org/model", label: Model}
    metrics:
      accuracy: 0.62
    status: display
    trial_ids:
      - 36043904-3271-4c91-aaf7-4f941353d7a9
"""


def codes(run):
    return [(f["code"], f["path"], f["line"]) for f in run.findings]


def test_shared_property_schema_is_clean(repo):
    root = repo({DEF: SHARED_LINK_DEF, ROWS: SHARED_LINK_ROWS}, base={})
    run = lint(root, "--all")
    assert codes(run) == []
    assert run.code == 0


def test_shared_schema_is_applied_at_every_alias(repo):
    # the row's model_link breaks the shared schema: reported as a row mismatch,
    # which it could only be if the alias was expanded
    rows = SHARED_LINK_ROWS.replace('label: Model}', 'label: ""}')
    root = repo({DEF: SHARED_LINK_DEF, ROWS: rows}, base={})
    run = lint(root, "--all")
    assert codes(run) == [("PL605", ROWS, line_of(rows, 'label: ""'))]


def test_bad_shared_schema_is_reported_at_anchor_and_at_each_alias(repo):
    definition = SHARED_LINK_DEF.replace("          minLength: 1\n", "          minLength: one\n")
    root = repo({DEF: definition, ROWS: SHARED_LINK_ROWS}, base={})
    run = lint(root, "--all")
    pl604 = sorted(f["line"] for f in run.findings if f["code"] == "PL604")
    assert pl604 == [line_of(definition, "minLength: one"), line_of(definition, "model_link: *link"),
                     line_of(definition, "org_link: *link")]
    assert "PL003" not in {f["code"] for f in run.findings}


BOMB = "".join(
    [f"  l0: &l0 [x, x, x, x, x, x, x, x, x]\n"]
    + [f"  l{i}: &l{i} [{', '.join([f'*l{i - 1}'] * 9)}]\n" for i in range(1, 10)])


def test_alias_bomb_in_harbor_file_is_a_finding_in_bounded_time(repo):
    definition = SHARED_LINK_DEF.replace("metrics_schema:\n", "x-laughs:\n" + BOMB + "metrics_schema:\n", 1)
    root = repo({DEF: definition, ROWS: SHARED_LINK_ROWS}, base={})
    started = time.monotonic()
    run = lint(root, "--all")
    assert time.monotonic() - started < 20
    assert run.code == 1
    found = [(f["code"], f["line"]) for f in run.findings if f["path"] == DEF]
    # the first alias whose expansion is over the bound: '*l6', some 5.4 million values
    assert found == [("PL003", line_of(definition, "l7: &l7"))]
    assert "more than 1,000,000 values" in run.findings[0]["message"]


def test_alias_cycle_and_undefined_alias_in_harbor_file(repo):
    cyclic = SHARED_LINK_DEF.replace("metrics_schema:\n", "x-loop: &loop [*loop]\nmetrics_schema:\n", 1)
    run = lint(repo({DEF: cyclic, ROWS: SHARED_LINK_ROWS}, base={}), "--all")
    assert [(f["code"], f["line"]) for f in run.findings if f["path"] == DEF] == [
        ("PL003", line_of(cyclic, "x-loop:"))]
    undefined = SHARED_LINK_DEF.replace("org_link: *link", "org_link: *lnik")
    run = lint(repo({DEF: undefined, ROWS: SHARED_LINK_ROWS}, base={}), "--all")
    assert [(f["code"], f["line"]) for f in run.findings if f["path"] == DEF] == [
        ("PL001", line_of(undefined, "*lnik"))]
    assert safe_load_refuses(undefined)


def safe_load_refuses(text):
    try:
        yaml.safe_load(text)
    except yaml.YAMLError:
        return True
    return False


MERGED_ROWS = """\
rows:
  - &first
    metadata: {agent: default-agent}
    status: display
    metrics:
      accuracy: 0.62
    trial_ids: [36043904-3271-4c91-aaf7-4f941353d7a9]
  - <<: [*first, {metadata: {agent: default-agent}, status: hide}]
    status: display
    trial_ids: [0cc33186-273e-4b4b-82dc-04c28fce2f0c]
  - <<: *first
    <<: {status: hide, metrics: {accuracy: 0.62}}
    status: nonsense
    trial_ids: [5d8f2c4e-8f63-4a8e-9d2c-1f0b6f1e2a3b]
"""


def test_merge_keys_in_harbor_rows_read_as_safe_load_reads_them(repo):
    from penguin_lint.core.config import Config
    from penguin_lint.core.repo import Repository

    definition = SHARED_LINK_DEF.replace("  required: [agent, agent_link, model_link]\n", "")
    root = repo({DEF: definition, ROWS: MERGED_ROWS}, base={})
    doc = Repository(root, Config()).load(ROWS)
    # the sources agree on every key the rows do not set themselves: every
    # PyYAML release reads the same, whichever source it lets win
    expected = yaml.safe_load(MERGED_ROWS)
    assert doc.data == expected
    assert expected["rows"][1] == {"metadata": {"agent": "default-agent"}, "status": "display",
                                   "metrics": {"accuracy": 0.62},
                                   "trial_ids": ["0cc33186-273e-4b4b-82dc-04c28fce2f0c"]}
    # a key merged through an alias is placed at the alias, an explicit key at itself
    line = line_of(MERGED_ROWS, "- <<: [*first")
    assert doc.value_pos(("rows", 1, "metrics", "accuracy")).line == line
    assert doc.value_pos(("rows", 1, "trial_ids", 0)).line == line + 2
    run = lint(root, "--all")
    # only the explicit bad status (it overrides the merged ones), at its line; no PL002, PL003
    assert [(f["code"], f["path"], f["line"]) for f in run.findings] == [
        ("PL103", ROWS, line_of(MERGED_ROWS, "status: nonsense"))]


# Merges whose sources give one key different values: up to PyYAML 6.0.3 the
# first mapping of a list wins and the last '<<'; 6.0.4 lets the last source
# win, but the first where the keys are one Python object (a one-character
# key, or a small number). No reading is the harness's in every release.
CONFLICTS = {
    "a list, its mappings disagree": (
        "  - <<: [*first, {metadata: {agent: terminus-2}}]\n", "- <<: [*first", "'metadata'"),
    "two '<<' keys disagree": (
        "  - <<: *first\n    <<: {metrics: {accuracy: 0.5}}\n", "    <<: {metrics", "'metrics'"),
    "a one-character key": (
        "  - <<: [{x: 1}, {x: 2}]\n", "- <<: [{x: 1}", "'x'"),
    "a number key, one source nested in another": (
        "  - <<: [{1: a}, {<<: {1: b}}]\n", "- <<: [{1: a}", "'1'"),
    "true against 1": (
        "  - <<: [{x-flag: true}, {x-flag: 1}]\n", "- <<: [{x-flag", "'x-flag'"),
    # 6.0.4 merges the inner mapping's pairs as written: its overridden 'x' comes back
    "a value overridden inside a merged mapping": (
        "  - <<: [{<<: {x: 2}, x: 1}]\n", "- <<: [{<<: {x: 2}", "'x'"),
}


@pytest.mark.parametrize("name", sorted(CONFLICTS))
def test_a_merge_whose_sources_disagree_is_pl003_at_its_key(repo, name):
    row, at, key = CONFLICTS[name]
    base = "rows:\n  - &first\n    metadata: {agent: default-agent}\n    status: display\n" \
           "    metrics: {accuracy: 0.62}\n    trial_ids: [36043904-3271-4c91-aaf7-4f941353d7a9]\n"
    rows = base + row + "    trial_ids: [0cc33186-273e-4b4b-82dc-04c28fce2f0c]\n"
    definition = SHARED_LINK_DEF.replace("  required: [agent, agent_link, model_link]\n", "")
    run = lint(repo({DEF: definition, ROWS: rows}, base={}), "--all")
    assert run.code == 1
    found = [(f["code"], f["path"], f["line"], f["column"]) for f in run.findings]
    line = line_of(rows, at)
    column = rows.splitlines()[line - 1].index("<<") + 1
    assert found == [("PL003", ROWS, line, column)]
    (f,) = run.findings
    assert f["message"] == (f"merge key '<<' merges two different values of {key}: "
                            "which one wins depends on the PyYAML release that reads the file")
    assert f["hint"].startswith(f"set {key} in this mapping itself")


def test_a_key_the_mapping_sets_itself_settles_a_disagreement(repo):
    rows = ("rows:\n  - <<: [{status: display}, {status: hide}]\n    status: hide\n"
            "    metadata: {agent: terminus-2}\n    metrics: {accuracy: 0.5}\n"
            "    trial_ids: [0cc33186-273e-4b4b-82dc-04c28fce2f0c]\n")
    definition = SHARED_LINK_DEF.replace("  required: [agent, agent_link, model_link]\n", "")
    root = repo({DEF: definition, ROWS: rows}, base={})
    run = lint(root, "--all")
    assert [f["code"] for f in run.findings] == []
    from penguin_lint.core.config import Config
    from penguin_lint.core.repo import Repository

    assert Repository(root, Config()).load(ROWS).data == yaml.safe_load(rows)


def test_merge_of_a_scalar_is_a_parse_error_in_harbor_file(repo):
    rows = GOOD_ROWS.replace("    status: hide\n", "    <<: hide\n")
    run = lint(repo({DEF: SHARED_LINK_DEF, ROWS: rows}, base={}), "--all")
    assert safe_load_refuses(rows)
    assert [(f["code"], f["line"]) for f in run.findings if f["path"] == ROWS] == [
        ("PL001", line_of(rows, "<<: hide"))]


def test_alias_in_penguinharness_data_file_is_still_pl003(repo):
    board = "leaderboards/main/leaderboard.yaml"
    text = "id: main\nname: &n Main\ntitle: *n\n"
    run = lint(repo({board: text}, base={}), board)
    pl003 = [(f["code"], f["path"], f["line"]) for f in run.findings if f["code"] == "PL003"]
    assert pl003 == [("PL003", board, 2), ("PL003", board, 3)]


def test_files_given_as_harbor_files_expand_aliases(repo):
    rows = SHARED_LINK_ROWS.replace("      agent_link: {url", "      agent_link: &a {url").replace(
        'model_link: {url: "https://example.org/model", label: Model}', "model_link: *a")
    root = repo({"boards/main.yaml": SHARED_LINK_DEF, "results/rows.yaml": rows}, base={})
    run = lint(root, "--kind", "harbor_rows", "--definition", str(root / "boards/main.yaml"),
               str(root / "results/rows.yaml"))
    assert codes(run) == []
    bad = rows.replace("label: Terminus}", 'label: ""}')
    root = repo({"boards/main.yaml": SHARED_LINK_DEF, "results/rows.yaml": bad}, base={})
    run = lint(root, "--kind", "harbor_rows", "--definition", str(root / "boards/main.yaml"),
               str(root / "results/rows.yaml"))
    # the anchored value, and the alias that repeats it
    assert codes(run) == [("PL605", "results/rows.yaml", line_of(bad, "agent_link: &a")),
                          ("PL605", "results/rows.yaml", line_of(bad, "model_link: *a"))]


def test_aliases_nesting_past_the_depth_limit_in_harbor_file(repo):
    # nine anchors, each eight levels around the one before: 72 levels, each alias within bounds
    deep = ["  d0: &d0 [[[[[[[[1]]]]]]]]\n"] + [f"  d{i}: &d{i} [[[[[[[[*d{i - 1}]]]]]]]]\n" for i in range(1, 9)]
    definition = SHARED_LINK_DEF.replace("metrics_schema:\n", "x-deep:\n" + "".join(deep) + "metrics_schema:\n", 1)
    started = time.monotonic()
    run = lint(repo({DEF: definition, ROWS: SHARED_LINK_ROWS}, base={}), "--all")
    assert time.monotonic() - started < 20
    found = [(f["code"], f["line"], f["message"]) for f in run.findings if f["path"] == DEF]
    assert found == [("PL003", line_of(definition, "d8: &d8"),
                      "expanded, the file nests deeper than 64 levels")]


def test_merges_that_would_take_long_to_compare_stop_with_a_finding():
    from penguin_lint.loaders import load_bytes
    from penguin_lint.loaders.yaml_aliases import MAX_HELD, expand_aliases

    def problems(text):
        started = time.process_time()
        doc = load_bytes(text.encode(), ROWS)
        expand_aliases(doc)
        assert time.process_time() - started < 5
        return [(p.code, p.pos.line, p.message) for p in doc.problems]

    # each mapping merges the one before and sets k again: every value is held for the next
    chain = "a0: &a0 {k: 0}\n" + "".join(f"a{i}: &a{i} {{<<: *a{i - 1}, k: {i}}}\n" for i in range(1, 3000))
    (found,) = problems(chain)
    assert found[0] == "PL003" and found[2] == f"merge keys '<<' merge more than {MAX_HELD:,} values in one file"
    # twenty thousand sources that agree, and one that does not
    many = "rows:\n  - <<: [" + ", ".join("{k: 1}" for _ in range(20000)) + ", {k: 2}]\n"
    assert problems(many) == [("PL003", 2, "merge key '<<' merges two different values of 'k': which one "
                                           "wins depends on the PyYAML release that reads the file")]
    # a merge that doubles at every level: each value is held once
    doubling = "a0: &a0 {k: 0, j: 1}\n" + "".join(f"a{i}: &a{i} {{<<: [*a{i - 1}, *a{i - 1}]}}\n" for i in range(1, 60))
    assert problems(doubling) == []
