"""The arbitration panel's decision on an appeal through the API (TSR 8.2.1): it upholds,
changes with its own ruling or annuls, and what it sends is checked by field."""

import pytest

from adjudication import services
from adjudication.models import Decision
from doko.rules.penalty import Severity
from tests.adjudication.api.helpers import appealed, send, url

pytestmark = pytest.mark.django_db
Ruling = services.Ruling


def test_the_panel_changes_a_decision(api, tournament, sheet, staff):
    appeal = appealed(sheet, staff, ruling=Ruling(Severity.MAJOR), hand=5, offender=2)
    response = send(
        api,
        "post",
        url("api:appeal-decide", tournament, appeal.pk),
        staff["panel"][0],
        {
            "outcome": "change",
            "members": ["panel1", "panel2", "panel3"],
            "reasons": "The breach could not decide the game.",
            "interruption": 8,
            "ruling": {"severity": "minor"},
        },
    )
    assert response.status_code == 200
    data = response.json()
    assert data["outcome"] == "change"
    assert data["members"] == ["panel1", "panel2", "panel3"]
    assert data["decided_by"] == "panel1"
    assert data["interruption"] == 8
    replacement = Decision.objects.get(appeal=appeal)
    assert data["replacement"] == replacement.pk
    decisions = send(api, "get", url("api:decisions", tournament), staff["adjudicator"]).json()
    assert [(d["status"], d["decided_on_appeal"]) for d in decisions] == [
        ("superseded", None),
        ("initialled", appeal.pk),
    ]
    assert decisions[0]["appeal"]["replacement"] == replacement.pk
    assert decisions[1]["penalty"] == {"1": 1, "2": -3, "3": 1, "4": 1}
    appeals = send(api, "get", url("api:appeals", tournament), staff["organiser"]).json()
    assert appeals == [data]


def test_the_panel_upholds_and_annuls(api, tournament, sheet, staff):
    upheld = appealed(sheet, staff)
    response = send(
        api,
        "post",
        url("api:appeal-decide", tournament, upheld.pk),
        staff["panel"][1],
        {"outcome": "uphold", "members": ["panel2"], "reasons": "As ruled."},
    )
    assert response.json()["outcome"] == "uphold"
    annulled = appealed(sheet, staff, hand=4, offender=1)
    send(
        api,
        "post",
        url("api:appeal-decide", tournament, annulled.pk),
        staff["panel"][1],
        {"outcome": "annul", "members": ["panel2"], "reasons": "No breach."},
    )
    assert Decision.objects.get(pk=annulled.decision_id).status == Decision.Status.ANNULLED
    final = send(
        api,
        "post",
        url("api:appeal-decide", tournament, upheld.pk),
        staff["panel"][1],
        {"outcome": "annul", "members": ["panel2"], "reasons": "Second thoughts."},
    )
    assert final.status_code == 400
    assert "TSR 8.2.1" in final.json()["outcome"][0]


@pytest.mark.parametrize(
    ("decision", "errors"),
    [
        (
            {"outcome": "change", "members": ["panel1"], "reasons": "x"},
            {
                "ruling": [
                    "The panel gives its own ruling when, and only when, it changes the decision."
                ]
            },
        ),
        (
            {"outcome": "uphold", "members": ["panel1", "nobody"], "reasons": "x"},
            {"members": ["No such user: nobody."]},
        ),
        (
            {"outcome": "uphold", "members": ["adjudicator"], "reasons": "x"},
            {"members": ["Not on this tournament's arbitration panel: adjudicator."]},
        ),
        (
            {"outcome": "uphold", "members": [], "reasons": "x"},
            {"members": ["Name the members of the arbitration panel."]},
        ),
        (
            {"outcome": "uphold", "members": ["panel1"], "reasons": " "},
            {"reasons": ["The arbitration panel's decision gives its reasons (TSR 8.2.1)."]},
        ),
        (
            {"outcome": "maybe", "members": ["panel1"], "reasons": "x"},
            {"outcome": ['"maybe" is not a valid choice.']},
        ),
    ],
)
def test_the_panels_decision_is_checked_by_field(api, tournament, sheet, staff, decision, errors):
    appeal = appealed(sheet, staff)
    response = send(
        api, "post", url("api:appeal-decide", tournament, appeal.pk), staff["panel"][0], decision
    )
    assert response.status_code == 400
    assert response.json() == errors
    appeal.refresh_from_db()
    assert appeal.outcome == ""


def test_the_panels_own_ruling_is_checked_inside_it(api, tournament, sheet, staff):
    appeal = appealed(sheet, staff)
    response = send(
        api,
        "post",
        url("api:appeal-decide", tournament, appeal.pk),
        staff["panel"][0],
        {
            "outcome": "change",
            "members": ["panel1"],
            "reasons": "x",
            "ruling": {"severity": "minor", "penalty": {"1": 2, "2": -2, "3": 0, "4": 0}},
        },
    )
    assert response.status_code == 400
    assert list(response.json()["ruling"]) == ["penalty", "deviation_reason"]
    assert not Decision.objects.filter(appeal=appeal).exists()
