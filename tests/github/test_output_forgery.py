"""No output line forges a GitHub workflow command, wherever repository text
sits in it, and no repository text turns into a link, an image, HTML or a
mention in the job summary.

GitHub's runner reads a line as a command when it starts with ``::`` once
leading blanks are trimmed, and when it holds ``##[`` anywhere. The job
summary is rendered with cmark-gfm (GitHub's renderer, with its extensions),
then GitHub links ``@user`` and ``#12`` in the text outside code.
"""
from __future__ import annotations

import json
import re

import pytest

from penguin_lint.github import action
from penguin_lint.output.log_guard import safe_line
from tests import installed
from tests.conftest import lint

LB = "leaderboards/lb/leaderboard.yaml"
META = "experiments/lb/exp-1/meta_info.yaml"
FORGED_STATUS = "##[error file=README.md;line=1]FORGED"
FOLDER = "##[add-mask]x"
# A command of penguin-lint's own: ``::name properties::message``.
OWN_COMMAND = re.compile(r"::(error|warning|notice) [^:]*::(?P<message>.*)\Z")


def runner_lines(text: str):
    """The lines as the runner splits them."""
    return re.split(r"\r\n|\r|\n", text)


def assert_no_forged_command(text: str, commands_allowed: bool = False) -> None:
    for line in runner_lines(text):
        if line.lstrip().startswith("::"):
            m = OWN_COMMAND.match(line)
            assert commands_allowed and m, line
            assert "##[" not in m.group("message"), line
        else:
            assert "##[" not in line, line


def forged_repo(repo):
    return repo({
        LB: f"leaderboard_id: lb\nstatus: '{FORGED_STATUS}'\ntitle: LB\nauthor:\n  name: Lab\n"
            "values:\n  - experiment_id: exp-1\n    phase: test\n",
        f"experiments/{FOLDER}/e/meta_info.yaml": "experiment_id: 7\n",
    })


@pytest.mark.parametrize("fmt", ["text", "json", "github", "sarif"])
def test_forged_value_and_folder_name_in_every_format(repo, fmt):
    run = lint(forged_repo(repo), "--all", fmt=fmt)
    assert run.code == 1
    assert_no_forged_command(run.output, commands_allowed=fmt == "github")
    assert_no_forged_command(run.stderr)
    if fmt == "text":
        assert f"{LB}:2:9: PL103 'status' must be one of draft, published, not '#\\u0023[error file=README.md" \
            in run.output
        assert "experiments/#\\u0023[add-mask]x/e/meta_info.yaml:1:16: PL102" in run.output
    elif fmt == "json":  # escaped as JSON: the same text once parsed
        messages = [f["message"] for f in run.findings]
        assert f"'status' must be one of draft, published, not '{FORGED_STATUS}'" in messages
        assert f"experiments/{FOLDER}/e/meta_info.yaml" in {f["path"] for f in run.findings}
    elif fmt == "sarif":
        doc = json.loads(run.output)
        texts = [r["message"]["text"] for r in doc["runs"][0]["results"]]
        assert any(FORGED_STATUS in t for t in texts)
    else:
        # the file property names the real file; the message is defused
        assert f"::error file=experiments/{FOLDER}/e/meta_info.yaml,line=1," in run.output
        assert "not '#\\u0023[error file=README.md;line=1]FORGED'" in run.output
        assert f"error: experiments/#\\u0023[add-mask]x/e/meta_info.yaml:1:16: PL102" in run.output


def test_a_command_after_leading_blanks_is_one_too(repo):
    # The runner trims leading blanks before it looks for ``::``.
    assert safe_line("   ::error::x") == "   \\x3a:error::x"
    assert safe_line(" a ##[warning]x") == " a #\\u0023[warning]x"


def test_fix_diff_prints_no_comment_or_context_line_as_a_command(repo):
    meta = ("experiment_id: exp-1\nbenchmark_id: bench-a\nharness_name: h\n"
            "# ##[warning]x\nmodel_name: 7\nalgorithm: baseline\ndescription: |\n  ::error::y\n")
    root = repo({META: meta})
    run = lint(root, "--all", "--fix", "--diff", fmt="text")
    assert run.code == 1
    assert '+model_name: "7"' in run.output
    assert " # #\\u0023[warning]x" in run.output and "   \\x3a:error::y" in run.output
    assert_no_forged_command(run.output)


def test_the_action_relays_no_forged_line_from_stderr(capsys):
    action._relay("penguin-lint: warning: ignoring ##[add-mask]x\n  ::error::y\n##[stop-commands]z\n")
    err = capsys.readouterr().err
    assert err == ("penguin-lint: warning: ignoring #\\u0023[add-mask]x\n  \\x3a:error::y\n"
                   "#\\u0023[stop-commands]z\n")


def test_the_action_end_to_end_with_a_forged_config_error(repo, tmp_path, capfd):
    root = repo({".penguin-lint.toml": 'select = ["PL1"]\n"##[add-mask]x" = 1\n'})
    env = {"PATH": "/usr/bin:/bin", "PENGUIN_LINT_ALL": "true", "PENGUIN_LINT_PATH": str(root),
           "GITHUB_OUTPUT": str(tmp_path / "out"), "GITHUB_STEP_SUMMARY": str(tmp_path / "summary")}
    assert action.main(env) == 2
    captured = capfd.readouterr()
    assert "add-mask" in captured.err and "add-mask" in captured.out
    assert_no_forged_command(captured.err)
    assert_no_forged_command(captured.out, commands_allowed=True)


def test_the_guard_judges_whole_lines_and_lets_only_its_own_commands_start_one():
    import io

    from penguin_lint.output.log_guard import DEFUSED, LogGuard, guard_block

    raw = io.StringIO()
    g = LogGuard(raw)
    g.write("a #")  # ``##[`` split over writes
    g.write("#[error]b\n::warning::c\n")
    g.command("::error file=##[x],line=1::d ##[add-mask]e")
    g.write("  ::notice::f")
    g.finish()
    assert raw.getvalue() == ("a #\\u0023[error]b\n\\x3a:warning::c\n"
                              "::error file=##[x],line=1::d #\\u0023[add-mask]e\n  \\x3a:notice::f")
    # JSON keeps its meaning
    doc = json.dumps({"k": "##[x] ###[y]"})
    assert json.loads(guard_block(doc)) == {"k": "##[x] ###[y]"} and "##[" not in guard_block(doc)
    assert DEFUSED == "#\\u0023["


# -- the job summary ------------------------------------------------------------
cmarkgfm = pytest.importorskip("cmarkgfm")
from cmarkgfm.cmark import Options  # noqa: E402

from penguin_lint import preview  # noqa: E402
from penguin_lint.github import summary as step_summary  # noqa: E402
from penguin_lint.rules.docs import rule_url  # noqa: E402

GFM_EXTENSIONS = ("table", "autolink", "strikethrough", "tagfilter", "tasklist")
# What penguin-lint's own Markdown makes; anything else came from the repository.
OWN_TAGS = {"h2", "h3", "p", "strong", "em", "br", "code", "table", "thead", "tbody", "tr", "th", "td"}
IMG_HOST = "http://1249763981/<img src=https://1249763981/x.png>"
HOSTILE_TEXT = [
    IMG_HOST,
    "[click](https://1249763981/x) and ![i](https://1249763981/i.png)",
    "see 1249763981.com or www.1249763981 or http://1249763981 or x@1249763981.com",
    "<a href=https://evil.example/>x</a> <script>alert(1)</script> &lt;img&gt;",
    "ping @user and @org/team about #1, GH-2 and org/repo#3",
    "`tick` `` ` `` | pipe | \\| ``` :x:",
    "** _em_ ~~s~~ [x]: https://1249763981/",
]


def render(markdown: str) -> str:
    """HTML as GitHub renders it: cmark-gfm with GitHub's extensions, raw
    HTML kept (GitHub's own sanitizer lets <a> and <img> through)."""
    return cmarkgfm.markdown_to_html_with_extensions(
        markdown, options=Options.CMARK_OPT_UNSAFE, extensions=GFM_EXTENSIONS)


# The job summary links each rule code to its page: an address of ours, never repository text.
RULE_PAGES = rule_url("PL001", uri=True).rsplit("/", 1)[0] + "/"  # a real rule: pages are found per rule


def assert_inert(html: str, own_links=()) -> None:
    """No link, image, raw tag or mention-looking text but penguin-lint's own."""
    outside = re.sub(r"<code>.*?</code>", "<code></code>", html, flags=re.S)
    for tag in re.findall(r"<\s*(/?)\s*([A-Za-z][\w-]*)([^>]*)>", outside):
        closing, name, attrs = tag[0], tag[1].lower(), tag[2]
        if name == "a" and closing:
            continue
        if name == "a":
            href = re.search(r'href="([^"]*)"', attrs)
            assert href and href.group(1).startswith(tuple(own_links)) and own_links, (tag, html)
        else:
            assert name in OWN_TAGS, (tag, html)
            assert not attrs.strip() or re.fullmatch(r' align="(left|right|center)"', attrs), (tag, html)
    assert "<img" not in outside and "<!--" not in outside, html
    text = re.sub(r"<[^>]*>", "", outside)
    assert not re.search(r"@[A-Za-z0-9]", text), html          # @user, @org/team
    assert not re.search(r"#[0-9]|(?i:gh-[0-9])", text), html  # #1, GH-2, org/repo#3


def test_render_sees_what_github_sees():
    # the check itself: these are what the summary must never contain
    html = render(f"| a |\n|---|\n| {IMG_HOST} |\n")
    assert "<img src=" in html and "<a href=" in html
    with pytest.raises(AssertionError):
        assert_inert(render("ping @user"))
    with pytest.raises(AssertionError):
        assert_inert(render("see http://1249763981"))


@pytest.mark.parametrize("text", HOSTILE_TEXT)
def test_markdown_text_is_inert_in_a_cell_a_heading_and_a_paragraph(text):
    md = step_summary.md
    html = render(f"### {md(text, cell=False)}\n\n| a | b |\n|---|---|\n| {md(text)} | {md(text)} |\n\n"
                  f"para {md(text, cell=False)} end\n")
    assert_inert(html)
    # and the text still reads as it was written
    shown = [c for c in re.findall(r"<code>(.*?)</code>", html, re.S)]
    if shown:
        import html as html_lib
        assert html_lib.unescape(shown[0]).strip(" ") == text.strip(" ") or "\\" in text


@pytest.mark.parametrize("text", HOSTILE_TEXT + ["it's 'a' and '' or 'x:y' (last_update), @u:", "'@x' 'b|c'"])
def test_a_message_as_prose_is_inert_in_a_cell_and_a_paragraph(text):
    from penguin_lint.output.markdown import md_text

    assert_inert(render(f"| a | b |\n|---|---|\n| {md_text(text)} | x |\n\npara {md_text(text, cell=False)} end\n"))


def test_every_message_of_the_job_summary_reads_as_prose_with_its_values_in_code(repo, tmp_path, monkeypatch):
    summary = tmp_path / "summary.md"
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(summary))
    root = repo({"experiments/lb/exp-1/test/summary.yaml": "n_attempt: 2\nscore_mean: 10.0\nscore_std: 0.0\n"})
    bench = root / "packages/bench-a/benchmark_config.toml"
    bench.write_text(bench.read_text().replace('version = "1.0.0"', 'version = "1.0"'))
    assert lint(root, "--all", "--no-cache", fmt="github").code == 1
    html = render(summary.read_text(encoding="utf-8"))
    cells = re.findall(r"<td>((?:(?!</td>).)*)</td>\s*</tr>", html, re.S)
    assert len(cells) == 2, html
    for cell in cells:  # prose, never one code span holding the whole message
        assert not re.match(r"<code>[^<]*</code>(<br>|$)", cell), cell
    assert "<code>version</code> is not Semantic Versioning 2.0.0" in "".join(cells)
    assert "<code>score_mean</code> is 10.0 but the 2 attempts average 50" in "".join(cells)
    assert "<code>1.0</code>" in "".join(cells) and "'" not in re.sub(r"<code>.*?</code>", "", "".join(cells))


@pytest.mark.parametrize("text", ["`", "``a", "a`", " `a ", " `a", "a | b", "x\\|y", "a\\"])
def test_code_spans_keep_the_text_exactly(text):
    import html as html_lib

    html = render(f"| a |\n|---|\n| {step_summary.md(text)} |\n\n{step_summary.md(text, cell=False)}\n")
    codes = [html_lib.unescape(c) for c in re.findall(r"<code>(.*?)</code>", html, re.S)]
    assert codes == [text, text], html


def leaderboard_repo(repo, status="draft", model="m"):
    return repo({
        LB: f"leaderboard_id: lb\nstatus: {json.dumps(status)}\ntitle: LB\nauthor:\n  name: Lab\n"
            "values:\n  - experiment_id: exp-1\n    phase: test\n",
        META: ("experiment_id: exp-1\nbenchmark_id: bench-a\nharness_name: h\n"
               f"model_name: {json.dumps(model)}\nalgorithm: baseline\n"),
    })


def test_job_summary_of_a_hostile_leaderboard_status(repo, tmp_path, monkeypatch):
    summary = tmp_path / "summary.md"
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(summary))
    monkeypatch.setenv("GITHUB_SERVER_URL", "https://github.com")
    monkeypatch.setenv("GITHUB_REPOSITORY", "lab/benchmarks")
    monkeypatch.setenv("GITHUB_SHA", "a" * 40)
    run = lint(leaderboard_repo(repo, status=IMG_HOST), "--all", fmt="github")
    assert run.code == 1
    html = render(summary.read_text(encoding="utf-8"))
    assert "PL103" in html and "1249763981/&lt;img src=" in html
    assert_inert(html, own_links=["https://github.com/lab/benchmarks/blob/" + "a" * 40 + "/", RULE_PAGES])


@pytest.mark.parametrize("model", [
    IMG_HOST, "[m](https://1249763981/)", "@user", "@org/team", "#1", "www.1249763981", "m <b>bold</b>"])
def test_leaderboard_preview_of_a_hostile_model_name(repo, model):
    root = leaderboard_repo(repo, model=model)
    run = lint(None, "preview", "--root", str(root), "--format", "markdown")
    assert run.code == 0, run.stderr
    html = render(run.output)
    assert_inert(html)
    assert "50.0000" in html


def test_a_failure_summary_quotes_the_error_inertly():
    text = step_summary.render_failure("cannot read @user's http://1249763981/<img src=x> #1", "fix it.")
    html = render(text)
    assert_inert(html)
    assert "<code>cannot read @user's http://1249763981/&lt;img src=x&gt; #1</code>" in html


@pytest.mark.parametrize("hostile", HOSTILE_TEXT)
def test_step_summary_of_hostile_paths_messages_and_hints(hostile):
    from penguin_lint.engine.runner import Result
    from penguin_lint.findings import Finding

    base = "https://github.com/lab/benchmarks/blob/" + "b" * 40
    findings = [Finding("PL103", "invalid-value", "error", f"experiments/{hostile}/meta_info.yaml",
                        f"'model_name' is {hostile}", line=3, hint=hostile),
                Finding("PL305", "orphan-experiments", "warning", hostile, hostile)]
    result = Result(findings, 2, compared_with=f"origin/{hostile} (abc1234)")
    text = step_summary.render(result, findings, base, exists=lambda p: True)
    assert_inert(render(text), own_links=[base + "/", RULE_PAGES])


# -- the guard on any text ------------------------------------------------------

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

PIECES = ["##[", "#", "[", ":", "::", "::error::", " ", "\t", "\u3000", "\n", "\r", "\r\n", "x", "\\", "\""]
pieced = st.lists(st.sampled_from(PIECES), max_size=30).map("".join)


@settings(max_examples=300, deadline=None)
@given(text=pieced, cuts=st.lists(st.integers(min_value=0, max_value=60), max_size=4))
def test_no_line_of_any_text_through_the_guard_is_a_command(text, cuts):
    import io

    from penguin_lint.output.log_guard import LogGuard

    raw = io.StringIO()
    g = LogGuard(raw)
    at = 0
    for cut in sorted(cuts) + [len(text)]:  # in pieces, as reporters write
        g.write(text[at:max(at, cut)])
        at = max(at, cut)
    g.finish()
    assert_no_forged_command(raw.getvalue())


@settings(max_examples=300, deadline=None)
@given(value=st.recursive(st.one_of(pieced, st.integers()),
                          lambda inner: st.one_of(st.lists(inner, max_size=3),
                                                  st.dictionaries(pieced, inner, max_size=3))))
def test_json_through_the_guard_parses_to_the_same_value(value):
    from penguin_lint.output.log_guard import guard_block

    for indent in (None, 2):
        text = guard_block(json.dumps(value, indent=indent, ensure_ascii=True))
        assert json.loads(text) == value
        assert_no_forged_command(text)


def test_the_action_on_a_pull_request_with_a_hostile_leaderboard(tmp_path):
    """End to end, as the runner runs the step: the log forges no command
    and the job summary (findings and the leaderboard preview) is inert."""
    from tests.actionstep import REPOSITORY, SERVER
    from tests.github.test_action import HEAD_SHA, pull_request, runner

    ws, write = pull_request(tmp_path)
    write({LB: f"leaderboard_id: lb\nstatus: {json.dumps(IMG_HOST)}\ntitle: LB\nauthor:\n  name: Lab\n"
               "values:\n  - experiment_id: exp-1\n    phase: test\n",
           META: ("experiment_id: exp-1\nbenchmark_id: bench-a\nharness_name: '##[add-mask]h'\n"
                  "model_name: '@org/team [m](https://1249763981/) #1'\nalgorithm: baseline\n")})
    run = runner(ws, tmp_path).lint()
    assert run.code == 1, run.stdout + run.stderr
    assert_no_forged_command(run.stdout, commands_allowed=True)
    assert_no_forged_command(run.stderr)
    assert "## Leaderboards after this pull request" in run.summary
    html = render(run.summary)
    assert re.search(r"<code>[^<]*@org/team \[m\]\(https://1249763981/\) #1[^<]*</code>", html), html
    # the step runs the installed copy: its pages are where that copy lives
    pages = installed.rule_page("PL001").rsplit("/", 1)[0] + "/"
    assert_inert(html, own_links=[f"{SERVER}/{REPOSITORY}/blob/{HEAD_SHA}/", pages])
