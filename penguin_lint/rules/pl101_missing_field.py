"""PL101 missing-field: a required key is absent."""
import datetime as _dt
import json
from dataclasses import replace
from typing import List, Optional, Tuple

from penguin_lint.loaders.numbers import proposal
from penguin_lint.loaders.positions import split_lines
from penguin_lint.rules._summary import recomputed
from penguin_lint.rules.base import DATA_FILE_KINDS, ProblemRule
from penguin_lint.validation.formats import is_date_time

# The summary's numbers PL303 checks, and how a hint names what they are.
_STATISTICS = {"score_mean": "the mean of the {n}attempts' scores",
               "score_std": "the sample standard deviation of the {n}attempts' scores"}


def _line(fmt: str, key: str, value: str) -> str:
    """``key`` with its value as a line of a ``fmt`` file."""
    if fmt == "toml":
        return f"{key} = {value}"
    if fmt == "json":
        return f"{json.dumps(key)}: {value}"
    return f"{key}: {value}"


def _modified(doc) -> Optional[str]:
    """The file's modification time in UTC, to the second; None when unknown."""
    stat = getattr(doc, "file_stat", None)
    if not stat:
        return None
    try:
        when = _dt.datetime.fromtimestamp(stat[0] // 1_000_000_000, _dt.timezone.utc)
    except (OverflowError, OSError, ValueError):
        return None
    text = when.strftime("%Y-%m-%dT%H:%M:%SZ")
    return text if len(text) == 20 and is_date_time(text) else None


def last_update(subject, ctx, doc) -> Tuple[Optional[str], str]:
    """(the ``last_update`` a package's benchmark_config states, where it
    comes from): when git last committed the package's folder, else when the
    file was last modified; (None, "") when neither is known."""
    ctx.unrepeatable()  # a commit or a touch changes the date, not the file
    folder, _, file = subject.path.rpartition("/")
    history = ctx.history
    when = history.last_commit(folder) if history is not None else None
    if when is not None:
        return when, f"the time of the last commit of {folder or '.'}/"
    when = _modified(doc)
    if when is not None:
        return when, f"when {file} was last modified; git gave no commit of its folder"
    return None, ""


def _tables(doc) -> List[Tuple[int, str, str]]:
    """The ``[table]`` and ``[[array]]`` headers that open the top-level
    tables of a TOML file, in file order: (line, header as written, key)."""
    if doc is None or doc.fmt != "toml" or not isinstance(doc.data, dict) or not doc.text:
        return []
    lines = split_lines(doc.text)
    out = []
    for key, value in doc.data.items():
        if not isinstance(value, (dict, list)) or not isinstance(key, str):
            continue
        pos = doc.key_pos((key,))
        if pos is None or not 0 < pos.line <= len(lines) or not pos.column:
            continue
        line = lines[pos.line - 1]
        if line[:pos.column - 1].strip() in ("[", "[["):  # a header, not `key = {...}`
            out.append((pos.line, line.split("]")[0].strip() + "]" * (2 if line.lstrip()[:2] == "[[" else 1), key))
    return sorted(out)


def _placed(doc, key, hint: str) -> str:
    """Where an added top-level key goes in a TOML file with tables: above
    the first header, since a line below one belongs to that table (an
    ``author`` appended after ``[origin]`` is ``origin.author``)."""
    if key is None or len(key) != 1 or not hint.startswith("add "):
        return hint
    tables = _tables(doc)
    if not tables:
        return hint
    name = key[0]
    first_line, first, _ = tables[0]
    for line, header, table in tables:
        inside = doc.data.get(table)
        if isinstance(inside, dict) and name in inside:
            return (f"'{name}' is under {header} (line {line}), which makes it {table}.{name}: "
                    f"move it above {first} (line {first_line})")
    return f"{hint}, above {first} (line {first_line}): a key below a table header belongs to that table"


class MissingField(ProblemRule):
    """Each kind of file has required keys (see its JSON Schema under
    ``schemas/``). A close key that is present is offered as the likely typo;
    otherwise the hint proposes the key with a value, the one the repository
    knows when it knows one: a package's ``last_update`` is the time of the
    package folder's last git commit (else the modification time of its
    ``benchmark_config.toml``, never a made-up date), and a summary's
    ``score_mean`` and ``score_std`` are what its attempt files give (the
    values PL303 computes).
    """

    code = "PL101"
    name = "missing-field"
    summary = 'a required key is absent'
    source = "schema"
    refines_problems = True  # check() only adds hints to the schema's findings
    kinds = DATA_FILE_KINDS
    bad = ('benchmark_config.toml', 'id = "my-bench"\ntitle = "My benchmark"\n')
    good = ('benchmark_config.toml', 'id = "my-bench"\ntitle = "My benchmark"\ndescription = "..."\nversion = "1.0.0"\nlast_update = "2026-10-29T12:00:00Z"\nstatus = "draft"\n\n[author]\nname = "Lab"\n')

    def check(self, subject, ctx):
        for p in ctx.schema_problems(subject):
            if p.code != self.code:
                continue
            finding = self.from_problem(subject, p)
            close = p.hint is not None and not p.hint.startswith("add ")  # "'x' is there: did you mean"
            hint = None if close else self._known_value(subject, ctx, p.key)
            if hint is None:
                hint = finding.hint
            if hint is not None and not close:
                hint = _placed(ctx.doc(subject), p.key, hint)
            yield finding if hint == finding.hint else replace(finding, hint=hint)

    def _known_value(self, subject, ctx, key) -> Optional[str]:
        """A hint proposing the missing top-level ``key`` with the value the
        repository gives it; None to keep the schema's placeholder."""
        doc = ctx.doc(subject)
        if doc is None or key is None or len(key) != 1:
            return None
        name, fmt = key[0], doc.fmt
        if subject.kind == "benchmark_config" and name == "last_update":
            when, source = last_update(subject, ctx, doc)
            if when is not None:
                return f"add {_line(fmt, name, json.dumps(when))} ({source})"
            return (f"add {name}: the time of the package's last update, to the second with its offset "
                    "(YYYY-MM-DDTHH:MM:SS+HH:MM)")
        if subject.kind == "summary" and name in _STATISTICS:
            want = recomputed(ctx, subject.path, name)
            n = doc.data.get("n_attempt") if isinstance(doc.data, dict) else None
            counted = isinstance(n, int) and not isinstance(n, bool) and n > 1
            what = _STATISTICS[name].format(n=f"{n} " if counted else "")
            if n == 1:
                what = "the one attempt's score" if name == "score_mean" else what
            text = proposal(want, None) if want is not None else None
            if text is not None:
                # the text PL303's hint and --fix would write for it
                return f"add {_line(fmt, name, text)} ({what})"
            return f"add {name}: {what}, once the attempt files all hold a score"
        return None
