"""Helpers of the adjudication tests: a whole match, the scorekeeper entering it, and a
complaint decided through the services."""

from adjudication import services
from scoring import services as scoring_services
from scoring.models import Scoresheet
from scoring.selectors import hand_lines
from tests import factories, sheets

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
