"""The HTML preview in a real browser: headless Chromium (the distribution's
package; CI installs it) loads the page over the DevTools protocol, and the
page renders, draws its figures from the JSON's numbers, switches the
Pareto axis without script, requests nothing and logs no error."""
from __future__ import annotations

import json
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from tests.conftest import write_repo
from tests.preview.board_sample import ENTRIES, TASKS, sample_files, sample_repo
from tests.preview.cdp import Browser, chromium, png_pixels
from tests.real_programs import need
from tests.preview.test_preview_figures import expected_front
from tests.preview.test_preview_html import HOSTILE

EXE = chromium()
EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


@pytest.fixture(autouse=True)
def _browser_installed():
    # skipped where the browser is absent, unless the environment requires it (.ci/run)
    need("chromium", "chromium-browser", package="chromium")


def preview(root, fmt):
    proc = subprocess.run([sys.executable, "-m", "penguin_lint", "preview", f"--root={root}", "--format", fmt],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def load(tmp_path, root):
    page = tmp_path / "board.html"
    page.write_text(preview(root, "html"), encoding="utf-8")
    browser = Browser(EXE)
    try:
        browser.open(page.as_uri())
    except BaseException:
        browser.close()
        raise
    return browser, page.as_uri()


def problems(browser, url):
    """Every request but the page's own, and every error the browser logged."""
    requests = [e["params"]["request"]["url"] for e in browser.events
                if e.get("method") == "Network.requestWillBeSent" and e["params"]["request"]["url"] != url]
    errors = [e["params"] for e in browser.events if e.get("method") in ("Runtime.exceptionThrown",)
              or (e.get("method") == "Runtime.consoleAPICalled" and e["params"]["type"] in ("error", "assert"))
              or (e.get("method") == "Log.entryAdded" and e["params"]["entry"]["level"] == "error")]
    return requests, errors


def test_the_page_renders_its_views_in_chromium(tmp_path):
    root = sample_repo(tmp_path / "r")
    rows = json.loads(preview(root, "json"))["leaderboards"][0]["rows"]
    browser, url = load(tmp_path, root)
    try:
        # a screenshot that is not blank: many colours, and much of it not the background
        w, h, pixels = png_pixels(browser.screenshot())
        colours = Counter(p for line in pixels for p in line)
        background, most = colours.most_common(1)[0]
        assert w >= 300 and h >= 300 and len(colours) > 100
        assert most < 0.85 * w * h, "the page is mostly one colour"
        # the Pareto view: one point per entry with a positive cost, the front marked
        for axis in ("cost", "duration_ms", "token"):
            plotted = [r for r in rows if r[axis] is not None and r[axis] > 0]
            assert len(browser.select(f".p-{axis} circle.pt")) == len(plotted)
            front = browser.select(f".p-{axis} circle.pt.front")
            assert len(front) == len(expected_front(rows, axis)) == sum(r["pareto"][axis] for r in rows)
        cost_front = browser.select(".p-cost circle.front")[0]
        cost_other = browser.select(".p-cost circle.pt:not(.front)")[0]
        assert browser.style(cost_front, "fill") != browser.style(cost_other, "fill")
        # the Waffle: tasks x entries cells
        assert len(browser.select(".waffle rect.cell")) == len(TASKS) * len(ENTRIES)
        # the axis switch, clicked: cost shown first, then tokens, no script involved
        (cost,), (token,) = browser.select(".p-cost"), browser.select(".p-token")
        assert (browser.style(cost, "display"), browser.style(token, "display")) == ("block", "none")
        browser.click(browser.select('label[for="b0-token"]')[0])
        assert (browser.style(cost, "display"), browser.style(token, "display")) == ("none", "block")
        requests, errors = problems(browser, url)
        assert requests == [] and errors == []
    finally:
        browser.close()


def test_hostile_text_runs_nothing_and_requests_nothing_in_chromium(tmp_path):
    entries = {HOSTILE: (60.0, 1.0, 10, 10), '"><svg onload=alert(3)>': (50.0, 0.5, 10, 10)}
    files = sample_files(entries=entries, title=HOSTILE + '<link rel=stylesheet href="http://127.0.0.1:9/x.css">')
    browser, url = load(tmp_path, write_repo(tmp_path / "r", files))
    try:
        assert browser.select("img, script, link, iframe, object, embed") == []
        requests, errors = problems(browser, url)
        assert requests == [] and errors == []
        assert len(browser.select(".p-cost circle.pt")) == 2
    finally:
        browser.close()


def test_the_waffle_of_the_example_has_one_column_per_task_and_tells_entries_apart(tmp_path):
    # an entry that reads one experiment names its tasks' benchmark as one over two does:
    # five tasks, five columns; two rows of one model told apart by their algorithm
    root = EXAMPLES / "repo"
    rows = json.loads(preview(root, "json"))["leaderboards"][0]["rows"]
    tasks = {(t["benchmark"], t["source"]) for r in rows for t in r["tasks"]}
    assert len(tasks) == 5 and all(b for b, _ in tasks)
    browser, url = load(tmp_path, root)
    try:
        def texts(selector):
            return [re.sub(r"<title>.*?</title>|<[^>]+>", "", browser.send("DOM.getOuterHTML", nodeId=n)["outerHTML"])
                    for n in browser.select(selector)]

        def titles(selector):
            return [re.search(r"<title>(.*?)</title>", browser.send("DOM.getOuterHTML", nodeId=n)["outerHTML"]).group(1)
                    for n in browser.select(selector)]
        heads, entries = texts(".waffle text.task"), texts(".waffle text.entry")
        assert len(heads) == len(set(heads)) == 5
        assert sorted(titles(".waffle text.task")) == sorted(f"{b}/{s}" for b, s in tasks)
        assert len(entries) == len(set(entries)) == len(rows) == 3
        assert "deepseek-flash-1017 · skillopt" in entries and "deepseek-flash-1017 · baseline" in entries
        assert len(browser.select(".waffle rect.cell")) == 5 * 3
        # every point of the cost plot has a visible label (there is room), off the front too
        labels = texts(".p-cost text.pt-label")
        assert len(labels) == len(set(labels)) == len(browser.select(".p-cost circle.pt")) == 3
        off = browser.select(".p-cost text.pt-label.off")
        assert len(off) == 2 and all(browser.style(n, "display") != "none" for n in off)
        assert problems(browser, url) == ([], [])
    finally:
        browser.close()
