"""The JSON API as a whole: token authentication, the schema and its documentation. Each
app's endpoints are tested with the app (tests/<app>/api/, tests/scoring/test_*api.py)."""

import re

import pytest
from django.urls import reverse

from tests import factories

pytestmark = pytest.mark.django_db


def test_token_authentication(client):
    factories.user(username="schiri")
    token = client.post(
        reverse("api:token"), {"username": "schiri", "password": "a-long-test-password"}
    ).json()["token"]
    response = client.get(reverse("api:tournaments"), headers={"Authorization": f"Token {token}"})
    assert response.status_code == 200
    wrong = client.get(reverse("api:tournaments"), headers={"Authorization": "Token nope"})
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


def _schema(client) -> dict:
    return client.get(reverse("api-schema"), headers={"Accept": "application/json"}).json()


def test_schema_lets_a_standings_result_be_null_for_a_round_not_played(client):
    results = _schema(client)["components"]["schemas"]["StandingsRow"]["properties"]["results"]
    assert results["items"]["nullable"] is True
    assert results["items"]["allOf"] == [{"$ref": "#/components/schemas/RoundResult"}]


def test_schema_offers_a_blank_ddv_number_as_one_alternative_only(client):
    ddv_number = _schema(client)["components"]["schemas"]["Entry"]["properties"]["ddv_number"]
    pattern, blank = ddv_number["oneOf"]
    assert not re.fullmatch(pattern["pattern"].strip("^$"), "")
    assert blank["maxLength"] == 0
