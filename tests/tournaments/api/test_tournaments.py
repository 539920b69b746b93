"""The tournaments API: the list, and what anonymous clients see of it."""

import pytest
from django.urls import reverse

from tests import factories

pytestmark = pytest.mark.django_db


def test_tournaments_are_listed(client, tournament):
    data = client.get(reverse("api:tournaments")).json()
    assert data["count"] == 1
    assert data["results"][0]["slug"] == tournament.slug
    assert data["results"][0]["entry_count"] == 8


@pytest.mark.parametrize(
    "query", [{"limit": 10**30}, {"offset": 10**30}, {"limit": 10**30, "offset": 1}]
)
def test_a_page_beyond_64_bits_is_no_error(client, tournament, query):
    """PostgreSQL refused such a limit ("bigint out of range"): capped, it asks for what is
    there."""
    response = client.get(reverse("api:tournaments"), query)
    assert response.status_code == 200
    assert len(response.json()["results"]) == (0 if query.get("offset", 0) else 1)


def test_private_tournaments_are_not_listed_for_anonymous_clients(client, tournament):
    factories.tournament(is_public=False)
    assert client.get(reverse("api:tournaments")).json()["count"] == 1


# Creating --------------------------------------------------------------------------------------


def _token(user) -> dict:
    from rest_framework.authtoken.models import Token

    return {"Authorization": f"Token {Token.objects.create(user=user).key}"}


def _creator():
    from django.contrib.auth.models import Group

    from tournaments import policies

    user = factories.user()
    user.groups.add(Group.objects.get(name=policies.ORGANISERS_GROUP))
    return user


def _post(client, body, headers):
    return client.post(
        reverse("api:tournaments"), body, content_type="application/json", headers=headers
    )


def test_a_tournament_is_created_with_its_slug_and_settings(client):
    from tournaments.models import Tournament

    user = _creator()
    response = _post(
        client,
        {
            "name": "Münster-Pokal",
            "starts_on": "2026-12-05",
            "ends_on": "2026-12-06",
            "planned_rounds": 6,
            "seating_method": "ddv",
            "allow_tables_of_five": True,
            "standings_public": False,
        },
        _token(user),
    )
    assert response.status_code == 201
    data = response.json()
    assert data["slug"] == "muenster-pokal-2026"
    assert (data["planned_rounds"], data["seating_method"]) == (6, "ddv")
    assert data["allow_tables_of_five"] is True
    assert data["standings_public"] is False
    assert data["hands_per_match"] == 24  # not given: the default
    assert (data["entry_count"], data["round_count"], data["current_round"]) == (0, 0, None)
    assert data["locked"] == {}
    tournament = Tournament.objects.get(slug="muenster-pokal-2026")
    assert tournament.roles.get().user == user


def test_creating_a_tournament_needs_a_login_and_the_permission(client):
    from tournaments.models import Tournament

    body = {"name": "Pokal", "starts_on": "2026-12-05"}
    assert _post(client, body, {}).status_code == 401
    refused = _post(client, body, _token(factories.user()))
    assert refused.status_code == 403
    assert "Organisers" in refused.json()["detail"]
    assert not Tournament.objects.exists()


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"starts_on": "2026-12-05"}, "name"),
        ({"name": "Pokal"}, "starts_on"),
        ({"name": "Pokal", "starts_on": "5.12.2026"}, "starts_on"),
        ({"name": "Pokal", "starts_on": "2026-12-05", "ends_on": "2026-12-04"}, "ends_on"),
        ({"name": "Pokal", "starts_on": "2026-12-05", "hands_per_match": 6}, "hands_per_match"),
        ({"name": "Pokal", "starts_on": "2026-12-05", "planned_rounds": 40000}, "planned_rounds"),
        ({"name": "Pokal", "starts_on": "2026-12-05", "seating_method": "x"}, "seating_method"),
        (
            {"name": "Pokal", "starts_on": "2026-12-05", "seating_method": "\ud800"},
            "seating_method",
        ),
        ({"name": "Pokal\x00", "starts_on": "2026-12-05"}, "name"),
        ({"name": "\ud800", "starts_on": "2026-12-05"}, "name"),
        ({"name": "Pokal", "starts_on": "2026-12-05", "slug": "new"}, "slug"),
        ({"name": "Pokal", "starts_on": "2026-12-05", "copy_from": "nirgends"}, "copy_from"),
    ],
)
def test_bad_input_is_400_naming_the_field(client, body, field):
    from tournaments.models import Tournament

    response = _post(client, body, _token(_creator()))
    assert response.status_code == 400
    assert field in response.json()
    assert not Tournament.objects.exists()


def test_a_slug_taken_is_400(client):
    factories.tournament(name="Pokal", slug="pokal")
    body = {"name": "Pokal", "starts_on": "2026-12-05", "slug": "pokal"}
    response = _post(client, body, _token(_creator()))
    assert response.status_code == 400
    assert "slug" in response.json()


@pytest.mark.parametrize("players", [False, True])
def test_a_tournament_is_created_from_an_earlier_one(client, players):
    user = _creator()
    source = factories.tournament(
        players=5, organiser=user, venue="Celle", planned_rounds=7, seating_method="standings"
    )
    body = {
        "name": "Neu",
        "starts_on": "2027-03-01",
        "copy_from": source.slug,
        "copy_players": players,
        "planned_rounds": 5,
    }
    response = _post(client, body, _token(user))
    assert response.status_code == 201
    data = response.json()
    assert (data["venue"], data["seating_method"], data["planned_rounds"]) == (
        "Celle",
        "standings",
        5,
    )
    assert data["entry_count"] == (5 if players else 0)


def test_a_tournament_organised_by_someone_else_is_not_copied(client):
    source = factories.tournament(players=5, organiser=factories.user())
    body = {"name": "Neu", "starts_on": "2027-03-01", "copy_from": source.slug}
    response = _post(client, body, {**_token(_creator()), "Accept-Language": "de"})
    assert response.status_code == 400
    assert response.json()["copy_from"] == ["Sie leiten kein Turnier mit diesem Kurznamen."]


# Changing the settings -------------------------------------------------------------------------


def _patch(client, tournament, body, headers):
    """A PATCH read in English, the language its messages are checked in."""
    return client.patch(
        reverse("api:tournament", args=[tournament.slug]),
        body,
        content_type="application/json",
        headers={"Accept-Language": "en", **headers},
    )


def test_the_organiser_changes_settings_with_patch(client, staffed):
    tournament, headers = staffed
    response = _patch(
        client, tournament, {"venue": "Celle", "tiebreaks": "start_number"}, headers["organiser"]
    )
    assert response.status_code == 200
    assert (response.json()["venue"], response.json()["tiebreaks"]) == ("Celle", "start_number")
    tournament.refresh_from_db()
    assert tournament.venue == "Celle"


def test_a_locked_setting_is_400_naming_it_with_the_reason(client, staffed):
    from tests.tournaments.helpers import play

    tournament, headers = staffed
    play(tournament)
    detail = client.get(
        reverse("api:tournament", args=[tournament.slug]), headers={"Accept-Language": "en"}
    ).json()
    assert "seating_method" in detail["locked"]
    response = _patch(
        client,
        tournament,
        {"seating_method": "standings", "venue": "Celle"},
        headers["organiser"],
    )
    assert response.status_code == 400
    assert response.json() == {"seating_method": [detail["locked"]["seating_method"]]}
    tournament.refresh_from_db()
    assert tournament.venue == ""


def test_the_planned_rounds_below_the_rounds_played_are_400(client):
    from tests.tournaments.helpers import play

    organiser = factories.user()
    tournament = factories.tournament(players=8, organiser=organiser, planned_rounds=4)
    play(tournament, rounds=2)
    response = _patch(client, tournament, {"planned_rounds": 1}, _token(organiser))
    assert response.status_code == 400
    assert "plan at least 2 rounds" in response.json()["planned_rounds"][0]


def test_the_slug_is_patched_until_the_seating_is_published(client, staffed):
    tournament, headers = staffed
    response = _patch(client, tournament, {"slug": "anders"}, headers["organiser"])
    assert response.status_code == 200
    assert response.json()["slug"] == "anders"
    tournament.refresh_from_db()
    factories.seated_round(tournament)
    response = _patch(client, tournament, {"slug": "wieder"}, headers["organiser"])
    assert response.status_code == 400
    assert "published" in response.json()["slug"][0]
    same = _patch(client, tournament, {"slug": tournament.slug}, headers["organiser"])
    assert same.status_code == 200


def test_only_the_organiser_patches_the_settings(client, staffed):
    tournament, headers = staffed
    assert _patch(client, tournament, {"venue": "X"}, {}).status_code == 401
    assert _patch(client, tournament, {"venue": "X"}, headers["adjudicator"]).status_code == 403
    assert _patch(client, tournament, {"venue": "X"}, _token(_creator())).status_code == 403
    tournament.refresh_from_db()
    assert tournament.venue == ""


def test_a_private_tournament_is_404_to_a_stranger_patching_it(client):
    tournament = factories.tournament(is_public=False, organiser=factories.user())
    assert _patch(client, tournament, {"venue": "X"}, _token(_creator())).status_code == 404


@pytest.mark.parametrize(
    "body",
    [
        {"hands_per_match": "viele"},
        {"venue": "\x00"},
        {"tiebreaks": "\ud800"},
        {"ends_on": "1999-01-01"},
        {"planned_rounds": -1},
    ],
)
def test_bad_settings_are_400(client, staffed, body):
    tournament, headers = staffed
    response = _patch(client, tournament, body, headers["organiser"])
    assert response.status_code == 400
    assert set(response.json()) == set(body)


def test_the_current_round_is_listed(client, tournament):
    data = client.get(reverse("api:tournaments")).json()["results"][0]
    assert (data["current_round"], data["current_round_status"]) == (1, "running")
