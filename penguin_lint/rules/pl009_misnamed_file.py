"""PL009 misnamed-file: a data file whose name is close to one the harness reads."""
import re
from typing import Optional, Sequence

from penguin_lint.core.layout import READ_NAMES
from penguin_lint.findings import WARNING
from penguin_lint.rules.base import Rule
from penguin_lint.rules.pl302_attempt_numbering import ATTEMPT_LIKE

# how alike two names' letters and digits must be to call one a misspelling
# of the other: 'sumary', 'leaderbord' are; 'results', 'notes' are not
CLOSE = 0.8


def _letters(stem: str) -> str:
    return re.sub(r"[^a-z0-9]", "", stem.lower())


def near_miss(name: str, wanted: Sequence[str]) -> Optional[str]:
    """The name of ``wanted`` that ``name`` most probably means, or None."""
    stem = _letters(name.rpartition(".")[0] or name)
    best, score = None, CLOSE
    from difflib import SequenceMatcher  # only for a name no rule expects

    for w in wanted:
        ratio = SequenceMatcher(None, stem, _letters(w.rpartition(".")[0])).ratio()
        if ratio >= score:
            best, score = w, ratio
    return best


class MisnamedFile(Rule):
    """The harness reads its files by name: ``benchmark_config.toml`` in a
    package, ``task_config.toml`` in a task, ``leaderboard.yaml`` in a
    leaderboard's folder, ``meta_info.yaml`` in an experiment and
    ``summary.yaml`` in a phase. A YAML, TOML or JSON file there whose name
    is close to one of these (``summary.yml``, ``Summary.yaml``,
    ``meta-info.yaml``, ``leaderbord.yaml``) is read by nothing, so
    penguin-lint does not check it either: the finding names the file it was
    probably meant to be. Attempt files spelled otherwise
    (``attempt_1.yaml``) are PL302's.
    """

    code = "PL009"
    name = "misnamed-file"
    severity = WARNING
    summary = "a data file named close to one the harness reads (`summary.yml`): nothing reads it"
    kinds = tuple(READ_NAMES)
    bad = ("experiments/lb/exp-1/test/", "summary.yml\nattempt-1.yaml\n")
    good = ("experiments/lb/exp-1/test/", "summary.yaml\nattempt-1.yaml\n")

    def check(self, subject, ctx):
        repo = ctx.repo
        names = set(repo.files(subject.path))
        for name in sorted(names):
            if subject.kind == "phase" and ATTEMPT_LIKE.match(name):
                continue  # PL302 judges attempt names (asked first: most files of a phase)
            path = f"{subject.path}/{name}"
            if not repo.layout.unread_data_file(path):
                continue
            meant = near_miss(name, READ_NAMES[subject.kind])
            if meant is None:
                continue
            hint = (f"{meant} is here too: merge what '{name}' holds into it and remove '{name}'"
                    if meant in names else f"rename it to {meant} (only that name is read)")
            yield self.finding(subject, f"'{name}' is no file the harness reads (so it was not checked): "
                                        f"did you mean {meant}?", path=path, hint=hint)
