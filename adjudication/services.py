"""Writes for adjudication (TSR 8.2, 9): complaints, rulings, initials, appeals, sanctions and
the catalogue of standard offences. Every service is one transaction, asks ``policies`` who may
do it, and appends what it did to the tournament's log (``Event``).

Who decides what (TSR 8.2.1, 8.2.2, 9.6.2, 9.6.3; see ``policies``): the adjudicator, or a
deputy adjudicator, rules on a complaint in the first instance and initials the penalty points,
unless he plays at that table. Any decision of the adjudicator, a bound decision's points
included, can be appealed to the arbitration panel, whose decision is final; its members
playing at the table do not sit. Unsporting conduct is for the panel, except a bound decision
of the catalogue, which the adjudicator gives with its preset points.
"""

from collections.abc import Collection, Mapping
from dataclasses import dataclass

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from adjudication import policies
from adjudication.models import (
    MOST_DEDUCTION,
    Appeal,
    Decision,
    Event,
    Offence,
    Sanction,
)
from adjudication.selectors import sheet_adjudication
from doko.rules.contracts import Contract, SoloType
from doko.rules.penalty import Breach, InvalidInput, Severity, penalty_points
from doko.rules.sheet import HandLine
from scoring.messages import field_errors
from scoring.models import CONTRACT_LABELS, Scoresheet
from scoring.selectors import hand_lines, hand_snapshot, line_from_snapshot, scoresheet_check
from scoring.services import (
    scoresheet_hand_stop,
    scoresheet_hand_unstop,
    scoresheet_hand_unvoid,
    scoresheet_hand_void,
    scoresheet_locked,
)
from tournaments.models import Entry, Round, Seat, Table, Tournament, TournamentRole
from tournaments.roles import FIRST_INSTANCE, PANEL
from tournaments.selectors import user_roles
from tournaments.services import entry_disqualify, results_refresh, table_extra_time_grant

Role = TournamentRole.Role


def _log(
    tournament: Tournament,
    *,
    by: AbstractBaseUser,
    action: str,
    summary: str,
    decision: Decision | None = None,
    appeal: Appeal | None = None,
    sanction: Sanction | None = None,
    **details,
) -> Event:
    return Event.objects.create(
        tournament=tournament,
        by=by,
        action=action,
        summary=summary,
        decision=decision,
        appeal=appeal,
        sanction=sanction,
        details=details,
    )


def _save(instance):
    instance.full_clean()
    instance.save()
    return instance


# Complaints and rulings -------------------------------------------------------------------------


def _table_size(sheet: Scoresheet) -> int:
    return sheet.table.seats.count()


def _require_match_open(sheet: Scoresheet) -> None:
    """Complaints are made while the match is played or checked: from the start of the round
    until the sheet is confirmed (TSR 8.5.1, 8.5.2)."""
    round_ = sheet.table.round
    if round_.status not in {Round.Status.RUNNING, Round.Status.FINISHED}:
        raise ValidationError(
            _(
                "Round %(round)d is %(status)s: complaints are decided while its matches are "
                "played (TSR 8.5.1)."
            )
            % {"round": round_.number, "status": round_.get_status_display()}
        )
    if sheet.status == Scoresheet.Status.CONFIRMED:
        raise ValidationError(
            _(
                "The scoresheet of table %(table)d is confirmed: its match is over (TSR 8.5.2). "
                "An organiser reopens it first."
            )
            % {"table": sheet.table.number}
        )


def _require_seat(field: str, seat: int | None, size: int, *, label: str) -> None:
    if seat is not None and not 1 <= seat <= size:
        raise ValidationError(
            {
                field: _("%(label)s must be a seat of the table, 1 to %(size)d.")
                % {"label": label, "size": size}
            }
        )


@transaction.atomic
def complaint_record(
    *,
    scoresheet: Scoresheet,
    hand_number: int,
    offender: int,
    description: str,
    complainant: int | None = None,
    offence: Offence | None = None,
    by: AbstractBaseUser,
) -> Decision:
    """Note a complaint about a breach in one hand (TSR 9.7.5): the adjudicator is called to
    the table. The hand is a line already on the sheet or the one being played (the next)."""
    sheet = scoresheet_locked(scoresheet)
    tournament = sheet.table.round.tournament
    policies.enforce(policies.may_rule(table=sheet.table, user=by))
    _require_match_open(sheet)
    size = _table_size(sheet)
    played = sheet.hands.count()
    if not 1 <= hand_number <= played + 1:
        raise ValidationError(
            {
                "hand_number": _(
                    "The sheet has %(count)d hands: a complaint is about one of them or the "
                    "hand being played, %(next)d."
                )
                % {"count": played, "next": played + 1}
            }
        )
    if hand_number in sheet_adjudication(sheet=sheet).ended:
        raise ValidationError(
            {
                "hand_number": _(
                    "Hand %(hand)d was ended by a major breach already (TSR 9.4.2): nothing "
                    "more in it is penalised (TSR 9.7.6). A complaint about the hand dealt "
                    "next, or dealt again, is about hand %(next)d."
                )
                % {"hand": hand_number, "next": hand_number + 1}
            }
        )
    _require_seat("offender", offender, size, label=_("The offender"))
    _require_seat("complainant", complainant, size, label=_("The complainant"))
    if complainant is not None and complainant == offender:
        raise ValidationError(
            {"complainant": _("A player does not complain about his own breach (TSR 9.7.1).")}
        )
    if offence is not None:
        _require_offence_of(offence, tournament)
        if offence.kind != Offence.Kind.BREACH:
            raise ValidationError(
                {
                    "offence": _(
                        "“%(name)s” is unsporting conduct: it is a sanction, not penalty points "
                        "on a hand (TSR 9.6.2)."
                    )
                    % {"name": offence.name}
                }
            )
    description = description.strip() or (offence.name if offence else "")
    if not description:
        raise ValidationError({"description": _("Say what happened.")})
    decision = _save(
        Decision(
            scoresheet=sheet,
            hand_number=hand_number,
            offender=offender,
            complainant=complainant,
            offence=offence,
            description=description,
            recorded_by=by,
        )
    )
    _log(
        tournament,
        by=by,
        action=Event.Action.COMPLAINT,
        decision=decision,
        summary=_(
            "Round %(round)d, table %(table)d, hand %(hand)d: complaint against seat %(seat)d: %(what)s"
        )
        % {
            "round": sheet.table.round.number,
            "table": sheet.table.number,
            "hand": hand_number,
            "seat": offender,
            "what": description,
        },
    )
    return decision


@dataclass(frozen=True)
class Ruling:
    """How the adjudicator (or the panel) judged a breach: its severity (TSR 9.2-9.4), the
    contract as it stood, the soloist, whether the breach may disadvantage him (TSR 9.3.3 b1),
    the announcements of the other side up to the breach, and whether the game was already won
    (TSR 9.5.1). ``penalty``: points per seat that deviate from the TSR's, with the reason.

    A wedding (``contract`` wedding or silent wedding) names the holder of both Queens of
    Clubs as ``soloist`` where the sheet does (a silent wedding, a wedding played alone);
    ``wedding_clarified_as_solo`` says the wedding was already being played as a solo when the
    breach happened, so that it is penalised as one (TSR 4.4.3 b, 4.4.5)."""

    severity: Severity
    contract: Contract = Contract.NORMAL
    soloist: int | None = None
    solo_type: SoloType | None = None
    disadvantages_soloist: bool = False
    announcements: int = 0
    decided: bool = False
    penalty: Mapping[int, int] | None = None
    deviation_reason: str = ""
    wedding_clarified_as_solo: bool = False


WEDDINGS = {Contract.WEDDING, Contract.SILENT_WEDDING}


def _hand_on_sheet(sheet: Scoresheet, number: int, size: int) -> tuple[int, HandLine | None]:
    """Who deals hand ``number``, and its line if it is on the sheet already; for the hand
    being played the next dealer by the TSR (TSR 3.1, 4.2.5)."""
    lines = hand_lines(list(sheet.hands.all()))
    if number <= len(lines):
        return lines[number - 1].dealer, lines[number - 1]
    return scoresheet_check(scoresheet=sheet, hands=lines, table_size=size).next.dealer, None


def _require_as_on_sheet(
    number: int, line: HandLine | None, contract: Contract, ruling: Ruling, *, clarified: bool
) -> None:
    """A ruling on a hand on the sheet takes its solo or wedding as the sheet has it: the
    penalty points of a solo go with the solo played (TSR 7.3.3.2, 9.3.3), and a wedding's
    holder of both Queens of Clubs is the one the sheet names (TSR 4.4.3 b, 4.4.5)."""
    if line is None:
        return
    if contract.is_solo and (line.contract, line.soloist) != (contract, ruling.soloist):
        raise ValidationError(
            {
                "contract": _(
                    "Hand %(hand)d is on the sheet as a %(contract)s, not as this solo: the "
                    "penalty points of a solo go with the solo played (TSR 7.3.3.2, 9.3.3)."
                )
                % {"hand": number, "contract": CONTRACT_LABELS[line.contract]}
            }
        )
    if contract not in WEDDINGS:
        return
    if line.contract != contract:
        raise ValidationError(
            {
                "contract": _(
                    "Hand %(hand)d is on the sheet as a %(contract)s, not as this wedding "
                    "(TSR 4.4)."
                )
                % {"hand": number, "contract": CONTRACT_LABELS[line.contract]}
            }
        )
    if clarified and line.soloist is None:
        raise ValidationError(
            {
                "wedding_clarified_as_solo": _(
                    "Hand %(hand)d is on the sheet as a wedding played with a partner "
                    "(TSR 4.4.3 a): it never turned into a solo."
                )
                % {"hand": number}
            }
        )
    if ruling.soloist is not None and line.soloist not in {None, ruling.soloist}:
        raise ValidationError(
            {
                "soloist": _(
                    "On the sheet seat %(seat)d holds both Queens of Clubs in hand %(hand)d "
                    "(TSR 4.4.3 b, 4.4.5)."
                )
                % {"seat": line.soloist, "hand": number}
            }
        )


def _ruled(decision: Decision, ruling: Ruling) -> dict:
    """The decision's fields for ``ruling``: the penalty points by the TSR (TSR 9.2-9.5) and, if
    the adjudicator deviates, his with their reason."""
    sheet = decision.scoresheet
    size = _table_size(sheet)
    dealer, line = _hand_on_sheet(sheet, decision.hand_number, size)
    seats = [seat for seat in range(1, size + 1) if not (size == 5 and seat == dealer)]
    contract = Contract(ruling.contract)
    wedding = contract in WEDDINGS
    clarified = ruling.wedding_clarified_as_solo
    # Penalised as a solo: a solo bid, or a wedding already being played as one (TSR 4.4.3 b,
    # 4.4.5). The sheet names the holder of both Queens of Clubs of a silent wedding anyway.
    solo = contract.is_solo or (wedding and clarified)
    names_soloist = contract.names_soloist or solo
    if clarified and not wedding:
        raise ValidationError(
            {
                "wedding_clarified_as_solo": _(
                    "Only a wedding turns into a solo during the game: an announced one when "
                    "its holder takes the first three tricks, a silent one with the second "
                    "Queen of Clubs (TSR 4.4.3 b, 4.4.5)."
                )
            }
        )
    _require_as_on_sheet(decision.hand_number, line, contract, ruling, clarified=clarified)
    if names_soloist and ruling.soloist is None:
        raise ValidationError(
            {
                "soloist": _(
                    "Name the holder of both Queens of Clubs, who plays the wedding alone "
                    "(TSR 4.4.3 b, 4.4.5)."
                )
                if wedding
                else _("In a solo, name the soloist (TSR 2.4.7).")
            }
        )
    if wedding and names_soloist and ruling.soloist not in seats:
        raise ValidationError(
            {
                "soloist": _(
                    "The holder of both Queens of Clubs is one of the seats playing the hand: "
                    "%(seats)s (TSR 4.4.1, 10.1.1)."
                )
                % {"seats": ", ".join(map(str, seats))}
            }
        )
    if contract.is_solo and ruling.solo_type is None:
        raise ValidationError({"solo_type": _("Name the solo played (TSR 2.3.3).")})
    if wedding and ruling.solo_type not in {None, SoloType.DIAMONDS}:
        raise ValidationError(
            {"solo_type": _("A wedding played alone is a diamonds solo (TSR 4.4.3 b, 4.4.5).")}
        )
    if not contract.is_solo and not wedding and ruling.solo_type is not None:
        raise ValidationError({"solo_type": _("Only a solo has a solo type (TSR 2.3.3).")})
    if decision.offender not in seats:
        raise ValidationError(
            {
                "offender": _(
                    "Seat %(seat)d deals hand %(hand)d at a table of five and does not play it "
                    "(TSR 10.1.1): a breach in the hand is another player's."
                )
                % {"seat": decision.offender, "hand": decision.hand_number}
            }
        )
    try:
        computed = penalty_points(
            Breach(
                severity=Severity(ruling.severity),
                offender=decision.offender,
                solo=solo,
                soloist=ruling.soloist if solo else None,
                seats=seats,
                disadvantages_soloist=ruling.disadvantages_soloist,
                announcements=ruling.announcements,
                decided=ruling.decided,
            )
        )
    except InvalidInput as error:
        raise ValidationError(field_errors(error.errors)) from error
    tsr = {seat: computed.points.get(seat, 0) for seat in range(1, size + 1)}
    points = tsr
    reason = ruling.deviation_reason.strip()
    if ruling.penalty is not None:
        points = {seat: int(ruling.penalty.get(seat, 0)) for seat in range(1, size + 1)}
        if set(ruling.penalty) - set(seats):
            raise ValidationError(
                {
                    "penalty": _(
                        "Penalty points go to the seats that play the hand: %(seats)s (TSR 10.1.2)."
                    )
                    % {"seats": ", ".join(map(str, seats))}
                }
            )
        if sum(points.values()) != 0:
            raise ValidationError(
                {
                    "penalty": _(
                        "The penalty points add up to %(sum)d; they must add up to zero "
                        "(TSR 7.3.3.1, 9.3, 9.4)."
                    )
                    % {"sum": sum(points.values())}
                }
            )
    if points != tsr and not reason:
        raise ValidationError(
            {
                "deviation_reason": _(
                    "The penalty points differ from the TSR's (%(rule)s): give the reason."
                )
                % {"rule": computed.rule}
            }
        )
    if points == tsr:
        reason = ""
    return {
        "severity": Severity(ruling.severity).value,
        "contract": contract.value,
        "soloist": ruling.soloist if names_soloist else None,
        # A wedding played alone is a diamonds solo (TSR 4.4.3 b, 4.4.5).
        "solo_type": (
            SoloType.DIAMONDS.value
            if wedding and names_soloist
            else SoloType(ruling.solo_type).value
            if contract.is_solo
            else ""
        ),
        "wedding_clarified_as_solo": clarified,
        "disadvantages_soloist": ruling.disadvantages_soloist,
        "announcements": ruling.announcements,
        "decided": ruling.decided,
        **{f"penalty_{seat}": points.get(seat) for seat in range(1, 6)},
        "computed": {str(seat): value for seat, value in tsr.items()},
        "deviation_reason": reason,
        "hand_not_played": computed.hand_not_played,
        "played_without_game_points": computed.played_without_game_points,
        "rule": computed.rule,
    }


def _points_text(decision: Decision) -> str:
    return ", ".join(
        f"{_('seat')} {seat}: {points:+d}" for seat, points in decision.penalty.items() if points
    ) or _("no penalty points")


def _ruled_params(decision: Decision) -> dict:
    """What the log says of a ruling: the hand, the offender, severity, points and rule."""
    return {
        "hand": decision.hand_number,
        "seat": decision.offender,
        "severity": decision.get_severity_display(),
        "points": _points_text(decision),
        "rule": decision.rule,
    }


def _require_hand_not_ended(decision: Decision, *, field: str) -> None:
    """TSR 9.4.2, 9.7.6: a major breach ends the game, so once one is initialled nothing more
    in that hand is penalised; a minor breach initialled first leaves the hand open to a
    later complaint, which may be major. The decision being replaced on appeal (superseded
    by now) does not count."""
    other = sheet_adjudication(sheet=decision.scoresheet).ended.get(decision.hand_number)
    if other is not None and other.pk != decision.pk:
        raise ValidationError(
            {
                field: _(
                    "Hand %(hand)d was ended by the major breach of seat %(seat)d, initialled "
                    "already (TSR 9.4.2): nothing more in it is penalised (TSR 9.7.6)."
                )
                % {"hand": decision.hand_number, "seat": other.offender}
            }
        )


def _locked_decision(decision: Decision) -> Decision:
    return (
        Decision.objects.select_for_update(of=("self",))
        .select_related("scoresheet__table__round__tournament")
        .get(pk=decision.pk)
    )


@transaction.atomic
def decision_rule(*, decision: Decision, ruling: Ruling, by: AbstractBaseUser) -> Decision:
    """Rule on a complaint: the severity and the circumstances, from which the penalty points
    follow (TSR 9.2-9.5). The decision waits for initials (TSR 8.2.2); until then it may be
    ruled again."""
    decision = _locked_decision(decision)
    sheet = scoresheet_locked(decision.scoresheet)
    decision.scoresheet = sheet
    tournament = sheet.table.round.tournament
    policies.enforce(policies.may_rule(table=sheet.table, user=by))
    if decision.status not in {Decision.Status.OPEN, Decision.Status.DRAFT}:
        raise ValidationError(
            {
                "status": _(
                    "The decision is %(status)s: it is never changed again, only by the "
                    "arbitration panel on appeal (TSR 8.2.1)."
                )
                % {"status": decision.get_status_display()}
            }
        )
    _require_match_open(sheet)
    for name, value in _ruled(decision, ruling).items():
        setattr(decision, name, value)
    decision.status = Decision.Status.DRAFT
    _save(decision)
    _log(
        tournament,
        by=by,
        action=Event.Action.RULING,
        decision=decision,
        summary=_("Hand %(hand)d, seat %(seat)d: %(severity)s, %(points)s (%(rule)s)")
        % _ruled_params(decision),
        penalty=decision.computed if not decision.deviates else _seat_keys(decision.penalty),
        deviation_reason=decision.deviation_reason,
    )
    return decision


def _seat_keys(points: Mapping[int, int]) -> dict[str, int]:
    return {str(seat): value for seat, value in points.items()}


def _shift_decisions(sheet: Scoresheet, *, after: int, by_lines: int) -> None:
    """The lines after ``after`` moved when a stopped hand came on or off the sheet: the
    decisions on them move with them."""
    Decision.objects.filter(scoresheet=sheet, hand_number__gt=after).update(
        hand_number=F("hand_number") + by_lines
    )


def _hand_stop(decision: Decision, by: AbstractBaseUser) -> None:
    """Put the hand the decision stopped on the sheet as not played (TSR 9.4.3)."""
    _shift_decisions(decision.scoresheet, after=decision.hand_number, by_lines=1)
    scoresheet_hand_stop(
        scoresheet=decision.scoresheet,
        number=decision.hand_number,
        contract=Contract(decision.contract),
        soloist=decision.soloist,
        solo_type=SoloType(decision.solo_type) if decision.solo_type else None,
        by=by,
    )


def _hand_unstop(decision: Decision, by: AbstractBaseUser) -> None:
    scoresheet_hand_unstop(scoresheet=decision.scoresheet, number=decision.hand_number, by=by)
    _shift_decisions(decision.scoresheet, after=decision.hand_number, by_lines=-1)


def _hand_void(decision: Decision, by: AbstractBaseUser) -> None:
    """Count the solo as played without game points (TSR 9.4.4): its line goes on the sheet
    with no points, or loses the scorekeeper's, which the decision keeps for an appeal."""
    replaced = scoresheet_hand_void(
        scoresheet=decision.scoresheet,
        number=decision.hand_number,
        contract=Contract(decision.contract),
        soloist=decision.soloist,
        solo_type=SoloType(decision.solo_type) if decision.solo_type else None,
        by=by,
    )
    decision.replaced_line = hand_snapshot(replaced) if replaced else None


def _hand_unvoid(decision: Decision, by: AbstractBaseUser) -> None:
    """The panel changed or annulled a decision that counted the solo as played without game
    points: the line gets back the scorekeeper's points; one the decision put on the sheet
    comes off again if it is the last (the game stood still, TSR 9.7.7), or else stays with
    no points for the scorekeeper to correct. Either way it is the scorekeeper's again."""
    removed = scoresheet_hand_unvoid(
        scoresheet=decision.scoresheet,
        number=decision.hand_number,
        line=line_from_snapshot(decision.replaced_line) if decision.replaced_line else None,
        by=by,
    )
    if removed:
        _shift_decisions(decision.scoresheet, after=decision.hand_number, by_lines=-1)


@transaction.atomic
def decision_initial(*, decision: Decision, by: AbstractBaseUser) -> Decision:
    """Initial a ruling (TSR 8.2.2): from now on its penalty points count on the sheet, in its
    PDF and in the standings, and it is never edited. A hand stopped by a major breach in a
    normal game (or by the soloist) comes on the sheet as not played (TSR 9.4.3); a solo
    stopped by an opponent's counts as played, its line without game points (TSR 9.4.4).
    Nothing more is initialled in a hand a major breach ended (TSR 9.4.2, 9.7.6)."""
    decision = _locked_decision(decision)
    sheet = scoresheet_locked(decision.scoresheet)
    decision.scoresheet = sheet
    tournament = sheet.table.round.tournament
    policies.enforce(policies.may_rule(table=sheet.table, user=by))
    if decision.status != Decision.Status.DRAFT:
        raise ValidationError(
            {
                "status": _(
                    "Only a ruling waiting for initials is initialled; this one is %(status)s."
                )
                % {"status": decision.get_status_display()}
            }
        )
    _require_match_open(sheet)
    _require_hand_not_ended(decision, field="hand_number")
    decision.status = Decision.Status.INITIALLED
    decision.initialled_by = by
    decision.initialled_at = timezone.now()
    if decision.played_without_game_points:
        _hand_void(decision, by)
    _save(decision)
    if decision.hand_not_played:
        _hand_stop(decision, by)
    _log(
        tournament,
        by=by,
        action=Event.Action.INITIALS,
        decision=decision,
        summary=_("Hand %(hand)d, seat %(seat)d: initialled, %(points)s (%(rule)s)")
        % _ruled_params(decision),
        hand_not_played=decision.hand_not_played,
        played_without_game_points=decision.played_without_game_points,
    )
    results_refresh(tables=[sheet.table])
    return decision


# Appeals -----------------------------------------------------------------------------------------


@transaction.atomic
def appeal_lodge(
    *, decision: Decision, appellant: int, grounds: str = "", by: AbstractBaseUser
) -> Appeal:
    """A player appeals against the adjudicator's decision, at once (TSR 9.7.7): the game
    stays suspended until the arbitration panel has decided."""
    decision = _locked_decision(decision)
    sheet = decision.scoresheet
    tournament = sheet.table.round.tournament
    policies.enforce(policies.may_lodge_appeal(tournament=tournament, user=by))
    if decision.status != Decision.Status.INITIALLED:
        raise ValidationError(
            {
                "decision": _(
                    "An appeal is against the adjudicator's initialled decision; this one is "
                    "%(status)s (TSR 9.7.7)."
                )
                % {"status": decision.get_status_display()}
            }
        )
    if decision.appeal_id is not None:
        raise ValidationError(
            {"decision": _("This is the arbitration panel's decision: it is final (TSR 8.2.1).")}
        )
    if Appeal.objects.filter(decision=decision).exists():
        raise ValidationError({"decision": _("This decision has been appealed already.")})
    _require_match_open(sheet)
    _require_seat("appellant", appellant, _table_size(sheet), label=_("The appellant"))
    appeal = _save(
        Appeal(decision=decision, appellant=appellant, grounds=grounds.strip(), lodged_by=by)
    )
    _log(
        tournament,
        by=by,
        action=Event.Action.APPEAL,
        decision=decision,
        appeal=appeal,
        summary=_("Round %(round)d, table %(table)d, hand %(hand)d: seat %(seat)d appeals")
        % {
            "round": sheet.table.round.number,
            "table": sheet.table.number,
            "hand": decision.hand_number,
            "seat": appellant,
        },
        grounds=appeal.grounds,
    )
    return appeal


def _require_members(
    table: Table, members: Collection[AbstractBaseUser], *, what=policies.APPEAL
) -> None:
    if refusal := policies.may_sit_on_panel(table=table, members=members, what=what):
        raise ValidationError({"members": refusal.message})


def _interruption_extra_time(
    table: Table,
    *,
    minutes: int,
    members: Collection[AbstractBaseUser],
    reason: str,
    by: AbstractBaseUser,
) -> list[int]:
    """TSR 8.5.1: the table concerned and the tables where members of the panel play get the
    time the panel's decision took (the player any of a member's roles names, as in
    ``policies.players_at``). Tables whose sheet is confirmed have finished playing."""
    member_tables = Seat.objects.filter(
        table__round=table.round, entry__staff_roles__user__in=list(members)
    ).values_list("table_id", flat=True)
    tables = (
        Table.objects.filter(pk__in={table.pk, *member_tables})
        .exclude(scoresheet__status=Scoresheet.Status.CONFIRMED)
        .select_related("round")
        .order_by("number")
    )
    granted = []
    for each in tables:
        table_extra_time_grant(table=each, minutes=minutes, reason=reason, by=by)
        granted.append(each.number)
    return granted


def _panel_checks(
    appeal: Appeal,
    *,
    table: Table,
    outcome: Appeal.Outcome,
    members: Collection[AbstractBaseUser],
    reasons: str,
    interruption: int,
    by: AbstractBaseUser,
) -> Appeal.Outcome:
    """What every decision of the panel on an appeal needs (TSR 8.2.1): a member who does not
    play at the table, not decided yet, its members named, its reasons, the interruption."""
    policies.enforce(policies.may_decide_as_panel(table=table, user=by))
    if appeal.outcome:
        raise ValidationError(
            {
                "outcome": _(
                    "The arbitration panel has decided already; its decision is final (TSR 8.2.1)."
                )
            }
        )
    outcome = Appeal.Outcome(outcome)
    _require_members(table, members)
    if not reasons.strip():
        raise ValidationError(
            {"reasons": _("The arbitration panel's decision gives its reasons (TSR 8.2.1).")}
        )
    if interruption < 0:
        raise ValidationError(
            {"interruption": _("The interruption is a number of minutes, 0 or more.")}
        )
    return outcome


def _panel_record(
    appeal: Appeal,
    *,
    outcome: Appeal.Outcome,
    members: Collection[AbstractBaseUser],
    reasons: str,
    interruption: int,
    by: AbstractBaseUser,
) -> None:
    appeal.outcome = outcome
    appeal.reasons = reasons.strip()
    appeal.interruption = interruption
    appeal.decided_by = by
    appeal.decided_at = timezone.now()
    _save(appeal)
    appeal.members.set(members)


def _give_back_interruption(
    appeal: Appeal, table: Table, *, members, reason: str, by: AbstractBaseUser
) -> None:
    """TSR 8.5.1: the tables concerned get the time the panel's decision took, logged."""
    if not appeal.interruption:
        return
    granted = _interruption_extra_time(
        table, minutes=appeal.interruption, members=members, reason=reason, by=by
    )
    _log(
        table.round.tournament,
        by=by,
        action=Event.Action.EXTRA_TIME,
        appeal=appeal,
        summary=_("Round %(round)d: %(minutes)d minutes for tables %(tables)s (TSR 8.5.1)")
        % {
            "round": table.round.number,
            "minutes": appeal.interruption,
            "tables": ", ".join(map(str, granted)),
        },
        tables=granted,
        minutes=appeal.interruption,
    )


@dataclass(frozen=True)
class SanctionRuling:
    """The arbitration panel's own sanction when, on appeal, it changes a bound decision the
    adjudicator gave alone (TSR 8.2.1, 9.6.3): a warning, or a deduction of 1 to 12 points
    (TSR 9.6.2 a, b). A disqualification (9.6.2 c) is a sanction of the panel's own."""

    kind: Sanction.Kind
    points: int | None = None


@transaction.atomic
def appeal_decide(
    *,
    appeal: Appeal,
    outcome: Appeal.Outcome,
    members: Collection[AbstractBaseUser],
    reasons: str,
    interruption: int = 0,
    ruling: Ruling | None = None,
    sanction: SanctionRuling | None = None,
    by: AbstractBaseUser,
) -> Appeal:
    """The arbitration panel's final decision on an appeal (TSR 8.2.1): uphold the decision,
    change it, or annul it; its members (none of whom plays at the table concerned) and its
    reasons. On a complaint's ruling, a change is the panel's own ``ruling``, initialled at
    once, which supersedes it: a hand stopped or no longer stopped comes on or off the sheet;
    a solo no longer counted as played without game points gets back the scorekeeper's points
    (or, put on the sheet by the decision, comes off if it is the last line), and one the
    panel counts so loses them. On a bound decision (a sanction), a change is the panel's own
    ``sanction``; annulled, a deduction no longer counts. The table concerned and the tables
    of the members get the interruption back as extra time (TSR 8.5.1)."""
    appeal = Appeal.objects.select_for_update(of=("self",)).get(pk=appeal.pk)
    if appeal.sanction_id is not None:
        return _sanction_appeal_decide(
            appeal=appeal,
            outcome=outcome,
            members=members,
            reasons=reasons,
            interruption=interruption,
            ruling=ruling,
            change=sanction,
            by=by,
        )
    decision = _locked_decision(appeal.decision)
    sheet = scoresheet_locked(decision.scoresheet)
    decision.scoresheet = sheet
    tournament = sheet.table.round.tournament
    outcome = _panel_checks(
        appeal,
        table=sheet.table,
        outcome=outcome,
        members=members,
        reasons=reasons,
        interruption=interruption,
        by=by,
    )
    if sanction is not None:
        raise ValidationError(
            {
                "sanction": _(
                    "The panel's own sanction is for an appeal against a sanction; on a "
                    "complaint it gives its own ruling."
                )
            }
        )
    if (ruling is not None) != (outcome == Appeal.Outcome.CHANGE):
        raise ValidationError(
            {
                "ruling": _(
                    "The panel gives its own ruling when, and only when, it changes the decision."
                )
            }
        )
    _require_match_open(sheet)
    _panel_record(
        appeal,
        outcome=outcome,
        members=members,
        reasons=reasons,
        interruption=interruption,
        by=by,
    )

    replacement = None
    if outcome != Appeal.Outcome.UPHOLD:
        decision.status = (
            Decision.Status.SUPERSEDED
            if outcome == Appeal.Outcome.CHANGE
            else Decision.Status.ANNULLED
        )
        _save(decision)
        if decision.hand_not_played:
            _hand_unstop(decision, by)
        elif decision.played_without_game_points:
            _hand_unvoid(decision, by)
        if outcome == Appeal.Outcome.CHANGE:
            replacement = Decision(
                scoresheet=sheet,
                hand_number=decision.hand_number,
                offender=decision.offender,
                complainant=decision.complainant,
                offence=decision.offence,
                description=decision.description,
                recorded_by=by,
                initialled_by=by,
                initialled_at=appeal.decided_at,
                status=Decision.Status.INITIALLED,
                appeal=appeal,
            )
            for name, value in _ruled(replacement, ruling).items():
                setattr(replacement, name, value)
            if replacement.severity == Severity.MAJOR:
                _require_hand_not_ended(replacement, field="severity")
            if replacement.played_without_game_points:
                _hand_void(replacement, by)
            _save(replacement)
            if replacement.hand_not_played:
                _hand_stop(replacement, by)

    names = ", ".join(m.get_full_name() or m.get_username() for m in members)
    _log(
        tournament,
        by=by,
        action=Event.Action.PANEL,
        decision=replacement or decision,
        appeal=appeal,
        summary=_(
            "Hand %(hand)d: the arbitration panel (%(members)s) %(outcome)s the decision: %(reasons)s"
        )
        % {
            "hand": decision.hand_number,
            "members": names,
            "outcome": appeal.get_outcome_display(),
            "reasons": appeal.reasons,
        },
        points=_seat_keys(replacement.penalty) if replacement else None,
    )
    reason = _("Arbitration panel on table %(table)d, hand %(hand)d (TSR 8.5.1)") % {
        "table": sheet.table.number,
        "hand": decision.hand_number,
    }
    _give_back_interruption(appeal, sheet.table, members=members, reason=reason, by=by)
    results_refresh(tables=[sheet.table])
    return appeal


# Unsporting conduct ------------------------------------------------------------------------------


def _seat_in(entry: Entry, round: Round) -> Seat:
    seat = Seat.objects.filter(table__round=round, entry=entry).select_related("table").first()
    if seat is None:
        raise ValidationError(
            {
                "entry": _("%(player)s does not play in round %(round)d.")
                % {"player": entry.player, "round": round.number}
            }
        )
    return seat


def _points_for(kind: Sanction.Kind, points: int | None, *, field: str = "points") -> int | None:
    if kind != Sanction.Kind.DEDUCTION:
        return None
    if points is None or not 1 <= points <= MOST_DEDUCTION:
        raise ValidationError({field: _("A point deduction takes 1 to 12 points (TSR 9.6.2 b).")})
    return points


@transaction.atomic
def sanction_impose(
    *,
    entry: Entry,
    round: Round,
    kind: Sanction.Kind,
    reasons: str,
    points: int | None = None,
    offence: Offence | None = None,
    members: Collection[AbstractBaseUser] = (),
    by: AbstractBaseUser,
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
        _require_offence_of(offence, tournament)
    bound = offence is not None and offence.bound
    preset = (
        bound
        and kind == (Sanction.Kind.DEDUCTION if offence.deduction else Sanction.Kind.WARNING)
        and (points or None) == (offence.deduction or None)
    )
    # A bound decision with its preset points and no members named: the adjudicator's alone
    # (TSR 9.6.3). Anything else, or with members named, is the panel's (TSR 9.6.2).
    alone = bool(roles & FIRST_INSTANCE and preset and not members)
    if not alone and not roles & PANEL:
        if bound:
            raise ValidationError(
                {
                    "kind": _(
                        "“%(name)s” is a bound decision: %(outcome)s (TSR 9.6.3); anything "
                        "else is for the arbitration panel."
                    )
                    % {
                        "name": offence.name,
                        "outcome": _("%(points)d points deducted") % {"points": offence.deduction}
                        if offence.deduction
                        else _("a warning"),
                    }
                }
            )
        policies.enforce(
            policies.Refusal(
                _(
                    "Unsporting conduct is for the arbitration panel; the adjudicator gives only "
                    "the bound decisions of the catalogue (TSR 9.6.2, 9.6.3)."
                )
            )
        )
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
    seat = _seat_in(entry, round)
    if alone:
        policies.enforce(policies.may_rule(table=seat.table, user=by, what=policies.CONDUCT))
    else:
        policies.enforce(
            policies.may_decide_as_panel(table=seat.table, user=by, what=policies.CONDUCT)
        )
        _require_members(seat.table, members, what=policies.CONDUCT)
    points = _points_for(kind, points)
    if not reasons.strip():
        raise ValidationError({"reasons": _("Give the reasons for the sanction.")})
    sanction = _save(
        Sanction(
            entry=entry,
            round=round,
            kind=kind,
            points=points,
            offence=offence,
            reasons=reasons.strip(),
            decided_by=by,
        )
    )
    sanction.members.set(members)
    unseated = []
    if kind == Sanction.Kind.DISQUALIFICATION:
        unseated = entry_disqualify(entry=entry)
    _log(
        tournament,
        by=by,
        action=Event.Action.SANCTION,
        sanction=sanction,
        summary=_("Round %(round)d, table %(table)d: %(player)s: %(sanction)s: %(reasons)s")
        % {
            "round": round.number,
            "table": seat.table.number,
            "player": entry.player,
            "sanction": sanction.get_kind_display() + (f" ({points})" if points else ""),
            "reasons": sanction.reasons,
        },
        rounds_to_seat_again=unseated,
    )
    if kind == Sanction.Kind.DEDUCTION:
        results_refresh(tables=[seat.table])
    return sanction


def _locked_sanction(sanction: Sanction) -> Sanction:
    return (
        Sanction.objects.select_for_update(of=("self",))
        .select_related("entry__player", "round__tournament")
        .get(pk=sanction.pk)
    )


def _require_round_under_way(round: Round) -> None:
    """An appeal is at once (TSR 9.7.7): while the round's matches are played or checked."""
    if round.status not in {Round.Status.RUNNING, Round.Status.FINISHED}:
        raise ValidationError(
            {
                "sanction": _(
                    "Round %(round)d is %(status)s: an appeal is made at once, while its "
                    "matches are played (TSR 9.7.7)."
                )
                % {"round": round.number, "status": round.get_status_display()}
            }
        )


@transaction.atomic
def sanction_appeal_lodge(*, sanction: Sanction, grounds: str = "", by: AbstractBaseUser) -> Appeal:
    """The player appeals against a bound decision the adjudicator gave alone (TSR 8.2.1,
    9.6.3, 9.7.7): the arbitration panel decides; until it does, the sanction counts. What
    the panel decided itself is final."""
    sanction = _locked_sanction(sanction)
    tournament = sanction.round.tournament
    policies.enforce(policies.may_lodge_appeal(tournament=tournament, user=by))
    if sanction.status != Sanction.Status.IN_FORCE:
        raise ValidationError(
            {
                "sanction": _("The sanction is %(status)s: it is not appealed again.")
                % {"status": sanction.get_status_display()}
            }
        )
    if sanction.appeal_id is not None or sanction.members.exists():
        raise ValidationError(
            {"sanction": _("This is the arbitration panel's decision: it is final (TSR 8.2.1).")}
        )
    if Appeal.objects.filter(sanction=sanction).exists():
        raise ValidationError({"sanction": _("This decision has been appealed already.")})
    _require_round_under_way(sanction.round)
    seat = _seat_in(sanction.entry, sanction.round)
    appeal = _save(
        Appeal(sanction=sanction, appellant=seat.position, grounds=grounds.strip(), lodged_by=by)
    )
    _log(
        tournament,
        by=by,
        action=Event.Action.APPEAL,
        sanction=sanction,
        appeal=appeal,
        summary=_("Round %(round)d, table %(table)d: %(player)s appeals against the sanction")
        % {
            "round": sanction.round.number,
            "table": seat.table.number,
            "player": sanction.entry.player,
        },
        grounds=appeal.grounds,
    )
    return appeal


def _sanction_appeal_decide(
    *,
    appeal: Appeal,
    outcome: Appeal.Outcome,
    members: Collection[AbstractBaseUser],
    reasons: str,
    interruption: int,
    ruling: Ruling | None,
    change: SanctionRuling | None,
    by: AbstractBaseUser,
) -> Appeal:
    """The panel on a bound decision (TSR 8.2.1, 9.6.3): upheld it stands; annulled it no
    longer counts (a deduction leaves the results); changed, the panel's own sanction counts
    instead, its deduction in the same round's match."""
    sanction = _locked_sanction(appeal.sanction)
    seat = _seat_in(sanction.entry, sanction.round)
    table = seat.table
    outcome = _panel_checks(
        appeal,
        table=table,
        outcome=outcome,
        members=members,
        reasons=reasons,
        interruption=interruption,
        by=by,
    )
    if ruling is not None:
        raise ValidationError(
            {
                "ruling": _(
                    "An appeal against a sanction is decided with the panel's own sanction, "
                    "not a ruling on a hand."
                )
            }
        )
    if (change is not None) != (outcome == Appeal.Outcome.CHANGE):
        raise ValidationError(
            {
                "sanction": _(
                    "The panel gives its own sanction when, and only when, it changes the decision."
                )
            }
        )
    points = None
    if change is not None:
        kind = Sanction.Kind(change.kind)
        if kind not in {Sanction.Kind.WARNING, Sanction.Kind.DEDUCTION}:
            raise ValidationError(
                {
                    "sanction": _(
                        "On appeal the panel makes a bound decision a warning or a deduction; "
                        "a disqualification is a sanction of its own (TSR 9.6.2 c)."
                    )
                }
            )
        points = _points_for(kind, change.points, field="sanction")
    _require_round_under_way(sanction.round)
    _panel_record(
        appeal,
        outcome=outcome,
        members=members,
        reasons=reasons,
        interruption=interruption,
        by=by,
    )
    replacement = None
    if outcome != Appeal.Outcome.UPHOLD:
        sanction.status = (
            Sanction.Status.SUPERSEDED
            if outcome == Appeal.Outcome.CHANGE
            else Sanction.Status.ANNULLED
        )
        _save(sanction)
    if outcome == Appeal.Outcome.CHANGE:
        replacement = _save(
            Sanction(
                entry=sanction.entry,
                round=sanction.round,
                kind=kind,
                points=points,
                offence=sanction.offence,
                reasons=appeal.reasons,
                decided_by=by,
                appeal=appeal,
            )
        )
        replacement.members.set(members)
    tournament = sanction.round.tournament
    _log(
        tournament,
        by=by,
        action=Event.Action.PANEL,
        sanction=replacement or sanction,
        appeal=appeal,
        summary=_(
            "Round %(round)d, table %(table)d: the arbitration panel (%(members)s) %(outcome)s "
            "the sanction against %(player)s: %(reasons)s"
        )
        % {
            "round": sanction.round.number,
            "table": table.number,
            "members": ", ".join(m.get_full_name() or m.get_username() for m in members),
            "outcome": appeal.get_outcome_display(),
            "player": sanction.entry.player,
            "reasons": appeal.reasons,
        },
        points=replacement.points if replacement else None,
    )
    reason = _("Arbitration panel on table %(table)d (TSR 8.5.1)") % {"table": table.number}
    _give_back_interruption(appeal, table, members=members, reason=reason, by=by)
    if Sanction.Kind.DEDUCTION in {sanction.kind, replacement and replacement.kind}:
        results_refresh(tables=[table])
    return appeal


# The catalogue of standard offences --------------------------------------------------------------


def _require_offence_of(offence: Offence, tournament: Tournament) -> None:
    if offence.tournament_id != tournament.pk:
        raise ValidationError({"offence": _("The offence is not in this tournament's catalogue.")})


@transaction.atomic
def offence_save(
    *,
    tournament: Tournament,
    name: str,
    kind: Offence.Kind,
    severity: str = "",
    rule: str = "",
    bound: bool = False,
    deduction: int | None = None,
    offence: Offence | None = None,
    by: AbstractBaseUser,
) -> Offence:
    """Add a standard offence to the tournament's catalogue, or change one (``offence``)."""
    policies.enforce(policies.may_keep_catalogue(tournament=tournament, user=by))
    if offence is None:
        offence = Offence(tournament=tournament)
    else:
        offence = Offence.objects.select_for_update().get(pk=offence.pk)
        _require_offence_of(offence, tournament)
    offence.name = name.strip()
    offence.kind = kind
    offence.severity = severity if kind == Offence.Kind.BREACH else ""
    offence.rule = rule.strip()
    offence.bound = bound and kind == Offence.Kind.UNSPORTING
    offence.deduction = deduction if offence.bound else None
    if kind == Offence.Kind.BREACH and not offence.severity:
        raise ValidationError(
            {
                "severity": _(
                    "A breach of the rules has a severity: the one usually ruled (TSR 9.2-9.4)."
                )
            }
        )
    if (
        Offence.objects.filter(tournament=tournament, name=offence.name)
        .exclude(pk=offence.pk)
        .exists()
    ):
        raise ValidationError(
            {"name": _("The catalogue has “%(name)s” already.") % {"name": offence.name}}
        )
    if offence.bound and deduction is None:
        raise ValidationError(
            {
                "deduction": _(
                    "A bound decision says how many points it deducts: 0 (a warning) to 12."
                )
            }
        )
    _save(offence)
    _log(
        tournament,
        by=by,
        action=Event.Action.OFFENCE,
        summary=_("Catalogue: %(name)s") % {"name": offence.name},
        offence=offence.pk,
    )
    return offence


@transaction.atomic
def offence_delete(*, offence: Offence, by: AbstractBaseUser) -> None:
    """Take an offence out of the catalogue; one that decisions or sanctions name stays."""
    tournament = offence.tournament
    policies.enforce(policies.may_keep_catalogue(tournament=tournament, user=by))
    if offence.decisions.exists() or offence.sanctions.exists():
        raise ValidationError(
            _("“%(name)s” is named in decisions already and stays in the catalogue.")
            % {"name": offence.name}
        )
    _log(
        tournament,
        by=by,
        action=Event.Action.OFFENCE,
        summary=_("Catalogue: %(name)s taken out") % {"name": offence.name},
    )
    offence.delete()


# The defaults: what the TSR itself names; each tournament edits its own (TSR 9.1.7, 9.6.3).
DEFAULT_OFFENCES = [
    # name, rule, kind, severity, bound, deduction
    (gettext_noop("Not following suit"), "TSR 5.2.2", "breach", Severity.MAJOR, False, None),
    (
        gettext_noop("Leading out of turn"),
        "TSR 5.1.1, 5.3.4",
        "breach",
        Severity.MINOR,
        False,
        None,
    ),
    (gettext_noop("Counting trumps or card points aloud"), "TSR 9.1.4", "unsporting", "", True, 0),
    (
        gettext_noop("Gestures or remarks that reveal cards or influence the game"),
        "TSR 9.1.5",
        "unsporting",
        "",
        False,
        None,
    ),
    (
        gettext_noop("Encouraging a player to break the rules"),
        "TSR 9.1.6",
        "unsporting",
        "",
        False,
        None,
    ),
    (
        gettext_noop("Hand abandoned without the adjudicator's consent"),
        "TSR 9.1.3 (2)",
        "unsporting",
        "",
        False,
        None,
    ),
]


@transaction.atomic
def offences_default(*, tournament: Tournament, by: AbstractBaseUser) -> list[Offence]:
    """Start the tournament's catalogue with the offences the TSR names, in the language of
    the request; those it has already (by name) are left as they are."""
    policies.enforce(policies.may_keep_catalogue(tournament=tournament, user=by))
    have = set(tournament.offences.values_list("name", flat=True))
    added = [
        _save(
            Offence(
                tournament=tournament,
                name=_(name),
                rule=rule,
                kind=kind,
                severity=severity,
                bound=bound,
                deduction=deduction,
            )
        )
        for name, rule, kind, severity, bound, deduction in DEFAULT_OFFENCES
        if _(name) not in have
    ]
    if added:
        _log(
            tournament,
            by=by,
            action=Event.Action.OFFENCE,
            summary=_("Catalogue: %(count)d standard offences of the TSR added")
            % {"count": len(added)},
        )
    return added


# Roles -------------------------------------------------------------------------------------------


def _role_name(grant: TournamentRole) -> str:
    user = grant.user
    return _("%(user)s as %(role)s") % {
        "user": user.get_full_name() or user.get_username(),
        "role": grant.get_role_display(),
    }


@transaction.atomic
def role_grant(
    *,
    tournament: Tournament,
    user: AbstractBaseUser,
    role: TournamentRole.Role,
    entry: Entry | None = None,
    by: AbstractBaseUser,
) -> TournamentRole:
    """The organiser appoints staff (TSR 8.2.1): adjudicators, members of the arbitration panel
    (usually three), scorekeepers at the desk, other organisers. ``entry``: the player they are
    in this tournament, if they play (their table gets the panel's interruption back, 8.5.1)."""
    policies.enforce(policies.may_appoint_staff(tournament=tournament, user=by))
    if entry is not None and entry.tournament_id != tournament.pk:
        raise ValidationError({"entry": _("The player is not registered in this tournament.")})
    grant, created = TournamentRole.objects.select_for_update().get_or_create(
        tournament=tournament, user=user, role=role, defaults={"entry": entry}
    )
    if not created:
        grant.entry = entry
        grant.save(update_fields=["entry"])
    _log(
        tournament,
        by=by,
        action=Event.Action.ROLE,
        summary=_("Appointed: %(grant)s") % {"grant": _role_name(grant)}
        + (_(", plays as %(player)s") % {"player": entry.player} if entry else ""),
        user=user.get_username(),
        role=role,
    )
    return grant


@transaction.atomic
def role_revoke(*, grant: TournamentRole, by: AbstractBaseUser) -> None:
    """Take a role back; a tournament keeps at least one organiser."""
    grant = (
        TournamentRole.objects.select_for_update()
        .select_related("user", "tournament")
        .get(pk=grant.pk)
    )
    tournament = grant.tournament
    policies.enforce(policies.may_appoint_staff(tournament=tournament, user=by))
    if (
        grant.role == Role.ORGANISER
        and not tournament.roles.filter(role=Role.ORGANISER).exclude(pk=grant.pk).exists()
    ):
        raise ValidationError({"role": _("The tournament keeps at least one organiser.")})
    _log(
        tournament,
        by=by,
        action=Event.Action.ROLE,
        summary=_("No longer: %(grant)s") % {"grant": _role_name(grant)},
        user=grant.user.get_username(),
        role=grant.role,
    )
    grant.delete()
