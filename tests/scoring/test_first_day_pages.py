"""A club's first day at the scoresheet (issue 32): the numbering every viewer sees, the sheet
whose lines are all written, the calculator's row and a wedding after a solo, on the page and
through the seats' links (TSR 4.4, 7.2, 7.3, 8.5.1)."""

import re

import pytest
from django.urls import reverse

from doko.sample_sheets import full_match
from scoring import services
from scoring.models import Scoresheet
from scoring.services import Actor
from tests import factories
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
    return reverse("scoring:sheet-link" + (f"-{action}" if action else ""), args=[token])


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


def test_a_full_sheet_shows_no_row_for_hand_25_and_the_keeper_is_told_to_hand_it_in(client, sheet):
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


def test_a_handed_in_sheet_tells_the_player_to_confirm_it_and_the_keeper_who_does(client, sheet):
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


# 2. The calculator: nothing red before anything is typed; tricks only where they count ------


def calculator(number=1, version=1, **fields):
    return {"mode": "calculator", "number": number, "version": version, "contract": "normal"} | (
        fields
    )


def test_switching_to_the_calculator_shows_what_is_to_fill_in_and_no_error(client, sheet):
    page = client.post(link(sheet, 4, "check"), calculator(), **HX).content.decode()
    assert "text-danger" not in page
    assert "Still to fill in: Re seats, Re card points" in page
    assert "Re tricks" not in page  # needed only where a team took no card points


def test_a_value_typed_wrong_is_shown_at_once_what_is_not_typed_yet_is_not(client, sheet):
    page = client.post(
        link(sheet, 4, "check"), calculator(re_seats="13", re_card_points=250), **HX
    ).content.decode()
    assert "Re card points: Ensure this value is less than or equal to 240." in page
    assert "text-danger" in page


def test_the_calculator_saves_a_hand_without_the_trick_count(client, sheet):
    row = calculator(re_seats="13", re_card_points=130, re_announcement="team")
    page = client.post(link(sheet, 4, "check"), row, **HX).content.decode()
    assert "Game value 3" in page
    assert "correct by the TSR" in page
    response = client.post(link(sheet, 4, "save"), row, **HX)
    assert response.status_code == 200, response.content.decode()
    assert sheet.hands.get().points == {1: 3, 2: -3, 3: 3, 4: -3}


def test_the_trick_count_is_asked_for_only_where_a_team_took_no_card_points(client, sheet):
    row = calculator(re_seats="13", re_card_points=240)
    page = client.post(link(sheet, 4, "check"), row, **HX).content.decode()
    assert "text-danger" not in page
    assert "Re tricks: Contra took no card points: give Re&#x27;s tricks too" in page
    response = client.post(link(sheet, 4, "save"), row, **HX)
    assert response.status_code == 422
    assert "Contra took no card points: give Re&#x27;s tricks too" in response.content.decode()
    # Contra schwarz: won, under 90, 60, 30 and schwarz (TSR 7.2.2 a).
    row["re_tricks"] = 12
    page = client.post(link(sheet, 4, "check"), row, **HX).content.decode()
    assert "Game value 5" in page
    row["re_tricks"] = 11  # Contra took a trick of four nines: not schwarz
    page = client.post(link(sheet, 4, "check"), row, **HX).content.decode()
    assert "Game value 4" in page


def test_saving_a_row_left_empty_names_each_field_to_fill_in(client, sheet):
    response = client.post(link(sheet, 4, "save"), calculator(), **HX)
    assert response.status_code == 422
    page = response.content.decode()
    assert page.count("Fill in this field: the “Calculator” entry needs it.") == 2
    assert not sheet.hands.exists()


def test_the_german_calculator_asks_in_german(client, sheet):
    client.cookies["django_language"] = "de"
    page = client.post(link(sheet, 4, "check"), calculator(), **HX).content.decode()
    assert "Noch auszufüllen: Re-Positionen, Augen Re" in page
    response = client.post(link(sheet, 4, "save"), calculator(), **HX)
    assert "Bitte ausfüllen: Die Eingabe „Rechner“ braucht dieses Feld." in (
        response.content.decode()
    )


# 3. A wedding after a solo: a soloist left over is moot, and a correct wedding is saved ------


def after_a_solo(client, sheet) -> int:
    """Hand 1 a compulsory solo of seat 2, saved as the quick way does it; the version after."""
    row = {
        "mode": "quick",
        "number": 1,
        "version": 1,
        "contract": "compulsory_solo",
        "solo_type": "queens",
        "soloist": "2",
        "game_value": 2,
        "plus_seats": "2",
    }
    response = client.post(link(sheet, 4, "save"), row, **HX)
    assert response.status_code == 200, response.content.decode()
    page = response.content.decode()
    # The next row starts clean: no soloist, no solo, a normal game.
    row_html = page[page.index('id="entry-row"') :]
    assert re.search(r'<option value="2"\s+selected', row_html.split('name="soloist"')[1]) is None
    assert 'value="compulsory_solo" selected' not in row_html
    return 2


@pytest.mark.parametrize("mode", ["quick", "calculator", "raw"])
def test_a_wedding_with_a_soloist_left_over_is_saved_as_a_wedding(client, sheet, mode):
    version = after_a_solo(client, sheet)
    row = {
        "mode": mode,
        "number": 2,
        "version": version,
        "contract": "wedding",
        "soloist": "2",  # left over from the solo before
        "solo_type": "queens",
        "game_value": 1,
        "plus_seats": "13",
        "re_seats": "13",
        "re_card_points": 125,
        "points_1": 1,
        "points_2": -1,
        "points_3": 1,
        "points_4": -1,
    }
    page = client.post(link(sheet, 4, "check"), row, **HX).content.decode()
    assert "correct by the TSR" in page, page
    response = client.post(link(sheet, 4, "save"), row, **HX)
    assert response.status_code == 200, response.content.decode()
    hand = sheet.hands.get(number=2)
    assert (hand.contract, hand.soloist, hand.solo_type) == ("wedding", None, "")
    assert hand.points == {1: 1, 2: -1, 3: 1, 4: -1}


def test_a_wedding_played_alone_still_names_its_soloist(client, sheet):
    version = after_a_solo(client, sheet)
    row = {
        "mode": "quick",
        "number": 2,
        "version": version,
        "contract": "wedding",
        "soloist": "2",  # left over: the plus seats say seat 3 played alone
        "game_value": 2,
        "plus_seats": "3",
    }
    response = client.post(link(sheet, 4, "save"), row, **HX)
    assert response.status_code == 200, response.content.decode()
    hand = sheet.hands.get(number=2)
    assert (hand.contract, hand.soloist, hand.solo_type) == ("wedding", 3, "diamonds")
    assert hand.points == {1: -2, 2: -2, 3: 6, 4: -2}


def test_points_that_contradict_a_solo_are_still_refused(client, sheet):
    """A real contradiction stays an error: the plus seats of a solo name another soloist."""
    version = after_a_solo(client, sheet)
    row = {
        "mode": "quick",
        "number": 2,
        "version": version,
        "contract": "voluntary_solo",
        "solo_type": "jacks",
        "soloist": "1",
        "game_value": 2,
        "plus_seats": "2",
    }
    response = client.post(link(sheet, 4, "save"), row, **HX)
    assert response.status_code == 422
    assert "The plus seats make seat 2 the soloist, not seat 1." in response.content.decode()


def test_a_wedding_sent_by_the_offline_queue_with_a_soloist_left_over_is_saved(client, sheet):
    version = after_a_solo(client, sheet)
    row = {
        "mode": "quick",
        "number": 2,
        "version": version,
        "contract": "wedding",
        "soloist": "2",
        "game_value": 1,
        "plus_seats": "24",
    }
    response = client.post(link(sheet, 4, "save"), row, HTTP_ACCEPT="application/json")
    assert response.status_code == 200, response.content.decode()
    assert response.json()["hand"]["soloist"] is None
