"""PL102 wrong-type: a value of the wrong type (with a "quote it" hint when YAML/TOML typed it)."""
from dataclasses import replace

from penguin_lint.rules.base import DATA_FILE_KINDS, ProblemRule

#: how an empty file's hint begins (validation/schema.py words it)
_EMPTY_HINT = "write at least these keys, one per line: "


class WrongType(ProblemRule):
    """YAML types unquoted values on its own: ``1.0`` is a number, ``yes`` is
    true, ``2026-10-29`` is a date. Where the schema wants a string, the hint
    shows the quoted form; where it wants a number, a quoted number is named.
    An empty file is said to be empty, with the keys it needs; for a summary,
    with the values its attempt files give.
    """

    code = "PL102"
    name = "wrong-type"
    summary = 'a value of the wrong type (with a "quote it" hint when YAML/TOML typed it)'
    source = "schema"
    refines_problems = True  # check() only adds hints to the schema's findings
    kinds = DATA_FILE_KINDS
    fixable = "safe"  # a value YAML/TOML typed, quoted as written (fixes/quoting.py)
    bad = ('meta_info.yaml', 'model_name: 1.5\nalgorithm: yes\n')
    good = ('meta_info.yaml', 'model_name: "1.5"\nalgorithm: "yes"\n')

    def check(self, subject, ctx):
        for finding in super().check(subject, ctx):
            if subject.kind == "summary" and finding.hint and finding.hint.startswith(_EMPTY_HINT):
                members = finding.hint[len(_EMPTY_HINT):].split(" / ")
                finding = replace(finding, hint=_EMPTY_HINT + " / ".join(_summary_lines(subject, ctx, members)))
            elif finding.hint and _QUOTE_IT in finding.hint and finding.message.startswith("'version' must be"):
                finding = replace(finding, hint=_version_hint(finding, ctx.doc(subject)))
            yield finding


#: what the schema's hint for a value YAML/TOML typed says before the quoted value
_QUOTE_IT = "; quote it: "


def _version_hint(finding, doc):
    """A bare ``version = 1.0`` quoted as written would still not be SemVer:
    the hint proposes the SemVer spelling of what was written (which the
    fix, writing only what a hint proposes, then leaves to the author)."""
    from penguin_lint.loaders.numbers import number_text
    from penguin_lint.rules.pl203_invalid_version import SEMVER, repair

    src = number_text(doc, ("version",)) if doc is not None else None
    if not src:
        return finding.hint  # not a number the file wrote (a date, a boolean): quoted as written
    said = finding.hint.partition(_QUOTE_IT)[0]
    fixed, _ = repair(src)
    if fixed is None and SEMVER.match(src):
        return finding.hint  # quoted as written it is SemVer already
    assign = (f'version: "{fixed}"' if doc.fmt == "yaml" else f'version = "{fixed}"') if fixed else None
    return (f"{said}; version is text in SemVer, MAJOR.MINOR.PATCH: "
            + (f"quote it as {assign}" if assign else 'write it quoted, such as "1.0.0"'))


def _summary_lines(subject, ctx, members):
    """An empty summary's required keys (``members``, the schema's
    placeholders) with the values its attempt files give (the values PL302
    and PL303 then accept), never a made-up number."""
    from penguin_lint.loaders.numbers import proposal
    from penguin_lint.rules._summary import attempts_present, recomputed

    n = attempts_present(ctx, subject.path)
    mean = recomputed(ctx, subject.path, "score_mean", n=n) if n else None
    text = proposal(mean, None) if mean is not None else None
    known = {"n_attempt": f"n_attempt: {n}" if n else "n_attempt: the number of attempt files",
             "score_mean": f"score_mean: {text}" if text is not None else "score_mean: the mean of the attempts' scores"}
    return [known.get(m.partition(":")[0], m) for m in members]
