"""Helpers of the adjudication tests: a whole match, the scorekeeper entering it, a complaint
decided through the services, and the rulings, weddings, appeals and sanctions the tests of
the services share."""

from dataclasses import replace

from adjudication import services
from adjudication.models import Offence, Sanction
from doko.rules.contracts import Contract, SoloType
from doko.rules.penalty import Severity
from scoring import services as scoring_services
from scoring.models import Scoresheet
from scoring.selectors import hand_lines, sheet_state
from tests import factories, sheets
from tournaments.models import Entry, TournamentRole

MATCH = sheets.full_match()


def enter(sheet: Scoresheet, lines) -> Scoresheet:
    """The scorekeeper writes these lines, keeping the stopped hands already on the sheet."""
    sheet.refresh_from_db()
    return scoring_services.scoresheet_hands_replace(
        scoresheet=sheet, hands=list(lines), version=sheet.version, by=factories.keeper(sheet)
    )


def on_sheet(sheet: Scoresheet):
    return hand_lines(list(sheet.hands.all()))


def decide(sheet, staff, *, hand, offender, ruling, initial=True, **complaint):
    by = staff["adjudicator"]
    decision = services.complaint_record(
        scoresheet=sheet,
        hand_number=hand,
        offender=offender,
        description=complaint.pop("description", "Trumped a led club holding a club"),
        by=by,
        **complaint,
    )
    decision = services.decision_rule(decision=decision, ruling=ruling, by=by)
    if initial:
        decision = services.decision_initial(decision=decision, by=by)
    return decision


Role = TournamentRole.Role


Ruling = services.Ruling


def check(sheet):
    sheet.refresh_from_db()
    return sheet_state(sheet=sheet).check


SOLO = {"contract": Contract.COMPULSORY_SOLO, "soloist": 1, "solo_type": SoloType.QUEENS}


def game_points(lines) -> dict[int, int]:
    return {seat: sum(line.points[seat] for line in lines) for seat in range(1, 5)}


def solo_appealed(sheet, staff, lines):
    enter(sheet, lines)
    decision = decide(sheet, staff, hand=2, offender=4, ruling=Ruling(Severity.MAJOR, **SOLO))
    return decision, services.appeal_lodge(decision=decision, appellant=4, by=staff["adjudicator"])


def panel(appeal, staff, outcome, ruling=None):
    return services.appeal_decide(
        appeal=appeal,
        outcome=outcome,
        members=staff["panel"],
        reasons="Seat 4 did not break the rules.",
        ruling=ruling,
        by=staff["panel"][0],
    )


def wedding(contract=Contract.WEDDING, holder: int | None = 3):
    """Hand 3 of the match as a wedding: played alone by ``holder`` and won (a diamonds solo),
    or, without a holder, an announced wedding with a partner (TSR 4.4.3 a)."""
    line = MATCH[2]
    if holder is None:
        return replace(line, contract=contract)
    return replace(
        line,
        contract=contract,
        soloist=holder,
        solo_type=SoloType.DIAMONDS,
        points={seat: 6 if seat == holder else -2 for seat in range(1, 5)},
    )


def appealed(sheet, staff, *, ruling, hand=3, offender=2):
    enter(sheet, MATCH[:2])
    decision = decide(sheet, staff, hand=hand, offender=offender, ruling=ruling)
    appeal = services.appeal_lodge(
        decision=decision, appellant=offender, grounds="I had no club", by=staff["adjudicator"]
    )
    return decision, appeal


def plays(staff_user, sheet, position, role=Role.ADJUDICATOR) -> None:
    """``staff_user``'s role names the player at ``position`` of the sheet's table."""
    TournamentRole.objects.filter(user=staff_user, role=role).update(
        entry=sheet.table.seats.get(position=position).entry
    )


def bound_deduction(tournament, round_, sheet, staff, *, points=4):
    offence = services.offence_save(
        tournament=tournament,
        name="Mobile phone rang",
        kind=Offence.Kind.UNSPORTING,
        bound=True,
        deduction=points,
        by=staff["organiser"],
    )
    return services.sanction_impose(
        entry=sheet.table.seats.get(position=3).entry,
        round=round_,
        kind=Sanction.Kind.DEDUCTION,
        points=points,
        offence=offence,
        reasons="The phone rang during hand 5.",
        by=staff["adjudicator"],
    )


def sanction_appealed(tournament, round_, sheet, staff):
    enter(sheet, MATCH)
    sanction = bound_deduction(tournament, round_, sheet, staff)
    appeal = services.sanction_appeal_lodge(
        sanction=sanction, grounds="It was not my phone.", by=staff["deputy"]
    )
    return sanction, appeal


def seat_entry(sheet, position) -> Entry:
    return sheet.table.seats.get(position=position).entry
