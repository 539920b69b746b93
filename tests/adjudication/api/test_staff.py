"""Appointing the staff through the API (TSR 8.2.1)."""

import pytest

from tests import factories
from tests.adjudication.api.helpers import send, url
from tournaments.models import TournamentRole

pytestmark = pytest.mark.django_db
Role = TournamentRole.Role


def test_the_organiser_appoints_and_revokes_staff(api, tournament, staff):
    newcomer = factories.user(username="newcomer", first_name="Nina", last_name="Neu")
    entry = tournament.entries.get(start_number=3)
    path = url("api-roles", tournament)
    granted = send(
        api,
        "post",
        path,
        staff["organiser"],
        {"username": "newcomer", "role": "panel", "start_number": 3},
    )
    assert granted.status_code == 201
    data = granted.json()
    assert data == {
        "id": data["id"],
        "username": "newcomer",
        "name": "Nina Neu",
        "role": "panel",
        "start_number": 3,
    }
    assert TournamentRole.objects.get(user=newcomer).entry == entry
    listed = send(api, "get", path, staff["panel"][0]).json()
    assert data in listed
    assert {(r["username"], r["role"]) for r in listed} >= {
        ("organiser", "organiser"),
        ("desk", "scorekeeper"),
    }
    revoked = send(api, "delete", url("api-role", tournament, data["id"]), staff["organiser"])
    assert revoked.status_code == 204
    assert not TournamentRole.objects.filter(user=newcomer).exists()


def test_only_the_organiser_appoints(api, tournament, staff):
    path = url("api-roles", tournament)
    refused = send(
        api, "post", path, staff["adjudicator"], {"username": "desk", "role": "organiser"}
    )
    assert refused.status_code == 403
    assert refused.json()["detail"] == "Only an organiser appoints the staff."
    assert not TournamentRole.objects.filter(user=staff["keeper"], role=Role.ORGANISER).exists()
    unknown = send(
        api,
        "post",
        path,
        staff["organiser"],
        {"username": "ghost", "role": "panel", "start_number": 99},
    )
    assert unknown.json() == {
        "username": ["No such user: ghost."],
        "start_number": ["No player has start number 99."],
    }
    own = TournamentRole.objects.get(user=staff["organiser"], role=Role.ORGANISER)
    last = send(api, "delete", url("api-role", tournament, own.pk), staff["organiser"])
    assert last.status_code == 400
    assert "role" in last.json()
