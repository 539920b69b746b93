"""What a scorekeeper sees when a request of the sheet page fails (static/js/errors.js): the
venue's Wi-Fi drops, or the link's limit is used up. The page says so above the sheet instead
of doing nothing, and nothing is saved behind their back. (Where the browser keeps hands for
later, a save while the connection is down waits instead: tests/browser/test_offline_entry.py.)"""

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from scoring.models import Scoresheet

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def keeper_link(sheet: Scoresheet) -> str:
    return reverse("scoring:sheet-link", args=[sheet.table.seats.get(position=4).token])


def type_hand(page, value: str, plus: str) -> None:
    page.get_by_label("Value", exact=True).fill(value)
    page.get_by_label("Value", exact=True).press("Tab")
    page.keyboard.type(plus)


def test_without_storage_a_lost_connection_is_shown_and_the_hand_is_saved_once_it_is_back(
    sheet, page
):
    """In a browser without IndexedDB the page is the plain one: nothing is kept for later
    (static/js/offline-queue.js stays out), errors.js says the connection is lost, and the
    typing stays in the row to be saved again (tests/browser/test_offline_entry.py: with it)."""
    page.add_init_script("delete window.indexedDB; window.indexedDB = undefined;")
    page.goto(keeper_link(sheet))
    warning = page.locator("#request-error")
    expect(warning).to_be_hidden()
    type_hand(page, "3", "13")
    expect(page.locator("#preview-ok")).to_be_visible()

    page.context.set_offline(True)
    page.keyboard.press("Enter")
    expect(warning).to_be_visible()
    expect(warning).to_contain_text("No connection to the server")
    assert sheet.hands.count() == 0

    page.context.set_offline(False)
    page.keyboard.press("Enter")
    expect(page.locator("#hand-1")).to_be_visible()
    expect(warning).to_be_hidden()
    assert sheet.hands.count() == 1


def settled(page, pending: set) -> None:
    """Wait until no request of the page is under way (the live checks come in late)."""
    for _ in range(200):
        if not pending:
            return
        page.wait_for_timeout(50)
    raise AssertionError(f"requests still under way: {pending}")


def test_a_link_over_its_limit_says_to_wait_and_saves_nothing(sheet, page, settings):
    # One write a day: the limit's windows are fixed (limits.windows), and with one a minute the
    # live checks typed across a minute's turn fell into two windows and were both let through.
    settings.SEAT_LINK_RATE = "1/day"
    pending = set()
    page.on("request", lambda request: pending.add(request))
    page.on("requestfinished", lambda request: pending.discard(request))
    page.on("requestfailed", lambda request: pending.discard(request))
    page.goto(keeper_link(sheet))
    type_hand(page, "3", "13")
    warning = page.locator("#request-error")
    expect(warning).to_contain_text("Too many requests through this link")
    with page.expect_response(lambda response: response.url.endswith("/save/")) as saved:
        page.keyboard.press("Enter")
    assert saved.value.status == 429
    settled(page, pending)
    expect(warning).to_be_visible()
    expect(page.locator("#hand-1")).to_have_count(0)
    assert sheet.hands.count() == 0
    warning.get_by_role("button", name="Close").click()
    expect(warning).to_be_hidden()
