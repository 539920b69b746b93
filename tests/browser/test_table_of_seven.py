"""A club evening of seven at one table (TSR 10), in a real browser: the keeper, seat 7, enters
hands with those sitting out left out (the dealer and the two to his left), one the quick way
and one as points; the rest of the sheet is written, handed in and confirmed, and the standings
rank all seven."""

import random

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from doko.simulation import simulate_match
from scoring.models import Scoresheet
from tests import factories
from tournaments import services
from tournaments.models import Round

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_table_of_seven_enters_hands_without_those_sitting_out_and_is_ranked(page):
    tournament = factories.tournament(
        players=7, planned_rounds=1, allow_tables_of_six_and_seven=True, name="Clubabend"
    )
    round_ = services.round_start(round=factories.seated_round(tournament))
    sheet = Scoresheet.objects.get(table__round=round_)
    assert sheet.table.seats.count() == 7
    keeper = sheet.table.seats.get(position=7)  # the last seat keeps the sheet (TSR 10.1.4)

    page.goto(reverse("scoring:sheet-link", args=[keeper.token]))
    expect(page.get_by_text("You keep the scoresheet")).to_be_visible()
    # Hand 1, seat 1 deals: seats 1 to 3 sit out, seats 4 and 5 win a normal game of 2.
    expect(page.get_by_label("Value", exact=True)).to_be_focused()
    page.keyboard.type("2")
    page.keyboard.press("Tab")
    page.keyboard.type("45")
    expect(page.locator("#preview-ok")).to_be_visible()
    page.keyboard.press("Enter")
    expect(page.locator("#hand-1")).to_be_visible()

    # Hand 2, seat 2 deals: seats 2 to 4 sit out and have no field to type in; seats 1 and 6
    # win a normal game of 1, typed as points.
    page.locator("#entry-row").get_by_text("Points", exact=True).click()
    for seat in (2, 3, 4):
        field = page.get_by_label(f"Seat {seat}", exact=True)
        expect(field).to_be_disabled()
        expect(field).to_have_attribute("placeholder", "sits out")
    expect(page.get_by_label("Seat 1", exact=True)).to_be_focused()
    page.keyboard.type("1")
    for points in ("-1", "1", "-1"):  # Tab passes over those sitting out: seats 5, 6, 7
        page.keyboard.press("Tab")
        page.keyboard.type(points)
    expect(page.locator("#preview-ok")).to_be_visible()
    page.keyboard.press("Enter")
    expect(page.locator("#hand-2")).to_be_visible()
    sheet.refresh_from_db()
    assert [hand.points for hand in sheet.hands.order_by("number")] == [
        {1: 0, 2: 0, 3: 0, 4: 2, 5: 2, 6: -2, 7: -2},
        {1: 1, 2: 0, 3: 0, 4: 0, 5: -1, 6: 1, 7: -1},
    ]

    # The rest of the round (42 hands, TSR 10 as the manual reads it), confirmed by seat 1.
    hands = simulate_match(rng=random.Random(7), table_size=7, hands_per_match=42)
    factories.sheet_confirmed(sheet, hands)
    round_.refresh_from_db()
    assert round_.status == Round.Status.CLOSED  # closed by its last sheet's confirm
    page.goto(reverse("tournaments:standings", args=[tournament.slug]))
    rows = page.locator("#standings tbody tr")
    expect(rows).to_have_count(7)
    expect(page.locator("#standings")).to_contain_text("1.")
