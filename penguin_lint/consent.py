"""Which of the suppressions a change adds apply in the run that reviews it.

A suppression a change adds applies once merged (``suppressions.py``). It
applies earlier only with the consent of the maintainers, which never comes
from the change itself:

- the base's ``allow-added-suppressions`` lists its code and the comment
  gives a reason (text after the codes): ``REASON``;
- GitHub's event for the run is a maintainer setting the base's
  ``approval-label`` on the pull request: ``LABEL``;
- the run is the author's own hook, judging their commit against ``HEAD``:
  ``OWN``. It applies there, and the run says what the pull request will
  need for it.

Codes no comment suppresses (``UNSUPPRESSIBLE``) are never granted.
"""
from __future__ import annotations

from dataclasses import FrozenInstanceError
from typing import Iterable, Optional, Tuple

from penguin_lint.suppressions import LABEL, OWN, REASON, UNSUPPRESSIBLE, AddedSuppression, Directive

__all__ = ["Consent", "LABEL", "OWN", "REASON"]
#: a reason is shown up to this many characters (it is the author's text)
REASON_SHOWN = 200


class Consent:
    """What widens the gate for a reviewed change, from the base's configuration and GitHub's event.

    A frozen record written out rather than a dataclass: every hook makes
    one, and making the class would compile its methods from source on
    each run."""

    __slots__ = ("allowed", "approval_label", "approved", "own")

    def __init__(self, allowed: Tuple[str, ...] = (), approval_label: Optional[str] = None,
                 approved: bool = False, own: bool = False) -> None:
        #: ``allow-added-suppressions``: rule codes or prefixes
        object.__setattr__(self, "allowed", allowed)
        #: ``approval-label``: the label's name, or None
        object.__setattr__(self, "approval_label", approval_label)
        #: the run's event is that label being set on the pull request
        object.__setattr__(self, "approved", approved)
        #: the author's own commit (the hook)
        object.__setattr__(self, "own", own)

    def _key(self) -> tuple:
        return (self.allowed, self.approval_label, self.approved, self.own)

    def __setattr__(self, name, value):
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name):
        raise FrozenInstanceError(f"cannot delete field {name!r}")

    def __eq__(self, other):
        return self._key() == other._key() if other.__class__ is self.__class__ else NotImplemented

    def __hash__(self) -> int:
        return hash(self._key())

    def __reduce__(self):  # copy and pickle make it through __init__, as a frozen dataclass's are
        return (Consent, self._key())

    def __repr__(self) -> str:
        return ("Consent(allowed={!r}, approval_label={!r}, approved={!r}, own={!r})"
                .format(*self._key()))

    def listed(self, code: str) -> bool:
        return any(code.startswith(p) for p in self.allowed)

    def grant(self, d: Directive, code: str) -> Optional[str]:
        """How an added suppression of ``code`` by ``d`` applies in this run
        (REASON, LABEL, OWN), or None: it applies once merged."""
        if code in UNSUPPRESSIBLE:
            return None
        if self.own:
            return OWN
        if self.approved:
            return LABEL
        if d.reason and self.listed(code):
            return REASON
        return None

    def granted(self, d: Directive, codes: Iterable[str]) -> Tuple[Tuple[str, ...], str]:
        """(the codes of ``codes`` that apply in this run, how)."""
        hows = {c: self.grant(d, c) for c in codes}
        applied = tuple(c for c, h in hows.items() if h is not None)
        how = next((h for h in (OWN, LABEL, REASON) if h in hows.values()), "")
        return applied, how

    def describe(self, a: AddedSuppression, d: Directive) -> None:
        """``a`` (made from ``d``) told which of its codes apply in this run,
        how, and (the hook) what the pull request will need."""
        a.applied, a.how = self.granted(d, a.codes)
        if a.how == REASON:
            a.reason = shown_reason(d.reason)
        elif a.how == LABEL:
            a.label = self.approval_label or ""
        elif a.how == OWN:
            a.needs = self.needs(d, a.codes)

    def needs(self, d: Directive, codes: Iterable[str]) -> str:
        """What a pull request will need so that ``d``'s added ``codes``
        apply in its run (the hook says it), or "" when it has it. Called
        when some of them apply (``describe``): one at least is suppressible."""
        codes = [c for c in codes if c not in UNSUPPRESSIBLE]
        unlisted = [c for c in codes if not self.listed(c)]
        if not unlisted:
            if d.reason:
                return ""
            return f"a reason after the codes (allow-added-suppressions lists {', '.join(codes)})"
        names = ", ".join(unlisted)
        if self.approval_label:
            return (f"the maintainers' label '{self.approval_label}' "
                    f"(allow-added-suppressions does not list {names})")
        return (f"{names} in the base's allow-added-suppressions and a reason after the codes, "
                "or it applies only once merged")


def shown_reason(reason: str) -> str:
    return reason if len(reason) <= REASON_SHOWN else reason[:REASON_SHOWN - 3] + "..."
