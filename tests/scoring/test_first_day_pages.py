"""A club's first day at the scoresheet (issue 32): the numbering every viewer sees, the sheet
whose lines are all written, the calculator's row and a wedding after a solo, on the page and
through the seats' links (TSR 4.4, 7.2, 7.3, 8.5.1)."""

import re

import pytest
from django.urls import reverse

from scoring import services
from scoring.models import Scoresheet
from scoring.services import Actor
from tests import factories
from tests.sheets import full_match
from tournaments import services as tournament_services

pytestmark = pytest.mark.django_db

HX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture(autouse=True)
def english(client):
    client.cookies["django_language"] = "en"


def running_sheet(players: int = 4, **fields) -> Scoresheet:
    tournament = factories.tournament(players=players, **fields)
    round_ = factories.seated_round(tournament)
    tournament_services.round_start(round=round_)
    return Scoresheet.objects.select_related("table__round__tournament").get(table__round=round_)


@pytest.fixture
def sheet() -> Scoresheet:
    return running_sheet()


def link(sheet, position, action=""):
    token = sheet.table.seats.get(position=position).token
    return reverse("sheet-link" + (f"-{action}" if action else ""), args=[token])


def typed(sheet, hands) -> Scoresheet:
    sheet.refresh_from_db()
    return services.scoresheet_hands_replace(
        scoresheet=sheet, hands=hands, version=sheet.version, by=factories.keeper(sheet)
    )


def numbers(page: str) -> list[int]:
    """The hand numbers down the sheet's first column: the lines written, the entry row, and
    the lines still to come."""
    found = re.findall(
        r'<tr id="hand-(\d+)"|<strong data-offline-number>Hand (\d+)<|'
        r'data-offline-placeholder="(\d+)"',
        page,
    )
    return [int(next(group for group in groups if group)) for groups in found]


# 1. Every viewer sees the hands numbered 1 to 24 (30 at five) ---------------------------------


@pytest.mark.parametrize("position", [1, 2, 3, 4])
def test_every_seat_sees_an_empty_sheet_numbered_1_to_24(client, sheet, position):
    assert numbers(client.get(link(sheet, position)).content.decode()) == list(range(1, 25))


@pytest.mark.parametrize("position", [1, 4])
def test_after_one_hand_every_seat_sees_the_next_line_as_2(client, sheet, position):
    typed(sheet, full_match()[:1])
    assert numbers(client.get(link(sheet, position)).content.decode()) == list(range(1, 25))


def test_a_player_who_confirms_sees_a_table_of_five_numbered_1_to_30(client):
    sheet = running_sheet(players=5, allow_tables_of_five=True)
    typed(sheet, full_match(size=5)[:3])
    assert numbers(client.get(link(sheet, 1)).content.decode()) == list(range(1, 31))
    assert numbers(client.get(link(sheet, 5)).content.decode()) == list(range(1, 31))


# 4. Once every line is written, no entry row; what comes next, and who does it -------------


def test_a_full_sheet_shows_no_row_for_hand_25_and_the_keeper_is_told_to_hand_it_in(
    client, sheet
):
    typed(sheet, full_match())
    page = client.get(link(sheet, 4)).content.decode()
    assert 'id="entry-row"' not in page
    assert "Hand 25" not in page
    assert numbers(page) == list(range(1, 25))
    assert "The match is complete." in page
    assert "Check the totals and hand the scoresheet in below" in page
    assert "Hand in the scoresheet" in page
    # A hand is still corrected in its own row.
    page = client.get(link(sheet, 4) + "?edit=24").content.decode()
    assert 'id="entry-row"' in page
    assert "Hand 24" in page


def test_a_player_who_confirms_is_told_who_hands_the_full_sheet_in(client, sheet):
    typed(sheet, full_match())
    page = client.get(link(sheet, 1)).content.decode()
    keeper = sheet.table.seats.get(position=4).entry.name
    assert (
        f"The scorekeeper, seat 4 ({keeper}), hands the scoresheet in; then you or another "
        "player of the table confirm it here (TSR 7.3.2)."
    ) in page


def test_a_handed_in_sheet_tells_the_player_to_confirm_it_and_the_keeper_who_does(
    client, sheet
):
    sheet = typed(sheet, full_match())
    services.scoresheet_submit(scoresheet=sheet, version=sheet.version, by=factories.keeper(sheet))
    assert "check the totals and confirm it below" in client.get(link(sheet, 1)).content.decode()
    page = client.get(link(sheet, 4)).content.decode()
    assert "Handed in; another player of the table or a member of staff confirms it." in page


def test_a_full_row_saved_through_htmx_leaves_no_row_for_the_next_hand(client, sheet):
    typed(sheet, full_match()[:23])
    sheet.refresh_from_db()
    last = full_match()[23]
    row = {
        "mode": "raw",
        "number": 24,
        "version": sheet.version,
        "contract": str(last.contract),
        "soloist": last.soloist or "",
        "solo_type": str(last.solo_type or ""),
        **{f"points_{seat}": points for seat, points in last.points.items()},
    }
    response = client.post(link(sheet, 4, "save"), row, **HX)
    assert response.status_code == 200, response.content.decode()
    page = response.content.decode()
    assert 'id="hand-24"' in page
    assert 'id="entry-row"' not in page
    assert "The match is complete." in page


def test_a_sheet_ended_early_shows_no_row_and_can_be_handed_in(client, sheet):
    tournament = sheet.table.round.tournament
    organiser = factories.organiser(tournament)
    sheet = typed(sheet, full_match()[:10])
    services.scoresheet_end_early(
        scoresheet=sheet, version=sheet.version, reason="Seat 2 fell ill", by=Actor(user=organiser)
    )
    page = client.get(link(sheet, 4)).content.decode()
    assert 'id="entry-row"' not in page
    assert numbers(page) == list(range(1, 11))
    assert "Hand in the scoresheet" in page
    assert "Check the totals and hand the scoresheet in below" in page


def test_the_german_page_says_what_comes_after_the_last_line(client, sheet):
    typed(sheet, full_match())
    client.cookies["django_language"] = "de"
    page = client.get(link(sheet, 1)).content.decode()
    assert "Die Spielrunde ist vollständig." in page
    assert "Der Listenführer, Position 4" in page
    page = client.get(link(sheet, 4)).content.decode()
    assert "Prüfen Sie die Summen und geben Sie die Spielliste unten ab" in page
