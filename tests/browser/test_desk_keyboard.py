"""A whole paper sheet with double entry at the desk, by keyboard alone (issue 47; TSR 7.3.4,
8.5.2).

Two members of the desk type the same signed paper sheet, each on a page of his own, with
``page.keyboard`` only (no click, no ``fill``, no ``focus``): Olga types it first and hands it
in, then Zoë types it again blind and compares it with the first entry, which confirms it.

What is counted (``Keys``): every key press and every character typed from the desk's page on,
one each, including Tab, Enter and the letters that pick a contract in a drop-down. Logging in
is not counted (it is the same on every page, done once a day). For each member:

- the *hand keys*: what ``enter_quick`` types for the 24 hands (the value, Tab, the plus seats,
  for a solo Tab and the first letters of the contract and solo type, and Enter to save),
  as ``test_scoresheet`` counts them;
- the *way keys*: everything else: opening the sheet from the desk ("1", Enter) and handing it
  in (Olga: Enter on "Hand in the scoresheet", Enter on "Yes, hand it in") or comparing it
  (Zoë: Enter on "Compare with the first entry").

Each member's keys for the whole sheet, hand and way keys together, are at most 160; the way
keys at most 5 each, so no Tab walk through the page's links is ever needed: after every step
the focus is where the next one is done.
"""

import pytest
from django.urls import reverse
from playwright.sync_api import Page, expect

from scoring.models import Scoresheet
from tests import factories
from tests.browser.test_organiser_day import log_in
from tests.browser.test_scoresheet import Keys, enter_quick, match
from tournaments import services as tournament_services
from tournaments.models import SheetKeeping, TournamentRole

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

MOST_KEYS = 160  # a member's keys for a whole 24-hand sheet
MOST_WAY_KEYS = 5  # of them, the keys that are not the hands' (opening, handing in, comparing)


@pytest.fixture
def paper_round():
    """A paper tournament checked by double entry, its first round started: Olga organises it,
    Zoë is the second member of the desk."""
    organiser = factories.user(username="olga", first_name="Olga", last_name="Organ")
    tournament = factories.tournament(
        players=4, organiser=organiser, sheet_keeping=SheetKeeping.PAPER, double_entry=True
    )
    zoe = factories.user(username="zoe", first_name="Zoë", last_name="Zweig")
    factories.role_grant(tournament=tournament, user=zoe, role=TournamentRole.Role.SCOREKEEPER)
    round_ = factories.seated_round(tournament)
    tournament_services.round_start(round=round_)
    return Scoresheet.objects.get(table__round=round_)


def open_from_the_desk(page: Page, keys: Keys, slug: str) -> None:
    """From the desk's page, its "Table number" field focused: table 1's sheet."""
    page.goto(reverse("scoring:desk", args=[slug, 1]))
    expect(page.locator("#desk-table")).to_be_focused()
    keys.type("1")
    keys.press("Enter")


def type_the_sheet(page: Page, keys: Keys) -> int:
    """The 24 hands of the paper sheet; the keys they took."""
    before = keys.count
    for number, hand in enumerate(match(), start=1):
        enter_quick(page, keys, number, hand)
    expect(page.get_by_text("The match is complete.")).to_be_visible()
    return keys.count - before


def test_two_members_of_the_desk_type_a_sheet_with_double_entry_by_keyboard_alone(
    paper_round, new_page, record_property
):
    sheet = paper_round
    slug = sheet.table.round.tournament.slug

    # The first entry: typed, then handed in with Enter, Enter.
    olga = new_page()
    log_in(olga, "olga", "a-long-test-password")
    first = Keys(olga)
    open_from_the_desk(olga, first, slug)
    first_hands = type_the_sheet(olga, first)
    hand_in = olga.get_by_role("link", name="Hand in the scoresheet")
    expect(hand_in).to_be_focused()
    first.press("Enter")
    step = olga.locator("#sheet-step")
    expect(step.get_by_text("Hand in the scoresheet?")).to_be_visible()
    yes = step.get_by_role("button", name="Yes, hand it in")
    expect(yes).to_be_focused()
    first.press("Enter")
    expect(olga.locator("#sheet-step")).to_have_count(0)
    expect(olga.locator("#double-entry")).to_be_visible()
    sheet.refresh_from_db()
    assert sheet.status == Scoresheet.Status.SUBMITTED

    # The second entry: another member of the desk, blind, then compared with Enter.
    zoe = new_page()
    log_in(zoe, "zoe", "a-long-test-password")
    second = Keys(zoe)
    open_from_the_desk(zoe, second, slug)
    expect(zoe).to_have_url(reverse("scoring:sheet-second", args=[slug, 1, 1]), ignore_case=True)
    second_hands = type_the_sheet(zoe, second)
    compare = zoe.get_by_role("button", name="Compare with the first entry")
    expect(compare).to_be_focused()
    second.press("Enter")
    expect(
        zoe.get_by_text("Both entries agree: the scoresheet of table 1 is confirmed.")
    ).to_be_visible()
    sheet.refresh_from_db()
    assert sheet.status == Scoresheet.Status.CONFIRMED

    first_way, second_way = first.count - first_hands, second.count - second_hands
    record_property("desk_double_entry_keys_first", first.count)
    record_property("desk_double_entry_keys_second", second.count)
    print(
        f"\nDouble entry by keyboard: {first.count} keys for the first entry "
        f"({first_hands} for the hands, {first_way} to open and hand it in), {second.count} for "
        f"the second ({second_hands} for the hands, {second_way} to open and compare it)"
    )
    assert first_way <= MOST_WAY_KEYS
    assert second_way <= MOST_WAY_KEYS
    assert first.count <= MOST_KEYS
    assert second.count <= MOST_KEYS


def test_the_rows_other_controls_are_reached_with_the_tab_key(paper_round, page):
    """The dealer, "his left neighbour dealt for him" and the way of entering a hand come before
    the hand's fields, as they are shown: Shift+Tab from the value reaches them, and an arrow key
    in the switch changes the way and puts the keyboard in its first field."""
    sheet = paper_round
    log_in(page, "olga", "a-long-test-password")
    page.goto(reverse("scoring:sheet", args=[sheet.table.round.tournament.slug, 1, 1]))
    row = page.locator("#entry-row")
    expect(row.get_by_label("Value", exact=True)).to_be_focused()
    page.keyboard.press("Shift+Tab")
    expect(row.get_by_role("radio", name="Quick")).to_be_focused()
    page.keyboard.press("Shift+Tab")
    expect(row.get_by_role("checkbox")).to_be_focused()
    page.keyboard.press("Shift+Tab")
    expect(row.get_by_label("dealt by seat")).to_be_focused()
    for _ in range(2):
        page.keyboard.press("Tab")
    page.keyboard.press("ArrowRight")
    expect(row.get_by_role("radio", name="Calculator")).to_be_checked()
    expect(row.get_by_label("Re seats")).to_be_focused()
