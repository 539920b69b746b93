"""Who may do what with a scoresheet: one policy per action, asked by the sheet page for its
buttons and enforced by the services; a refusal says why, and names the field when the
sheet's state, not the actor, stands in the way."""

import pytest

from doko.four_eyes import Deed
from doko.sample_sheets import full_match
from scoring import policies, services
from scoring.models import Scoresheet
from scoring.policies import Actor
from scoring.selectors.record import sheet_deeds_read, sheet_record
from tests import factories
from tournaments import prepared

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


# "Plays as" is the seat: nobody confirms what his own seat handed in (TSR 7.3.2) -------------


def playing_staff(sheet: Scoresheet, *, role: str, position: int) -> Actor:
    """A staff account whose "plays as" is the player at ``position`` of the sheet's table."""
    user = factories.user()
    factories.role_grant(
        tournament=sheet.table.round.tournament,
        user=user,
        role=role,
        entry=sheet.table.seats.get(position=position).entry,
    )
    return Actor(user=user)


@pytest.mark.parametrize("role", ["scorekeeper", "adjudicator", "organiser"])
def test_staff_who_play_as_the_seat_that_handed_in_may_not_confirm(sheet, role):
    sheet = handed_in(sheet)  # by seat 4's link
    actor = playing_staff(sheet, role=role, position=4)
    refusal = policies.may_confirm_sheet(sheet=sheet, actor=actor, roles={role})
    assert refusal is not None
    assert refusal.field == "confirmed_by"
    assert refusal.plays
    assert "seat 4" in refusal.message
    assert "(TSR 7.3.2, 8.5.2)" in refusal.message


def test_staff_who_play_at_another_seat_of_the_table_confirm(sheet):
    sheet = handed_in(sheet)
    actor = playing_staff(sheet, role="scorekeeper", position=2)
    assert policies.may_confirm_sheet(sheet=sheet, actor=actor, roles={"scorekeeper"}) is None


def test_the_seat_of_a_staff_member_who_handed_in_may_not_confirm(sheet):
    actor = playing_staff(sheet, role="scorekeeper", position=3)
    sheet = services.scoresheet_hands_replace(
        scoresheet=sheet, hands=full_match(), version=1, by=actor
    )
    sheet = services.scoresheet_submit(scoresheet=sheet, version=2, by=actor)
    refusal = policies.may_confirm_sheet(sheet=sheet, actor=seat(sheet, 3), roles=())
    assert refusal is not None
    assert refusal.field == "confirmed_by"
    assert policies.may_confirm_sheet(sheet=sheet, actor=seat(sheet, 1), roles=()) is None


def test_the_records_rows_read_with_the_lock_make_the_same_record(sheet):
    """A hand-in and a confirmation read the rows of the sheet's four-eyes record with its lock,
    the table's players found in the query itself (``sheet_deeds_read``): the record made of
    them is the one read alone, with who typed and handed in, and which accounts play as whom."""
    typist = playing_staff(sheet, role="scorekeeper", position=3)
    sheet = services.scoresheet_hands_replace(
        scoresheet=sheet, hands=full_match(), version=1, by=typist
    )
    sheet = services.scoresheet_submit(scoresheet=sheet, version=2, by=typist)
    playing_staff(sheet, role="adjudicator", position=1)
    alone = sheet_record(Scoresheet.objects.get(pk=sheet.pk))
    again = Scoresheet.objects.get(pk=sheet.pk)
    [rows] = prepared.run(sheet_deeds_read(again))
    together = sheet_record(again, seats=list(again.table.seats.all()), deeds=rows)
    assert set(together.done) == set(alone.done)
    assert (together.same, together.seats) == (alone.same, alone.seats)
    assert len(alone.same) == 2  # both accounts that play at the table
    assert {done.deed for done in alone.done} >= {Deed.TYPED, Deed.HANDED_IN, Deed.PLAYED}
