"""The tournament desk types a signed paper sheet in a real browser (TSR 7.3.4, 8.5.2).

The organiser, alone at the desk, types the whole 24-hand sheet of a table the quick way with
the keyboard alone (as a scorekeeper does on his phone: the game value, Tab, the seats that
scored plus, Enter), then hands it in and confirms it from the players' signatures in one step,
still by keyboard: with the match complete the focus is on "Hand in and confirm from the signed
sheet", Enter asks once with the totals, Enter again confirms. The test prints the keystrokes.
"""

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from scoring.models import Scoresheet, ScoresheetChange
from tests import factories
from tests.browser.test_organiser_day import log_in
from tests.browser.test_scoresheet import COMPULSORY_SOLO, Keys, enter_quick, match
from tournaments import services as tournament_services

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def desk_sheet():
    organiser = factories.user(username="leitung", first_name="Jörg", last_name="Öztürk")
    tournament = factories.tournament(players=4, organiser=organiser)
    round_ = factories.seated_round(tournament)
    tournament_services.round_start(round=round_)
    return Scoresheet.objects.get(table__round=round_), organiser


def test_the_desk_types_a_paper_sheet_and_confirms_it_from_the_signatures_by_keyboard(
    desk_sheet, page, record_property
):
    sheet, organiser = desk_sheet
    hands = match()
    log_in(page, organiser.username, "a-long-test-password")
    table = sheet.table
    page.goto(
        reverse(
            "scoring:sheet", args=[table.round.tournament.slug, table.round.number, table.number]
        )
    )
    keys = Keys(page)
    typed = {}
    for number, hand in enumerate(hands, start=1):
        before = keys.count
        enter_quick(page, keys, number, hand)
        typed[number] = keys.count - before
    expect(page.get_by_text("The match is complete.")).to_be_visible()

    signed = page.get_by_role("link", name="Hand in and confirm from the signed sheet")
    expect(signed).to_be_focused()
    keys.press("Enter")
    step = page.locator("#sheet-step")
    expect(step.get_by_text("Confirm from the signed paper sheet?")).to_be_visible()
    expect(step.locator("tbody tr")).to_have_count(4)
    yes = step.get_by_role("button", name="Yes, the signed sheet says so")
    expect(yes).to_be_focused()
    keys.press("Enter")
    expect(page.locator("#sheet-step")).to_have_count(0)
    expect(page.get_by_text("from the signed paper sheet")).to_be_visible()

    sheet.refresh_from_db()
    assert (sheet.status, sheet.confirmation) == ("confirmed", "signed_sheet")
    assert sheet.submitted_by == sheet.confirmed_by == organiser
    assert sheet.hands.count() == len(hands) == 24
    assert list(sheet.changes.order_by("-version").values_list("action", flat=True)[:2]) == [
        ScoresheetChange.Action.CONFIRM_SIGNED,
        ScoresheetChange.Action.SUBMIT,
    ]

    record_property("desk_keystrokes_sheet", keys.count)
    record_property("desk_keystrokes_normal_hand", typed[1])
    print(
        f"\nDesk keystrokes: {keys.count} for the 24-hand paper sheet typed and confirmed "
        f"from the signed sheet ({typed[1]} for a normal hand, {typed[COMPULSORY_SOLO]} for "
        f"the compulsory solo, 2 to hand in and confirm)"
    )
