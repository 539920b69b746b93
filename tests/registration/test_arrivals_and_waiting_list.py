"""The waiting list moves up into the places withdrawals free before the first draw, the desk
checks players in, the no-shows go in one action, and a personal link is replaced (issue 33)."""

import pytest
from django.core import mail
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse

from registration.models import OnlineRegistration, Registration
from registration.selectors.personal import personal_link_find
from registration.services.arrivals import (
    entry_check_in,
    entry_check_in_undo,
    no_shows_withdraw,
)
from registration.services.links import personal_link_replace
from registration.services.waiting import waiting_list_advance
from tests import factories
from tournaments import services
from tournaments.models import Entry

pytestmark = pytest.mark.django_db


@pytest.fixture
def organiser():
    return factories.user(username="leitung")


@pytest.fixture
def full(organiser):
    """Eight places taken, two players waiting."""
    tournament = factories.tournament(players=8, organiser=organiser)
    factories.registration_open(tournament, capacity=8)
    factories.waiting(tournament, "Erste", "Zweite")
    return tournament


def test_a_withdrawal_moves_the_first_waiting_player_up(full, django_capture_on_commit_callbacks):
    first = Registration.objects.get(last_name="Erste")
    with django_capture_on_commit_callbacks(execute=True):
        change = services.entry_withdraw(entry=factories.entries(full)[0])
    first.refresh_from_db()
    assert [registration.pk for registration in change.moved_up] == [first.pk]
    assert first.state == Registration.State.ADMITTED
    entry = first.entry
    assert entry.status == Entry.Status.ACTIVE
    assert entry.start_number == 9
    # The link the player was sent keeps working: the entry took the registration's key.
    assert entry.link_key == first.key
    assert entry.email == "erste@example.org"
    assert personal_link_find(key=first.key) == entry
    # Told in the language they registered in, with their link.
    [message] = mail.outbox
    assert message.to == ["erste@example.org"]
    assert "Startnummer 9" in message.body
    assert f"/p/{first.key}/" in message.body
    assert Registration.objects.get(last_name="Zweite").state == Registration.State.WAITING


def test_nobody_moves_up_after_the_first_draw(full):
    factories.seated_round(full)
    OnlineRegistration.objects.filter(tournament=full).update(capacity=12)
    assert waiting_list_advance(tournament=full) == []
    assert not Registration.objects.filter(state=Registration.State.ADMITTED).exists()


def test_the_desk_checks_in_and_the_no_shows_go_in_one_action(full, organiser):
    entries = factories.entries(full)
    with pytest.raises(ValidationError) as refused:
        no_shows_withdraw(tournament=full, by=organiser)
    assert "Nobody has checked in yet" in str(refused.value.message_dict["entries"])
    for entry in entries[:6]:
        entry_check_in(entry=entry, by=organiser)
    entry_check_in(entry=entries[7], by=organiser)
    entry_check_in_undo(entry=entries[7], by=organiser)
    result = no_shows_withdraw(tournament=full, by=organiser)
    assert [entry.pk for entry in result.withdrawn] == [entries[6].pk, entries[7].pk]
    # The two freed places go to the waiting list, in order; they are expected at the door.
    assert [registration.last_name for registration in result.moved_up] == ["Erste", "Zweite"]
    active = Entry.objects.filter(tournament=full, status=Entry.Status.ACTIVE)
    assert active.count() == 8
    assert active.filter(arrived_at__isnull=True).count() == 2


def test_a_withdrawn_no_show_leaves_the_standings_not_the_players_list(full, organiser, client):
    """Issue 47: a no-show withdrawn before the first draw never played; the public standings
    leave him out, the organiser's list of players keeps him (withdrawn)."""
    entries = factories.entries(full)
    for entry in entries[:7]:
        entry_check_in(entry=entry, by=organiser)
    no_shows_withdraw(tournament=full, by=organiser)
    services.standings_rebuild(tournament_id=full.pk)
    missing = entries[7]
    client.cookies["django_language"] = "en"
    standings = client.get(reverse("tournaments:standings", args=[full.slug])).content.decode()
    assert entries[0].last_name in standings
    assert missing.last_name not in standings
    client.force_login(organiser)
    players = client.get(reverse("tournaments:entries", args=[full.slug])).content.decode()
    assert missing.last_name in players


def test_no_shows_are_not_withdrawn_at_once_after_a_draw_nor_by_others(full, organiser):
    stranger = factories.user(username="fremd")
    with pytest.raises(PermissionDenied):
        no_shows_withdraw(tournament=full, by=stranger)
    with pytest.raises(PermissionDenied):
        entry_check_in(entry=factories.entries(full)[0], by=stranger)
    entry_check_in(entry=factories.entries(full)[0], by=organiser)
    factories.seated_round(full)
    with pytest.raises(ValidationError) as refused:
        no_shows_withdraw(tournament=full, by=organiser)
    assert "rounds" in refused.value.message_dict


def test_a_withdrawn_player_is_not_checked_in(full, organiser):
    entry = factories.entries(full)[0]
    services.entry_withdraw(entry=entry)
    with pytest.raises(ValidationError) as refused:
        entry_check_in(entry=entry, by=organiser)
    assert "takes a withdrawn player back" in str(refused.value.message_dict["status"])


def test_a_replaced_personal_link_opens_nothing(client, full, organiser):
    entry = factories.entries(full)[0]
    old = entry.link_key
    assert client.get(reverse("registration:personal-link", args=[old])).status_code == 200
    entry = personal_link_replace(entry=entry, by=organiser)
    assert entry.link_key != old
    assert client.get(reverse("registration:personal-link", args=[old])).status_code == 404
    assert (
        client.get(reverse("registration:personal-link", args=[entry.link_key])).status_code == 200
    )


def test_a_waiting_player_sees_their_place(client, full):
    second = Registration.objects.get(last_name="Zweite")
    page = client.get(reverse("registration:personal-link", args=[second.key])).content.decode()
    assert "Sie sind Nummer 2 auf der Warteliste" in page
