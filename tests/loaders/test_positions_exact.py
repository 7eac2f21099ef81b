"""Every finding is placed exactly: the text from its line:column to its
end_line:end_column is the value or the key it names, in TOML, YAML and JSON.

End columns are exclusive (the column just after the last character), as
SARIF's endColumn is. Each test reads the reported range back out of the file
and parses it: a leaf or an inline collection must read as the value at its
path, a key as its name, and a table or a block collection must hold every
value below it and end where the last of them ends.
"""
from __future__ import annotations

import json
import math
import re
import shutil
from pathlib import Path

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from penguin_lint.loaders.json_loader import load_json
from penguin_lint.loaders.toml_loader import load_toml
from penguin_lint.loaders.toml_parser import tomllib
from penguin_lint.loaders.yaml_loader import load_yaml, load_yaml_events
from tests.conftest import VALID, lint

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def text_at(text: str, line: int, column: int, end_line: int, end_column: int) -> str:
    """The text from line:column up to (not including) end_line:end_column,
    lines counted at LF as editors count them, columns 1-based code points."""
    lines = text.split("\n")
    if line == end_line:
        return lines[line - 1][column - 1:end_column - 1]
    return "\n".join([lines[line - 1][column - 1:]] + lines[line:end_line - 1]
                     + [lines[end_line - 1][:end_column - 1]])


def at(text: str, pos) -> str:
    assert pos.end_line is not None and pos.end_column is not None, pos
    return text_at(text, pos.line, pos.column, pos.end_line, pos.end_column)


def offset(text: str, line: int, column: int) -> int:
    starts = [0] + [m.end() for m in re.finditer("\n", text)]
    return starts[line - 1] + column - 1


def walk(value, path=()):
    yield path, value
    if isinstance(value, dict):
        for k, v in value.items():
            yield from walk(v, path + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from walk(v, path + (i,))


def same(a, b) -> bool:
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return True
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    return type(a) is type(b) and a == b


def span(text, pos):
    return offset(text, pos.line, pos.column), offset(text, pos.end_line, pos.end_column)


# -- TOML ----------------------------------------------------------------------------

def _without_comment(line: str) -> str:
    """A TOML line up to its comment: a '#' inside a quoted key is no comment."""
    quote = None
    i = 0
    while i < len(line):
        c = line[i]
        if quote is None and c == "#":
            return line[:i]
        if quote == '"' and c == "\\":
            i += 2
            continue
        if c in "\"'" and quote in (None, c):
            quote = None if quote == c else c
        i += 1
    return line


def check_toml(text: str) -> None:
    """Every value and key of ``text`` placed exactly (see the module's doc)."""
    raw = tomllib.loads(text)
    doc = load_toml(text, "f.toml")
    assert doc.parsed, doc.problems
    if not raw:
        return  # nothing to place: a finding on the file is at 1:1
    for path, value in walk(raw):
        pos = doc.value_pos(path)
        got = at(text, pos)
        s, e = span(text, pos)
        if path and isinstance(path[-1], str):
            key = at(text, doc.key_pos(path))
            assert tomllib.loads(key + " = 0") == {path[-1]: 0}, (path, key)
        if not path or got.startswith("[") and isinstance(value, (dict, list)) and not _inline(got, value):
            # a table (header or dotted keys) or an array of tables: it holds
            # every value below it and ends where the last one ends
            ends = []
            for sub, _ in walk(value, path):
                if sub != path:
                    ss, se = span(text, doc.value_pos(sub))
                    assert s <= ss and se <= e, (path, sub)
                    ends.append(se)
            header_end = s + len(_without_comment(got.split("\n", 1)[0]).rstrip())
            assert e == max(ends or [header_end]), (path, got)
            continue
        if isinstance(value, dict) and not got.startswith("{"):
            # a table made by a dotted key: from its part to its last value
            assert got.startswith(at(text, doc.key_pos(path))), (path, got)
            assert e == max(span(text, doc.value_pos(sub))[1] for sub, _ in walk(value, path) if sub != path)
            continue
        assert same(tomllib.loads("v = " + got)["v"], value), (path, got, value)


def _inline(got: str, value) -> bool:
    # an inline array of tables or of anything ("[{a = 1}]") as opposed to a [header]
    try:
        return same(tomllib.loads("v = " + got)["v"], value)
    except tomllib.TOMLDecodeError:
        return False


TOML_DOC = '''\
# a comment first
id = "x"  # trailing
references = [
  "https://example.com/a",
  42,
  # a comment inside
  [1, [2, 3]], { a = 1, b.c = "d" },
]
a.b."c d" = 1979-05-27 07:32:00Z
'e f'.g = 'literal'
budget = { timeout = -5, cpus = "four", n = { m = [1.5e3, inf, 0x1F] } }
text = """
multi "line"
\\"""
"""
raw = \'\'\'two
lines\'\'\'
when = 07:32:00
day = 2026-10-29
t = true
empty = [[], {}, ""]
odd = { "a\\\"b" = 'c # d', e = [1,
  2] }#c

[author]
name = "n" # c
"quoted key" = +1_000

[[runs]]
y = 1
[runs.sub]
z = 2

[[runs]]
y = 3
[[runs.steps]]
q = 1
[[runs.steps]]
q = [
  "a",
  "b"
]  # after

[deep.er]
x = 1
[deep]
y = 2
'''


def test_toml_every_value_and_key_exact():
    check_toml(TOML_DOC)


def test_toml_crlf_and_tabs():
    check_toml(TOML_DOC.replace("\n", "\r\n").replace("y = 1", "y\t=\t1"))


def test_toml_named_places():
    doc = load_toml(TOML_DOC, "f.toml")

    def where(path, key=False):
        p = doc.key_pos(path) if key else doc.value_pos(path)
        return (p.line, p.column, p.end_line, p.end_column), at(TOML_DOC, p)

    assert where(("references", 1)) == ((5, 3, 5, 5), "42")
    assert where(("references", 2, 1, 0)) == ((7, 8, 7, 9), "2")
    assert where(("references", 3, "b", "c")) == ((7, 31, 7, 34), '"d"')
    assert where(("budget", "timeout")) == ((11, 22, 11, 24), "-5")
    assert where(("budget", "cpus")) == ((11, 33, 11, 39), '"four"')
    assert where(("budget", "cpus"), key=True) == ((11, 26, 11, 30), "cpus")
    assert where(("a", "b", "c d"), key=True)[1] == '"c d"'
    assert where(("a", "b", "c d"))[1] == "1979-05-27 07:32:00Z"
    assert where(("id",), key=True) == ((2, 1, 2, 3), "id")
    assert where(("text",))[1] == '"""\nmulti "line"\n\\"""\n"""'
    assert where(("author",))[1] == '[author]\nname = "n" # c\n"quoted key" = +1_000'
    assert where(("author",), key=True)[1] == "author"
    assert where(("runs", 0))[1] == "[[runs]]\ny = 1\n[runs.sub]\nz = 2"
    assert where(("runs", 1, "steps", 1, "q"))[1] == '[\n  "a",\n  "b"\n]'
    assert where(("runs", 1, "steps", 1))[1] == '[[runs.steps]]\nq = [\n  "a",\n  "b"\n]'
    assert where(("deep",))[1] == "[deep.er]\nx = 1\n[deep]\ny = 2"
    # a path that does not exist falls back to the nearest value that does
    assert where(("author", "email"))[1] == where(("author",))[1]


def test_toml_issue_examples_through_the_command_line(tmp_path):
    """The PL102 of an array item and of inline-table members are at the item
    and the members, not at the bracket or the brace that holds them."""
    config = VALID["packages/bench-a/benchmark_config.toml"].replace(
        '        status = "draft"\n',
        '        status = "draft"\n        references = [\n          "https://example.com/a",\n          42,\n        ]\n')
    task = VALID["packages/bench-a/CASE-001-one/task_config.toml"].rstrip(" ") + \
        '        budget = { timeout = -5, cpus = "four" }\n'
    root = tmp_path / "repo"
    from tests.conftest import write_repo
    write_repo(root, {"packages/bench-a/benchmark_config.toml": config,
                      "packages/bench-a/CASE-001-one/task_config.toml": task}, VALID)
    run = lint(root, "--all", "--no-cache")
    got = {}
    for f in run.findings:
        text = (root / f["path"]).read_text()
        got[(f["path"], f["code"], f["message"].split("'")[1])] = (
            f["line"], f["column"], f["end_line"], f["end_column"],
            text_at(text, f["line"], f["column"], f["end_line"], f["end_column"]))
    assert got[("packages/bench-a/benchmark_config.toml", "PL102", "references[1]")] == (9, 3, 9, 5, "42")
    task_findings = {k[2]: v for k, v in got.items() if k[0].endswith("task_config.toml")}
    assert task_findings["budget.timeout"] == (4, 22, 4, 24, "-5")
    assert task_findings["budget.cpus"] == (4, 33, 4, 39, '"four"')


def test_toml_key_ends_at_its_last_character():
    """PL104 on examples/repo's `runs = 1` spans `runs` (1-5), not `runs ` (1-6)."""
    text = (EXAMPLES / "repo/packages/code-review-test/benchmark_config.toml").read_text()
    doc = load_toml(text, "benchmark_config.toml")
    pos = doc.key_pos(("runs",))
    assert (pos.line, pos.column, pos.end_line, pos.end_column) == (7, 1, 7, 5)
    assert at(text, pos) == "runs"


def test_toml_duplicates_named_at_both_places():
    text = 'a = 1\nb.c = 2\n[t]\nx = 1\n[t]\n  b.c = 3\nb . c = 4\n'
    doc = load_toml(text, "f.toml")
    assert not doc.parsed
    found = [(p.code, p.message, at(text, p.pos)) for p in doc.problems]
    assert ("PL002", "duplicate key 't' (first defined on line 3)", "[t]") in found
    assert ("PL002", "duplicate key 'b.c' (first defined on line 6)", "b . c") in found


# a TOML document generated from random data, written in varied ways

_BARE = re.compile(r"[A-Za-z0-9_-]+\Z")


def toml_key(rnd, k: str) -> str:
    if _BARE.match(k) and rnd.random() < 0.8:
        return k
    if "'" not in k and k.isprintable() and rnd.random() < 0.3:
        return "'" + k + "'"
    return toml_basic(k)


def toml_basic(s: str) -> str:
    out = []
    for ch in s:
        if ch == '"' or ch == "\\":
            out.append("\\" + ch)
        elif ch == "\n":
            out.append("\\n")
        elif ord(ch) < 0x20 or ch == "\x7f":
            out.append("\\u%04X" % ord(ch))
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def toml_scalar(rnd, v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        if v >= 0 and rnd.random() < 0.2:
            return hex(v)
        if abs(v) >= 1000 and rnd.random() < 0.3:
            return f"{v:_}"
        return str(v)
    if isinstance(v, float):
        if math.isinf(v):
            return "inf" if v > 0 else "-inf"
        r = repr(v)
        return r if ("." in r or "e" in r) else r + ".0"
    if isinstance(v, str):
        choice = rnd.random()
        if choice < 0.15 and "'" not in v and "\n" not in v and v.isprintable():
            return "'" + v + "'"
        if choice < 0.3 and '"""' not in v and "\\" not in v and v.isprintable() and not v.endswith('"'):
            return '"""\n' + v + '"""'
        if choice < 0.4 and "'''" not in v and v.isprintable() and not v.endswith("'"):
            return "'''" + v + "'''"
        return toml_basic(v)
    raise TypeError(v)


def toml_inline(rnd, v, multiline_ok=True) -> str:
    if isinstance(v, dict):
        if not v:
            return "{}"
        return "{ " + ", ".join(toml_key(rnd, k) + " = " + toml_inline(rnd, x, False) for k, x in v.items()) + " }"
    if isinstance(v, list):
        items = [toml_inline(rnd, x, multiline_ok) for x in v]
        if multiline_ok and items and rnd.random() < 0.5:
            body = "".join("\n  " + it + "," + (" # c" if rnd.random() < 0.3 else "") for it in items)
            return "[" + body + ("\n  # last\n" if rnd.random() < 0.3 else "\n") + "]"
        return "[" + ", ".join(items) + "]"
    return toml_scalar(rnd, v)


def _dotted(rnd, v) -> bool:
    # a non-empty table of tables and scalars written as dotted keys
    return isinstance(v, dict) and bool(v) and rnd.random() < 0.4


def toml_pairs(rnd, table: dict, prefix: str = ""):
    """Lines of ``key = value`` for what is not written as a [table]."""
    out = []
    for k, v in table.items():
        key = prefix + toml_key(rnd, k)
        if _dotted(rnd, v):
            out += toml_pairs(rnd, v, key + ("." if rnd.random() < 0.7 else " . "))
            continue
        out.append(key + " = " + toml_inline(rnd, v) + ("  # c" if rnd.random() < 0.2 else ""))
    return out


def toml_document(rnd, data: dict, header: str = "") -> str:
    """``data`` as TOML: scalars, arrays and some tables inline; the other
    tables as [headers] and lists of tables as [[headers]]."""
    inline, tables, arrays = {}, {}, {}
    for k, v in data.items():
        if isinstance(v, dict) and v and rnd.random() < 0.6:
            tables[k] = v
        elif isinstance(v, list) and v and all(isinstance(x, dict) for x in v) and rnd.random() < 0.7:
            arrays[k] = v
        else:
            inline[k] = v
    parts = toml_pairs(rnd, inline)
    for k, v in tables.items():
        name = header + toml_key(rnd, k)
        parts.append("")
        parts.append("[" + name + "]" + ("  # c" if rnd.random() < 0.2 else ""))
        parts.append(toml_document(rnd, v, name + "."))
    for k, v in arrays.items():
        name = header + toml_key(rnd, k)
        for entry in v:
            parts.append("[[" + name + "]]")
            parts.append(toml_document(rnd, entry, name + "."))
    return "\n".join(p for p in parts if p is not None)


toml_text = st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=12)
toml_scalars = st.one_of(
    st.booleans(), st.integers(min_value=-(2 ** 63), max_value=2 ** 63 - 1),
    st.floats(allow_nan=False), toml_text,
)
toml_values = st.recursive(
    toml_scalars,
    lambda children: st.one_of(
        st.lists(children, max_size=4),
        st.dictionaries(st.one_of(st.sampled_from(["a", "b-c", "d_1", "42"]), toml_text), children, max_size=4),
    ),
    max_leaves=20,
)
toml_documents = st.dictionaries(st.one_of(st.sampled_from(["id", "x", "y"]), toml_text), toml_values,
                                 max_size=6)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=toml_documents, rnd=st.randoms(use_true_random=False), crlf=st.booleans())
def test_toml_generated_documents_placed_exactly(data, rnd, crlf):
    text = toml_document(rnd, data) + "\n"
    if crlf:
        text = text.replace("\n", "\r\n")
    try:
        assert tomllib.loads(text) is not None
    except tomllib.TOMLDecodeError as e:  # the writer above is wrong, not the loader
        raise AssertionError(f"generated TOML does not parse: {e}\n{text}") from None
    check_toml(text)


def test_a_hash_inside_a_quoted_table_name_is_no_comment():
    # found by the generator above: the header ends at its closing brackets
    check_toml('id = []\n[["#\\u001F"]]\n')
    check_toml("[['a#b']]  # the table\nx = 1\n")


# -- YAML ----------------------------------------------------------------------------

def check_yaml(text: str, loader=load_yaml) -> None:
    data = yaml.safe_load(text)
    doc = loader(text, "f.yaml")
    assert doc.parsed, doc.problems
    for path, value in walk(data):
        pos = doc.value_pos(path)
        got = at(text, pos)
        # read at its own column: a block collection's later lines are indented to it;
        # a block scalar's range ends at its last character, before the line break it keeps
        block = got[:1] in ("|", ">")
        assert same(yaml.safe_load(" " * (pos.column - 1) + got + ("\n" if block else "")), value), (path, got)
        assert got == got.rstrip(" \t\r\n"), (path, got)
        assert "#~" not in got.rsplit("\n", 1)[-1], (path, got)  # no comment after the value
        if path and isinstance(path[-1], str):
            key = at(text, doc.key_pos(path))
            assert yaml.safe_load(key + ": 0") == {path[-1]: 0}, (path, key)


YAML_DOC = """\
# a comment
a:
  b: 1   #~ trailing
  c:
    - x
    - { k: v, l: [1, 2] }  #~
    - - 1
      - 2
    #~ a comment line inside

  d: |
    block text
    more

  e: >-
    folded

#~ between
f: [a, b]
g:
- 1
- "two"   #~

h: 'q'
i:
m: [1,
  2,  #~ c
  {a: b}
  ]  #~ after
"""


def test_yaml_every_value_and_key_exact():
    check_yaml(YAML_DOC)
    check_yaml(YAML_DOC, load_yaml_events)
    check_yaml(YAML_DOC.replace("\n", "\r\n"))


def test_yaml_block_collections_end_at_their_last_character():
    doc = load_yaml(YAML_DOC, "f.yaml")

    def where(path):
        p = doc.value_pos(path)
        return (p.line, p.column, p.end_line, p.end_column), at(YAML_DOC, p)

    assert where(("a", "c")) == ((5, 5, 8, 10), "- x\n    - { k: v, l: [1, 2] }  #~\n    - - 1\n      - 2")
    assert where(("a", "d")) == ((11, 6, 13, 9), "|\n    block text\n    more")
    assert where(("a",))[0] == (3, 3, 16, 11)  # up to 'folded'
    assert where(("g",)) == ((21, 1, 22, 8), '- 1\n- "two"')


def test_yaml_fast_path_places_as_the_event_loop():
    text = "a:\n  b: 1  # c\n\n  c:\n    - x\n    - y\n# end\nd: 2\n"
    fast, slow = load_yaml(text, "f.yaml"), load_yaml_events(text, "f.yaml")
    for path, _ in walk(slow.data):
        assert fast.value_pos(path) == slow.value_pos(path), path
    assert at(text, fast.value_pos(("a",))) == "b: 1  # c\n\n  c:\n    - x\n    - y"


def test_example_leaderboard_range_ends_at_its_value(tmp_path):
    """examples/repo's PL403 names the second value of the leaderboard, lines
    17-20: the range ends after the '}' of line 20, not at line 22."""
    root = tmp_path / "repo"
    shutil.copytree(EXAMPLES / "repo", root)
    run = lint(root, "--all", "--no-cache")
    (f,) = [f for f in run.findings if f["code"] == "PL403"]
    text = (root / f["path"]).read_text()
    assert (f["line"], f["column"], f["end_line"]) == (17, 5, 20)
    assert f["end_column"] == len(text.split("\n")[19]) + 1
    got = text_at(text, f["line"], f["column"], f["end_line"], f["end_column"])
    assert got.startswith('op: "mean"') and got.endswith('metric: "score_mean" }')
    assert yaml.safe_load(" " * 4 + got) == yaml.safe_load(text)["values"][1]
    # and in SARIF the region is the same
    sarif = lint(root, "--all", "--no-cache", fmt="sarif").json
    regions = [r["locations"][0]["physicalLocation"]["region"] for r in sarif["runs"][0]["results"]
               if r["ruleId"] == "PL403"]
    assert regions == [{"startLine": 17, "startColumn": 5, "endLine": 20, "endColumn": f["end_column"]}]


# no character that YAML reads as a line break and editors do not (test_line_definition.py
# covers those): the range is read back with yaml.safe_load
yaml_text = st.text(alphabet=st.characters(blacklist_categories=("Cs", "Cc", "Zl", "Zp")), max_size=15)
yaml_scalars = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False), yaml_text)
yaml_values = st.recursive(
    yaml_scalars,
    lambda children: st.one_of(st.lists(children, max_size=4),
                               st.dictionaries(yaml_text, children, max_size=4)),
    max_leaves=20,
)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.dictionaries(yaml_text.filter(bool), yaml_values, min_size=1, max_size=5),
       rnd=st.randoms(use_true_random=False), flow=st.booleans())
def test_yaml_generated_documents_placed_exactly(data, rnd, flow):
    text = yaml.safe_dump(data, allow_unicode=True, sort_keys=False, width=float("inf"),
                          default_flow_style=None if flow else False)
    lines = []
    for line in text.splitlines():
        r = rnd.random()
        if r < 0.15:
            lines.append("#~ a comment line")
        elif r < 0.25:
            lines.append("")
        lines.append(line + ("  #~ c" if rnd.random() < 0.2 and not line.endswith("|") else ""))
    text = "\n".join(lines) + "\n"
    check_yaml(text)
    check_yaml(text, load_yaml_events)


# -- JSON ----------------------------------------------------------------------------

def check_json(text: str) -> None:
    data = json.loads(text)
    doc = load_json(text, "f.json")
    assert doc.parsed, doc.problems
    for path, value in walk(data):
        got = at(text, doc.value_pos(path))
        assert same(json.loads(got), value), (path, got)
        if path and isinstance(path[-1], str):
            assert json.loads(at(text, doc.key_pos(path))) == path[-1]


json_values = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False, allow_infinity=False),
              st.text(max_size=10)),
    lambda children: st.one_of(st.lists(children, max_size=4),
                               st.dictionaries(st.text(max_size=6), children, max_size=4)),
    max_leaves=20,
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=json_values, indent=st.sampled_from([None, 0, 2, "\t"]))
def test_json_generated_documents_placed_exactly(data, indent):
    check_json(json.dumps(data, indent=indent, ensure_ascii=False))


def test_json_harbor_finding_placed_exactly(tmp_path):
    root = tmp_path / "repo"
    shutil.copytree(EXAMPLES / "harbor/clean", root)
    board = yaml.safe_load((root / "leaderboard/leaderboard.yaml").read_text())
    (root / "leaderboard/leaderboard.yaml").unlink()
    board["visibility"] = "secret"
    text = json.dumps(board, indent=2, ensure_ascii=False) + "\n"
    (root / "leaderboard/leaderboard.json").write_text(text)
    run = lint(root, "--all", "--no-cache")
    found = [f for f in run.findings if f["path"] == "leaderboard/leaderboard.json"]
    assert found, run.output
    for f in found:
        got = text_at(text, f["line"], f["column"], f["end_line"], f["end_column"])
        assert got == '"secret"', f


def test_github_annotation_spans_the_key_alone(tmp_path):
    """The PL104 on `runs = 1` annotates columns 1-5 (`runs`, end exclusive
    as everywhere), one line; the PL403 spans lines 17-20 without columns."""
    root = tmp_path / "repo"
    shutil.copytree(EXAMPLES / "repo", root)
    out = lint(root, "--all", "--no-cache", fmt="github").output
    runs = [ln for ln in out.splitlines() if "PL104" in ln and "benchmark_config.toml" in ln]
    assert runs and "line=7,col=1,endColumn=5," in runs[0], runs
    board = [ln for ln in out.splitlines() if "PL403" in ln]
    assert board and "line=17,endLine=20,title=" in board[0], board
