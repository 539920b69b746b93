"""The main pages under the Content-Security-Policy in a real Chromium, which enforces it: the
scoresheet entry, the round page, the standings, the staff page, the entry list, the venue
screen and the API's docs are used as people use them, and the browser reports no violation of
the policy, neither in its console nor as a ``securitypolicyviolation`` event. The confirmations
work as before: withdrawing a player asks through a dialog (static/js/confirm.js), ending the
playing time on the page."""

import pytest
from django.urls import reverse
from playwright.sync_api import Page, expect

from scoring.models import Scoresheet
from tests import factories
from tournaments import services
from tournaments.models import Entry, Round

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
]

# Collects the page's violation events from its first script on (Playwright's init scripts are
# not subject to the page's policy).
RECORD_VIOLATIONS = """
window.cspViolations = [];
document.addEventListener("securitypolicyviolation", function (event) {
  window.cspViolations.push(event.violatedDirective + " " + (event.blockedURI || "inline"));
});
"""


class Violations:
    """What the browser reports against the policy on one page (all its navigations)."""

    def __init__(self, page: Page):
        self.page = page
        self.console: list[str] = []
        page.add_init_script(RECORD_VIOLATIONS)
        page.on("console", self._console)

    def _console(self, message) -> None:
        if "Content Security Policy" in message.text:
            self.console.append(message.text)

    def assert_none(self) -> None:
        events = self.page.evaluate("window.cspViolations || []")
        assert (self.console, events) == ([], [])


@pytest.fixture
def world():
    """A tournament of eight with its organiser and adjudicator, round 1 running."""
    organiser = factories.user(username="leitung")
    tournament = factories.tournament(players=8, organiser=organiser, name="Pik-Pokal")
    adjudicator = factories.adjudicator(tournament)
    services.round_start(round=factories.seated_round(tournament))
    return tournament, organiser, adjudicator


def log_in(page: Page, username: str) -> None:
    page.goto(reverse("login"))
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill("a-long-test-password")
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("button", name="Log out")).to_be_visible()


def test_the_watch_sees_a_violation(page, world):
    """The checks below would see one: an inline handler added to a page is refused."""
    tournament, _, _ = world
    violations = Violations(page)
    page.goto(reverse("tournaments:tournament", args=[tournament.slug]))
    page.evaluate(
        "document.body.insertAdjacentHTML('beforeend', '<img src=\"/x.png\" onerror=\"1\">')"
    )
    for _ in range(50):
        if page.evaluate("window.cspViolations.length"):
            break
        page.wait_for_timeout(50)
    assert page.evaluate("window.cspViolations") == ["script-src-attr inline"]
    assert any("onerror" in text or "event handler" in text for text in violations.console)


def test_the_scoresheet_entry_keeps_to_the_policy(page, world):
    tournament, _, _ = world
    sheet = Scoresheet.objects.get(table__round__tournament=tournament, table__number=1)
    violations = Violations(page)
    page.goto(reverse("scoring:sheet-link", args=[sheet.table.seats.get(position=4).token]))
    page.get_by_label("Value", exact=True).fill("3")
    page.get_by_label("Value", exact=True).press("Tab")
    page.keyboard.type("13")
    expect(page.locator("#preview-ok")).to_be_visible()  # the live check (htmx)
    page.keyboard.press("Enter")
    expect(page.locator("#hand-1")).to_be_visible()
    assert sheet.hands.count() == 1
    violations.assert_none()


def test_the_round_page_asks_before_the_playing_time_ends_and_keeps_to_the_policy(page, world):
    tournament, _, adjudicator = world
    violations = Violations(page)
    log_in(page, adjudicator.username)
    page.goto(reverse("tournaments:round", args=[tournament.slug, 1]))
    expect(page.locator(".clock-time")).not_to_have_text("")  # static/js/clock.js runs
    page.get_by_role("link", name="End the playing time").click()
    expect(page.get_by_text("Announce the end of the playing time for all tables?")).to_be_visible()
    assert tournament.rounds.get().status == Round.Status.RUNNING
    page.get_by_role("button", name="Yes, end the playing time").click()
    expect(page.get_by_role("link", name="End the playing time")).to_have_count(0)
    assert tournament.rounds.get().status == Round.Status.FINISHED
    violations.assert_none()


def test_the_standings_and_the_search_keep_to_the_policy(page, world):
    tournament, _, _ = world
    entry = tournament.entries.get(start_number=3)
    violations = Violations(page)
    page.goto(reverse("tournaments:standings", args=[tournament.slug]))
    expect(page.locator("#standings table")).to_be_visible()
    page.get_by_role("searchbox").fill("1")
    page.get_by_role("searchbox").press("Enter")
    expect(page).to_have_url(f"{reverse('tournaments:find', args=[tournament.slug])}?q=1")
    page.get_by_role("searchbox").fill(entry.player.last_name)  # searched as typed (htmx)
    expect(page.locator("#found")).to_contain_text(entry.player.name)
    violations.assert_none()


def test_the_staff_page_keeps_to_the_policy(page, world, settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"  # the link shown
    tournament, organiser, _ = world
    violations = Violations(page)
    log_in(page, organiser.username)
    page.goto(reverse("adjudication:staff", args=[tournament.slug]))
    page.locator("#invite_name").fill("Jürgen Müller")
    page.locator("#invite_email").fill("juergen@example.org")
    page.locator("#invite_role").select_option("adjudicator")
    page.get_by_role("button", name="Invite", exact=True).click()
    expect(page.get_by_role("button", name="Copy")).to_be_visible()  # static/js/copy.js
    violations.assert_none()


def test_withdrawing_a_player_asks_first_and_keeps_to_the_policy(page, world):
    tournament, organiser, _ = world
    violations = Violations(page)
    log_in(page, organiser.username)
    page.goto(reverse("tournaments:entries", args=[tournament.slug]))
    questions = []

    def answer(dialog, accept: bool) -> None:
        questions.append(dialog.message)
        dialog.accept() if accept else dialog.dismiss()

    withdraw = page.get_by_role("button", name="Withdraw").first
    page.once("dialog", lambda dialog: answer(dialog, False))
    withdraw.click()
    page.wait_for_timeout(300)
    assert questions == ["Withdraw this player from the rest of the tournament?"]
    assert not tournament.entries.filter(status=Entry.Status.WITHDRAWN).exists()
    page.once("dialog", lambda dialog: answer(dialog, True))
    withdraw.click()
    expect(page.get_by_role("button", name="Take back")).to_have_count(1)
    assert tournament.entries.filter(status=Entry.Status.WITHDRAWN).count() == 1
    violations.assert_none()


def test_the_venue_screen_and_the_api_docs_keep_to_the_policy(page, world):
    tournament, _, _ = world
    violations = Violations(page)
    page.goto(reverse("tournaments:screen", args=[tournament.slug]))
    expect(page.locator(".screen-qr svg")).to_be_visible()
    page.goto(reverse("api-docs"))
    expect(page.get_by_text("Doppelkopf tournament API").first).to_be_visible()
    expect(page.locator(".opblock").first).to_be_visible()  # the schema is read and shown
    violations.assert_none()
