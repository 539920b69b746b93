"""Sanctions for unsporting conduct: warnings, deductions, disqualification, and appeals
against them (TSR 9.6). The rules (who decides, the points, what the panel may put in place of
a bound decision) are the core's, ``doko.rules.sanctions``; this binds them to the rows."""

from collections.abc import Collection, Mapping
from dataclasses import dataclass, replace
from typing import Any

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from adjudication import policies
from adjudication.messages import label_said, said
from adjudication.models import (
    Appeal,
    Event,
    Offence,
    Sanction,
)
from adjudication.services.common import log_event
from adjudication.services.decisions import Ruling, require_valid
from adjudication.services.offences import require_offence_of
from adjudication.services.panel import (
    interruption_give_back,
    panel_checks,
    panel_record,
    require_members,
)
from doko.rules import procedure
from doko.rules.problems import FieldError
from doko.rules.sanctions import (
    BoundDecision,
    Decider,
    PanelSanction,
    Refused,
    SanctionKind,
    appeal_problem,
    appeal_round_problem,
    deduction_problem,
    panel_sanction,
    panel_sanction_problems,
    points_kept,
    sanction_decider,
)
from scoring.models import Scoresheet
from scoring.selectors import hand_lines, scoresheet_check
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


def _seat_in(entry: Entry, round: Round) -> Seat:
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
    seat = _seat_in(entry, round)
    if alone:
        policies.enforce(policies.may_rule(table=seat.table, user=by, what=policies.CONDUCT))
    else:
        policies.enforce(
            policies.may_decide_as_panel(table=seat.table, user=by, what=policies.CONDUCT)
        )
        require_members(seat.table, members, what=policies.CONDUCT)
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


def _require_in_time(sanction: Sanction, table: Table) -> None:
    """TSR 9.7.7 "nur sofort", as for a ruling (``doko.rules.procedure.appeal_in_time``): no
    hand written at the player's table since the bound decision, and if none follows there
    (its sheet handed in or complete), within ``APPEAL_MINUTES``. A sanction from before the
    count was kept is timed by the round alone."""
    sheet = Scoresheet.objects.filter(table=table).first()
    if sanction.hands_at_decision is None or sheet is None:
        return
    lines = hand_lines(list(sheet.hands.all()))
    follows = (
        sheet.status == Scoresheet.Status.DRAFT
        and not scoresheet_check(
            scoresheet=sheet, hands=lines, table_size=table.seats.count()
        ).complete
    )
    problem = procedure.appeal_time_problem(
        hands_at_initials=sanction.hands_at_decision,
        hands_written=len(lines),
        hand_follows=follows,
        initialled_at=sanction.decided_at,
        now=timezone.now(),
    )
    if problem is not None:
        problem = replace(problem, field="sanction")
    require_valid([problem])


def _locked_sanction(sanction: Sanction) -> Sanction:
    return (
        Sanction.objects.select_for_update(of=("self",))
        .select_related("entry", "round__tournament")
        .get(pk=sanction.pk)
    )


def _require_round_under_way(round: Round) -> None:
    """An appeal is at once (TSR 9.7.7; ``doko.rules.sanctions.appeal_round_problem``): while
    the round's matches are played or checked."""
    under_way = round.status in {Round.Status.RUNNING, Round.Status.FINISHED}
    require_valid(
        [
            appeal_round_problem(
                round=round.number, under_way=under_way, status=round.get_status_display()
            )
        ]
    )


@transaction.atomic
def sanction_appeal_lodge(*, sanction: Sanction, grounds: str = "", by: User) -> Appeal:
    """The player appeals against a bound decision the adjudicator gave alone (TSR 8.2.1,
    9.6.3, 9.7.7): the arbitration panel decides; until it does, the sanction counts. What
    the panel decided itself is final. Not while there is no panel (TSR 8.2.1)."""
    sanction = _locked_sanction(sanction)
    tournament = sanction.round.tournament
    policies.enforce(policies.may_lodge_appeal(tournament=tournament, user=by))
    policies.enforce(policies.panel_appointed(tournament=tournament))
    # Asked one after the other, as far as needed (TSR 8.2.1).
    in_force = sanction.status == Sanction.Status.IN_FORCE
    by_panel = in_force and (sanction.appeal_id is not None or sanction.members.exists())
    appealed = in_force and not by_panel and Appeal.objects.filter(sanction=sanction).exists()
    require_valid(
        [
            appeal_problem(
                withdrawn=None if in_force else sanction.get_status_display(),
                by_panel=by_panel,
                appealed=appealed,
            )
        ]
    )
    _require_round_under_way(sanction.round)
    seat = _seat_in(sanction.entry, sanction.round)
    _require_in_time(sanction, seat.table)
    appeal = save_validated(
        Appeal(sanction=sanction, appellant=seat.position, grounds=grounds.strip(), lodged_by=by)
    )
    log_event(
        tournament,
        by=by,
        action=Event.Action.APPEAL,
        sanction=sanction,
        appeal=appeal,
        summary=said(
            gettext_noop(
                "Round %(round)d, table %(table)d: %(player)s appeals against the sanction"
            ),
            round=sanction.round.number,
            table=seat.table.number,
            player=sanction.entry.name,
        ),
        grounds=appeal.grounds,
    )
    return appeal


def sanction_appeal_decide(
    *,
    appeal: Appeal,
    outcome: Appeal.Outcome,
    members: Collection[User],
    reasons: str,
    interruption: int,
    ruling: Ruling | None,
    change: SanctionRuling | None,
    by: User,
) -> Appeal:
    """The panel on a bound decision (TSR 8.2.1, 9.6.3): upheld it stands; annulled it no
    longer counts (a deduction leaves the results); changed, the panel's own sanction counts
    instead, its deduction in the same round's match."""
    # appeal_decide sends the appeals against a sanction here; an appeal is against a decision
    # or a sanction (the constraint appeal_against_a_decision_or_a_sanction).
    assert appeal.sanction is not None
    sanction = _locked_sanction(appeal.sanction)
    seat = _seat_in(sanction.entry, sanction.round)
    table = seat.table
    outcome = panel_checks(
        appeal,
        table=table,
        outcome=outcome,
        members=members,
        reasons=reasons,
        interruption=interruption,
        by=by,
    )
    own = _panel_sanction(outcome, ruling=ruling, change=change)
    _require_round_under_way(sanction.round)
    panel_record(
        appeal,
        outcome=outcome,
        members=members,
        reasons=reasons,
        interruption=interruption,
        by=by,
    )
    replacement = _sanction_change(
        sanction, appeal, outcome=outcome, own=own, members=members, by=by
    )
    _log_panel_on_sanction(appeal, sanction, replacement, table=table, members=members, by=by)
    reason = _("Arbitration panel on table %(table)d (TSR 8.5.1)") % {"table": table.number}
    interruption_give_back(appeal, table, members=members, reason=reason, by=by)
    if Sanction.Kind.DEDUCTION in {sanction.kind, replacement and replacement.kind}:
        results_refresh(tables=[table])
        table_changed(round_id=table.round_id, number=table.number)  # its points
    return appeal


def _panel_sanction(
    outcome: Appeal.Outcome, *, ruling: Ruling | None, change: SanctionRuling | None
) -> PanelSanction | None:
    """The panel's own sanction, given when, and only when, it changes the decision: a warning
    or a deduction, never a ruling on a hand (``doko.rules.sanctions``, TSR 8.2.1, 9.6.2)."""
    changes = outcome == Appeal.Outcome.CHANGE
    kind = None if change is None else SanctionKind(change.kind)
    points = None if change is None else change.points
    require_valid(
        panel_sanction_problems(
            changes=changes, kind=kind, points=points, ruling_given=ruling is not None
        )
    )
    return panel_sanction(changes=changes, kind=kind, points=points)


def _sanction_change(
    sanction: Sanction,
    appeal: Appeal,
    *,
    outcome: Appeal.Outcome,
    own: PanelSanction | None,
    members: Collection[User],
    by: User,
) -> Sanction | None:
    """Supersede or annul the sanction the panel did not uphold, and record the panel's own
    if it changed it (``own``). Returns the panel's own sanction."""
    if outcome == Appeal.Outcome.UPHOLD:
        return None
    sanction.status = (
        Sanction.Status.SUPERSEDED if outcome == Appeal.Outcome.CHANGE else Sanction.Status.ANNULLED
    )
    save_validated(sanction)
    if outcome != Appeal.Outcome.CHANGE:
        return None
    assert own is not None  # a change comes with the panel's sanction, checked above
    replacement = save_validated(
        Sanction(
            entry=sanction.entry,
            round=sanction.round,
            kind=Sanction.Kind(own.kind),
            points=own.points,
            offence=sanction.offence,
            reasons=appeal.reasons,
            decided_by=by,
            appeal=appeal,
        )
    )
    replacement.members.set(members)
    return replacement


def _log_panel_on_sanction(
    appeal: Appeal,
    sanction: Sanction,
    replacement: Sanction | None,
    *,
    table: Table,
    members: Collection[User],
    by: User,
) -> None:
    """Append the panel's decision on a sanction to the tournament's log."""
    log_event(
        sanction.round.tournament,
        by=by,
        action=Event.Action.PANEL,
        sanction=replacement or sanction,
        appeal=appeal,
        summary=said(
            gettext_noop(
                "Round %(round)d, table %(table)d: the arbitration panel (%(members)s) "
                "%(outcome)s the sanction against %(player)s: %(reasons)s"
            ),
            round=sanction.round.number,
            table=table.number,
            members=", ".join(m.get_full_name() or m.get_username() for m in members),
            outcome=label_said(Appeal.Outcome(appeal.outcome).label),
            player=sanction.entry.name,
            reasons=appeal.reasons,
        ),
        points=replacement.points if replacement else None,
    )
