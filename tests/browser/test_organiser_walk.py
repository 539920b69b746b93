"""The last walk through a club's first day as a new organiser (issue 32), on a phone and in
German: what that walk found, each kept from coming back."""

import pytest
from django.urls import reverse
from playwright.sync_api import Page, expect

from tests import factories
from tournaments import services

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}


def german_phone(new_page, username: str) -> Page:
    page = new_page(**PHONE, locale="de-DE")
    page.goto(reverse("login"))
    page.get_by_label("Benutzername").fill(username)
    page.get_by_label("Passwort").fill("a-long-test-password")
    page.get_by_role("button", name="Anmelden").click()
    expect(page.get_by_role("heading", name="Turniere")).to_be_visible()
    return page


def test_every_player_action_is_within_a_phones_width(new_page):
    """The players page on a phone: "Zurückziehen" and "Ersatzspieler" were cut off at the
    right edge of the table, to be found only by swiping the table sideways."""
    organiser = factories.user(username="leitung")
    tournament = factories.tournament(players=4, organiser=organiser)
    page = german_phone(new_page, "leitung")
    page.goto(reverse("tournaments:entries", args=[tournament.slug]))
    actions = (
        page.locator("#players td")
        .get_by_role("button")
        .or_(page.locator("#players td").get_by_role("link"))
    )
    expect(actions).to_have_count(4 * 3)
    for action in actions.all():
        box = action.bounding_box()
        assert box is not None
        assert box["x"] >= 0
        assert box["x"] + box["width"] <= 390, action.inner_text()


def test_a_link_buttons_text_is_centred_in_its_taller_phone_button(new_page):
    """On a phone every button is at least 44 px tall; a link styled as a button ("CSV",
    "PDF", "← Runde 1", "Bearbeiten") kept its text at the top of that height."""
    tournament = factories.tournament(players=4)
    page = new_page(**PHONE, locale="de-DE")
    page.goto(reverse("tournaments:standings", args=[tournament.slug]))
    link = page.get_by_role("link", name="CSV")
    offset = link.evaluate(
        """a => {
            const box = a.getBoundingClientRect();
            const range = document.createRange();
            range.selectNodeContents(a);
            const text = range.getBoundingClientRect();
            return Math.abs((box.top + box.bottom) / 2 - (text.top + text.bottom) / 2);
        }"""
    )
    assert link.bounding_box()["height"] >= 44
    assert offset <= 2


def test_the_rounds_table_fits_a_phone(new_page):
    """The tournament page on a phone in German: the rounds table ran past the screen's edge
    ("Bestäti…"), to be swiped sideways; the count of tables is in "Bestätigt" already."""
    tournament = factories.tournament(players=8, planned_rounds=2)
    # The longest status: "Spielzeit beendet".
    factories.round_end(services.round_start(round=factories.seated_round(tournament)))
    page = new_page(**PHONE, locale="de-DE")
    page.goto(reverse("tournaments:tournament", args=[tournament.slug]))
    table = page.get_by_role("table").filter(has_text="Bestätigt")
    expect(table.get_by_role("columnheader", name="Bestätigt")).to_be_visible()
    overflow = table.evaluate("t => t.parentElement.scrollWidth - t.parentElement.clientWidth")
    assert overflow <= 0
