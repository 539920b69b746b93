"""Entry that survives a dropped connection (static/js/offline-queue.js, static/js/sw.js).

The hall's Wi-Fi drops: the hands the scorekeeper types meanwhile wait in the browser, survive a
reload (the service worker serves the page as last loaded), and go out by themselves, in order,
once the connection is back. When another device changed the sheet meanwhile, the clash is shown
hand by hand and nothing is overwritten until the person decides.
"""

import pytest
from django.test import Client
from django.urls import reverse
from playwright.sync_api import Page, expect

from scoring.models import Scoresheet
from tests import factories

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def keeper_link(sheet: Scoresheet) -> str:
    return reverse("scoring:sheet-link", args=[sheet.table.seats.get(position=4).token])


def enter(page: Page, number: int, value: int, plus: str) -> None:
    """Type hand ``number`` the quick way (value, Tab, plus seats, Enter)."""
    row = page.locator("#entry-row")
    expect(row).to_contain_text(f"Hand {number}")
    expect(page.get_by_label("Value", exact=True)).to_be_focused()
    page.keyboard.type(str(value))
    page.keyboard.press("Tab")
    page.keyboard.type(plus)
    page.keyboard.press("Enter")


def saved(sheet: Scoresheet) -> list[tuple[int, dict]]:
    return [(hand.number, hand.points) for hand in sheet.hands.order_by("number")]


STORED = """() => new Promise((resolve, reject) => {
    const opening = indexedDB.open("doko-offline");
    opening.onerror = () => reject(opening.error);
    opening.onsuccess = () => {
        const request = opening.result.transaction("hands").objectStore("hands").getAll();
        request.onsuccess = () => resolve(request.result.map((entry) => entry.number));
    };
})"""


def stored(page: Page) -> list[int]:
    """The numbers of the hands waiting in the browser's storage, in the order typed."""
    return page.evaluate(STORED)


KEPT_COPY = """async (id) => {
    const cache = await caches.open("doko-pages-v2");
    const kept = await cache.match(location.pathname, {ignoreVary: true});
    return Boolean(kept) && (await kept.text()).includes(`id="${id}"`);
}"""


def kept_copy_shows(page: Page, element_id: str) -> None:
    """Wait until the service worker's copy of the page shows the element (it fetches the
    page again after each change of the sheet)."""
    for _ in range(100):
        if page.evaluate(KEPT_COPY, element_id):
            return
        page.wait_for_timeout(50)
    raise AssertionError(f"the kept copy of the page never showed #{element_id}")


def test_hands_typed_offline_survive_a_reload_and_are_saved_in_order_without_a_click(
    sheet, page, saves_cut
):
    page.goto(keeper_link(sheet))
    enter(page, 1, 3, "13")
    expect(page.locator("#hand-1")).to_be_visible()
    kept_copy_shows(page, "hand-1")

    page.context.set_offline(True)
    for number, value, plus in [(2, 1, "24"), (3, 2, "12"), (4, 1, "34")]:
        enter(page, number, value, plus)
        expect(page.locator("#entry-row")).to_contain_text(f"Hand {number + 1}")
    waiting = page.locator("tr.offline-hand")
    expect(waiting).to_have_count(3)
    expect(waiting.first).to_contain_text("not sent yet")
    expect(page.locator("#offline-queue")).to_contain_text(
        "3 hands are kept on this device, not sent yet. Each is sent by itself, in order"
    )
    expect(page.locator("#request-error")).to_be_hidden()
    # The line above the sheet counts the hands waiting too (it stayed at 23 of 24 before).
    expect(page.locator("#next-hand")).to_have_text(
        "Next hand: seat 1 deals; 20 of 24 hands remain, compulsory solos included."
    )
    assert len(saved(sheet)) == 1

    # Chromium does not pass its emulated offline state on to a page loaded while offline
    # (navigator.onLine reads true there, and a request may slip through): the saves are cut
    # on the server too until the network is back, and the reloaded page is told the state
    # again.
    saves_cut.cut = True
    response = page.reload()
    assert response is not None
    assert response.from_service_worker  # the page as the worker kept it
    page.context.set_offline(False)
    page.context.set_offline(True)
    expect(waiting).to_have_count(3)
    expect(page.locator("#hand-1")).to_be_visible()
    expect(page.locator("#entry-row")).to_contain_text("Hand 5")
    expect(page.locator("#next-hand")).to_contain_text("20 of 24 hands remain")
    assert len(saved(sheet)) == 1
    assert stored(page) == [2, 3, 4]

    saves_cut.cut = False
    page.context.set_offline(False)
    expect(page.locator("#hand-4")).to_be_visible()
    expect(waiting).to_have_count(0)
    expect(page.locator("#offline-queue")).to_be_hidden()
    expect(page.locator("#entry-row")).to_contain_text("Hand 5")
    assert stored(page) == []
    assert saved(sheet) == [
        (1, {1: 3, 2: -3, 3: 3, 4: -3}),
        (2, {1: -1, 2: 1, 3: -1, 4: 1}),
        (3, {1: 2, 2: 2, 3: -2, 4: -2}),
        (4, {1: -1, 2: -1, 3: 1, 4: 1}),
    ]
    sheet.refresh_from_db()
    assert sheet.version == 5  # one change per hand, none sent twice


def test_a_change_from_another_device_is_shown_hand_by_hand_and_nothing_is_overwritten(sheet, page):
    page.goto(keeper_link(sheet))
    enter(page, 1, 3, "13")
    expect(page.locator("#hand-1")).to_be_visible()

    page.context.set_offline(True)
    enter(page, 2, 1, "24")
    enter(page, 3, 2, "12")
    expect(page.locator("tr.offline-hand")).to_have_count(2)

    # Meanwhile the desk types hand 2 from the paper sheet, differently.
    desk = Client()
    desk.force_login(factories.adjudicator(sheet.table.round.tournament))
    table = sheet.table
    address = reverse(
        "scoring:sheet-save", args=[table.round.tournament.slug, table.round.number, 1]
    )
    sheet.refresh_from_db()
    answer = desk.post(
        address,
        {
            "mode": "quick",
            "number": 2,
            "version": sheet.version,
            "contract": "normal",
            "game_value": 2,
            "plus_seats": "14",
        },
    )
    assert answer.status_code == 302

    page.context.set_offline(False)
    clash = page.locator("#offline-queue")
    expect(clash).to_contain_text("Someone else changed this scoresheet")
    cards = clash.locator(".card")
    expect(cards).to_have_count(2)
    expect(cards.nth(0)).to_contain_text("You typed as hand 2")
    expect(cards.nth(0)).to_contain_text("The sheet's hand 2 now")
    expect(cards.nth(1)).to_contain_text("The sheet has no hand 3.")
    expect(page.locator("tr.offline-hand")).to_have_count(2)
    assert saved(sheet)[1] == (2, {1: 2, 2: -2, 3: -2, 4: 2})  # the desk's, kept
    assert len(saved(sheet)) == 2
    assert stored(page) == [2, 3]  # both still wait for the person

    cards.nth(0).get_by_role("button", name="Add mine as the next hand (3)").click()
    expect(cards).to_have_count(1)
    expect(page.locator("tr.offline-hand")).to_have_count(1)
    assert stored(page) == [3]
    assert saved(sheet) == [
        (1, {1: 3, 2: -3, 3: 3, 4: -3}),
        (2, {1: 2, 2: -2, 3: -2, 4: 2}),
        (3, {1: -1, 2: 1, 3: -1, 4: 1}),
    ]
