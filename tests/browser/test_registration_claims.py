"""The desk decides a claim of a player registered online to be a person on record (issue 44),
on a phone and by keyboard alone: the claim, the person on record and the two buttons fit the
screen, and Tab reaches them."""

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from registration.models import Registration
from registration.services.registrations import registration_submit
from tests import factories
from tournaments import services

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}


def test_the_desk_confirms_a_claim_on_a_phone_by_keyboard(new_page):
    organiser = factories.user(username="leitung")
    tournament = factories.tournament(organiser=organiser)
    factories.registration_open(tournament)
    her = {"first_name": "Jürgen", "last_name": "Müller-Lüdenscheidt", "club": "Doko Rheinland"}
    services.entry_register(
        tournament=factories.tournament(), **her, ddv_number="4711", email="jm@example.org"
    )
    registration = registration_submit(
        tournament=tournament, **her, email="neu@example.org", ddv_number="4711"
    ).registration
    page = new_page(**PHONE, locale="de-DE")
    page.goto(reverse("login"))
    page.get_by_label("Benutzername").fill("leitung")
    page.get_by_label("Passwort").fill("a-long-test-password")
    page.get_by_role("button", name="Anmelden").click()
    page.goto(reverse("registration:check-in", args=[tournament.slug]))
    claim = page.locator("#claim-1")
    expect(claim).to_contain_text("DDV-Nummer 4711 angegeben, nicht bestätigt")
    expect(claim).to_contain_text("Erfasst: Jürgen Müller-Lüdenscheidt (Doko Rheinland)")
    confirm = claim.get_by_role("button", name="Gleiche Person: bestätigen")
    for button in (confirm, claim.get_by_role("button", name="Nicht diese Person")):
        box = button.bounding_box()
        assert box is not None
        assert box["x"] >= 0
        assert box["x"] + box["width"] <= 390
    page.locator("#check-in-q").focus()
    for _step in range(20):
        if confirm.evaluate("element => element === document.activeElement"):
            break
        page.keyboard.press("Tab")
    expect(confirm).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.get_by_role("alert").or_(page.locator(".alert-success"))).to_contain_text(
        "erfasste Person bestätigt"
    )
    registration.refresh_from_db()
    assert registration.claim == Registration.Claim.CONFIRMED
