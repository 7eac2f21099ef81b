"""Write a valid synthetic PenguinHarness repository for the speed benchmarks.

The repository follows SPEC.md sections 1-4: packages with tasks, leaderboards whose values
reference every experiment, and experiments whose summaries agree with their attempts. It is
meant to produce no finding at all, so that a benchmark times the linter's normal path rather
than its error reporting.

Files are formatted by hand (no YAML/TOML dumper) because generation of the large size must stay
well under a minute, and because hand-written text looks like what contributors commit.
Output is deterministic for a given seed: every entity draws from its own random stream keyed by
the seed and its name, so sizes that share a prefix of entities share their content too.

    python -m benchmarks.generate --size medium --out DIR
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
import statistics
import sys
import time
from pathlib import Path

# name -> generate() keyword arguments: about 5,000, 22,000 and 43,000 files. "medium" halves
# every dimension of "large" that scales the file count (benchmarks, leaderboards) and keeps the
# shape of each unit, so the two differ in size alone; "small" has the same units, fewer of
# them. The quick-* sizes are for a smoke test of the runner.
SIZES: dict[str, dict[str, int]] = {
    "small": dict(n_benchmarks=25, n_tasks=50, n_leaderboards=2, n_experiments=50,
                  n_phases=2, n_attempts=5),
    "medium": dict(n_benchmarks=100, n_tasks=50, n_leaderboards=10, n_experiments=50,
                   n_phases=2, n_attempts=5),
    "large": dict(n_benchmarks=200, n_tasks=50, n_leaderboards=20, n_experiments=50,
                  n_phases=2, n_attempts=5),
    "quick-small": dict(n_benchmarks=6, n_tasks=20, n_leaderboards=1, n_experiments=20,
                        n_phases=2, n_attempts=3),
    "quick-medium": dict(n_benchmarks=10, n_tasks=20, n_leaderboards=2, n_experiments=20,
                         n_phases=2, n_attempts=3),
    "quick-large": dict(n_benchmarks=20, n_tasks=20, n_leaderboards=4, n_experiments=20,
                        n_phases=2, n_attempts=3),
}

# "test" and "val" first: the spec's benchmark asks for those two phases.
PHASES = ("test", "val", "train")

# Experiments sharing (harness, model, algorithm) are aggregated by one `op: mean` per phase;
# each group's experiments run on distinct benchmarks, as RFC-0005 requires.
GROUP_SIZE = 5
HARNESSES = ("penguin", "harbor-terminus")
MODELS = ("deepseek-flash", "qwen-max", "glm-5", "kimi-k2", "gpt-oss-120b", "llama-4",
          "mistral-large", "gemma-3")
ALGORITHMS = ("baseline", "skillopt", "reflexion")
LABELS = list(itertools.product(HARNESSES, MODELS, ALGORITHMS))

WORDS = ("ledger", "invoice", "clinical", "metadata", "recovery", "sales", "routing", "policy",
         "lookup", "survey", "portfolio", "analytics", "coverage", "review", "court", "clerk",
         "ticket", "resolution", "spreadsheet", "archive", "formula", "database", "report",
         "fees", "control", "shipping", "audit", "forecast", "schedule", "inventory")
RECORD_SCORES = (0.0, 0.25, 0.5, 0.75, 1.0)
LAST_UPDATE = "2026-10-29T12:00:00Z"


def _rng(seed: int, *key: object) -> random.Random:
    # String seeds are hashed with SHA-512 by random.seed, so they do not depend on
    # PYTHONHASHSEED and give the same stream on every run.
    return random.Random(":".join(map(str, (seed, *key))))


def _q(text: str) -> str:
    """A double-quoted scalar that is valid in both TOML and YAML (our text is ASCII)."""
    return json.dumps(text)


def _yfloat(x: float) -> str:
    """repr() of a float, readable as a float by PyYAML.

    YAML 1.1, as PyYAML resolves it, only takes an exponent form with a dot in the mantissa:
    `1e-05` would load as a string, `1.0e-05` loads as the same float.
    """
    text = repr(float(x))
    mantissa, e, exponent = text.partition("e")
    if e and "." not in mantissa:
        text = f"{mantissa}.0e{exponent}"
    return text


def _sentence(rng: random.Random, n: int) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(n)).capitalize() + "."


def benchmark_id(b: int) -> str:
    # Letters, digits and "-" only; never ends in -train, so no unpaired-split warning.
    return f"synth-bench-{b:03d}"


def task_ids(seed: int, b: int, n_tasks: int) -> list[str]:
    rng = _rng(seed, "tasks", b)
    ids = []
    for t in range(n_tasks):
        a, c = rng.choice(WORDS), rng.choice(WORDS)
        # Real task ids may hold "_"; keep a few of them in the mix.
        sep = "_" if t % 7 == 3 else "-"
        ids.append(f"CASE-{t + 1:03d}-{a}{sep}{c}")
    return ids


def leaderboard_id(lb: int) -> str:
    return f"synth-lb-{lb:02d}"


def _write(path: Path, text: str) -> None:
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write(text)


def _write_package(root: Path, seed: int, b: int, n_tasks: int) -> int:
    rng = _rng(seed, "package", b)
    bid = benchmark_id(b)
    pkg = root / "packages" / bid
    pkg.mkdir(parents=True)
    _write(pkg / "benchmark_config.toml", (
        f"id = {_q(bid)}\n"
        f"title = {_q(f'Synthetic Benchmark {b:03d}')}\n"
        f"description = {_q(_sentence(rng, 24))}\n"
        f'version = "1.2.3"\n'
        f"last_update = {_q(LAST_UPDATE)}\n"
        f'status = "draft"\n'
        f'references = ["https://example.org/papers/{bid}"]\n'
        f"\n[author]\n"
        f'name = "Synthetic Author {b % 17}"\n'
        f'email = "author{b % 17}@example.org"\n'
    ))
    written = 1
    for tid in task_ids(seed, b, n_tasks):
        task = pkg / tid
        (task / "statement").mkdir(parents=True)
        (task / "rubric").mkdir()
        _write(task / "task_config.toml", (
            f"id = {_q(tid)}\n"
            f"title = {_q(tid.split('-', 2)[2].replace('_', ' ').replace('-', ' ').title())}\n"
            f"description = {_q(_sentence(rng, 16))}\n"
            f"\n[budget]\n"
            f"timeout = {rng.choice((300, 600, 900, 1800))}\n"
            f"cpus = {rng.choice((1, 2, 4))}\n"
            f"ram = {rng.choice((2, 4, 8))}\n"
            f"disk = 10\n"
            f"gpus = 0\n"
        ))
        _write(task / "statement" / "README.md", (
            f"# {tid}\n\n{_sentence(rng, 60)}\n\n## Deliverable\n\n{_sentence(rng, 30)}\n"
        ))
        _write(task / "rubric" / "README.md", (
            f"# Rubric for {tid}\n\n{_sentence(rng, 40)}\n\n"
            f"- 1 point: {_sentence(rng, 8)}\n- 0 points: otherwise.\n"
        ))
        written += 3
    # Large raw data is optional; give some benchmarks a data/ folder so that check runs too.
    if b % 4 == 0:
        data = root / "data" / bid
        data.mkdir(parents=True)
        _write(data / "README.md", f"# Raw data of {bid}\n\n{_sentence(rng, 30)}\n")
        written += 1
    return written


def _attempt_text(rng: random.Random, sources: list[str], n_records: int) -> tuple[str, dict]:
    picked = rng.sample(sources, n_records)
    scores = [rng.choice(RECORD_SCORES) for _ in picked]
    att = {
        "score": sum(scores) / len(scores),
        # Multiples of 1/256 add up exactly in binary, whatever order a reader sums them in.
        "cost": rng.randint(50, 5000) / 256,
        "duration_ms": rng.randint(10_000, 3_600_000),
        "token": rng.randint(10_000, 2_000_000),
    }
    lines = [
        f"score: {_yfloat(att['score'])}",
        f"cost: {_yfloat(att['cost'])}",
        f"duration_ms: {att['duration_ms']}",
        f"token: {att['token']}",
        "results:",
    ]
    for src, sc in zip(picked, scores):
        lines.append(f"  - source: {_q(src)}")
        lines.append(f"    score: {_yfloat(sc)}")
    return "\n".join(lines) + "\n", att


def _write_leaderboard(root: Path, seed: int, lb: int, n_benchmarks: int, n_tasks: int,
                       n_experiments: int, phases: tuple[str, ...], n_attempts: int) -> int:
    rng = _rng(seed, "leaderboard", lb)
    lid = leaderboard_id(lb)
    exp_root = root / "experiments" / lid
    group_size = min(GROUP_SIZE, n_benchmarks)
    offset = rng.randrange(len(LABELS))
    values: list[str] = []
    written = 0
    for g, start in enumerate(range(0, n_experiments, group_size)):
        members = range(start, min(start + group_size, n_experiments))
        harness, model, algorithm = LABELS[(offset + g) % len(LABELS)]
        if g >= len(LABELS):
            # More groups than label combinations: a new model name keeps every label unique.
            model = f"{model}-r{g // len(LABELS)}"
        benches = rng.sample(range(n_benchmarks), len(members))
        exp_ids = []
        for e, b in zip(members, benches):
            eid = f"{lid}-e{e:03d}-{algorithm}-{model}"
            exp_ids.append(eid)
            edir = exp_root / eid
            edir.mkdir(parents=True)
            bid = benchmark_id(b)
            _write(edir / "meta_info.yaml", (
                f"experiment_id: {_q(eid)}\n"
                f"benchmark_id: {_q(bid)}\n"
                f"harness_name: {_q(harness)}\n"
                f"model_name: {_q(model)}\n"
                f"algorithm: {_q(algorithm)}\n"
            ))
            written += 1
            sources = task_ids(seed, b, n_tasks)
            n_records_max = min(10, len(sources))
            for phase in phases:
                prng = _rng(seed, "attempts", lid, e, phase)
                pdir = edir / phase
                pdir.mkdir()
                atts = []
                for n in range(1, n_attempts + 1):
                    k = prng.randint(min(5, n_records_max), n_records_max)
                    text, att = _attempt_text(prng, sources, k)
                    _write(pdir / f"attempt-{n}.yaml", text)
                    atts.append(att)
                scores = [a["score"] for a in atts]
                # statistics works with exact fractions, so mean and std are correctly rounded.
                std = statistics.stdev(scores) if len(scores) > 1 else 0.0
                _write(pdir / "summary.yaml", (
                    f"n_attempt: {len(atts)}\n"
                    f"score_mean: {_yfloat(statistics.mean(scores))}\n"
                    f"score_std: {_yfloat(std)}\n"
                    f"cost: {_yfloat(sum(a['cost'] for a in atts))}\n"
                    f"duration_ms: {sum(a['duration_ms'] for a in atts)}\n"
                    f"token: {sum(a['token'] for a in atts)}\n"
                ))
                written += n_attempts + 1
        # One value per (group, phase): the phase is part of the label, so labels stay unique
        # and every experiment is referenced.
        for phase in phases:
            leaves = [f'{{experiment_id: {_q(eid)}, phase: {_q(phase)}, metric: "score_mean"}}'
                      for eid in exp_ids]
            if len(leaves) == 1:
                values.append(f"  - {leaves[0]}")
            else:
                values.append('  - op: "mean"\n    args:\n'
                              + "\n".join(f"      - {leaf}" for leaf in leaves))
    ldir = root / "leaderboards" / lid
    ldir.mkdir(parents=True)
    _write(ldir / "leaderboard.yaml", (
        f"leaderboard_id: {_q(lid)}\n"
        f'status: "draft"\n'
        f"title: {_q(f'Synthetic Leaderboard {lb:02d}')}\n"
        f"author:\n"
        f'  name: "Synthetic Team"\n'
        f"values:\n" + "\n".join(values) + "\n"
    ))
    return written + 1


def generate(root: Path, n_benchmarks: int, n_tasks: int, n_leaderboards: int,
             n_experiments: int, n_phases: int, n_attempts: int, seed: int = 0) -> int:
    """Write a valid repository under `root` (absent or empty) and return its file count."""
    root = Path(root)
    if root.exists() and any(root.iterdir()):
        raise FileExistsError(f"{root} is not empty")
    if not 1 <= n_phases <= len(PHASES):
        raise ValueError(f"n_phases must be 1..{len(PHASES)}")
    if min(n_benchmarks, n_tasks, n_attempts) < 1:
        raise ValueError("n_benchmarks, n_tasks and n_attempts must be at least 1")
    if n_experiments and not n_leaderboards:
        raise ValueError("experiments need a leaderboard")
    root.mkdir(parents=True, exist_ok=True)
    written = 0
    for b in range(n_benchmarks):
        written += _write_package(root, seed, b, n_tasks)
    for lb in range(n_leaderboards):
        written += _write_leaderboard(root, seed, lb, n_benchmarks, n_tasks, n_experiments,
                                      PHASES[:n_phases], n_attempts)
    return written


# "grown-<files>": the "large" shape grown (or shrunk) to about <files> files, for the
# --scale rows: benchmarks and leaderboards scale together, each unit keeps its shape, so sizes
# differ in the number of units alone. One "large" factor holds about 43,250 files.
GROWN_PREFIX = "grown-"
LARGE_FILES = 43_250


def grown(files: int) -> dict[str, int]:
    factor = files / LARGE_FILES
    large = SIZES["large"]
    return dict(large, n_benchmarks=max(1, round(large["n_benchmarks"] * factor)),
                n_leaderboards=max(1, round(large["n_leaderboards"] * factor)))


def size_params(size: str) -> dict[str, int]:
    """The generate() arguments of a named size or of "grown-<files>"."""
    if size.startswith(GROWN_PREFIX) and size[len(GROWN_PREFIX):].isdigit():
        return grown(int(size[len(GROWN_PREFIX):]))
    return SIZES[size]


def generate_size(root: Path, size: str, seed: int = 0) -> int:
    return generate(root, **size_params(size), seed=seed)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.generate", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--size", choices=sorted(SIZES), default="medium")
    parser.add_argument("--out", type=Path, required=True, help="absent or empty folder")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    start = time.perf_counter()
    try:
        count = generate_size(args.out, args.size, args.seed)
    except (FileExistsError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(f"{args.size}: {count} files in {args.out} ({time.perf_counter() - start:.1f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
