"""The leaderboard page of a pull request, for the Action: the HTML
preview of the boards the change affects, written outside the checkout
(``RUNNER_TEMP``) for the step that uploads it, and the Table view in the
job summary, compactly, with bars as text and a pointer to the page.
"""
from __future__ import annotations

import os
import re
import subprocess
import sys
from typing import Dict, List, Optional

from penguin_lint.output.markdown import code_span, md

ARTIFACT = "penguin-lint-leaderboards"
PAGE = "leaderboards.html"
# The summary's Table lists this many entries of a board, with bars this wide.
SUMMARY_ROWS = 30
BAR = 20
_EIGHTHS = " ▏▎▍▌▋▊▉"


def _preview(env: Dict[str, str], cwd: str, root, base: str, fmt: str) -> Optional[str]:
    """The preview's output in ``fmt``, or None when it cannot be made or
    no leaderboard is affected (the summary above says which)."""
    # one argument per option: a ref cannot pose as an option
    args = [sys.executable, "-I", "-m", "penguin_lint", "preview", f"--root={root}", f"--format={fmt}",
            f"--diff-base={base}"]
    from penguin_lint.github.environment import change_options

    args.extend(change_options(env))
    try:
        proc = subprocess.run(args, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                              stdin=subprocess.DEVNULL, timeout=600)
    except (OSError, subprocess.TimeoutExpired):
        return None
    text = proc.stdout.decode("utf-8", "replace")
    if proc.returncode != 0 or text.startswith("No leaderboard is affected"):
        return None
    return text


def write_page(env: Dict[str, str], cwd: str, root, base: str) -> Optional[str]:
    """Write the page of the boards the change affects to
    ``RUNNER_TEMP/penguin-lint-leaderboards/leaderboards.html``; its path,
    or None (no board changed, no RUNNER_TEMP, or it cannot be written)."""
    temp = env.get("RUNNER_TEMP", "").strip()
    if not temp or not os.path.isdir(temp):
        return None  # never into the checkout: the pull request owns its folders
    page = _preview(env, cwd, root, base, "html")
    if page is None:
        return None
    folder = os.path.join(temp, ARTIFACT)
    path = os.path.join(folder, PAGE)
    try:
        os.makedirs(folder, exist_ok=True)
        if os.path.islink(path):
            os.unlink(path)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_NOFOLLOW", 0), 0o644)
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(page)
    except OSError as e:
        print(f"penguin-lint: warning: cannot write the leaderboard page: {e.strerror or e}")
        return None
    return path


def bar(value: float, lo: float, hi: float, width: int = BAR) -> str:
    """``value`` on [lo, hi] as a bar of block characters, in eighths."""
    t = 0.0 if hi <= lo else min(1.0, max(0.0, (value - lo) / (hi - lo)))
    eighths = round(t * width * 8)
    return ("█" * (eighths // 8) + (_EIGHTHS[eighths % 8] if eighths % 8 else "")).ljust(width)


def run_url(env: Dict[str, str]) -> Optional[str]:
    """The run's page on GitHub (its artifacts are listed there), from
    what GitHub sets; None unless each part has the form GitHub gives it."""
    server, repo, run = (env.get(k, "") for k in ("GITHUB_SERVER_URL", "GITHUB_REPOSITORY", "GITHUB_RUN_ID"))
    if re.fullmatch(r"https://[A-Za-z0-9.-]+(:[0-9]+)?", server) and re.fullmatch(r"[\w.-]+/[\w.-]+", repo) \
            and re.fullmatch(r"[0-9]+", run):
        return f"{server}/{repo}/actions/runs/{run}"
    return None


def compact_table(report: dict, url: Optional[str], written: bool) -> str:
    """The Table view of each board after the change, as Markdown: rank
    (and its move), entry, the score as a bar of text, mean ± std."""
    out: List[str] = ["### Leaderboard Table after this pull request", ""]
    for lb in report.get("leaderboards", []):
        after, changes = lb.get("after") or {}, lb.get("changes") or []
        moved = {c["key"]: c for c in changes if c.get("after")}
        title = after.get("title")
        out.append(f"**{md(lb.get('leaderboard'), False)}**" + (f": {md(title, False)}" if title else ""))
        out.append("")
        rows = sorted((r for r in after.get("rows", []) if r.get("mean") is not None), key=lambda r: r["rank"])
        if not rows:
            out += ["*no entry has a score*", ""]
            continue
        lo = min(0.0, *(r["mean"] for r in rows))
        hi = max(r["mean"] for r in rows)
        out += ["| rank | entry | score | mean ± std |", "|---:|---|---|---:|"]
        for r in rows[:SUMMARY_ROWS]:
            c = moved.get(r["key"])
            rank = str(r["rank"])
            if c is not None:
                before = (c.get("before") or {}).get("rank")
                rank = f"{before if before is not None else 'new'} → {r['rank']}" if before != r["rank"] else rank
            std = f" ± {r['std']:.2f}" if r.get("std") is not None else ""
            out.append(f"| {md(rank)} | {md(r.get('model_name') or r['key'])} | "
                       f"{code_span(bar(r['mean'], lo, hi))} | {r['mean']:.2f}{std} |")
        if len(rows) > SUMMARY_ROWS:
            out.append(f"\n*{len(rows) - SUMMARY_ROWS:,} more entries on the page.*")
        out.append("")
    for lb in report.get("harbor_leaderboards", []):
        out += _harbor_table(lb)
    if written:
        where = f"of [this run]({url})" if url else "of this run"
        out.append(f"The Table, the Pareto front and the Waffle of each board: artifact `{ARTIFACT}` {where} "
                   f"(`{PAGE}`, one page that loads nothing).")
    return "\n".join(out) + "\n"


def _harbor_table(lb: dict) -> List[str]:
    """A Harbor board after the change: rank (and its move) and its columns,
    each value inert (a link column shows its label, never a link)."""
    after = lb.get("after") or {}
    moved = {c["key"]: c for c in lb.get("changes") or [] if c.get("after")}
    title = after.get("title") or after.get("definition")
    out = [f"**{md(title, False)}** ({md(after.get('definition'), False)})", ""]
    rows, columns = after.get("rows") or [], after.get("columns") or []
    if after.get("problem") or not rows:
        return out + [f"*{md(after.get('problem') or 'no row', False)}*", ""]
    out += ["| rank | " + " | ".join(md(c.get("header")) for c in columns) + " |",
            "|---:|" + "|".join("---:" if c.get("align") == "right" else "---" for c in columns) + "|"]
    for r in rows[:SUMMARY_ROWS]:
        rank = str(r.get("rank"))
        c = moved.get(r.get("key"))
        if c is not None:
            before = (c.get("before") or {}).get("rank")
            rank = f"{before if before is not None else 'new'} → {rank}" if before != r.get("rank") else rank
        cells = r.get("cells") or {}
        out.append(f"| {md(rank)} | " + " | ".join(
            md((cells.get(col.get("id")) or {}).get("text") or "-") for col in columns) + " |")
    if len(rows) > SUMMARY_ROWS:
        out.append(f"\n*{len(rows) - SUMMARY_ROWS:,} more entries on the page.*")
    return out + [""]
