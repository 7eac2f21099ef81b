"""A leaderboard for the HTML preview's tests: entries with three attempts
over a few tasks, costs that put some on the Pareto front and not others,
an entry with no cost and one with a zero cost (neither is plotted)."""
from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Dict, List, Optional

from tests.conftest import write_repo

TASKS = ["CASE-001-parse-duration", "CASE-002-slugify-unicode", "CASE-003-merge-intervals",
         "CASE-004-lru-cache", "CASE-005-csv-dialect"]
# model -> (base score, cost per attempt, duration_ms per attempt, token per attempt);
# a cost of None leaves it out of the summary
ENTRIES: Dict[str, tuple] = {
    "deepseek-flash-1017": (62.0, 0.95, 700_000, 420_000),
    "qwen-coder-32b": (48.0, 0.30, 900_000, 300_000),
    "gpt-large-2026": (71.0, 4.10, 650_000, 900_000),
    "tiny-model-1b": (25.0, 0.05, 1_200_000, 90_000),
    "mid-model-7b": (40.0, 1.20, 500_000, 500_000),   # dominated on cost, front on duration
    "free-model": (55.0, 0.0, 800_000, 200_000),       # zero cost: not plotted on cost
    "local-model": (35.0, None, 1_000_000, 250_000),   # no cost at all
}


def task_score(base: float, model_i: int, task_i: int, attempt: int) -> float:
    return round(min(100.0, max(0.0, base + 11 * math.sin(task_i * 1.7 + model_i) + 3 * (attempt - 2))), 1)


def sample_files(entries: Optional[Dict[str, tuple]] = None, title: str = "Unit Test Generation Leaderboard",
                 bench: str = "unit-test-gen") -> Dict[str, str]:
    entries = ENTRIES if entries is None else entries
    files: Dict[str, str] = {}
    values: List[str] = []
    for mi, (model, (base, cost, dur, tok)) in enumerate(entries.items()):
        eid = f"{bench}-baseline-{''.join(c if c.isalnum() else '-' for c in model)}-{mi}"
        exp = f"experiments/{bench}/{eid}"
        files[f"{exp}/meta_info.yaml"] = (
            f'experiment_id: "{eid}"\nbenchmark_id: "{bench}"\nharness_name: "penguin-harness"\n'
            f"model_name: {_quote(model)}\nalgorithm: \"baseline\"\n")
        totals = []
        for j in (1, 2, 3):
            scores = [task_score(base, mi, k, j) for k in range(len(TASKS))]
            total = round(sum(scores) / len(scores), 4)
            totals.append(total)
            recs = "".join(f'  - source: "{t}"\n    score: {s}\n' for t, s in zip(TASKS, scores))
            files[f"{exp}/test/attempt-{j}.yaml"] = (
                f"score: {total}\n" + (f"cost: {cost}\n" if cost is not None else "")
                + f"duration_ms: {dur}\ntoken: {tok}\nresults:\n{recs}")
        mean = sum(totals) / 3
        std = math.sqrt(sum((t - mean) ** 2 for t in totals) / 2)
        files[f"{exp}/test/summary.yaml"] = (
            f"n_attempt: 3\nscore_mean: {mean!r}\nscore_std: {std!r}\n"
            + (f"cost: {cost * 3!r}\n" if cost is not None else "")
            + f"duration_ms: {dur * 3}\ntoken: {tok * 3}\n")
        values.append(f'  - {{ experiment_id: "{eid}", phase: "test" }}\n')
    files[f"leaderboards/{bench}/leaderboard.yaml"] = (
        f'leaderboard_id: "{bench}"\nstatus: "draft"\ntitle: {_quote(title)}\n'
        'author:\n  name: "Penguin Lint Tests"\nvalues:\n' + "".join(values))
    return files


def _quote(s: str) -> str:
    return json.dumps(s)  # a JSON string is a YAML double-quoted scalar, escapes and all


def sample_repo(root: Path, **kw) -> Path:
    return write_repo(root, sample_files(**kw))
