"""Who may do what with a scoresheet: one policy per action, asked by the sheet page for its
buttons and enforced by the services; a refusal says why, and names the field when the
sheet's state, not the actor, stands in the way."""

import pytest

from scoring import policies, services
from scoring.models import Scoresheet
from scoring.policies import Actor
from tests import factories
from tests.sheets import full_match

pytestmark = pytest.mark.django_db


def seat(sheet: Scoresheet, position: int) -> Actor:
    return Actor(seat=sheet.table.seats.get(position=position))


def test_the_scorekeeper_may_edit_a_draft_while_the_round_runs(sheet):
    assert policies.may_edit_sheet(sheet=sheet, actor=factories.keeper(sheet), roles=()) is None


def test_another_seat_may_not_edit_and_is_told_who_keeps_the_sheet(sheet):
    refusal = policies.may_edit_sheet(sheet=sheet, actor=seat(sheet, 1), roles=())
    assert refusal == policies.Refusal(
        "Only the scorekeeper, seat 4, enters and hands in the scoresheet "
        "(TSR 7.3.4, 8.4.1, 10.1.4)."
    )


@pytest.mark.parametrize("role", ["organiser", "adjudicator", "scorekeeper"])
def test_sheet_staff_may_edit(sheet, role):
    actor = Actor(user=factories.user())
    assert policies.may_edit_sheet(sheet=sheet, actor=actor, roles={role}) is None


def test_a_panel_member_may_not_edit(sheet):
    refusal = policies.may_edit_sheet(
        sheet=sheet, actor=Actor(user=factories.user()), roles={"panel"}
    )
    assert refusal == policies.Refusal("You may not change this scoresheet.")


def handed_in(sheet: Scoresheet) -> Scoresheet:
    keeper = factories.keeper(sheet)
    services.scoresheet_hands_replace(scoresheet=sheet, hands=full_match(), version=1, by=keeper)
    return services.scoresheet_submit(scoresheet=sheet, version=2, by=keeper)


def test_a_handed_in_sheet_is_not_edited_and_the_refusal_names_its_status(sheet):
    sheet = handed_in(sheet)
    refusal = policies.may_edit_sheet(sheet=sheet, actor=factories.keeper(sheet), roles=())
    assert refusal.field == "status"
    assert refusal.message == "The scoresheet is submitted; only a draft can be changed."


def test_another_player_confirms_what_the_keeper_handed_in(sheet):
    sheet = handed_in(sheet)
    assert policies.may_confirm_sheet(sheet=sheet, actor=seat(sheet, 1), roles=()) is None
    refusal = policies.may_confirm_sheet(sheet=sheet, actor=factories.keeper(sheet), roles=())
    assert refusal.field == "confirmed_by"
    assert "(TSR 7.3.2, 8.5.2)" in refusal.message


def test_only_an_organiser_reopens_and_only_a_handed_in_sheet(sheet):
    organiser = Actor(user=factories.user())
    draft = policies.may_reopen_sheet(sheet=sheet, actor=organiser, roles={"organiser"})
    assert draft == policies.Refusal("The scoresheet is a draft already.", field="status")
    sheet = handed_in(sheet)
    assert policies.may_reopen_sheet(sheet=sheet, actor=organiser, roles={"organiser"}) is None
    adjudicator = policies.may_reopen_sheet(sheet=sheet, actor=organiser, roles={"adjudicator"})
    assert adjudicator == policies.Refusal("You may not change this scoresheet.")
    link = policies.may_reopen_sheet(sheet=sheet, actor=seat(sheet, 1), roles=())
    assert link == policies.Refusal("Only an organiser reopens a scoresheet.")
