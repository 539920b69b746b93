"""Complaints and the adjudicator's rulings on a hand, and initialling them (TSR 8.2.1, 8.2.2,
9.2-9.5)."""

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop, ngettext

from adjudication import policies
from adjudication.messages import Param, label_said, offence_said, said
from adjudication.models import (
    SEVERITY_LABELS,
    Decision,
    Event,
    Offence,
)
from adjudication.selectors import sheet_adjudication
from adjudication.services.common import (
    log_event,
    require_match_open,
    require_seat,
    save_validated,
    table_size,
)
from adjudication.services.offences import require_offence_of
from doko.rules.contracts import Contract, SoloType
from doko.rules.penalty import Breach, Severity, penalty_points
from doko.rules.problems import InvalidInput
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
from tournaments.caching import round_changed
from tournaments.services import results_refresh


@transaction.atomic
def complaint_record(
    *,
    scoresheet: Scoresheet,
    hand_number: int,
    offender: int,
    description: str,
    complainant: int | None = None,
    offence: Offence | None = None,
    by: User,
) -> Decision:
    """Note a complaint about a breach in one hand (TSR 9.7.5): the adjudicator is called to
    the table. The hand is a line already on the sheet or the one being played (the next)."""
    sheet = scoresheet_locked(scoresheet)
    tournament = sheet.table.round.tournament
    policies.enforce(policies.may_rule(table=sheet.table, user=by))
    require_match_open(sheet)
    size = table_size(sheet)
    played = sheet.hands.count()
    if not 1 <= hand_number <= played + 1:
        raise ValidationError(
            {
                "hand_number": ngettext(
                    "The sheet has %(count)d hand: a complaint is about it or the hand being "
                    "played, %(next)d.",
                    "The sheet has %(count)d hands: a complaint is about one of them or the "
                    "hand being played, %(next)d.",
                    played,
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
    require_seat("offender", offender, size, label=_("The offender"))
    require_seat("complainant", complainant, size, label=_("The complainant"))
    if complainant is not None and complainant == offender:
        raise ValidationError(
            {"complainant": _("A player does not complain about his own breach (TSR 9.7.1).")}
        )
    if offence is not None:
        require_offence_of(offence, tournament)
        if offence.kind != Offence.Kind.BREACH:
            raise ValidationError(
                {
                    "offence": _(
                        "“%(name)s” is unsporting conduct: it is a sanction, not penalty points "
                        "on a hand (TSR 9.6.2)."
                    )
                    % {"name": offence.label}
                }
            )
    # The standard offence alone may say what happened; it is shown in the reader's language.
    description = description.strip()
    if not description and offence is None:
        raise ValidationError({"description": _("Say what happened.")})
    decision = save_validated(
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
    log_event(
        tournament,
        by=by,
        action=Event.Action.COMPLAINT,
        decision=decision,
        summary=said(
            gettext_noop(
                "Round %(round)d, table %(table)d, hand %(hand)d: complaint against seat "
                "%(seat)d: %(what)s"
            ),
            round=sheet.table.round.number,
            table=sheet.table.number,
            hand=hand_number,
            seat=offender,
            what=description or (offence_said(offence) if offence else ""),
        ),
    )
    round_changed(sheet.table.round_id)  # the desk shows the complaint open
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

    @classmethod
    def from_values(
        cls, values: Mapping[str, Any], *, penalty: Mapping[int, int] | None
    ) -> "Ruling":
        """The ruling from cleaned input, the page's form or the API's: the choices as their
        values, ``penalty`` as the input gives it (None: the TSR's own points)."""
        return cls(
            severity=Severity(values["severity"]),
            contract=Contract(values["contract"]),
            soloist=values["soloist"],
            solo_type=SoloType(values["solo_type"]) if values["solo_type"] else None,
            disadvantages_soloist=values["disadvantages_soloist"],
            announcements=values["announcements"],
            decided=values["decided"],
            penalty=penalty,
            deviation_reason=values["deviation_reason"],
            wedding_clarified_as_solo=values["wedding_clarified_as_solo"],
        )


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


def ruled(decision: Decision, ruling: Ruling) -> dict:
    """The decision's fields for ``ruling``: the penalty points by the TSR (TSR 9.2-9.5) and, if
    the adjudicator deviates, his with their reason."""
    sheet = decision.scoresheet
    size = table_size(sheet)
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
    if wedding and names_soloist:
        solo_type = SoloType.DIAMONDS.value  # a wedding played alone (TSR 4.4.3 b, 4.4.5)
    elif contract.is_solo:
        assert ruling.solo_type is not None  # a solo without its type is refused above
        solo_type = SoloType(ruling.solo_type).value
    else:
        solo_type = ""
    return {
        "severity": Severity(ruling.severity).value,
        "contract": contract.value,
        "soloist": ruling.soloist if names_soloist else None,
        "solo_type": solo_type,
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


def _points_said(decision: Decision) -> Param:
    return [
        said(gettext_noop("seat %(seat)d: %(points)+d"), seat=seat, points=points)
        for seat, points in decision.penalty.items()
        if points
    ] or said(gettext_noop("no penalty points"))


def _ruled_params(decision: Decision) -> dict[str, Param]:
    """What the log says of a ruling: the hand, the offender, severity, points and rule."""
    return {
        "hand": decision.hand_number,
        "seat": decision.offender,
        "severity": label_said(SEVERITY_LABELS[Severity(decision.severity)]),
        "points": _points_said(decision),
        "rule": decision.rule,
    }


def require_hand_not_ended(decision: Decision, *, field: str) -> None:
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


def decision_lock(decision: Decision) -> Decision:
    return (
        Decision.objects.select_for_update(of=("self",))
        .select_related("scoresheet__table__round__tournament")
        .get(pk=decision.pk)
    )


@transaction.atomic
def decision_rule(*, decision: Decision, ruling: Ruling, by: User) -> Decision:
    """Rule on a complaint: the severity and the circumstances, from which the penalty points
    follow (TSR 9.2-9.5). The decision waits for initials (TSR 8.2.2); until then it may be
    ruled again."""
    decision = decision_lock(decision)
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
    require_match_open(sheet)
    for name, value in ruled(decision, ruling).items():
        setattr(decision, name, value)
    decision.status = Decision.Status.DRAFT
    save_validated(decision)
    log_event(
        tournament,
        by=by,
        action=Event.Action.RULING,
        decision=decision,
        summary=said(
            gettext_noop("Hand %(hand)d, seat %(seat)d: %(severity)s, %(points)s (%(rule)s)"),
            **_ruled_params(decision),
        ),
        penalty=decision.computed if not decision.deviates else seat_keys(decision.penalty),
        deviation_reason=decision.deviation_reason,
    )
    round_changed(sheet.table.round_id)
    return decision


def seat_keys(points: Mapping[int, int]) -> dict[str, int]:
    return {str(seat): value for seat, value in points.items()}


def _shift_decisions(sheet: Scoresheet, *, after: int, by_lines: int) -> None:
    """The lines after ``after`` moved when a stopped hand came on or off the sheet: the
    decisions on them move with them."""
    Decision.objects.filter(scoresheet=sheet, hand_number__gt=after).update(
        hand_number=F("hand_number") + by_lines
    )


def hand_stop(decision: Decision, by: User) -> None:
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


def hand_unstop(decision: Decision, by: User) -> None:
    scoresheet_hand_unstop(scoresheet=decision.scoresheet, number=decision.hand_number, by=by)
    _shift_decisions(decision.scoresheet, after=decision.hand_number, by_lines=-1)


def hand_void(decision: Decision, by: User) -> None:
    """Count the solo as played without game points (TSR 9.4.4): its line goes on the sheet
    with no points, or loses the scorekeeper's, which the decision keeps for an appeal."""
    # Only an opponent's major breach in a solo is ruled so, and a solo names its soloist.
    assert decision.soloist is not None
    replaced = scoresheet_hand_void(
        scoresheet=decision.scoresheet,
        number=decision.hand_number,
        contract=Contract(decision.contract),
        soloist=decision.soloist,
        solo_type=SoloType(decision.solo_type) if decision.solo_type else None,
        by=by,
    )
    decision.replaced_line = hand_snapshot(replaced) if replaced else None


def hand_unvoid(decision: Decision, by: User) -> None:
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
def decision_initial(*, decision: Decision, by: User) -> Decision:
    """Initial a ruling (TSR 8.2.2): from now on its penalty points count on the sheet, in its
    PDF and in the standings, and it is never edited. A hand stopped by a major breach in a
    normal game (or by the soloist) comes on the sheet as not played (TSR 9.4.3); a solo
    stopped by an opponent's counts as played, its line without game points (TSR 9.4.4).
    Nothing more is initialled in a hand a major breach ended (TSR 9.4.2, 9.7.6)."""
    decision = decision_lock(decision)
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
    require_match_open(sheet)
    require_hand_not_ended(decision, field="hand_number")
    decision.status = Decision.Status.INITIALLED
    decision.initialled_by = by
    decision.initialled_at = timezone.now()
    if decision.played_without_game_points:
        hand_void(decision, by)
    save_validated(decision)
    if decision.hand_not_played:
        hand_stop(decision, by)
    log_event(
        tournament,
        by=by,
        action=Event.Action.INITIALS,
        decision=decision,
        summary=said(
            gettext_noop("Hand %(hand)d, seat %(seat)d: initialled, %(points)s (%(rule)s)"),
            **_ruled_params(decision),
        ),
        hand_not_played=decision.hand_not_played,
        played_without_game_points=decision.played_without_game_points,
    )
    results_refresh(tables=[sheet.table])
    round_changed(sheet.table.round_id)  # the desk's complaint is decided
    return decision
