"""PL001–PL007 and PL101–PL207: a failing and a passing case each, with lines."""
import json
import os
import textwrap
import tomllib

import pytest

from tests.conftest import VALID, lint

BENCH = "packages/bench-a/benchmark_config.toml"
TASK = "packages/bench-a/CASE-001-one/task_config.toml"
META = "experiments/lb/exp-1/meta_info.yaml"
SUMMARY = "experiments/lb/exp-1/test/summary.yaml"
LB = "leaderboards/lb/leaderboard.yaml"

GOOD_BENCH = textwrap.dedent(VALID[BENCH])


def bench(**over):
    text = GOOD_BENCH
    for key, value in over.items():
        lines = [ln for ln in text.split("\n") if not ln.startswith(f"{key} =")]
        if value is not None:
            lines.insert(1, f"{key} = {value}")
        text = "\n".join(lines)
    return text


def test_pl001_yaml_parse_error_with_parser_position(repo):
    run = lint(repo({META: "experiment_id: exp-1\nbenchmark_id: [bench-a\n"}), "--all")
    # the file has two lines: the end of the file is the end of line 2
    assert run.at("PL001") == [(META, 2)]
    assert run.code == 1


def test_pl001_toml_parse_error(repo):
    run = lint(repo({BENCH: 'id = "bench-a\ntitle = "x"\n'}), "--all")
    assert run.at("PL001") == [(BENCH, 1)]


def test_pl001_json_parse_error(repo, tmp_path):
    root = repo({"hub/board.json": '{"name": "x",\n  "title": }\n',
                 ".penguin-lint.toml": '[kinds]\n"hub/*.json" = "harbor_leaderboard"\n'})
    run = lint(root, "--all")
    assert run.at("PL001") == [("hub/board.json", 2)]


def test_pl001_passes_on_valid(repo):
    assert "PL001" not in lint(repo(), "--all").codes()


def test_pl002_duplicate_key_names_both_lines(repo):
    run = lint(repo({SUMMARY: "n_attempt: 2\nscore_mean: 50.0\nscore_std: 0.0\nscore_mean: 51.0\n"}), "--all")
    [f] = [f for f in run.findings if f["code"] == "PL002"]
    assert (f["path"], f["line"]) == (SUMMARY, 4)
    assert "line 2" in f["message"]


def test_pl002_toml_duplicate(repo):
    run = lint(repo({BENCH: GOOD_BENCH + 'title = "again"\n'}), "--all")
    # the second 'title' sits in [author]: author.title is an unknown field, not a duplicate
    assert "PL002" not in run.codes()
    run = lint(repo({BENCH: 'title = "first"\n' + GOOD_BENCH}), "--all")
    [f] = [f for f in run.findings if f["code"] == "PL002"]
    assert (f["path"], f["line"]) == (BENCH, 3) and "line 1" in f["message"]


def test_pl003_anchor_alias_merge_and_directive(repo):
    text = ("%YAML 1.1\n---\nexperiment_id: &e exp-1\nbenchmark_id: bench-a\nharness_name: *e\n"
            "model_name: m\nalgorithm: baseline\n")
    run = lint(repo({META: text}), "--all")
    assert sorted(run.at("PL003")) == [(META, 1), (META, 3), (META, 5)]


def test_pl003_alias_bomb_is_not_expanded(repo):
    lines = ['a0: &a0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for i in range(1, 10):
        lines.append(f"a{i}: &a{i} [" + ",".join([f"*a{i-1}"] * 9) + "]")
    run = lint(repo({META: "\n".join(lines) + "\n"}), "--all")
    assert len(run.at("PL003")) == 10 + 81
    assert run.code == 1


def test_pl004_file_too_large(repo):
    root = repo({".penguin-lint.toml": 'max-file-size = "1KiB"\n',
                 SUMMARY: "n_attempt: 2\nscore_mean: 50.0\nscore_std: 0.0\n# " + "x" * 2000 + "\n",
                 "packages/bench-a/CASE-001-one/statement/big.txt": "y" * 5000})
    run = lint(root, "--all")
    assert sorted(run.at("PL004")) == [(SUMMARY, 1), ("packages/bench-a/CASE-001-one/statement/big.txt", 1)]


def test_pl004_passes_under_limit(repo):
    assert "PL004" not in lint(repo(), "--all").codes()


def test_pl005_invalid_utf8_and_nul(repo):
    root = repo({META: b"experiment_id: exp-1\nmodel_name: caf\xe9\n",
                 SUMMARY: b"n_attempt: 2\x00\n"})
    run = lint(root, "--all")
    assert sorted(run.at("PL005")) == [(META, 2), (SUMMARY, 1)]


def test_pl005_bom_and_crlf_are_fine_and_positions_hold(repo):
    text = "\ufeffexperiment_id: exp-1\r\nbenchmark_id: bench-a\r\nharness_name: h\r\nmodel_name: m\r\nalgorithm: 7\r\n"
    run = lint(repo({META: text.encode("utf-8")}), "--all")
    assert "PL005" not in run.codes()
    assert run.at("PL102") == [(META, 5)]


def test_pl005_toml_with_a_byte_order_mark_is_a_finding_and_fix_removes_only_the_mark(repo):
    # tomllib reads no mark: the harness cannot read the file
    text = GOOD_BENCH.replace('id = "bench-a"', 'id = "bench-x"')
    with pytest.raises(tomllib.TOMLDecodeError, match="line 1, column 1"):
        tomllib.loads("\ufeff" + text)
    root = repo({BENCH: b"\xef\xbb\xbf" + text.encode(), TASK: b"\xef\xbb\xbf" + VALID[TASK].encode()})
    run = lint(root, "--all")
    found = sorted((f["code"], f["path"], f["line"], f["column"]) for f in run.findings)
    # the rest of the file is still read: its own mistake is reported too
    assert found == sorted([("PL005", BENCH, 1, 1), ("PL005", TASK, 1, 1), ("PL201", BENCH, 1, 6)])
    [mark] = [f for f in run.findings if f["path"] == BENCH and f["code"] == "PL005"]
    assert mark["message"] == "file starts with a byte-order mark, which tomllib refuses"
    assert mark["hint"] == "save it as UTF-8 without the mark"
    fixed = lint(root, "--all", "--fix")
    assert fixed.findings == [] and fixed.json["summary"]["fixed"] == 3
    assert (root / BENCH).read_bytes() == GOOD_BENCH.encode()
    assert (root / TASK).read_bytes() == VALID[TASK].encode()
    tomllib.loads((root / TASK).read_text())


def test_pl005_a_mark_in_json_is_read_as_json_loads_reads_bytes(repo):
    board = '{"name": "x", "title": 7}\n'
    config = '[kinds]\n"hub/*.json" = "harbor_leaderboard"\n'
    assert json.loads(b"\xef\xbb\xbf" + board.encode())["title"] == 7
    with pytest.raises(json.JSONDecodeError):
        json.loads(b"\xef\xbb\xbf\xef\xbb\xbf" + board.encode())
    one = lint(repo({"hub/board.json": b"\xef\xbb\xbf" + board.encode(), ".penguin-lint.toml": config}), "--all")
    assert "PL005" not in one.codes() and "PL001" not in one.codes()
    assert ("hub/board.json", 1) in one.at("PL102")  # read: its title is not text
    two = lint(repo({"hub/board.json": b"\xef\xbb\xbf" * 2 + board.encode(), ".penguin-lint.toml": config}),
               "--all")
    assert two.at("PL001") == [("hub/board.json", 1)] and "PL005" not in two.codes()


def test_pl006_symlinks_reported_never_followed(repo, tmp_path):
    root = repo()
    os.symlink("/etc/passwd", root / "packages/bench-a/CASE-001-one/statement/passwd.yaml")
    os.symlink(root / "packages/bench-a", root / "packages/bench-link")
    run = lint(root, "--all")
    assert sorted(run.at("PL006")) == [("packages/bench-a/CASE-001-one/statement/passwd.yaml", None),
                                       ("packages/bench-link", None)]
    assert "root:" not in run.output


def test_pl006_symlinked_top_folder(repo, tmp_path):
    root = repo()
    target = tmp_path / "elsewhere"
    (root / "leaderboards").rename(target)
    os.symlink(target, root / "leaderboards")
    assert run_at(root, "PL006") == [("leaderboards", None)]


def run_at(root, code):
    return lint(root, "--all").at(code)


def test_pl007_forbidden_entries(repo):
    root = repo({"packages/bench-a/scoreboard.yaml": "x: 1\n",
                 "packages/bench-a/.jobs/trial/log.txt": "log\n",
                 "packages/bench-a/CASE-001-one/data.zip": "PK",
                 "packages/bench-a/CASE-001-one/.gitkeep": "",
                 "packages/bench-a/CASE-001-one/.env": "TOKEN=x\n"})
    tool = root / "packages/bench-a/CASE-001-one/statement/run.sh"
    tool.write_text("#!/bin/sh\n")
    tool.chmod(0o755)
    run = lint(root, "--all")
    assert sorted(p for p, _ in run.at("PL007")) == [
        "packages/bench-a/.jobs",
        "packages/bench-a/CASE-001-one/.env",
        "packages/bench-a/CASE-001-one/data.zip",
        "packages/bench-a/CASE-001-one/statement/run.sh",
        "packages/bench-a/scoreboard.yaml",
    ]


def test_pl101_missing_field_with_typo_hint(repo):
    run = lint(repo({BENCH: bench(version=None, versoin='"1.0.0"')}), "--all")
    [f] = [f for f in run.findings if f["code"] == "PL101"]
    assert (f["path"], f["line"]) == (BENCH, 1)
    assert "version" in f["message"] and "versoin" in f["hint"]


def test_pl101_nested_missing_name(repo):
    run = lint(repo({BENCH: GOOD_BENCH.replace('name = "Lab"', 'email = "a@b.org"')}), "--all")
    assert run.at("PL101") == [(BENCH, 8)]


def test_pl102_wrong_type_with_quote_hint(repo):
    text = "experiment_id: exp-1\nbenchmark_id: bench-a\nharness_name: h\nmodel_name: 1.5\nalgorithm: yes\n"
    run = lint(repo({META: text}), "--all")
    found = {f["line"]: f for f in run.findings if f["code"] == "PL102"}
    assert sorted(found) == [4, 5]
    assert 'model_name: "1.5"' in found[4]["hint"]
    assert 'algorithm: "yes"' in found[5]["hint"]


def test_pl102_quoted_number_hint(repo):
    run = lint(repo({SUMMARY: 'n_attempt: 2\nscore_mean: "50.0"\nscore_std: 0.0\n'}), "--all")
    [f] = [f for f in run.findings if f["code"] == "PL102"]
    assert f["line"] == 2 and "without quotes" in f["hint"]


def test_pl102_boolean_is_not_a_number(repo):
    run = lint(repo({SUMMARY: "n_attempt: yes\nscore_mean: 50.0\nscore_std: 0.0\n"}), "--all")
    assert run.at("PL102") == [(SUMMARY, 1)]


def test_pl103_invalid_values(repo):
    run = lint(repo({BENCH: bench(status='"public"'),
                     SUMMARY: "n_attempt: 2\nscore_mean: .nan\nscore_std: -1\n"}), "--all")
    assert sorted(run.at("PL103")) == [(SUMMARY, 2), (SUMMARY, 3), (BENCH, 2)]


def test_pl104_unknown_field_is_a_warning_with_suggestion(repo):
    run = lint(repo({BENCH: GOOD_BENCH.replace("[author]", 'refrences = ["https://x.org"]\n\n[author]')}), "--all")
    [f] = [f for f in run.findings if f["code"] == "PL104"]
    assert (f["line"], f["severity"]) == (8, "warning") and "references" in f["hint"]
    assert run.code == 0
    assert lint(run_root := repo({BENCH: GOOD_BENCH.replace("[author]", 'refrences = ["https://x.org"]\n\n[author]')}),
                "--all", "--strict").code == 1
    assert run_root


def test_pl201_id_mismatch(repo):
    run = lint(repo({BENCH: bench(id='"bench-b"')}), "--all")
    assert run.at("PL201") == [(BENCH, 2)]
    assert "PL201" not in lint(repo(), "--all").codes()


def test_pl202_invalid_ids(repo):
    root = repo({
        BENCH: bench(id='"bench_a"'),
        META: "experiment_id: ../../etc\nbenchmark_id: bench-a\nharness_name: h\nmodel_name: m\nalgorithm: b\n",
    })
    run = lint(root, "--all")
    assert sorted(run.at("PL202")) == [(META, 1), (BENCH, 2)]


def test_pl202_trailing_newline_is_not_a_full_match(repo):
    run = lint(repo({BENCH: bench(id='"bench-a\\n"')}), "--all")
    assert (BENCH, 2) in run.at("PL202")


def test_pl203_semver(repo):
    assert lint(repo({BENCH: bench(version='"2026.10.09.1"')}), "--all").at("PL203") == [(BENCH, 2)]
    assert lint(repo({BENCH: bench(version='"01.0.0"')}), "--all").at("PL203") == [(BENCH, 2)]
    assert lint(repo({BENCH: bench(version='"1.0.0-rc.1+build.5"')}), "--all").at("PL203") == []


@pytest.mark.parametrize("value, ok", [
    ('"2026-10-29T12:00:00Z"', True),
    ('"2026-10-29T20:00:00+08:00"', True),
    ("2026-10-29T12:00:00Z", True),          # native TOML date-time with offset
    ("2026-10-29T12:00:00", False),          # local time: never taken as UTC
    ('"2026-10-29 12:00"', False),
    ('"2026-10-29T12:00Z"', False),          # no seconds
    ("2026-10-29", False),
    ('"2026-13-29T12:00:00Z"', False),
])
def test_pl204_timestamps(repo, value, ok):
    run = lint(repo({BENCH: bench(last_update=value)}), "--all")
    assert run.at("PL204") == ([] if ok else [(BENCH, 2)])


def test_pl205_missing_companion_files(repo):
    root = repo({"packages/bench-a/CASE-001-one/rubric/README.md": None,
                 "data/bench-a/notes.txt": "x"})
    run = lint(root, "--all")
    assert sorted(run.at("PL205")) == [("data/bench-a/README.md", None),
                                       ("packages/bench-a/CASE-001-one/rubric/README.md", None)]


def test_pl206_orphan_data(repo):
    run = lint(repo({"data/bench-z/README.md": "# z\n", "data/bench-a/README.md": "# a\n"}), "--all")
    assert run.at("PL206") == [("data/bench-z", None)]


def test_pl207_unpaired_split(repo):
    train = GOOD_BENCH.replace('"bench-a"', '"bench-train"')
    root = repo({"packages/bench-train/benchmark_config.toml": train})
    run = lint(root, "--all")
    [f] = [f for f in run.findings if f["code"] == "PL207"]
    assert (f["path"], f["line"], f["severity"]) == ("packages/bench-train/benchmark_config.toml", 1, "warning")
    root2 = repo({"packages/bench-test/benchmark_config.toml": GOOD_BENCH.replace('"bench-a"', '"bench-test"')})
    assert "PL207" not in lint(root2, "--all").codes()


def test_pl102_yaml11_exponent_is_text_hint(repo):
    run = lint(repo({SUMMARY: "n_attempt: 2\nscore_mean: 5e1\nscore_std: 0.0\n"}), "--all")
    [f] = [f for f in run.findings if f["code"] == "PL102"]
    assert f["line"] == 2 and "YAML 1.1 reads 5e1 as text" in f["hint"]


@pytest.mark.parametrize("path, text, line", [
    (SUMMARY, "n_attempt: 2\nscore_mean: " + "9" * 5000 + "\n", 2),
    (BENCH, 'id = "bench-a"\nruns = ' + "9" * 5000 + "\n", 2),
])
def test_pl001_integer_too_long_to_read(repo, path, text, line):
    run = lint(repo({path: text}), "--all")
    assert run.at("PL001") == [(path, line)]


def test_pl102_toml_number_where_a_string_belongs_gets_quote_hint(repo):
    run = lint(repo({BENCH: bench(version="1.10")}), "--all")
    [f] = [f for f in run.findings if f["code"] == "PL102"]
    # quoted as written, "1.10" would still not be SemVer: the proposal is what the schema takes
    assert (f["line"], f["hint"]) == (2, 'TOML read 1.10 as a number; version is text in SemVer, '
                                         'MAJOR.MINOR.PATCH: quote it as version = "1.10.0"')


def test_missing_file_hint_names_a_misnamed_sibling(repo):
    root = repo({TASK: None, "packages/bench-a/CASE-001-one/task_config.yaml": "id: CASE-001-one\n",
                 LB: None, "leaderboards/lb/leaderboard.yml": "leaderboard_id: lb\n"})
    run = lint(root, "--all")
    hints = {f["code"]: f["hint"] for f in run.findings if f["code"] in ("PL205", "PL305")}
    assert hints == {"PL205": "found task_config.yaml: rename it to task_config.toml (only that name is read)",
                     "PL305": "found leaderboard.yml: rename it to leaderboard.yaml (only that name is read)"}
