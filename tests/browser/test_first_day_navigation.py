"""A club's first day (issue 32), in a real browser: the venue screen moves on by itself once a
round is over, the round pages link to the rounds either side, and the staff page keeps the
link of every open invitation."""

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from doko.sample_sheets import full_match
from scoring.models import Scoresheet
from tests import factories
from tests.browser.test_organiser_day import log_in
from tournaments import services

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

POLL_MS = 31_000  # the screen asks for its content every 30 seconds


def _play_out(round_) -> None:
    """Confirm every table's sheet: the last confirmation closes the round and stops its
    clock (TSR 8.5.2), before anyone ends its playing time."""
    for sheet in Scoresheet.objects.filter(table__round=round_):
        factories.sheet_confirmed(sheet, full_match())
    round_.refresh_from_db()
    assert round_.status == round_.Status.CLOSED


def test_the_screen_moves_on_to_the_next_seating_and_then_to_the_standings(page):
    # By the DDV method every round is drawn and published at the start.
    tournament = factories.tournament(
        players=8, planned_rounds=2, seating_method="ddv", name="Herbstpokal"
    )
    first = services.round_seat(round=services.round_create(tournament=tournament), seed=2)
    services.tournament_seating_publish(tournament=tournament)
    services.round_start(round=first)
    page.clock.install()
    page.goto(reverse("tournaments:screen", args=[tournament.slug]))
    expect(page.get_by_text("Round 1 · running")).to_be_visible()

    # The time ends and every sheet is in, the round not yet closed: the screen shows no red
    # 00:00 for it but the next round's seating, without anyone touching the screen.
    _play_out(first)
    page.clock.run_for(POLL_MS)
    expect(page.get_by_text("Round 2 · seated")).to_be_visible()
    expect(page.locator(".screen-clock")).to_have_count(0)
    expect(page.locator(".screen-names li")).to_have_count(8)

    # The round closed itself with its last sheet; closing it again changes nothing.
    services.round_close(round=first)
    second = services.round_start(round=tournament.rounds.get(number=2))
    page.clock.run_for(POLL_MS)
    expect(page.get_by_text("Round 2 · running")).to_be_visible()
    _play_out(second)
    page.clock.run_for(POLL_MS)
    expect(page.locator("#screen-standings-title")).to_have_text("Standings after round 2")
    expect(page.get_by_text("00:00")).to_have_count(0)


def test_the_screen_waits_for_the_sheets_still_out_after_the_time_ends(page):
    tournament = factories.tournament(players=8, planned_rounds=2)
    first = services.round_start(round=factories.seated_round(tournament))
    sheet = Scoresheet.objects.filter(table__round=first).first()
    assert sheet is not None
    factories.sheet_confirmed(sheet, full_match())
    factories.round_end(first)
    page.goto(reverse("tournaments:screen", args=[tournament.slug]))
    expect(page.get_by_text("Round 1 · finished")).to_be_visible()
    expect(page.get_by_text("Playing time is over")).to_be_visible()


def test_the_round_pages_link_to_the_rounds_either_side(page):
    organiser = factories.user(username="leitung")
    tournament = factories.tournament(players=8, planned_rounds=3, organiser=organiser)
    first = services.round_start(round=factories.seated_round(tournament))
    _play_out(first)
    services.round_close(round=first)
    factories.seated_round(tournament, seed=2)

    page.goto(reverse("tournaments:round", args=[tournament.slug, 1]))
    nav = page.locator("#round-nav")
    expect(nav.get_by_role("link", name="Round 2")).to_be_visible()
    nav.get_by_role("link", name="Round 2").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Round 2")
    nav = page.locator("#round-nav")
    expect(nav.get_by_role("link", name="Round 1")).to_be_visible()
    # A player sees who adds round 3; the organiser adds it from here.
    expect(nav.get_by_text("Round 3 is not added yet: the organiser adds it")).to_be_visible()

    log_in(page, "leitung", "a-long-test-password")
    page.goto(reverse("tournaments:round", args=[tournament.slug, 2]))
    page.locator("#round-nav").get_by_role("button", name="Add round 3").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Round 3")
    expect(page.locator("#round-nav").get_by_role("link", name="Round 2")).to_be_visible()


def _invite(page, name: str, email: str, role: str) -> None:
    page.locator("#invite_name").fill(name)
    page.locator("#invite_email").fill(email)
    page.locator("#invite_role").select_option(role)
    page.get_by_role("button", name="Invite", exact=True).click()
    expect(page.locator("#invitation-url")).to_be_visible()


def test_every_open_invitation_keeps_its_link_on_the_staff_page(new_page, settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"  # no mail leaves
    organiser = factories.user(username="chef")
    tournament = factories.tournament(players=4, organiser=organiser)
    page = new_page()
    log_in(page, "chef", "a-long-test-password")
    page.goto(reverse("adjudication:staff", args=[tournament.slug]))

    _invite(page, "Jürgen Müller", "juergen@example.org", "adjudicator")
    first_link = page.locator("#invitation-url").input_value()
    _invite(page, "Anna Schmidt", "anna@example.org", "panel")
    second_link = page.locator("#invitation-url").input_value()
    assert first_link != second_link

    # The second invitation's link is shown on top; the first keeps its own, with its button.
    juergen = page.locator("li", has_text="juergen@example.org")
    expect(juergen.get_by_role("textbox")).to_have_value(first_link)
    expect(juergen.get_by_role("button", name="Copy")).to_be_visible()

    # Back on the page later: both links are there, each in its invitation.
    page.reload()
    expect(page.locator("#invitation-url")).to_have_count(0)
    expect(juergen.get_by_role("textbox")).to_have_value(first_link)
    anna = page.locator("li", has_text="anna@example.org")
    expect(anna.get_by_role("textbox")).to_have_value(second_link)
    anna.get_by_role("button", name="Copy").click()
    expect(anna.get_by_role("button", name="Copied")).to_be_visible()

    # Each link still opens its own invitation.
    person = new_page()
    person.goto(first_link)
    expect(person.get_by_text("juergen.mueller")).to_be_visible()
    person.goto(second_link)
    expect(person.get_by_text("anna.schmidt")).to_be_visible()
