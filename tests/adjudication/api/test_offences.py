"""The catalogue of standard offences through the API (TSR 9.6.3)."""

import pytest

from adjudication import services
from adjudication.models import Offence
from doko.rules.penalty import Severity
from tests import factories
from tests.adjudication.api.helpers import complaint, send, url

pytestmark = pytest.mark.django_db


def test_the_catalogue_is_kept(api, tournament, staff):
    path = url("api:offences", tournament)
    created = send(
        api,
        "post",
        path,
        staff["adjudicator"],
        {"name": "Revoke", "kind": "breach", "severity": "major", "rule": "TSR 5.2.2"},
    )
    assert created.status_code == 201
    offence = created.json()
    assert offence == {
        "id": offence["id"],
        "code": None,
        "name": "Revoke",
        "rule": "TSR 5.2.2",
        "kind": "breach",
        "severity": "major",
        "bound": False,
        "deduction": None,
    }
    changed = send(
        api,
        "put",
        url("api:offence", tournament, offence["id"]),
        staff["organiser"],
        {"name": "Counting aloud", "kind": "unsporting", "bound": True, "deduction": 2},
    )
    assert changed.status_code == 200
    assert changed.json()["severity"] is None
    assert changed.json()["deduction"] == 2
    defaults = send(api, "post", url("api:offences-defaults", tournament), staff["panel"][0])
    assert defaults.status_code == 201
    assert len(defaults.json()) == 6
    again = send(api, "post", url("api:offences-defaults", tournament), staff["panel"][0])
    assert (again.status_code, again.json()) == (200, [])
    assert len(send(api, "get", path, staff["adjudicator"]).json()) == 7
    deleted = send(api, "delete", url("api:offence", tournament, offence["id"]), staff["organiser"])
    assert deleted.status_code == 204
    assert not Offence.objects.filter(pk=offence["id"]).exists()


def test_a_bound_decision_without_points_and_a_name_twice_are_refused(api, tournament, staff):
    path = url("api:offences", tournament)
    no_points = send(
        api, "post", path, staff["organiser"], {"name": "X", "kind": "unsporting", "bound": True}
    )
    assert no_points.status_code == 400
    assert "deduction" in no_points.json()
    send(api, "post", path, staff["organiser"], {"name": "X", "kind": "unsporting"})
    twice = send(api, "post", path, staff["organiser"], {"name": "X", "kind": "unsporting"})
    assert twice.status_code == 400
    assert twice.json() == {"name": ["The catalogue has “X” already."]}
    assert Offence.objects.count() == 1


def test_an_offence_named_in_a_decision_stays(api, tournament, sheet, staff):
    offence = services.offence_save(
        tournament=tournament,
        name="Revoke",
        kind=Offence.Kind.BREACH,
        severity=Severity.MAJOR,
        by=staff["adjudicator"],
    )
    complaint(sheet, staff, offence=offence, description="")
    response = send(api, "delete", url("api:offence", tournament, offence.pk), staff["organiser"])
    assert response.status_code == 400
    assert response.json() == {
        "non_field_errors": ["“Revoke” is named in decisions already and stays in the catalogue."]
    }
    assert Offence.objects.filter(pk=offence.pk).exists()


def test_another_tournaments_offence_is_not_found(api, tournament, staff):
    other = factories.tournament(organiser=staff["organiser"])
    offence = services.offence_save(
        tournament=other, name="X", kind=Offence.Kind.UNSPORTING, by=staff["organiser"]
    )
    response = send(
        api,
        "put",
        url("api:offence", tournament, offence.pk),
        staff["organiser"],
        {"name": "Y", "kind": "unsporting"},
    )
    assert response.status_code == 404
    offence.refresh_from_db()
    assert offence.name == "X"
