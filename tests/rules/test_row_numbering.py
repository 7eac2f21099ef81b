"""Every message about a Harbor row names it the same way: row N (rows[i])."""
from __future__ import annotations

import re
import shutil
from pathlib import Path

from tests.conftest import lint

CLEAN = Path(__file__).resolve().parents[2] / "examples" / "harbor" / "clean"

ROWS = """\
rows:
  - metadata:
      agent: terminus-2
      model: m1
      date: "2026-11-02"
    metrics:
      accuracy: 0.6
    status: display
    trial_ids:
      - 36043904-3271-4c91-aaf7-4f941353d7a9
  - metadata:
      agent: terminus-2
      model: m2
      date: 20261103
    metrics:
      accuracy: "0.5"
    status: shown
    colour: red
    trial_ids:
      - 36043904-3271-4c91-aaf7-4f941353d7a9
  - metadata:
      agent: openhands
      model: m3
      date: "2026-10-28"
    metrics:
      accuracy: 0.41
    status: hide
  - just text
"""


def test_one_numbering_for_rows_in_every_rule(tmp_path):
    root = tmp_path / "h"
    shutil.copytree(CLEAN, root)
    (root / "leaderboard" / "rows.yaml").write_text(ROWS)
    run = lint(root, "--all")
    got = sorted((f["code"], f["line"], f["message"].split(":")[0]) for f in run.findings
                 if f["path"] == "leaderboard/rows.yaml")
    # row 2 spans lines 11-20, row 4 is line 28
    assert got == [
        ("PL102", 28, "row 4 (rows[3]) must be a mapping, not a string"),
        ("PL103", 17, "row 2 (rows[1])"),       # status: shown
        ("PL103", 18, "row 2 (rows[1])"),       # colour: Harbor refuses unknown keys
        ("PL605", 14, "row 2 (rows[1])"),       # metadata.date is not a string
        ("PL605", 16, "row 2 (rows[1])"),       # metrics.accuracy is a string
        ("PL606", 20, "trial '36043904-3271-4c91-aaf7-4f941353d7a9' of row 2 (rows[1]) is already linked to row 1 (rows[0]) (line 10)"),
    ], run.findings
    messages = {f["line"]: f["message"] for f in run.findings}
    assert messages[17] == "row 2 (rows[1]): 'status' must be one of display, hide, not 'shown'"
    assert messages[18] == "row 2 (rows[1]): unknown field 'colour'"
    assert messages[14].startswith("row 2 (rows[1]): 'metadata.date' must be a string, not an integer")
    # no message counts rows from 0 without saying so
    for f in run.findings:
        for m in re.finditer(r"row (\d+) \(rows\[(\d+)\]\)", f["message"]):
            assert int(m.group(1)) == int(m.group(2)) + 1
        assert not re.search(r"'rows\[\d+\]", f["message"]), f["message"]


def test_rank_rules_are_numbered_the_same_way(tmp_path):
    root = tmp_path / "h"
    shutil.copytree(CLEAN.parent / "broken", root)
    run = lint(root, "--all")
    (f,) = [f for f in run.findings if f["code"] == "PL607"]
    assert f["message"].startswith("rank rule 2 (rank_by[1]) sorts by 'metadata.model'")
