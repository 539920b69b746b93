"""The registration's answers to tournaments below it (``tournaments.entered``), its boxes on
tournaments' pages (``tournaments.page_boxes``) and its door from a scoresheet
(``tournaments.doors``): tournaments names neither the app nor its routes, and works without
it."""

import pytest
from django.urls import reverse

from registration.hooks import (
    CheckInSummary,
    EntryClaim,
    PersonalLinkBox,
    PersonalLinksHandout,
    RegistrationBox,
    WaitingList,
)
from registration.models import Registration
from tests import factories
from tournaments import doors, entered, page_boxes, services
from tournaments.services.persons import person_unused_delete

pytestmark = pytest.mark.django_db


def test_the_app_answers_tournaments_hooks():
    assert any(isinstance(listener, WaitingList) for listener in entered._listeners.values())
    for place, kind in [
        (page_boxes.CHECK_IN, CheckInSummary),
        (page_boxes.TOURNAMENT, RegistrationBox),
        (page_boxes.ENTRIES, PersonalLinksHandout),
        (page_boxes.ENTRY, EntryClaim),
        (page_boxes.ENTRY_EDIT, PersonalLinkBox),
    ]:
        assert any(isinstance(box, kind) for box in page_boxes.boxes(place)), place
    assert doors.opened("personal-link", "the-key").url == reverse(
        "registration:personal-link", args=["the-key"]
    )


@pytest.fixture
def full():
    """Eight places taken, one player waiting."""
    tournament = factories.tournament(players=8, organiser=factories.user(username="leitung"))
    factories.registration_open(tournament, capacity=8)
    factories.waiting(tournament, "Erste")
    return tournament


def test_a_withdrawal_without_the_app_frees_the_place_and_moves_nobody_up(full, monkeypatch):
    monkeypatch.setattr(entered, "_listeners", {})
    change = services.entry_withdraw(entry=factories.entries(full)[0])
    assert change.moved_up == ()
    assert Registration.objects.get(last_name="Erste").state == Registration.State.WAITING


def test_a_person_a_registration_names_is_held_only_through_the_hook(monkeypatch):
    named = factories.player(first_name="Jürgen", last_name="Müller", ddv_number="4711")
    tournament = factories.tournament(players=4)
    Registration.objects.create(
        tournament=tournament,
        first_name="Jürgen",
        last_name="Müller",
        email="jm@example.org",
        state=Registration.State.WAITING,
        waiting_position=1,
        claimed_person=named,
        claim=Registration.Claim.OPEN,
    )
    assert entered.person_held(player=named)
    assert not person_unused_delete(player=named, by=None)
    monkeypatch.setattr(entered, "_listeners", {})
    assert not entered.person_held(player=named)


def test_the_pages_of_tournaments_show_the_boxes_through_the_registration_routes(client):
    organiser = factories.user(username="leitung")
    tournament = factories.tournament(players=4, organiser=organiser)
    factories.registration_open(tournament, capacity=8)
    client.force_login(organiser)
    page = client.get(reverse("tournaments:tournament", args=[tournament.slug])).content.decode()
    assert reverse("registration:registration-manage", args=[tournament.slug]) in page
    assert reverse("registration:check-in", args=[tournament.slug]) in page
    players = client.get(reverse("tournaments:entries", args=[tournament.slug])).content.decode()
    assert reverse("registration:personal-links-mail", args=[tournament.slug]) in players
    entry = factories.entries(tournament)[0]
    edit = client.get(
        reverse("tournaments:entry-edit", args=[tournament.slug, entry.start_number])
    ).content.decode()
    assert reverse("registration:personal-link", args=[entry.link_key]) in edit
    assert (
        reverse("registration:personal-link-replace", args=[tournament.slug, entry.start_number])
        in edit
    )


def test_a_seats_scoresheet_links_to_the_players_page_through_the_door(client):
    from tournaments.models import Seat

    tournament = factories.tournament(players=8)
    round_ = factories.seated_round(tournament)
    services.round_start(round=round_)
    seat = Seat.objects.filter(round=round_).select_related("entry").first()
    page = client.get(reverse("scoring:sheet-link", args=[seat.token]), follow=True)
    assert page.status_code == 200
    html = page.content.decode()
    assert reverse("registration:personal-link", args=[seat.entry.link_key]) in html
    assert 'id="personal-link"' in html
