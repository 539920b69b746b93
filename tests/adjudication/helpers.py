"""Helpers of the adjudication tests: a whole match, the scorekeeper entering it, a complaint
decided through the services, and the rulings, weddings, appeals and sanctions the tests of
the services share; a tournament with its adjudicator and panel, a round started, a sheet
confirmed, a decision appealed and deductions, which the standings' and the backup's tests
share."""

from dataclasses import replace

from adjudication import services
from adjudication.models import Offence, Sanction
from doko import sample_sheets
from doko.rules.contracts import Contract, SoloType
from doko.rules.penalty import Severity
from doko.rules.procedure import WrittenLine
from scoring import services as scoring_services
from scoring.models import Scoresheet
from scoring.selectors import hand_lines, sheet_state
from tests import factories
from tournaments import services as tournament_services
from tournaments.models import Entry, Round, TournamentRole

MATCH = sample_sheets.full_match()


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
    # TSR 9.4.4: hand 2 written already is the solo itself.
    written = WrittenLine.STOPPED if len(lines) >= 2 else None
    ruling = Ruling(Severity.MAJOR, **SOLO, written_line=written)
    decision = decide(sheet, staff, hand=2, offender=4, ruling=ruling)
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
    appeal = services.appeal_lodge(
        sanction=sanction, grounds="It was not my phone.", by=staff["deputy"]
    )
    return sanction, appeal


def seat_entry(sheet, position) -> Entry:
    return sheet.table.seats.get(position=position).entry


def staffed_tournament(staff, *, players: int):
    tournament = factories.tournament(players=players, organiser=staff["organiser"])
    grant = factories.role_grant
    grant(tournament=tournament, user=staff["adjudicator"], role=Role.ADJUDICATOR)
    for member in staff["panel"]:
        grant(tournament=tournament, user=member, role=Role.PANEL)
    return tournament


def started_round(tournament, *, seed: int = 1) -> Round:
    return tournament_services.round_start(round=factories.seated_round(tournament, seed=seed))


def confirm(sheet: Scoresheet) -> None:
    """The rest of the match after the lines on the sheet (stopped hands kept), handed in and
    confirmed."""
    sheet.refresh_from_db()
    played = [line for line in on_sheet(sheet) if not line.not_played]
    factories.sheet_confirmed(sheet, [*on_sheet(sheet), *MATCH[len(played) :]])


def appeal(decision, staff, *, outcome, ruling=None):
    lodged = services.appeal_lodge(decision=decision, appellant=1, by=staff["adjudicator"])
    services.appeal_decide(
        appeal=lodged,
        outcome=outcome,
        members=staff["panel"],
        reasons="As the panel saw it.",
        ruling=ruling,
        by=staff["panel"][0],
    )


def deduct(round_, sheet, staff, *, position: int, points: int) -> Sanction:
    return services.sanction_impose(
        entry=sheet.table.seats.get(position=position).entry,
        round=round_,
        kind=Sanction.Kind.DEDUCTION,
        points=points,
        reasons="Insulted the table.",
        members=staff["panel"],
        by=staff["panel"][0],
    )


def bound(round_, sheet, staff, *, position: int, points: int) -> Sanction:
    """A bound decision the adjudicator gives alone (TSR 9.6.3)."""
    offence = services.offence_save(
        tournament=round_.tournament,
        name=f"Bound {position}",
        kind="unsporting",
        bound=True,
        deduction=points,
        by=staff["organiser"],
    )
    return services.sanction_impose(
        entry=sheet.table.seats.get(position=position).entry,
        round=round_,
        kind=Sanction.Kind.DEDUCTION,
        points=points,
        offence=offence,
        reasons="Phone rang.",
        by=staff["adjudicator"],
    )
