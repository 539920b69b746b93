"""The tournaments API for a tournament's life (issue 32): DELETE on the tournament while none
of its sheets is confirmed, archiving with POST and DELETE on …/archive, the list without the
archived ones, the short name changed with PATCH, and a copy with the players and staff
chosen."""

import pytest
from django.contrib.auth.models import Group
from django.urls import reverse
from rest_framework.authtoken.models import Token

from adjudication.models import RoleOffer
from tests import factories
from tests.tournaments.helpers import play
from tournaments import policies
from tournaments.models import Tournament, TournamentRole

pytestmark = pytest.mark.django_db


def _token(user, language: str = "en") -> dict:
    return {
        "Authorization": f"Token {Token.objects.create(user=user).key}",
        "Accept-Language": language,
    }


def _creator():
    user = factories.user()
    user.groups.add(Group.objects.get(name=policies.ORGANISERS_GROUP))
    return user


def _archive(client, method: str, slug: str, headers: dict):
    return getattr(client, method)(reverse("api:tournament-archive", args=[slug]), headers=headers)


def test_the_organiser_deletes_a_tournament_without_confirmed_sheets(client):
    organiser = factories.user()
    tournament = factories.tournament(players=8, organiser=organiser)
    services_round = factories.seated_round(tournament)
    assert services_round.tables.count() == 2
    response = client.delete(
        reverse("api:tournament", args=[tournament.slug]), headers=_token(organiser)
    )
    assert response.status_code == 204
    assert not Tournament.objects.exists()


@pytest.mark.parametrize(
    ("language", "message"),
    [
        ("en", "8 scoresheets of this tournament are confirmed"),
        ("de", "8 Spiellisten dieses Turniers sind bestätigt"),
    ],
)
def test_a_tournament_with_confirmed_sheets_is_refused_on_scoresheets(client, language, message):
    organiser = factories.user()
    tournament = factories.tournament(players=32, organiser=organiser)
    play(tournament)
    response = client.delete(
        reverse("api:tournament", args=[tournament.slug]), headers=_token(organiser, language)
    )
    assert response.status_code == 400
    assert message in response.json()["scoresheets"][0]
    assert Tournament.objects.filter(pk=tournament.pk).exists()


def test_other_clubs_organisers_neither_delete_nor_archive(client):
    tournament = factories.tournament(players=4, organiser=factories.user())
    hidden = factories.tournament(players=4, organiser=factories.user(), is_public=False)
    other = _creator()
    factories.tournament(organiser=other)
    headers = _token(other)
    for slug, refused in ((tournament.slug, 403), (hidden.slug, 404)):
        url = reverse("api:tournament", args=[slug])
        assert client.delete(url, headers=headers).status_code == refused
        assert _archive(client, "post", slug, headers).status_code == refused
        assert _archive(client, "delete", slug, headers).status_code == refused
        assert client.delete(url).status_code == 401
    assert Tournament.objects.filter(archived_at__isnull=True).count() == 3


def test_an_archived_tournament_leaves_the_list_and_stays_at_its_address(client):
    organiser = factories.user()
    tournament = factories.tournament(organiser=organiser, name="Testturnier")
    factories.tournament(name="Herbstpokal")
    headers = _token(organiser)
    response = _archive(client, "post", tournament.slug, headers)
    assert response.status_code == 200
    assert response.json()["archived_at"] is not None
    listed = client.get(reverse("api:tournaments")).json()["results"]
    assert [row["name"] for row in listed] == ["Herbstpokal"]
    archived = client.get(reverse("api:tournaments"), {"archived": "true"}).json()["results"]
    assert [row["name"] for row in archived] == ["Testturnier"]
    detail = client.get(reverse("api:tournament", args=[tournament.slug]))
    assert detail.status_code == 200
    assert detail.json()["archived_at"] is not None
    response = _archive(client, "delete", tournament.slug, headers)
    assert response.status_code == 200
    assert response.json()["archived_at"] is None
    assert len(client.get(reverse("api:tournaments")).json()["results"]) == 2


@pytest.mark.parametrize(
    ("slug", "language", "message"),
    [
        ("Neu Name", "en", "letters, numbers, underscores or hyphens"),
        ("neu/name", "en", "letters, numbers, underscores or hyphens"),
        ("vergeben", "de", "existiert bereits"),
        ("new", "en", "taken by the pages themselves"),
        ("NeuName", "en", "lower-case letters, digits and hyphens only"),
    ],
)
def test_a_short_name_patched_that_is_no_link_or_taken_is_refused_on_slug(
    client, slug, language, message
):
    organiser = factories.user()
    factories.tournament(slug="vergeben")
    tournament = factories.tournament(organiser=organiser, slug="herbst")
    response = client.patch(
        reverse("api:tournament", args=[tournament.slug]),
        {"slug": slug, "venue": "Celle"},
        content_type="application/json",
        headers=_token(organiser, language),
    )
    assert response.status_code == 400
    assert message in " ".join(response.json()["slug"])
    tournament.refresh_from_db()
    assert (tournament.slug, tournament.venue) == ("herbst", "")


def test_a_copy_takes_the_players_and_staff_chosen(client):
    organiser = _creator()
    source = factories.tournament(players=4, organiser=organiser)
    referee = factories.adjudicator(source)
    from tournaments import services

    services.entry_withdraw(entry=source.entries.get(start_number=3))
    body = {
        "name": "Neu",
        "starts_on": "2027-03-01",
        "copy_from": source.slug,
        "copy_entries": [3, 4],
        "copy_staff": True,
    }
    response = client.post(
        reverse("api:tournaments"), body, content_type="application/json", headers=_token(organiser)
    )
    assert response.status_code == 201
    copy = Tournament.objects.get(slug=response.json()["slug"])
    assert list(copy.entries.values_list("start_number", "status")) == [
        (3, "active"),
        (4, "active"),
    ]
    # The organiser holds his role at once; the adjudicator is offered his again.
    assert set(copy.roles.values_list("user", "role")) == {
        (organiser.pk, TournamentRole.Role.ORGANISER),
    }
    assert set(RoleOffer.objects.filter(tournament=copy).values_list("user", "role")) == {
        (referee.pk, TournamentRole.Role.ADJUDICATOR),
    }


def test_copy_players_registers_the_active_players_only(client):
    organiser = _creator()
    source = factories.tournament(players=4, organiser=organiser)
    from tournaments import services

    services.entry_withdraw(entry=source.entries.get(start_number=2))
    body = {"name": "Neu", "starts_on": "2027-03-01", "copy_from": source.slug}
    response = client.post(
        reverse("api:tournaments"),
        {**body, "copy_players": True},
        content_type="application/json",
        headers=_token(organiser),
    )
    assert response.status_code == 201
    assert response.json()["entry_count"] == 3
    copy = Tournament.objects.get(slug=response.json()["slug"])
    assert list(copy.entries.values_list("start_number", flat=True)) == [1, 3, 4]
    assert list(copy.roles.values_list("user", flat=True)) == [organiser.pk]


def test_an_unknown_start_number_to_copy_is_refused_on_copy_entries(client):
    organiser = _creator()
    source = factories.tournament(players=4, organiser=organiser)
    body = {
        "name": "Neu",
        "starts_on": "2027-03-01",
        "copy_from": source.slug,
        "copy_entries": [1, 5],
    }
    response = client.post(
        reverse("api:tournaments"),
        body,
        content_type="application/json",
        headers=_token(organiser, "de"),
    )
    assert response.status_code == 400
    assert "hat die Startnummer 5" in response.json()["copy_entries"][0]
    assert Tournament.objects.count() == 1
