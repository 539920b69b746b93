"""The JSON API, its schema and its documentation."""

import pytest
from django.urls import reverse

from scoring import services as scoring_services
from scoring.models import Scoresheet
from tests import factories
from tests.sheets import full_match

pytestmark = pytest.mark.django_db


@pytest.fixture
def tournament():
    tournament = factories.tournament(players=8, name="API-Pokal")
    round_ = factories.seated_round(tournament)
    for sheet in Scoresheet.objects.filter(table__round=round_):
        scoring_services.scoresheet_hands_replace(scoresheet=sheet, hands=full_match(), version=1)
    return tournament


def test_tournaments_are_listed(client, tournament):
    data = client.get(reverse("api-tournaments")).json()
    assert data["count"] == 1
    assert data["results"][0]["slug"] == tournament.slug
    assert data["results"][0]["entry_count"] == 8


def test_private_tournaments_are_not_listed_for_anonymous_clients(client, tournament):
    factories.tournament(is_public=False)
    assert client.get(reverse("api-tournaments")).json()["count"] == 1


def test_round_lists_tables_with_seats_in_order(client, tournament):
    data = client.get(reverse("api-round", args=[tournament.slug, 1])).json()
    assert data["round"]["table_count"] == 2
    table = data["tables"][0]
    assert [seat["position"] for seat in table["seats"]] == [1, 2, 3, 4]
    assert table["hand_count"] == 28
    assert sum(seat["points"] for t in data["tables"] for seat in t["seats"]) == 0


@pytest.mark.parametrize("players", [8, 32])
def test_round_detail_runs_a_fixed_number_of_queries(client, django_assert_num_queries, players):
    tournament = factories.tournament(players=players)
    factories.seated_round(tournament)
    with django_assert_num_queries(4):
        client.get(reverse("api-round", args=[tournament.slug, 1]))


def test_token_authentication(client, tournament):
    factories.user(username="schiri")
    token = client.post(
        reverse("api-token"), {"username": "schiri", "password": "a-long-test-password"}
    ).json()["token"]
    response = client.get(reverse("api-tournaments"), headers={"Authorization": f"Token {token}"})
    assert response.status_code == 200
    wrong = client.get(reverse("api-tournaments"), headers={"Authorization": "Token nope"})
    assert wrong.status_code == 401


def test_schema_documents_the_endpoints(client):
    response = client.get(reverse("api-schema"), headers={"Accept": "application/json"})
    assert response.status_code == 200
    paths = response.json()["paths"]
    assert "/api/v1/tournaments/{slug}/rounds/{number}/" in paths


def test_docs_are_served_without_external_assets(client):
    page = client.get(reverse("api-docs")).content.decode()
    assert "swagger-ui" in page
    assert "//cdn" not in page
    assert "https://" not in page.split("<body")[0]


def test_schema_generates_without_warnings(tmp_path):
    from django.core.management import call_command

    call_command(
        "spectacular", "--validate", "--fail-on-warn", "--file", str(tmp_path / "schema.yml")
    )
    assert "/api/v1/rules/hand-value" in (tmp_path / "schema.yml").read_text()
