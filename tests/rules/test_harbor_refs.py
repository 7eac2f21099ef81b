"""A row schema whose reference cannot be resolved only when it is used (a
draft-07 schema reaching an unresolvable pointer through another $ref) is a
PL604 at the schema, not an internal error."""
import shutil
from pathlib import Path

from tests.conftest import lint

PROJECT = Path(__file__).resolve().parents[2]

SCHEMA = """metrics_schema:
  $schema: http://json-schema.org/draft-07/schema#
  $ref: '#/$defs/d0'
  $defs:
    d0:
      $ref: '#/$defs/d0/anyOf/0'
"""


def test_a_reference_unresolvable_when_used_is_pl604(tmp_path):
    root = tmp_path / "hub"
    shutil.copytree(PROJECT / "examples/harbor/clean", root)
    board = root / "leaderboard/leaderboard.yaml"
    lines = board.read_text().split("\n")
    start = lines.index("metrics_schema:")
    end = next(i for i in range(start + 1, len(lines)) if lines[i] and not lines[i].startswith(" "))
    board.write_text("\n".join(lines[:start]) + "\n" + SCHEMA + "\n".join(lines[end:]))
    run = lint(root, "--all", "--no-cache")
    assert run.code == 1, run.stderr
    assert run.stderr == ""
    assert ("leaderboard/leaderboard.yaml", start + 1) in run.at("PL604")
    assert any("cannot be resolved" in f["message"] for f in run.findings if f["code"] == "PL604")
