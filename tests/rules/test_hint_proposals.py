"""A hint that proposes a value proposes one that reads back as exactly the
value meant, whatever the folder or key it comes from holds.

Each case builds a repository around one hostile name (quotes, a backslash,
'#', ': ', YAML's indicators at the start, a line break, non-ASCII), runs
the command line, takes the proposal out of the hint and parses it as the
consumer does (``yaml.safe_load`` for YAML, ``tomllib`` for TOML).
"""
import json
import re
import textwrap
import tomllib

import pytest
import yaml

from tests.conftest import VALID, lint

LB = "leaderboards/lb/leaderboard.yaml"
META = "experiments/lb/exp-1/meta_info.yaml"

# whole names (no near miss needed), and what makes a near miss of a base name
NAMES = ['x"y', "[link](https:", "a: b", "#x", "a #b", "*a", "&a", "!x", "%x", "@x", "`x", "it's",
         "back\\slash", "caf\u00e9 \u00fc", "a\nb", "{a}", "a, b", "yes", "123", "x ", "- x", "? x"]
PREFIXES = ["[", "*", "&", "!", "%", "@", "`", "#", "{", "'", '"', "- ", "? ", "|", ">"]
SUFFIXES = ['"y', ": b", " #b", "'s", "\\s", "\u00e9\u00fc", "\nb", ",b", " "]


def near(base):
    return [p + base for p in PREFIXES] + [base + s for s in SUFFIXES]


def moved(files, old, new):
    """``files`` with the folder ``old`` renamed ``new``."""
    return {(new + k[len(old):] if k.startswith(old + "/") else k): v for k, v in files.items()}


def yaml_value(text):
    return yaml.safe_load(f"k: {text}\n")["k"]


def _hints(run, code):
    return [f for f in run.findings if f["code"] == code and f["hint"]]


def pl306(name):
    files = dict(VALID)
    for k in [k for k in VALID if k.startswith("experiments/lb/exp-1/")]:
        files["experiments/lb/" + name + k[len("experiments/lb/exp-1"):]] = VALID[k]
    return files, "PL306", r"^add a value naming experiment_id: (.*) to leaderboards/lb/leaderboard\.yaml, or", name


def pl304(name):
    files = moved(VALID, "packages/bench-a/CASE-001-one", "packages/bench-a/" + name)
    return files, "PL304", r"^did you mean (.*)\?$", name


def pl307(name):
    return moved(VALID, "packages/bench-a", "packages/" + name), "PL307", r"^did you mean (.*)\?$", name


def pl401(name):
    files = moved(VALID, "experiments/lb/exp-1", "experiments/lb/" + name)
    files[LB] = VALID[LB].replace("experiment_id: exp-1", "experiment_id: experiment-one")
    return files, "PL401", r"^did you mean (.*)\?$", name


def pl402(name):
    files = dict(VALID)
    summary = "experiments/lb/exp-1/test/summary.yaml"
    files[summary] = textwrap.dedent(VALID[summary]) + f"{json.dumps(name)}: 5\n"
    files[LB] = textwrap.dedent(VALID[LB]).replace("phase: test", "phase: test\n    metric: latency_ms")
    return files, "PL402", r"^did you mean (.*)\?$", name


def pl603(name):
    from tests.rules.test_harbor import DEF, GOOD_DEF, GOOD_ROWS, ROWS

    definition = GOOD_DEF.replace("    n_trials:\n      type: integer\n",
                                  f"    n_trials:\n      type: integer\n    {json.dumps(name)}:\n      type: number\n")
    definition = definition.replace("rank_by:\n", "  - id: lat\n    header: Lat\n    accessor: metrics.latency\n"
                                    "    type: number\nrank_by:\n")
    return {DEF: definition, ROWS: GOOD_ROWS}, "PL603", r"^did you mean (.*)\?$", "metrics." + name


CASES = ([pytest.param(pl306, n, id=f"PL306-{n!r}") for n in NAMES]
         + [pytest.param(pl304, n, id=f"PL304-{n!r}") for n in near("CASE-001-one")]
         + [pytest.param(pl307, n, id=f"PL307-{n!r}") for n in near("bench-a")]
         + [pytest.param(pl401, n, id=f"PL401-{n!r}") for n in near("experiment-one")]
         + [pytest.param(pl402, n, id=f"PL402-{n!r}") for n in near("latency_ms")]
         + [pytest.param(pl603, n, id=f"PL603-{n!r}") for n in near("latency")])


@pytest.mark.parametrize("case, name", CASES)
def test_the_proposed_value_reads_back_as_the_name(repo, case, name):
    files, code, pattern, want = case(name)
    run = lint(repo(files, base={}), "--all")
    found = _hints(run, code)
    assert found, run.findings
    m = re.search(pattern, found[0]["hint"], re.S)
    assert m, found[0]["hint"]
    assert yaml_value(m.group(1)) == want
    # in a flow mapping too (a leaderboard value is often written in one)
    assert yaml.safe_load(f"{{k: {m.group(1)}, phase: test}}")["k"] == want


# PL201: the folder name proposed as the id only where it is a valid id (as
# --fix writes it); otherwise the hint says to rename the folder.
IDS = ["yes", "123", "1e3", "null", "0x1F", "2026-10-29", "1.5", "1_000", "on", "exp.1"]


@pytest.mark.parametrize("folder", IDS + NAMES)
def test_pl201_proposes_the_folder_name_only_as_a_valid_id_and_quoted(repo, folder):
    files = moved(VALID, "experiments/lb/exp-1", "experiments/lb/" + folder)
    run = lint(repo(files, base={}), "--all")
    [f] = [f for f in run.findings if f["code"] == "PL201"]
    m = re.fullmatch(r"set experiment_id to (.*) or rename the folder", f["hint"], re.S)
    if folder in IDS:
        assert m, f["hint"]
        assert yaml_value(m.group(1)) == folder
    else:
        assert m is None
        assert f["hint"] == ("the folder name is not a valid id: rename the folder, "
                             "and set experiment_id to its new name")


@pytest.mark.parametrize("folder", ["123", "true", "1e3", "inf", "2026-10-29"])
def test_pl201_proposal_in_toml_reads_back_with_tomllib_as_fix_writes_it(repo, folder):
    bench = f"packages/{folder}/benchmark_config.toml"
    root = repo(moved(VALID, "packages/bench-a", "packages/" + folder), base={})
    run = lint(root, "--all")
    [f] = [f for f in run.findings if f["code"] == "PL201" and f["path"] == bench]
    m = re.fullmatch(r"set id to (.*) or rename the folder", f["hint"])
    assert tomllib.loads(f"id = {m.group(1)}\n")["id"] == folder
    lint(root, "--all", "--fix")
    assert tomllib.loads((root / bench).read_text())["id"] == folder


# The schema's own hints, on Harbor rows whose definition (a pull request's)
# names properties and enum values as it likes; rows in YAML and in JSON.
SCHEMA_NAMES = ['x"y', "a: b", "#x", "it's", "back\\slash", "caf\u00e9", "a\nb", "{a}", "yes", "123", "- x"]


def _board(repo, fmt, prop, row_metadata):
    from tests.rules.test_harbor import DEF, GOOD_DEF

    definition = GOOD_DEF.replace("    agent:\n      type: string\n",
                                  f"    agent:\n      type: string\n    {json.dumps(prop[0])}: {json.dumps(prop[1])}\n")
    definition = definition.replace("  additionalProperties: false\n", "  additionalProperties: false\n", 1)
    row = {"metadata": {"agent": "terminus-2", **row_metadata}, "metrics": {"accuracy": 0.5},
           "status": "display", "trial_ids": ["36043904-3271-4c91-aaf7-4f941353d7a9"]}
    if fmt == "json":
        rows = {"leaderboard/rows.json": json.dumps({"rows": [row]})}
    else:
        rows = {"leaderboard/rows.yaml": yaml.safe_dump({"rows": [row]}, allow_unicode=True)}
    return lint(repo({DEF: definition, **rows}, base={}), "--all")


def _read(text, fmt):
    return json.loads(text) if fmt == "json" else yaml_value(text)


@pytest.mark.parametrize("fmt", ["yaml", "json"])
@pytest.mark.parametrize("name", SCHEMA_NAMES)
def test_schema_hints_propose_names_that_read_back(repo, fmt, name):
    # an unknown key close to a property: "did you mean <property>?"
    run = _board(repo, fmt, (name, {"type": "string"}), {name + "z": "v"})
    hints = [f["hint"] for f in run.findings if f["hint"] and f["hint"].startswith("did you mean")]
    assert hints, run.findings
    assert _read(re.fullmatch(r"did you mean (.*)\?", hints[0], re.S).group(1), fmt) == name
    # an enum value close to an allowed one
    run = _board(repo, fmt, ("kind", {"type": "string", "enum": [name, "zzzzzzzz"]}), {"kind": name + "z"})
    hints = [f["hint"] for f in run.findings if f["hint"] and f["hint"].startswith("did you mean")]
    assert hints, run.findings
    assert _read(re.match(r"did you mean (.*)\?", hints[0], re.S).group(1), fmt) == name


@pytest.mark.parametrize("name", SCHEMA_NAMES)
def test_quote_it_hint_names_the_key_as_yaml_reads_it(repo, name):
    """A YAML row that writes a string property as `yes` is told to quote
    it, the key written so that the proposed line reads back as that key."""
    from tests.rules.test_harbor import DEF, GOOD_DEF

    definition = GOOD_DEF.replace("    agent:\n      type: string\n",
                                  f"    agent:\n      type: string\n    {json.dumps(name)}:\n      type: string\n")
    rows = ("rows:\n  - metadata:\n      agent: terminus-2\n"
            f"      {json.dumps(name)}: yes\n"
            "    metrics:\n      accuracy: 0.5\n    status: display\n"
            "    trial_ids:\n      - 36043904-3271-4c91-aaf7-4f941353d7a9\n")
    run = lint(repo({DEF: definition, "leaderboard/rows.yaml": rows}, base={}), "--all")
    hints = [f["hint"] for f in run.findings if f["hint"] and "quote it: " in f["hint"]]
    assert hints, run.findings
    proposal = hints[0].split("quote it: ", 1)[1]
    assert yaml.safe_load(proposal) == {name: "yes"}
