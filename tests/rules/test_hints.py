"""Every hint that proposes a value proposes the right one.

Each case lints a repository with one mistake, takes the value the hint
proposes, writes it into the file the way the hint says, lints again and
asserts the finding is gone (and, for numbers, that the file now holds the
value the hint meant).
"""
import re

import pytest
import yaml

from tests.conftest import VALID, lint

TEST = "experiments/lb/exp-1/test"
SUMMARY = f"{TEST}/summary.yaml"
META = "experiments/lb/exp-1/meta_info.yaml"
BENCH = "packages/bench-a/benchmark_config.toml"
LB = "leaderboards/lb/leaderboard.yaml"


def attempt(score, *extra):
    return (f"score: {score}\n" + "".join(f"{x}\n" for x in extra)
            + "results:\n  - source: CASE-001-one\n    score: 50.0\n")


def phase(scores, lines, extras=None):
    files = {f"{TEST}/attempt-{i}.yaml": attempt(s, *(extras[i - 1] if extras else ()))
             for i, s in enumerate(scores, 1)}
    files[SUMMARY] = f"n_attempt: {len(scores)}\n" + "".join(f"{x}\n" for x in lines)
    return files


SCORES = (69.5, 70.0, 68.0)
MEAN = 207.5 / 3
COSTS = (["cost: 0.123456", "token: 100"], ["cost: 0.2333", "token: 200"], ["cost: 0.0", "token: 301"])


def set_value(path, key, sep=": "):
    """Apply a proposal by rewriting ``key<sep>...`` in ``path``."""
    def apply(files, value):
        text = files[path]
        new = re.sub(rf"(?m)^(\s*{re.escape(key)}{re.escape(sep)}).*$", lambda m: m.group(1) + value, text)
        assert new != text
        return {**files, path: new}
    return apply


def replace_text(path, old):
    def apply(files, value):
        assert old in files[path]
        return {**files, path: files[path].replace(old, value)}
    return apply


def replace_line(path, old_line):
    """The hint proposes a whole line (``title: "2026-10-09"``)."""
    def apply(files, line):
        lines = files[path].split("\n")
        i = next(i for i, ln in enumerate(lines) if ln.strip() == old_line)
        indent = lines[i][:len(lines[i]) - len(lines[i].lstrip())]
        lines[i] = indent + line
        return {**files, path: "\n".join(lines)}
    return apply


def rename(old):
    def apply(files, new_name):
        files = dict(files)
        content = files.pop(old, None) or VALID[old]
        folder = old.rpartition("/")[0]
        files[f"{folder}/{new_name}"] = content
        files[old] = None  # drop it from VALID
        return files
    return apply


def loads_as(path, key, want):
    def check(files):
        assert yaml.safe_load(files[path])[key] == want
    return check


def summary_states(key, want, decimals):
    def check(files):
        have = yaml.safe_load(files[SUMMARY])[key]
        assert abs(have - want) <= 0.5 * 10 ** -decimals + 1e-12
    return check


# (id, files, code, path of the finding, regex whose group 1 is the proposal, apply, extra check)
CASES = [
    ("mean-2-decimals", phase(SCORES, ["score_mean: 69.18", "score_std: 1.04"]), "PL303", SUMMARY,
     r"set score_mean to (\S+),", set_value(SUMMARY, "score_mean"), summary_states("score_mean", MEAN, 2)),
    ("mean-3-decimals", phase(SCORES, ["score_mean: 69.161", "score_std: 1.041"]), "PL303", SUMMARY,
     r"set score_mean to (\S+),", set_value(SUMMARY, "score_mean"), summary_states("score_mean", MEAN, 3)),
    ("mean-1-decimal", phase(SCORES, ["score_mean: 69.2", "score_std: 1.04"]), "PL303", SUMMARY,
     r"at least 2 decimals: (\S+)$", set_value(SUMMARY, "score_mean"), summary_states("score_mean", MEAN, 2)),
    ("mean-integer", phase(SCORES, ["score_mean: 71", "score_std: 1.04"]), "PL303", SUMMARY,
     r"set score_mean to (\S+) ", set_value(SUMMARY, "score_mean"), summary_states("score_mean", MEAN, 2)),
    ("mean-exponent", phase(SCORES, ["score_mean: 6.9e+1", "score_std: 1.04"]), "PL303", SUMMARY,
     r"set score_mean to (\S+) ", set_value(SUMMARY, "score_mean"), summary_states("score_mean", MEAN, 2)),
    ("mean-full-precision", phase(SCORES, ["score_mean: 71.6666666667", "score_std: 1.04"]), "PL303", SUMMARY,
     r"set score_mean to (\S+),", set_value(SUMMARY, "score_mean"), summary_states("score_mean", MEAN, 9)),
    ("population-std", phase((50.0, 50.125, 50.25), ["score_mean: 50.125", "score_std: 0.102062"]), "PL303",
     SUMMARY, r"set score_std to (\S+) ", set_value(SUMMARY, "score_std"), summary_states("score_std", 0.125, 6)),
    ("std-wrong", phase(SCORES, ["score_mean: 69.17", "score_std: 1.4"]), "PL303", SUMMARY,
     r"set score_std to (\S+) ", set_value(SUMMARY, "score_std"), summary_states("score_std", 1.040833, 2)),
    ("cost-total", phase(SCORES, ["score_mean: 69.17", "score_std: 1.04", "cost: 0.35", "token: 601"], COSTS),
     "PL303", SUMMARY, r"set cost to (\S+),", set_value(SUMMARY, "cost"), summary_states("cost", 0.356756, 2)),
    ("small-cost-total", phase(SCORES, ["score_mean: 69.17", "score_std: 1.04", "cost: 1"],
                               (["cost: 0.0001"], ["cost: 0.0002"], ["cost: 0.00005"])),
     "PL303", SUMMARY, r"set cost to (\S+) ", set_value(SUMMARY, "cost"), summary_states("cost", 0.00035, 5)),
    ("token-total", phase(SCORES, ["score_mean: 69.17", "score_std: 1.04", "token: 600"], COSTS), "PL303",
     SUMMARY, r"set token to (\S+),", set_value(SUMMARY, "token"), loads_as(SUMMARY, "token", 601)),
    # YAML 1.1 reads 1e-3 as text: both spellings proposed are 0.001
    ("yaml11-point", {f"{TEST}/attempt-1.yaml": attempt(50.0, "cost: 1e-3")}, "PL102", f"{TEST}/attempt-1.yaml",
     r"decimal point and a signed exponent \((\S+)\)", set_value(f"{TEST}/attempt-1.yaml", "cost"),
     loads_as(f"{TEST}/attempt-1.yaml", "cost", 0.001)),
    ("yaml11-full", {f"{TEST}/attempt-1.yaml": attempt(50.0, "cost: 1e-3")}, "PL102", f"{TEST}/attempt-1.yaml",
     r"in full \((\S+)\)", set_value(f"{TEST}/attempt-1.yaml", "cost"),
     loads_as(f"{TEST}/attempt-1.yaml", "cost", 0.001)),
    ("yaml11-big", {f"{TEST}/attempt-1.yaml": attempt(50.0, "cost: 2.5E3")}, "PL102", f"{TEST}/attempt-1.yaml",
     r"signed exponent \((\S+)\)", set_value(f"{TEST}/attempt-1.yaml", "cost"),
     loads_as(f"{TEST}/attempt-1.yaml", "cost", 2500.0)),
    ("yaml11-integer", {f"{TEST}/attempt-1.yaml": attempt(50.0, "duration_ms: 1e3")}, "PL102",
     f"{TEST}/attempt-1.yaml", r"write it as (\S+)$", set_value(f"{TEST}/attempt-1.yaml", "duration_ms"),
     loads_as(f"{TEST}/attempt-1.yaml", "duration_ms", 1000)),
    ("quote-it", {LB: VALID[LB].replace("title: LB", "title: 2026")}, "PL102", LB,
     r"quote it: (.+)$", replace_line(LB, "title: 2026"), loads_as(LB, "title", "2026")),
    ("quote-it-yes", {LB: VALID[LB].replace("title: LB", "title: yes")}, "PL102", LB,
     r"quote it: (.+)$", replace_line(LB, "title: yes"), loads_as(LB, "title", "yes")),
    ("id-mismatch", {META: VALID[META].replace("experiment_id: exp-1", "experiment_id: exp-one")}, "PL201", META,
     r'set experiment_id to "([^"]+)"', set_value(META, "experiment_id"), None),
    ("attempt-name", {f"{TEST}/attempt-02.yaml": VALID[f"{TEST}/attempt-2.yaml"], f"{TEST}/attempt-2.yaml": None},
     "PL302", f"{TEST}/attempt-02.yaml", r"rename it to (\S+)$", rename(f"{TEST}/attempt-02.yaml"), None),
    ("n-attempt-of-present-files", {SUMMARY: "n_attempt: 3\nscore_mean: 50.0\nscore_std: 0.0\n"}, "PL302",
     f"{TEST}/attempt-3.yaml", r"set n_attempt: (\d+)", set_value(SUMMARY, "n_attempt"), None),
    ("source-typo", {f"{TEST}/attempt-1.yaml": attempt(50.0).replace("CASE-001-one", "CASE-001-onne")}, "PL304",
     f"{TEST}/attempt-1.yaml", r"did you mean '([^']+)'", replace_text(f"{TEST}/attempt-1.yaml", "CASE-001-onne"),
     None),
    ("unknown-key", {BENCH: VALID[BENCH].replace("[author]", 'descripton_zh = "x"\n\n[author]')}, "PL104", BENCH,
     r"did you mean '([^']+)'", replace_text(BENCH, "descripton_zh"), None),
]

VERSIONS = [
    ("v1.2.0", "1.2.0", "drop the 'v' prefix"),
    ("1.2", "1.2.0", "add the patch number"),
    ("3", "3.0.0", "add the minor and patch numbers"),
    ("01.2.03", "1.2.3", "remove the leading zeros"),
    ("V1.02", "1.2.0", "drop the 'V' prefix, remove the leading zeros and add the patch number"),
    ("1.0.0-rc.01", "1.0.0-rc.1", "remove the leading zeros"),
    ("1.2.3.4", "1.2.3+4", "SemVer has three numbers"),
]
for old, new, what in VERSIONS:
    CASES.append((f"version-{old}", {BENCH: VALID[BENCH].replace('version = "1.0.0"', f'version = "{old}"')},
                  "PL203", BENCH, r'(version = "[^"]+")$', replace_line(BENCH, f'version = "{old}"'), None))


def _findings(run, code, path):
    return [f for f in run.findings if f["code"] == code and f["path"] == path]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c[0])
def test_applying_the_proposed_value_clears_the_finding(repo, case):
    _, files, code, path, pattern, apply, check = case
    before = lint(repo(files), "--all")
    found = _findings(before, code, path)
    assert found, before.findings
    m = re.search(pattern, found[0]["hint"] or "")
    assert m, found[0]["hint"]
    fixed = apply({k: v for k, v in {**VALID, **files}.items() if v is not None}, m.group(1))
    after = lint(repo(fixed, base={}), "--all")
    assert _findings(after, code, path) == [], after.findings
    # The proposal fixes this mistake without making another.
    assert after.codes() == [], after.findings
    if check is not None:
        check({k: v for k, v in fixed.items() if v is not None})


@pytest.mark.parametrize("old,new,what", VERSIONS)
def test_version_hint_names_the_mistake(repo, old, new, what):
    files = {BENCH: VALID[BENCH].replace('version = "1.0.0"', f'version = "{old}"')}
    [f] = _findings(lint(repo(files), "--all"), "PL203", BENCH)
    assert f["hint"].startswith(what)
    assert f["hint"].endswith(f'version = "{new}"')


def test_date_version_hint_names_the_date(repo):
    files = {BENCH: VALID[BENCH].replace('version = "1.0.0"', 'version = "2026.10.09.1"')}
    [f] = _findings(lint(repo(files), "--all"), "PL203", BENCH)
    assert f["hint"].startswith("2026.10.09.1 is a date version, not SemVer")
    assert (f["line"], f["column"]) == (4, 11)


def test_unrecognised_version_keeps_the_general_hint(repo):
    files = {BENCH: VALID[BENCH].replace('version = "1.0.0"', 'version = "latest"')}
    [f] = _findings(lint(repo(files), "--all"), "PL203", BENCH)
    assert f["hint"] == 'use a version such as "1.0.0"; date versions like 2026.10.09.1 are not SemVer'


def test_the_yaml_number_hint_of_the_issue(repo):
    run = lint(repo({f"{TEST}/attempt-1.yaml": attempt(50.0, "cost: 1e-3")}), "--all")
    [f] = _findings(run, "PL102", f"{TEST}/attempt-1.yaml")
    assert (f["line"], f["column"]) == (2, 7)
    assert f["hint"] == ("YAML 1.1 reads 1e-3 as text, not a number; write it with a decimal point and a "
                         "signed exponent (1.0e-3) or in full (0.001)")


TIMESTAMPS = [
    ('"2026-10-29 12:00"', "2026-10-29T12:00:00Z", "put a T between the date and the time, add the seconds and add an offset"),
    ("2026-10-29T12:00:00", "2026-10-29T12:00:00Z", "add an offset and quote it"),
    ('"2026-10-29T12:00Z"', "2026-10-29T12:00:00Z", "add the seconds"),
    ('"2026-10-29 12:00:00 +0800"', "2026-10-29T12:00:00+08:00",
     "put a T between the date and the time and write the offset as +HH:MM"),
    ('"2026-10-29T12:00:00 UTC"', "2026-10-29T12:00:00Z", "write UTC as Z"),
    ("2026-10-29", "2026-10-29T00:00:00Z", "add the time, add an offset and quote it"),
    # a lowercase z is an offset already: only its case is wrong
    ('"2026-10-29T12:00:00z"', "2026-10-29T12:00:00Z", "write Z in capitals"),
    ('"2026-10-29t12:00:00z"', "2026-10-29T12:00:00Z", "write T and Z in capitals"),
]
for old, new, what in TIMESTAMPS:
    CASES.append((f"timestamp-{old}", {BENCH: VALID[BENCH].replace('last_update = "2026-10-29T12:00:00Z"',
                                                                      f"last_update = {old}")},
                  "PL204", BENCH, r'(last_update = "[^"]+")', replace_line(BENCH, f"last_update = {old}"), None))
CASES.append(("quote-it-toml", {BENCH: VALID[BENCH].replace('title = "Bench A"', "title = 2026")}, "PL102", BENCH,
              r"quote it: (.+)$", replace_line(BENCH, "title = 2026"), None))


@pytest.mark.parametrize("old,new,what", TIMESTAMPS)
def test_timestamp_hint_names_what_is_missing(repo, old, new, what):
    files = {BENCH: VALID[BENCH].replace('last_update = "2026-10-29T12:00:00Z"', f"last_update = {old}")}
    [f] = _findings(lint(repo(files), "--all"), "PL204", BENCH)
    assert f["hint"].startswith(f'{what}: last_update = "{new}"')
    assert ("Z is UTC" in f["hint"]) == ("offset" in what and "+HH:MM" not in what)


def test_impossible_timestamp_keeps_the_general_hint(repo):
    files = {BENCH: VALID[BENCH].replace('last_update = "2026-10-29T12:00:00Z"', 'last_update = "2026-13-29T12:00:00Z"')}
    [f] = _findings(lint(repo(files), "--all"), "PL204", BENCH)
    assert f["hint"].startswith("write it as a quoted string such as")


def rename_folder(old):
    def apply(files, new_name):
        parent = old.rpartition("/")[0]
        return {(f"{parent}/{new_name}/" + k[len(old) + 1:] if k.startswith(old + "/") else k): v
                for k, v in files.items()}
    return apply


CASES += [
    ("experiment-typo", {LB: VALID[LB].replace("experiment_id: exp-1", "experiment_id: exp-l")}, "PL401", LB,
     r"did you mean '([^']+)'", replace_text(LB, "exp-l"), None),
    ("phase-typo", {LB: VALID[LB].replace("phase: test", "phase: tset")}, "PL401", LB,
     r"did you mean '([^']+)'", replace_text(LB, "tset"), None),
    ("metric-typo", {LB: VALID[LB].replace("phase: test", "phase: test\n" + " " * 12 + "metric: score_sdt")}, "PL402", LB,
     r"did you mean '([^']+)'", replace_text(LB, "score_sdt"), None),
    ("benchmark-typo", {META: VALID[META].replace("benchmark_id: bench-a", "benchmark_id: bench-aa")}, "PL307",
     META, r"did you mean '([^']+)'", replace_text(META, "bench-aa"), None),
]

# a misspelt enum value: the option it was meant to be (issue 30)
CASES += [
    ("enum-typo", {LB: VALID[LB].replace("status: draft", "status: publised")}, "PL103", LB,
     r"^did you mean '([^']+)'\?$", replace_text(LB, "publised"), loads_as(LB, "status", "published")),
    ("enum-case", {BENCH: VALID[BENCH].replace('status = "draft"', 'status = "Draft"')}, "PL103", BENCH,
     r"^did you mean '([^']+)'\?$", replace_text(BENCH, "Draft"), None),
]

_MOVED = {k.replace(f"{TEST}/", "experiments/lb/exp-1/tset/"): v for k, v in VALID.items() if k.startswith(TEST + "/")}
_MOVED.update({k: None for k in VALID if k.startswith(TEST + "/")})
CASES.append(("phase-folder", _MOVED, "PL308", "experiments/lb/exp-1/tset", r"rename the folder to '([^']+)'",
              rename_folder("experiments/lb/exp-1/tset"), None))


def _weighted_board():
    from tests.rules.test_rules_leaderboards import BENCH_B, board, experiment
    files = {**BENCH_B, **experiment("exp-2"), **board(
        "  - op: weighted_mean\n"
        "    args: [{ experiment_id: exp-1, phase: test }, { experiment_id: exp-2, phase: test }]\n")}
    return files


def insert_after(path, line_text):
    def apply(files, value):
        lines = files[path].split("\n")
        i = next(i for i, ln in enumerate(lines) if ln.strip() == line_text)
        indent = len(lines[i]) - len(lines[i].lstrip()) + (2 if line_text.startswith("- ") else 0)
        lines.insert(i + 1, " " * indent + value)
        return {**files, path: "\n".join(lines)}
    return apply


CASES.append(("equal-weights", _weighted_board(), "PL405", LB, r"add (weights: \[[0-9, ]+\])",
              insert_after(LB, "- op: weighted_mean"), None))


@pytest.mark.parametrize("value", [
    "1.0.0-\u00b2", "1.2.3.\u00b2", "v\u00b2", "\u0663.1.2", "1.2.3-\u0661", "9" * 59, "v" + "9" * 5000,
    "1." * 30, "2026.10.09::error::x", "", " ", "\x00", "1.2.3\n4",
])
def test_version_hints_survive_odd_values(value):
    from penguin_lint.rules.pl203_invalid_version import SEMVER, version_hint
    hint = version_hint(value, "toml")
    if hint is not None and 'version = "' in hint:
        assert SEMVER.match(hint.rsplit('version = "', 1)[1].rstrip('"'))
    assert hint is None or ("::" not in hint and "\n" not in hint)


@pytest.mark.parametrize("value", [
    "\u0662\u0660\u0662\u0666-10-29", "2026-10-29 12:00:00 +9999", "2026-02-30", "2026-10-29T24:00", "x" * 5000, "",
])
def test_timestamp_hints_survive_odd_values(value):
    from penguin_lint.rules.pl204_invalid_timestamp import timestamp_hint
    from penguin_lint.validation.formats import is_date_time
    hint = timestamp_hint(value, "toml", native=False)
    if hint is not None:
        assert is_date_time(hint.split('last_update = "', 1)[1].split('"', 1)[0])
