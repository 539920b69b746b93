"""Sanctions for unsporting conduct: warnings, deductions, disqualification (TSR 9.6). The rules
(who decides, the points, what the panel may put in place of a bound decision) are the core's,
``doko.rules.sanctions``; this binds them to the rows. The appeal against a bound decision is
``appeals``'s, as is every appeal."""

from collections.abc import Collection, Mapping
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from adjudication import policies
from adjudication.messages import label_said, said
from adjudication.models import (
    Event,
    Offence,
    Sanction,
)
from adjudication.services.common import log_event
from adjudication.services.decisions import require_valid
from adjudication.services.offences import require_offence_of
from doko.rules.problems import FieldError
from doko.rules.sanctions import (
    BoundDecision,
    Decider,
    Refused,
    SanctionKind,
    deduction_problem,
    points_kept,
    sanction_decider,
)
from scoring.models import Scoresheet
from tournaments.caching import table_changed
from tournaments.messages import rule_message
from tournaments.models import Entry, Round, Seat, Table, Tournament
from tournaments.roles import FIRST_INSTANCE, PANEL
from tournaments.selectors import user_roles
from tournaments.services import entry_disqualify, results_refresh
from tournaments.services.common import save_validated


@dataclass(frozen=True)
class SanctionRuling:
    """The arbitration panel's own sanction when, on appeal, it changes a bound decision the
    adjudicator gave alone (TSR 8.2.1, 9.6.3): a warning, or a deduction of 1 to 12 points
    (TSR 9.6.2 a, b). A disqualification (9.6.2 c) is a sanction of the panel's own."""

    kind: Sanction.Kind
    points: int | None = None

    @classmethod
    def from_values(cls, values: Mapping[str, Any]) -> "SanctionRuling":
        """The panel's sanction from cleaned input, the page's form or the API's."""
        return cls(kind=Sanction.Kind(values["kind"]), points=values["points"])


def seat_of(entry: Entry, round: Round) -> Seat:
    """Where the player sits in ``round``; a ValidationError on ``entry`` if nowhere."""
    seat = Seat.objects.filter(table__round=round, entry=entry).select_related("table").first()
    if seat is None:
        raise ValidationError(
            {
                "entry": _("%(player)s does not play in round %(round)d.")
                % {"player": entry.name, "round": round.number}
            }
        )
    return seat


def _points_for(kind: Sanction.Kind, points: int | None) -> int | None:
    """The points the sanction keeps, a deduction's 1 to 12 (TSR 9.6.2 b)."""
    require_valid([deduction_problem(SanctionKind(kind), points)])
    return points_kept(SanctionKind(kind), points)


@transaction.atomic
def sanction_impose(
    *,
    entry: Entry,
    round: Round,
    kind: Sanction.Kind,
    reasons: str,
    points: int | None = None,
    offence: Offence | None = None,
    members: Collection[User] = (),
    by: User,
) -> Sanction:
    """Sanction unsporting conduct (TSR 9.6.2): a warning, a deduction of up to 12 points
    without credit to the other players (it counts in ``round``'s match, outside every
    checksum), or disqualification. The arbitration panel decides, with its members named;
    the adjudicator (or a deputy) alone only a bound decision of the catalogue, with its
    points (TSR 9.6.3), which can be appealed to the panel. Nobody decides on conduct at the
    table where he plays."""
    tournament = Tournament.objects.select_for_update().get(pk=entry.tournament_id)
    policies.enforce(policies.may_sanction(tournament=tournament, user=by))
    roles = user_roles(user=by, tournament=tournament)
    kind = Sanction.Kind(kind)
    if offence is not None:
        require_offence_of(offence, tournament)
    alone = _decided_alone(kind, points=points, offence=offence, members=members, roles=roles)
    round = _round_played(round, tournament)
    seat = seat_of(entry, round)
    if alone:
        policies.enforce(policies.may_rule(table=seat.table, user=by, what=policies.CONDUCT))
    else:
        policies.enforce(
            policies.may_decide_as_panel(table=seat.table, user=by, what=policies.CONDUCT)
        )
        policies.enforce(
            policies.may_sit_on_panel(table=seat.table, members=members, what=policies.CONDUCT)
        )
    points = _points_for(kind, points)
    if not reasons.strip():
        raise ValidationError({"reasons": _("Give the reasons for the sanction.")})
    sanction = save_validated(
        Sanction(
            entry=entry,
            round=round,
            kind=kind,
            points=points,
            offence=offence,
            reasons=reasons.strip(),
            decided_by=by,
            hands_at_decision=_hands_at(seat.table) if alone else None,
        )
    )
    sanction.members.set(members)
    unseated = []
    if kind == Sanction.Kind.DISQUALIFICATION:
        unseated = list(entry_disqualify(entry=entry).reseating.unseated)
    _log_sanction(tournament, sanction, seat=seat, unseated=unseated, by=by)
    if kind == Sanction.Kind.DEDUCTION:
        results_refresh(tables=[seat.table])
        table_changed(round_id=seat.table.round_id, number=seat.table.number)  # its points
    return sanction


def _decided_alone(
    kind: Sanction.Kind,
    *,
    points: int | None,
    offence: Offence | None,
    members: Collection[User],
    roles: set[str],
) -> bool:
    """Whether the adjudicator (or a deputy) decides alone, as the core says
    (``doko.rules.sanctions.sanction_decider``, TSR 9.6.2, 9.6.3); anything else is the
    arbitration panel's, and refused to whoever does not sit on it."""
    bound = (
        BoundDecision(name=offence.label, deduction=offence.deduction)
        if offence is not None and offence.bound
        else None
    )
    decider = sanction_decider(
        kind=SanctionKind(kind),
        points=points,
        bound=bound,
        members_named=bool(members),
        first_instance=bool(roles & FIRST_INSTANCE),
        on_panel=bool(roles & PANEL),
    )
    if isinstance(decider, Refused):
        policies.enforce(
            policies.Refusal(rule_message(decider.template, decider.params, decider.rule))
        )
    if isinstance(decider, FieldError):
        require_valid([decider])
    return decider == Decider.ADJUDICATOR


def _round_played(round: Round, tournament: Tournament) -> Round:
    """The round of the sanction, read again: one of this tournament's, started (a sanction is
    for conduct in a round played)."""
    if round.tournament_id != tournament.pk:
        raise ValidationError({"round": _("The round is not one of this tournament's.")})
    round = Round.objects.get(pk=round.pk)
    if round.status not in {Round.Status.RUNNING, Round.Status.FINISHED, Round.Status.CLOSED}:
        raise ValidationError(
            {
                "round": _(
                    "Round %(round)d has not started: a sanction is for conduct in a round played."
                )
                % {"round": round.number}
            }
        )
    return round


def _log_sanction(
    tournament: Tournament, sanction: Sanction, *, seat: Seat, unseated: list, by: User
) -> None:
    """Append the sanction to the tournament's log, with the rounds its disqualification
    unseated the player from."""
    round, entry, kind, points = sanction.round, sanction.entry, sanction.kind, sanction.points
    log_event(
        tournament,
        by=by,
        action=Event.Action.SANCTION,
        sanction=sanction,
        summary=said(
            gettext_noop("Round %(round)d, table %(table)d: %(player)s: %(sanction)s: %(reasons)s"),
            round=round.number,
            table=seat.table.number,
            player=entry.name,
            sanction=said(
                gettext_noop("%(kind)s (%(points)d)"),
                kind=label_said(Sanction.Kind(kind).label),
                points=points,
            )
            if points
            else label_said(Sanction.Kind(kind).label),
            reasons=sanction.reasons,
        ),
        rounds_to_seat_again=unseated,
    )


def _hands_at(table: Table) -> int | None:
    sheet = Scoresheet.objects.filter(table=table).first()
    return None if sheet is None else sheet.hands.count()
