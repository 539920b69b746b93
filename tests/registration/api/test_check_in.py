"""The check-in API (issue 33, point 2): a player checked in and the check-in taken back, the
desk's counts and list, the no-shows withdrawn in one action before the first draw, and the
players' ``arrived_at`` for the desk only."""

import pytest
from django.urls import reverse
from rest_framework.authtoken.models import Token

from registration.services.arrivals import entry_check_in
from tests import factories
from tournaments import services
from tournaments.models import Entry, TournamentRole

pytestmark = pytest.mark.django_db


@pytest.fixture
def world():
    """Eight players under a capacity of 8, two waiting; an organiser, a scorekeeper account
    (the desk) and an adjudicator, each with a token (English answers)."""
    organiser, desk, adjudicator = factories.user(), factories.user(), factories.user()
    tournament = factories.tournament(players=8, organiser=organiser)
    factories.role_grant(tournament=tournament, user=desk, role=TournamentRole.Role.SCOREKEEPER)
    factories.role_grant(
        tournament=tournament, user=adjudicator, role=TournamentRole.Role.ADJUDICATOR
    )
    factories.registration_open(tournament, capacity=8)
    factories.waiting(tournament, "Erste", "Zweite")
    headers = {
        role: {
            "Authorization": f"Token {Token.objects.create(user=user).key}",
            "Accept-Language": "en",
        }
        for role, user in (("organiser", organiser), ("desk", desk), ("adjudicator", adjudicator))
    }
    return tournament, headers, organiser


def entry_url(tournament, start_number: int) -> str:
    return reverse("api:entry-check-in", args=[tournament.slug, start_number])


def test_the_desk_checks_a_player_in_and_takes_it_back(client, world):
    tournament, headers, _organiser = world
    response = client.post(entry_url(tournament, 3), headers=headers["desk"])
    assert response.status_code == 200
    body = response.json()
    assert body["start_number"] == 3
    assert body["arrived_at"] is not None
    first = body["arrived_at"]
    # Again: the first time stays.
    again = client.post(entry_url(tournament, 3), headers=headers["desk"]).json()
    assert again["arrived_at"] == first
    response = client.delete(entry_url(tournament, 3), headers=headers["desk"])
    assert response.status_code == 200
    assert response.json()["arrived_at"] is None
    assert tournament.entries.get(start_number=3).arrived_at is None


def test_the_list_gives_the_counts_and_every_active_player(client, world):
    tournament, headers, organiser = world
    entry_check_in(entry=tournament.entries.get(start_number=1), by=organiser)
    services.entry_withdraw(entry=tournament.entries.get(start_number=8))
    response = client.get(reverse("api:check-in", args=[tournament.slug]), headers=headers["desk"])
    assert response.status_code == 200
    body = response.json()
    # The withdrawal freed a place before the first draw: the first waiting player moved up.
    assert {key: body[key] for key in ("registered", "arrived", "missing", "waiting")} == {
        "registered": 8,
        "arrived": 1,
        "missing": 7,
        "waiting": 1,
    }
    assert body["withdrawn"] == 1
    assert [player["start_number"] for player in body["players"]] == [1, 2, 3, 4, 5, 6, 7, 9]
    assert body["players"][0]["arrived_at"] is not None
    assert body["players"][-1] == {
        "start_number": 9,
        "name": "Wartende Erste",
        "arrived_at": None,
        "claim": None,
    }


def test_the_no_shows_go_and_the_waiting_list_moves_up(client, world):
    tournament, headers, organiser = world
    for entry in factories.entries(tournament)[:7]:
        entry_check_in(entry=entry, by=organiser)
    url = reverse("api:no-shows-withdraw", args=[tournament.slug])
    response = client.post(url, headers=headers["organiser"])
    assert response.status_code == 200
    assert response.json() == {
        "withdrawn": [8],
        "moved_up": [{"name": "Wartende Erste", "start_number": 9}],
    }
    assert tournament.entries.get(start_number=8).status == Entry.Status.WITHDRAWN


def test_no_shows_while_nobody_checked_in_is_a_400_on_entries(client, world):
    tournament, headers, _organiser = world
    response = client.post(
        reverse("api:no-shows-withdraw", args=[tournament.slug]), headers=headers["organiser"]
    )
    assert response.status_code == 400
    assert list(response.json()) == ["entries"]
    assert "Nobody has checked in yet" in response.json()["entries"][0]
    assert not tournament.entries.filter(status=Entry.Status.WITHDRAWN).exists()


def test_no_shows_after_a_draw_is_a_400_on_rounds(client, world):
    tournament, headers, organiser = world
    entry_check_in(entry=tournament.entries.get(start_number=1), by=organiser)
    factories.seated_round(tournament)
    response = client.post(
        reverse("api:no-shows-withdraw", args=[tournament.slug]), headers=headers["organiser"]
    )
    assert response.status_code == 400
    assert list(response.json()) == ["rounds"]
    assert not tournament.entries.filter(status=Entry.Status.WITHDRAWN).exists()


@pytest.mark.parametrize("role", ["desk", "adjudicator"])
def test_only_organisers_withdraw_the_no_shows(client, world, role):
    tournament, headers, organiser = world
    entry_check_in(entry=tournament.entries.get(start_number=1), by=organiser)
    response = client.post(
        reverse("api:no-shows-withdraw", args=[tournament.slug]), headers=headers[role]
    )
    assert response.status_code == 403
    assert "Only an organiser withdraws the players who did not come." in response.json()["detail"]
    assert not tournament.entries.filter(status=Entry.Status.WITHDRAWN).exists()


def test_others_do_not_check_in_nor_read_the_list(client, world):
    tournament, headers, _organiser = world
    for response in (
        client.post(entry_url(tournament, 1), headers=headers["adjudicator"]),
        client.get(reverse("api:check-in", args=[tournament.slug]), headers=headers["adjudicator"]),
    ):
        assert response.status_code == 403
        assert "Only an organiser or the desk" in response.json()["detail"]
    assert client.post(entry_url(tournament, 1)).status_code == 401
    assert tournament.entries.get(start_number=1).arrived_at is None


def test_a_withdrawn_player_is_a_400_on_status_and_an_unknown_one_a_404(client, world):
    tournament, headers, _organiser = world
    services.entry_withdraw(entry=tournament.entries.get(start_number=2))
    response = client.post(entry_url(tournament, 2), headers=headers["desk"])
    assert response.status_code == 400
    assert list(response.json()) == ["status"]
    assert client.post(entry_url(tournament, 99), headers=headers["desk"]).status_code == 404
    response = client.post(
        reverse("api:entry-check-in", args=["no-such-tournament", 1]), headers=headers["desk"]
    )
    assert response.status_code == 404


def test_a_body_is_ignored_and_never_a_500(client, world):
    tournament, headers, _organiser = world
    for body in ('{"arrived_at": "\\u0000"}', "[1, 2]", '"x"'):
        response = client.post(
            entry_url(tournament, 1),
            body,
            content_type="application/json",
            headers=headers["desk"],
        )
        assert response.status_code in {200, 400}


def test_the_players_arrival_is_the_desks_to_read(client, world):
    tournament, headers, organiser = world
    entry_check_in(entry=tournament.entries.get(start_number=1), by=organiser)
    url = reverse("api:entries", args=[tournament.slug])
    [first, *_rest] = client.get(url, headers=headers["desk"]).json()
    assert first["arrived_at"] is not None
    [first, *_rest] = client.get(url).json()
    assert first["arrived_at"] is None
