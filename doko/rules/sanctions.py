"""Sanctions for unsporting conduct (TSR 9.6): what they are, who gives them, and what the
arbitration panel may put in place of a bound decision on appeal, as plain data in and an
outcome or the problems out.

TSR 9.6.2: „Bei Verdacht auf unsportliches Verhalten muss der Schiedsrichter das
Schiedsgericht einberufen, es sei denn es handelt sich um die Vergabe von Strafpunkten nach
9.6.3. Das Schiedsgericht kann, je nach Schwere des Deliktes, die folgenden Sanktionen
verhängen: a) Verwarnung …, b) Punktabzug (maximal 12) ohne Gutschrift für die Mitspieler,
c) Disqualifikation". TSR 9.6.3: „Im Falle gebundener Entscheidungen vergibt der
Schiedsrichter die für die Handlung vorgesehenen Strafpunkte."

The readings:

- a deduction is a whole number of points from 1 to 12 („maximal 12"; a deduction of none is
  no deduction, and a warning says so);
- the adjudicator (or a deputy) decides alone only a bound decision of the catalogue, with
  exactly its preset outcome and no members of the panel named; anything else is the panel's,
  and whoever does not sit on it may not decide it;
- on appeal against the adjudicator's bound decision (TSR 8.2.1) the panel upholds, annuls or
  changes it; changing it, it puts its own sanction in place, a warning or a deduction of 1 to
  12: a disqualification (9.6.2 c) is a sanction of its own, never a change of a bound
  decision; and it gives no ruling on a hand there, which is a breach's (TSR 9.2-9.5).

The adjudication services read the rows into these arguments, ask here, and store what comes
back; a problem carries its field, its TSR section and a message template
(``doko.rules.problems``), which the Django layer translates (``tournaments.messages``).
"""

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from doko.rules.problems import FieldError, Template, gettext_noop, ngettext_noop, with_rule

# TSR 9.6.2 b: „Punktabzug (maximal 12)".
MOST_DEDUCTION = 12
DEDUCTION_RULE = "TSR 9.6.2 b"


class SanctionKind(StrEnum):
    """The sanctions of TSR 9.6.2."""

    WARNING = "warning"  # a) Verwarnung
    DEDUCTION = "deduction"  # b) Punktabzug, without credit to the others
    DISQUALIFICATION = "disqualification"  # c) Disqualifikation


class Decider(StrEnum):
    """Who decides a sanction."""

    ADJUDICATOR = "adjudicator"  # alone: a bound decision with its preset outcome (TSR 9.6.3)
    PANEL = "panel"  # the arbitration panel, its members named (TSR 9.6.2)


@dataclass(frozen=True)
class BoundDecision:
    """A bound decision of the catalogue (TSR 9.6.3): the offence's name as the reader reads it,
    and its preset points; none is a warning."""

    name: str
    deduction: int | None = None

    @property
    def kind(self) -> SanctionKind:
        return SanctionKind.DEDUCTION if self.deduction else SanctionKind.WARNING

    def preset(self, kind: SanctionKind, points: int | None) -> bool:
        """Whether ``kind`` and ``points`` are exactly its outcome."""
        return kind == self.kind and (points or None) == (self.deduction or None)


@dataclass(frozen=True)
class Refused:
    """Not the asker's to decide, whatever he gives (the Django layer's 403): why, with the
    TSR section."""

    rule: str
    template: Template
    params: Mapping[str, Any] = field(default_factory=dict)

    @property
    def message(self) -> str:
        return with_rule(self.template, self.params, self.rule)


def deduction_problem(
    kind: SanctionKind, points: int | None, *, field: str = "points"
) -> FieldError | None:
    """A deduction takes 1 to 12 points (TSR 9.6.2 b); the other sanctions take none (what
    they are given is not kept: ``points_kept``)."""
    if kind != SanctionKind.DEDUCTION:
        return None
    if points is not None and 1 <= points <= MOST_DEDUCTION:
        return None
    return FieldError(
        field,
        DEDUCTION_RULE,
        gettext_noop("A point deduction takes 1 to 12 points ({rule})."),
        {"points": points},
    )


def points_kept(kind: SanctionKind, points: int | None) -> int | None:
    """The points a sanction keeps: a deduction's, none for a warning or a disqualification."""
    return points if kind == SanctionKind.DEDUCTION else None


def sanction_decider(
    *,
    kind: SanctionKind,
    points: int | None,
    bound: BoundDecision | None,
    members_named: bool,
    first_instance: bool,
    on_panel: bool,
) -> Decider | FieldError | Refused:
    """Who decides this sanction (TSR 9.6.2, 9.6.3), asked by someone who decides alone as the
    adjudicator or a deputy (``first_instance``), sits on the arbitration panel (``on_panel``),
    or both.

    The adjudicator alone: a bound decision of the catalogue (``bound``, if the sanction names
    one) with its preset outcome and no members named. Anything else the panel's. Someone not
    on the panel who asks otherwise is refused: on ``kind`` when the sanction names a bound
    decision (he may give it as it is preset), else not his to decide at all."""
    preset = bound is not None and bound.preset(kind, points)
    if first_instance and preset and not members_named:
        return Decider.ADJUDICATOR
    if on_panel:
        return Decider.PANEL
    if bound is None:
        return Refused(
            "TSR 9.6.2, 9.6.3",
            gettext_noop(
                "Unsporting conduct is for the arbitration panel; the adjudicator gives only the "
                "bound decisions of the catalogue ({rule})."
            ),
        )
    template: Template
    if bound.deduction:
        template = ngettext_noop(
            "“{name}” is a bound decision: {points} point deducted ({rule}); anything else is "
            "for the arbitration panel.",
            "“{name}” is a bound decision: {points} points deducted ({rule}); anything else is "
            "for the arbitration panel.",
            count="points",
        )
    else:
        template = gettext_noop(
            "“{name}” is a bound decision: a warning ({rule}); anything else is for the "
            "arbitration panel."
        )
    return FieldError(
        "kind", "TSR 9.6.3", template, {"name": bound.name, "points": bound.deduction or 0}
    )


@dataclass(frozen=True)
class PanelSanction:
    """The arbitration panel's own sanction in place of a bound decision it changed."""

    kind: SanctionKind
    points: int | None


def panel_sanction_problems(
    *,
    changes: bool,
    kind: SanctionKind | None,
    points: int | None,
    ruling_given: bool = False,
) -> list[FieldError]:
    """What is wrong with the arbitration panel's decision on appeal against a bound decision
    (TSR 8.2.1, 9.6.2, 9.6.3): it gives its own sanction (``kind``, None for none) when, and
    only when, it ``changes`` the decision; that sanction is a warning or a deduction of 1 to
    12 points, a disqualification being a sanction of its own (9.6.2 c); and no ruling on a
    hand, which is a breach's (TSR 9.2-9.5). Empty: the panel may decide so."""
    problems = []
    if ruling_given:
        problems.append(
            FieldError(
                "ruling",
                "TSR 9.6.2",
                gettext_noop(
                    "An appeal against a sanction is decided with the panel's own sanction "
                    "({rule}), not a ruling on a hand."
                ),
            )
        )
    if (kind is not None) != changes:
        problems.append(
            FieldError(
                "sanction",
                "TSR 8.2.1",
                gettext_noop(
                    "The panel gives its own sanction when, and only when, it changes the "
                    "decision ({rule})."
                ),
            )
        )
    elif kind is not None and kind not in {SanctionKind.WARNING, SanctionKind.DEDUCTION}:
        problems.append(
            FieldError(
                "sanction",
                "TSR 9.6.2 c",
                gettext_noop(
                    "On appeal the panel makes a bound decision a warning or a deduction; a "
                    "disqualification is a sanction of its own ({rule})."
                ),
            )
        )
    elif kind is not None:
        problem = deduction_problem(kind, points, field="sanction")
        if problem is not None:
            problems.append(problem)
    return problems


def panel_sanction(
    *, changes: bool, kind: SanctionKind | None, points: int | None
) -> PanelSanction | None:
    """The panel's own sanction in place of the bound decision, if it changes it; call it once
    ``panel_sanction_problems`` found nothing."""
    if not changes or kind is None:
        return None
    return PanelSanction(kind, points_kept(kind, points))


def appeal_problem(*, withdrawn: str | None, by_panel: bool, appealed: bool) -> FieldError | None:
    """Whether a sanction can be appealed against (TSR 8.2.1): one the adjudicator gave alone
    and that is in force (``withdrawn``: else what the panel made of it, in the reader's
    words), once; what the arbitration panel decided itself is final."""
    if withdrawn is not None:
        return FieldError(
            "sanction",
            "TSR 8.2.1",
            gettext_noop("The sanction is {status}: it is not appealed again ({rule})."),
            {"status": withdrawn},
        )
    if by_panel:
        return FieldError(
            "sanction",
            "TSR 8.2.1",
            gettext_noop("This is the arbitration panel's decision: it is final ({rule})."),
        )
    if appealed:
        return FieldError(
            "sanction",
            "TSR 8.2.1",
            gettext_noop("This decision has been appealed already ({rule})."),
        )
    return None


def appeal_round_problem(*, round: int, under_way: bool, status: str) -> FieldError | None:
    """An appeal is made at once (TSR 9.7.7, „nur sofort"): while the round's matches are
    played or checked (``under_way``; ``status``: the round's, in the reader's words)."""
    if under_way:
        return None
    return FieldError(
        "sanction",
        "TSR 9.7.7",
        gettext_noop(
            "Round {round} is {status}: an appeal is made at once, while its matches are played "
            "({rule})."
        ),
        {"round": round, "status": status},
    )
