"""The walk through issue 33 (online registration, check-in, personal links) on a phone and in
German: what that walk found, each kept from coming back."""

import datetime

import pytest
from django.urls import reverse
from django.utils import timezone
from playwright.sync_api import Page, expect

from registration.models import OnlineRegistration
from registration.services.registrations import registration_submit
from tests import factories

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


def test_every_registration_action_is_within_a_phones_width(new_page):
    """The organiser's registration page on a phone: "Platz geben", "Entfernen" and "Zurück auf
    die Warteliste" were right of the screen's edge, behind the club and the date, to be found
    only by swiping the tables sideways."""
    organiser = factories.user(username="leitung")
    tournament = factories.tournament(organiser=organiser)
    now = timezone.now()
    OnlineRegistration.objects.create(
        tournament=tournament,
        opens_at=now - datetime.timedelta(hours=1),
        closes_at=now + datetime.timedelta(days=1),
        capacity=2,
    )
    for n in range(4):
        registration_submit(
            tournament=tournament,
            first_name="Jörg",
            last_name=f"Müller-Lüdenscheidt {n}",
            club="Doppelkopffreunde Rheinland e.V.",
            email=f"spieler{n}@example.org",
            ddv_number=str(1000 + n),
            language="de",
        )
    page = german_phone(new_page, "leitung")
    page.goto(reverse("registration:registration-manage", args=[tournament.slug]))
    actions = page.locator("table td").get_by_role("button")
    # Two admitted ("Zurück auf die Warteliste"), two waiting (give, up or down, remove).
    expect(actions).to_have_count(2 + 2 * 3)
    for action in actions.all():
        box = action.bounding_box()
        assert box is not None
        assert box["x"] >= 0
        assert box["x"] + box["width"] <= 390, action.inner_text()
    # The club is still there, under the name.
    expect(page.locator("table").first).to_contain_text("Doppelkopffreunde Rheinland e.V.")
