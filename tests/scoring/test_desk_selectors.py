"""The desk's view of a round (scoring/selectors/desk.py): each table's state, which state wins
where several hold, the order the desk attends to them, and a fixed number of queries."""

import datetime

import pytest

from doko.sample_sheets import full_match
from scoring import selectors, services
from scoring.models import Scoresheet
from scoring.selectors import ConfirmedHow, DeskState, desk_state
from scoring.services import Actor
from tests import factories
from tournaments import services as tournament_services
from tournaments.models import Round, SheetKeeping

pytestmark = pytest.mark.django_db


def read(round_):
    return selectors.desk_read(round=Round.objects.select_related("tournament").get(pk=round_.pk))


def by_table(desk):
    return {row.number: row for row in desk.rows}


def test_each_table_is_in_its_state(desk_world):
    rows = by_table(read(desk_world.round))
    assert {number: row.state for number, row in rows.items()} == {
        1: DeskState.EMPTY,
        2: DeskState.TYPING,
        3: DeskState.HANDED_IN,
        4: DeskState.CONFIRMED,
        5: DeskState.COMPLAINT,
        6: DeskState.SECOND_ENTRY,
        7: DeskState.SETTLE,
        8: DeskState.CONFIRMED,
    }


def test_the_tables_come_in_the_order_the_desk_attends_to_them(desk_world):
    assert [row.number for row in read(desk_world.round).rows] == [7, 5, 3, 6, 2, 1, 4, 8]


def test_the_counts_cover_every_state(desk_world):
    desk = read(desk_world.round)
    assert desk.counts == {
        DeskState.SETTLE: 1,
        DeskState.COMPLAINT: 1,
        DeskState.HANDED_IN: 1,
        DeskState.SECOND_ENTRY: 1,
        DeskState.TYPING: 1,
        DeskState.EMPTY: 1,
        DeskState.CONFIRMED: 2,
    }
    assert desk.total == 8
    assert [row.number for row in desk.of(DeskState.CONFIRMED)] == [4, 8]


def test_a_row_says_what_the_desk_needs_to_know(desk_world):
    rows = by_table(read(desk_world.round))
    assert rows[2].hands == 5
    assert rows[2].hands_per_match == 24
    assert rows[2].last.action == "hands"
    assert "(seat 4)" in rows[2].last.by
    assert rows[3].last.action == "submit"
    assert rows[5].complaints == 1
    assert rows[6].second_entry.hands == 5
    assert rows[6].second_entry.by == "Zora Zweit"
    assert rows[7].differences == (7,)
    assert rows[4].confirmed_how == ConfirmedHow.TABLE
    assert rows[8].confirmed_how == ConfirmedHow.DOUBLE_ENTRY
    assert rows[8].last.by == "Zora Zweit"
    assert len(rows[1].players) == 4
    assert rows[1].last is None
    assert all(not row.time_over and row.time.ends_at for row in rows.values())


def test_a_sheet_confirmed_from_the_signed_sheet_says_so(sheet):
    tournament = sheet.table.round.tournament
    tournament.sheet_keeping = SheetKeeping.PAPER
    tournament.save()
    organiser = factories.user()
    factories.role_grant(tournament=tournament, user=organiser, role="organiser")
    sheet = Scoresheet.objects.select_related("table__round__tournament").get(pk=sheet.pk)
    sheet = services.scoresheet_hands_replace(
        scoresheet=sheet, hands=full_match(), version=sheet.version, by=Actor(user=organiser)
    )
    services.scoresheet_confirm(
        scoresheet=sheet, version=sheet.version, by=Actor(user=organiser), from_signed_sheet=True
    )
    (row,) = read(sheet.table.round).rows
    assert (row.state, row.confirmed_how) == (DeskState.CONFIRMED, ConfirmedHow.SIGNED_SHEET)


def test_a_sheet_sent_back_says_why_while_it_is_typed_again(sheet):
    services.scoresheet_hands_replace(
        scoresheet=sheet, hands=full_match(), version=sheet.version, by=factories.keeper(sheet)
    )
    sheet.refresh_from_db()
    sheet = services.scoresheet_submit(
        scoresheet=sheet, version=sheet.version, by=factories.keeper(sheet)
    )
    services.scoresheet_return(
        scoresheet=sheet, version=sheet.version, by=factories.checker(sheet), reason="Hand 7"
    )
    (row,) = read(sheet.table.round).rows
    assert (row.state, row.sent_back, row.last.action) == (DeskState.TYPING, "Hand 7", "return")


# The precedence, where several states hold (DeskState's order) ----------------------------------


def state(**facts):
    return desk_state(
        **{
            "status": "draft",
            "hands": 0,
            "complaints": 0,
            "double_entry": False,
            "differences": False,
            **facts,
        }
    )


def test_differences_to_settle_come_before_a_complaint():
    facts = {"status": "submitted", "double_entry": True, "differences": True, "complaints": 1}
    assert state(**facts) == DeskState.SETTLE


@pytest.mark.parametrize("status", ["draft", "submitted", "confirmed"])
def test_a_complaint_open_comes_before_the_sheets_own_state(status):
    assert state(status=status, hands=24, complaints=1) == DeskState.COMPLAINT


def test_without_double_entry_a_difference_noted_earlier_settles_nothing():
    facts = {"status": "submitted", "double_entry": False, "differences": True}
    assert state(**facts) == DeskState.HANDED_IN


def test_a_handed_in_sheet_checked_by_double_entry_waits_for_the_second_entry():
    assert state(status="submitted", double_entry=True) == DeskState.SECOND_ENTRY


def test_a_draft_is_being_typed_once_it_has_a_hand():
    assert (state(hands=1), state(hands=0)) == (DeskState.TYPING, DeskState.EMPTY)


def test_a_table_without_a_sheet_has_no_hand_yet():
    assert state(status=None) == DeskState.EMPTY


def test_differences_of_an_earlier_handing_in_are_not_to_settle(desk_world):
    """Sent back and handed in again, the sheet waits for a new comparison."""
    sheet = desk_world.sheets[7]
    desk = Actor(user=desk_world.organiser)
    sheet = services.scoresheet_return(
        scoresheet=sheet, version=sheet.version, by=desk, reason="Hand 7 as on paper"
    )
    services.scoresheet_submit(scoresheet=sheet, version=sheet.version, by=desk)
    row = by_table(read(desk_world.round))[7]
    assert (row.state, row.differences) == (DeskState.SECOND_ENTRY, ())


# The playing time -------------------------------------------------------------------------------


def test_after_the_end_a_table_with_extra_time_plays_on_until_its_own_end(sheet):
    round_ = sheet.table.round
    adjudicator = factories.adjudicator(round_.tournament)
    tournament_services.table_extra_time_grant(
        table=sheet.table, minutes=10, reason="Complaint", by=adjudicator
    )
    ended = tournament_services.round_end(round=round_, by=adjudicator).ended_at
    desk = read(round_)
    (row,) = desk.rows
    assert not row.time_over
    assert row.time.extra_minutes == 10
    assert desk.valid_until == ended + datetime.timedelta(minutes=10)


def test_after_the_end_a_table_without_extra_time_is_over(sheet):
    round_ = sheet.table.round
    factories.round_end(round_)
    desk = read(round_)
    assert desk.rows[0].time_over
    assert desk.valid_until is None


# Queries ----------------------------------------------------------------------------------------


def _round_of(tables: int):
    tournament = factories.tournament(players=4 * tables, seating_method="random")
    round_ = factories.seated_round(tournament)
    tournament_services.round_start(round=round_)
    sheets = list(Scoresheet.objects.filter(table__round=round_).order_by("table__number"))
    for sheet in sheets[:2]:
        services.scoresheet_hands_replace(
            scoresheet=sheet,
            hands=full_match()[:4],
            version=sheet.version,
            by=factories.keeper(sheet),
        )
    return Round.objects.select_related("tournament").get(pk=round_.pk)


@pytest.mark.parametrize("tables", [4, 40])
def test_the_desk_is_read_in_two_queries_whatever_the_size(tables, django_assert_num_queries):
    round_ = _round_of(tables)
    with django_assert_num_queries(2):
        desk = selectors.desk_read(round=round_)
    assert desk.total == tables
