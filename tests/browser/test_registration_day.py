"""The organiser's day from the registration to round 2 (issue 33), in a real browser.

The organiser opens the online registration for 30 places with a waiting list; 32 players register,
each on their own phone, so two wait; one withdraws through his personal link and the first
waiting player moves up. At the door the desk ticks off 27 of the 30, withdraws the 3 who did not
come in one action (their places go to the last waiting player, who is at the door and is checked
in from his QR code), and draws round 1 at tables of four: 28 players, 7 tables. One player follows
round 1 and then round 2 from the one personal link he got when he registered.

The issue's story has 27 arriving and 3 no-shows out of 30; 27 players do not fill tables of four
(TSR 8.3.1), so the waiting list's last player, who came on the chance of a place, makes 28.
"""

import datetime
import re

import pytest
from django.urls import reverse
from django.utils import timezone
from playwright.sync_api import Page, expect

from doko.sample_sheets import full_match
from registration.models import Registration
from scoring.models import Scoresheet
from tests import factories
from tournaments import services
from tournaments.models import Entry, Round

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
PASSWORD = "a-long-test-password"
FIRST_NAMES = ["Anna", "Jörg", "Ayşe", "Łukasz", "Clara", "Ben", "Elke", "Dmitri"]
LAST_NAMES = ["Müller", "Yılmaz", "Dvořák", "Öztürk"]


def logged_in(new_page, username: str) -> Page:
    page = new_page(**PHONE, locale="en-GB")
    page.goto(reverse("login"))
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("heading", name="Tournaments")).to_be_visible()
    return page


def local(moment: datetime.datetime) -> str:
    return timezone.localtime(moment).strftime("%Y-%m-%dT%H:%M")


def register(new_page, slug: str, number: int) -> tuple[str, Page]:
    """Player ``number`` registers on his own phone; returns the text of the answer and the page
    (on the answer, with the personal link)."""
    page = new_page(**PHONE, locale="en-GB")
    page.goto(reverse("registration:register", args=[slug]))
    page.get_by_label("First name").fill(FIRST_NAMES[number % len(FIRST_NAMES)])
    page.get_by_label("Last name").fill(f"{LAST_NAMES[number % len(LAST_NAMES)]} {number}")
    page.get_by_label("E-mail address").fill(f"spieler{number}@example.org")
    page.locator("form").get_by_role(
        "button", name=re.compile("^(Register|Join the waiting list)$")
    ).click()
    answer = page.locator("main")
    expect(page.get_by_role("link", name="Open my page")).to_be_visible()
    return answer.inner_text(), page


def personal_link(page: Page) -> str:
    href = page.get_by_role("link", name="Open my page").get_attribute("href")
    assert href is not None
    return href


def play_round(round_: Round) -> None:
    """Every table of the round plays its 24 hands and confirms its sheet; the round closes."""
    services.round_start(round=round_)
    for sheet in Scoresheet.objects.filter(table__round=round_):
        factories.sheet_confirmed(sheet, full_match())
    # The last confirmation closes the round once it commits (TSR 8.5.2).
    round_.refresh_from_db()
    assert round_.status == round_.Status.CLOSED


def test_the_organisers_day_from_registration_to_round_two(new_page):
    organiser = factories.user(username="leitung")
    tournament = factories.tournament(
        organiser=organiser,
        name="Nikolausturnier",
        starts_on=timezone.localdate(),
        planned_rounds=2,
    )
    slug = tournament.slug
    desk = logged_in(new_page, "leitung")
    _registration_opened(desk, slug)
    links = _thirty_two_registered(new_page, slug)
    _player_five_withdraws(new_page, links, tournament)
    _the_desk_checks_in_twenty_seven(desk, slug)
    _the_no_shows_withdrawn(desk, tournament)
    _the_last_waiting_player_checked_in_at_the_door(desk, links[32], tournament)

    # Round 1 at tables of four: 28 players, 7 tables.
    _round_drawn_and_published(desk, slug, 1)
    round_1 = tournament.rounds.get(number=1)
    assert round_1.tables.count() == 7

    # Player 1 follows the day from the link he got when he registered.
    player = new_page(**PHONE, locale="en-GB")
    first = Entry.objects.get(tournament=tournament, start_number=1)
    seat_1 = first.seats.select_related("table").get(round=round_1)
    _the_player_finds_his_seat(player, links[1], seat_1, round_number=1)

    # Round 1 is played and closed; round 2 is drawn and published.
    play_round(round_1)
    _round_drawn_and_published(desk, slug, 2)
    seat_2 = first.seats.select_related("table").get(round__number=2)
    player.goto(links[1])
    results = player.locator("#results-title").locator("..")
    expect(results).to_contain_text(str(seat_1.table.number))
    _the_player_finds_his_seat(player, links[1], seat_2, round_number=2)


def _registration_opened(desk: Page, slug: str) -> None:
    """The organiser opens the registration: 30 places, a waiting list."""
    desk.goto(reverse("registration:registration-manage", args=[slug]))
    now = timezone.now()
    desk.get_by_label("Opens").fill(local(now - datetime.timedelta(hours=1)))
    desk.get_by_label("Closes").fill(local(now + datetime.timedelta(days=7)))
    desk.get_by_label("Places").fill("30")
    desk.get_by_label("Waiting list").check()
    desk.get_by_label("Note for players").fill("Startgeld 10 €, bar am Eingang.")
    desk.get_by_role("button", name="Open the registration").click()
    expect(desk.locator("main")).to_contain_text("0 of 30 places taken")


def _thirty_two_registered(new_page, slug: str) -> dict[int, str]:
    """32 players register, each on his own phone: 30 get a place, two wait, in order. Their
    personal links, by number."""
    links = {}
    for number in range(1, 33):
        answer, page = register(new_page, slug, number)
        if number <= 30:
            assert f"You are registered, with start number {number}." in answer
        else:
            assert f"you are on the waiting list, as number {number - 30}." in answer
        links[number] = personal_link(page)
        page.context.close()
    return links


def _player_five_withdraws(new_page, links: dict[int, str], tournament) -> None:
    """Player 5 cannot come: he withdraws through his own link; the first waiting player moves
    up, and his link (the one he got on the waiting list) now shows his start number."""
    phone = new_page(**PHONE, locale="en-GB")
    phone.goto(links[5])
    phone.once("dialog", lambda dialog: dialog.accept())
    phone.get_by_role("button", name="Withdraw from the tournament").click()
    expect(phone.get_by_text("withdrawn").first).to_be_visible()
    phone.goto(links[31])
    expect(phone.locator("#personal-entry")).to_contain_text("Start number 31")
    phone.goto(links[32])
    expect(phone.get_by_text("You are number 1 on the waiting list")).to_be_visible()
    assert Entry.objects.filter(tournament=tournament, status=Entry.Status.ACTIVE).count() == 30


def _the_desk_checks_in_twenty_seven(desk: Page, slug: str) -> None:
    """At the door the desk ticks off 27 of the 30, one tap each."""
    desk.goto(reverse("registration:check-in", args=[slug]))
    arrived = desk.locator("#check-in-live").get_by_role("button", name="Arrived")
    expect(arrived).to_have_count(30)
    for ticked in range(27):
        arrived.first.click()
        expect(arrived).to_have_count(30 - ticked - 1)
    expect(desk.locator("#check-in-live")).to_contain_text("27 of 30")


def _the_no_shows_withdrawn(desk: Page, tournament) -> None:
    """The three who did not come are withdrawn in one action, asked once with their names; the
    last waiting player moves up into a freed place."""
    desk.get_by_role("link", name="Withdraw the players who did not come").click()
    missing = Entry.objects.filter(
        tournament=tournament, status=Entry.Status.ACTIVE, arrived_at__isnull=True
    )
    for entry in missing:
        expect(desk.locator("main")).to_contain_text(entry.name)
    expect(desk.locator("main")).to_contain_text(f"{LAST_NAMES[32 % len(LAST_NAMES)]} 32")
    desk.get_by_role("button", name="Withdraw 3 players").click()
    assert Entry.objects.filter(tournament=tournament, status=Entry.Status.WITHDRAWN).count() == 4
    assert not Registration.objects.filter(state=Registration.State.WAITING).exists()


def _the_last_waiting_player_checked_in_at_the_door(desk: Page, link: str, tournament) -> None:
    """He is at the door: the desk scans the QR code on his page and checks him in."""
    desk.goto(link)
    desk.get_by_role("button", name=re.compile("^Check in ")).click()
    expect(desk.get_by_text("Checked in at")).to_be_visible()
    active = Entry.objects.filter(tournament=tournament, status=Entry.Status.ACTIVE)
    assert active.count() == 28
    assert not active.filter(arrived_at__isnull=True).exists()


def _round_drawn_and_published(desk: Page, slug: str, number: int) -> None:
    """The organiser adds round ``number``, draws its seating and publishes it."""
    desk.goto(reverse("tournaments:tournament", args=[slug]))
    desk.get_by_role("button", name=f"Add round {number}").click()
    desk.goto(reverse("tournaments:round", args=[slug, number]))
    desk.get_by_role("button", name="Draw the seating").click()
    desk.get_by_role("button", name="Publish the seating").click()
    expect(desk.get_by_role("button", name="Start the round")).to_be_visible()


def _the_player_finds_his_seat(player: Page, link: str, seat, *, round_number: int) -> None:
    """His personal link shows his table and seat in the round, and opens its scoresheet."""
    player.goto(link)
    expect(player.locator("#now-title").locator("..")).to_contain_text(
        f"Round {round_number} · Table {seat.table.number} · Seat {seat.position}"
    )
    player.get_by_role("link", name="Open the scoresheet").click()
    expect(player).to_have_url(re.compile(f"/s/{seat.token}/$"))
