"""An organiser invites an adjudicator from the staff page on his phone (on a site that sends
no mail), copies the link, and the adjudicator creates an account through it and logs in."""

import os

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from tests import factories
from tournaments.models import TournamentRole

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
PASSWORD = "ein-langes-Passwort-42"
SHOTS = os.environ.get("DOKO_SCREENSHOTS")  # a directory: keep screenshots for a look


def shot(page, name: str) -> None:
    if SHOTS:
        page.screenshot(path=os.path.join(SHOTS, f"{name}.png"), full_page=True)


def log_in(page, username: str, password: str, next_path: str) -> None:
    page.goto(f"{reverse('login')}?next={next_path}")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Log in").click()


def test_an_invited_adjudicator_chooses_a_password_and_logs_in(new_page, settings):
    # The embedded default: no mail leaves the server, the staff page shows the link.
    settings.EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
    organiser = factories.user(username="chef")
    tournament = factories.tournament(players=4, organiser=organiser)
    staff_path = reverse("adjudication:staff", args=[tournament.slug])

    page = new_page(**PHONE)
    log_in(page, "chef", "a-long-test-password", staff_path)
    page.locator("#invite_name").fill("Jürgen Müller")
    page.locator("#invite_email").fill("juergen@example.org")
    page.locator("#invite_role").select_option("adjudicator")
    page.get_by_role("button", name="Invite", exact=True).click()

    link_field = page.locator("#invitation-url")
    expect(link_field).to_be_visible()
    copy = page.get_by_role("button", name="Copy")
    expect(copy).to_be_visible()
    shot(page, "staff-invited")
    copy.click()
    expect(page.get_by_role("button", name="Copied")).to_be_visible()
    link = link_field.input_value()

    person = new_page(**PHONE)
    person.goto(link)
    expect(person.get_by_text("juergen.mueller")).to_be_visible()
    shot(person, "invitation")
    person.get_by_label("New password", exact=True).fill(PASSWORD)
    person.get_by_label("The new password again").fill(PASSWORD)
    person.get_by_role("button", name="Set the password").click()
    expect(person.get_by_text("Your account is made")).to_be_visible()
    shot(person, "login-after-invitation")
    person.goto(reverse("adjudication:adjudication", args=[tournament.slug]))
    expect(person.get_by_role("heading", level=1)).to_be_visible()
    assert TournamentRole.objects.filter(
        tournament=tournament, user__username="juergen.mueller", role="adjudicator"
    ).exists()
    shot(person, "adjudication-dashboard")
