"""The leaderboard as it will be rendered, and what a change does to it.

:func:`board` computes every entry of a leaderboard's ``values`` with
RFC-0005's formulas: the mean of the expression, Ȳ = Σ w_g S̄_g, and its
sample standard deviation, from the per-attempt composite scores
Y_j = Σ w_g S_{g,j} when every leaf has the same ``n_attempt`` (and its
attempt files), else from the independent formula sqrt(Σ w_g² s_g²) with
each leaf's ``score_std``; the row says which was used. It also gives the
label (harness, model, algorithm, phase), the rank by mean, and the Pareto
axes (``cost``, ``duration_ms``, ``token``: totals over the leaves, where
every summary has them). An entry that cannot be computed says why.

Everything here is a pure function of a repository-like object (the
working tree's :class:`~penguin_lint.core.repo.Repository`, or the base of a
pull request read from git behind the same interface): :func:`compare`
takes the rows before and after a change, and the renderers turn boards
and changes into an aligned text table, Markdown (a job summary) or JSON.

Laid out by concept: ``model`` (rows, boards, changes), ``board`` (the
numbers of a board), ``compare`` (before and after), and one module per
rendering (``text``, ``markdown``, ``json_report``, ``html`` with its
figures in ``svg``) over the shared ``cells``; ``figures`` holds the
Pareto front and the per-task scores the JSON and the page share.
Harbor Hub boards have their model in ``harbor`` and their renderings in
``harbor_views``; ``render`` puts both kinds of board in one output.
"""
from penguin_lint.preview.board import board, board_id, leaderboards, weights, why
from penguin_lint.preview.compare import affected_leaderboards, compare, compare_repos, pull_request_summary
from penguin_lint.preview.html import render_changes_html, render_html
from penguin_lint.preview.json_report import render_changes_json, render_json
from penguin_lint.preview.markdown import MARKDOWN_LIMIT, MARKDOWN_ROWS, render_changes_markdown, render_markdown
from penguin_lint.preview.model import AXES, INDEPENDENT, LABEL, PER_ATTEMPT, Board, Change, Row
from penguin_lint.preview.text import render_changes_text, render_text
from penguin_lint.preview.render import render_boards, render_changes

__all__ = [
    "AXES", "INDEPENDENT", "LABEL", "MARKDOWN_LIMIT", "MARKDOWN_ROWS", "PER_ATTEMPT", "Board", "Change", "Row",
    "affected_leaderboards", "board", "board_id", "compare", "compare_repos", "leaderboards",
    "pull_request_summary", "render_changes_html", "render_changes_json", "render_changes_markdown", "render_changes_text",
    "render_boards", "render_changes", "render_html", "render_json", "render_markdown", "render_text",
    "weights", "why",
]
