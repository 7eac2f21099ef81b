"""Why only part of a leaderboard is re-checked in a pull-request run.

A change to ``experiments/<lb>/<exp>/...`` (a summary, a meta_info.yaml, an
experiment or phase folder that appears or vanishes) makes
``leaderboards/<lb>/leaderboard.yaml`` a dependent of the change: its verdict
can change although the file did not. Checking it whole would read every
experiment the leaderboard references, and then all of them again from the
base to subtract the old findings. But with the leaderboard file unchanged,
a value (``values[i]``) that references no touched experiment reads exactly
the same files on both sides of the change: its findings are the same in
the base and are subtracted as old debt anyway. So a dependent leaderboard
is checked *in focus*: its expression rules look only at the values with a
leaf the change can affect (a leaf naming a touched experiment, or, for a
summary or phase folder, that experiment and phase), all of that value's
leaves included, on the head and on the base alike, so fingerprints compare
like with like. The other experiments are not loaded.

Rule by rule (PL401-PL408, the rules that read experiments):

- PL401, PL402, PL403, PL404, PL406, PL408 judge one value at a time from
  the files of that value's own experiments: narrowed to the values in
  focus. (PL401's "did you mean" hint names a folder no other leaf uses; it
  still looks at every leaf, through folder listings only.)
- PL405 reads the leaderboard file alone (arity, weights): it runs whole,
  reads no experiment, and its findings are old debt in a dependent check.
- PL407 compares the labels of all values (harness, model and algorithm
  from meta_info.yaml, the phase from the leaf): one value's new label can
  duplicate any other's, so it cannot be narrowed to some values. Labels
  change only with the label fields of a meta_info.yaml: when no
  experiment the board names has other label fields than in the base (a
  touched meta_info.yaml is read on both sides to tell), PL407's findings
  are all old and it is not run on either side; else it runs whole,
  reading every referenced meta_info.yaml but no summary.
- The other rules on a leaderboard (loading, schema) read the file alone
  and run whole; PL306 and PL308 run on experiment and phase folders and
  read no other experiment.

An old finding out of view is not computed at all, on either side: a new
finding in view is matched only against the base's findings in view.

Checked whole, as before: a leaderboard the change touches, ``--all``, path
runs (they need not have a base to subtract the rest by), and any change
that touches the configuration or a whole experiments folder.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, FrozenSet, Optional, Tuple

from penguin_lint.core.config import CONFIG_FILE

if TYPE_CHECKING:  # pragma: no cover
    from penguin_lint.core.layout import Layout
    from penguin_lint.engine.subject import Subject
    from penguin_lint.pr.blame import Change


@dataclass(frozen=True)
class Focus:
    """The part of a dependent leaderboard that a change can affect."""

    #: experiments (folder names under ``experiments/<lb>/``) whose folder
    #: or meta_info.yaml the change touched: every leaf naming one is affected
    experiments: FrozenSet[str]
    #: (experiment, phase) whose phase folder or summary.yaml the change
    #: touched: the leaves naming that experiment and phase are affected
    phases: FrozenSet[Tuple[str, str]]
    #: those of ``experiments`` whose label fields (LABEL_FIELDS of
    #: meta_info.yaml) may differ from the base's: PL407 compares every value
    #: when a leaf names one
    relabelled: FrozenSet[str] = frozenset()

    def covers(self, experiment_id, phase) -> bool:
        """Whether the change can alter what a leaf reads."""
        if not isinstance(experiment_id, str):
            return False
        return experiment_id in self.experiments or (
            isinstance(phase, str) and (experiment_id, phase) in self.phases)


def leaderboard_focus(subject: "Subject", change: "Change", layout: "Layout",
                      repo=None, base=None) -> Optional[Focus]:
    """The focus of ``subject`` when it is checked only as a dependent of
    ``change``; None (check it whole) when it is not a leaderboard of the
    layout, when the change touches it, or when the change is too broad to
    narrow (the configuration, a whole experiments folder). With ``repo``
    and ``base`` (the two sides), a touched meta_info.yaml whose label
    fields are the same on both sides does not count as relabelled."""
    lb = subject.groups.get("leaderboard")
    if subject.kind != "leaderboard" or subject.is_dir or not isinstance(lb, str) \
            or subject.path != layout.leaderboard_file(lb):
        return None
    group = layout.experiments_group(lb)
    paths = set(change.touched) | set(change.deleted) | set(change.renames) | set(change.renames.values())
    if subject.path in paths:
        return None
    experiments, phases = set(), set()
    for p in paths:
        if p == CONFIG_FILE or p == "" or p == group or group.startswith(p + "/"):
            return None  # the rules or every experiment may differ
        if not p.startswith(group + "/"):
            continue  # another leaderboard's experiments, packages, ...: not read here
        # A leaf {experiment_id: e, phase: p} reads e/, e/meta_info.yaml, e/p/
        # and e/p/summary.yaml (and nothing of another phase).
        parts = p[len(group) + 1:].split("/")
        if len(parts) == 1 or parts[1] == "meta_info.yaml":
            experiments.add(parts[0])
        else:
            phases.add((parts[0], parts[1]))
    relabelled = experiments
    if repo is not None and base is not None:
        relabelled = {e for e in experiments
                      if label_fields(repo, f"{group}/{e}") != label_fields(base, f"{group}/{e}")}
    return Focus(frozenset(experiments), frozenset(phases), frozenset(relabelled))


def label_fields(repo, exp_dir: str):
    """What a leaf's label takes from ``exp_dir``'s meta_info.yaml, as
    ``Expressions.fields`` reads it (None: no mapping to read)."""
    from penguin_lint.rules._expressions import LABEL_FIELDS, same_key

    meta = f"{exp_dir}/meta_info.yaml"
    if not repo.is_dir(exp_dir) or not repo.is_file(meta):
        return None
    doc = repo.load(meta)
    if doc is None or not doc.parsed or not isinstance(doc.data, dict):
        return None
    return tuple((f, same_key(doc.data[f])) for f in LABEL_FIELDS if f in doc.data)
