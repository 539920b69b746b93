"""Sanctions for unsporting conduct through the API (TSR 9.6): imposed by the panel,
or by the adjudicator alone as a bound decision, and the appeals against those (TSR 9.6.3)."""

import pytest

from adjudication import services
from adjudication.models import Offence, Sanction
from adjudication.selectors import sheet_adjudication
from tests import factories
from tests.adjudication.api.helpers import send, url
from tests.adjudication.helpers import seat_entry
from tournaments import services as tournament_services

pytestmark = pytest.mark.django_db


def test_the_panel_deducts_points(api, tournament, sheet, staff):
    entry = seat_entry(sheet, 3)
    response = send(
        api,
        "post",
        url("api:sanctions", tournament),
        staff["panel"][0],
        {
            "start_number": entry.start_number,
            "round": 1,
            "kind": "deduction",
            "points": 6,
            "reasons": "Insulted the table.",
            "members": ["panel1", "panel2", "panel3"],
        },
    )
    assert response.status_code == 201
    data = response.json()
    assert (data["start_number"], data["player"], data["round"]) == (
        entry.start_number,
        entry.player.name,
        1,
    )
    assert (data["kind"], data["points"], data["offence"]) == ("deduction", 6, None)
    assert data["members"] == ["panel1", "panel2", "panel3"]
    assert Sanction.objects.get().points == 6
    listed = send(api, "get", url("api:sanctions", tournament), staff["organiser"]).json()
    assert listed == [data]


def test_the_adjudicator_gives_a_bound_decision_only(api, tournament, sheet, staff):
    services.offences_default(tournament=tournament, by=staff["organiser"])
    bound = Offence.objects.get(tournament=tournament, bound=True)
    free = Offence.objects.filter(kind="unsporting", bound=False).first()
    entry = seat_entry(sheet, 1)
    data = {"start_number": entry.start_number, "round": 1, "kind": "warning", "reasons": "x"}
    path = url("api:sanctions", tournament)
    given = send(api, "post", path, staff["adjudicator"], data | {"offence": bound.pk})
    assert given.status_code == 201
    assert given.json()["offence"] == {
        "id": bound.pk,
        "code": "counting-aloud",
        "name": "Counting trumps or card points aloud",
        "rule": "TSR 9.1.4",
    }
    assert given.json()["members"] == []
    refused = send(api, "post", path, staff["adjudicator"], data | {"offence": free.pk})
    assert refused.status_code == 403
    assert "TSR 9.6.2" in refused.json()["detail"]
    other = send(
        api,
        "post",
        path,
        staff["adjudicator"],
        data | {"offence": bound.pk, "kind": "deduction", "points": 3},
    )
    assert other.status_code == 400
    assert "TSR 9.6.3" in other.json()["kind"][0]
    assert Sanction.objects.count() == 1


def bound_sanction(api, tournament, sheet, staff, *, points=4) -> dict:
    offence = services.offence_save(
        tournament=tournament,
        name="Mobile phone rang",
        kind=Offence.Kind.UNSPORTING,
        bound=True,
        deduction=points,
        by=staff["organiser"],
    )
    return send(
        api,
        "post",
        url("api:sanctions", tournament),
        staff["adjudicator"],
        {
            "start_number": seat_entry(sheet, 3).start_number,
            "round": 1,
            "kind": "deduction",
            "points": points,
            "offence": offence.pk,
            "reasons": "It rang in hand 3.",
        },
    ).json()


def test_a_bound_decision_is_appealed_and_the_panel_annuls_it(api, tournament, sheet, staff):
    """TSR 8.2.1, 9.6.3: the points the adjudicator deducted alone go to the panel; annulled,
    they no longer count."""
    given = bound_sanction(api, tournament, sheet, staff)
    assert (given["status"], given["appeal"], given["members"]) == ("in_force", None, [])
    lodged = send(
        api,
        "post",
        url("api:sanction-appeal", tournament, given["id"]),
        staff["adjudicator"],
        {"grounds": "Not my phone"},
    )
    assert lodged.status_code == 201
    appeal = lodged.json()
    assert appeal["decision"] is None
    assert appeal["sanction"] == {
        "id": given["id"],
        "start_number": given["start_number"],
        "round": 1,
        "kind": "deduction",
        "points": 4,
    }
    assert appeal["appellant"] == 3
    again = send(api, "post", url("api:sanction-appeal", tournament, given["id"]), staff["deputy"])
    assert again.status_code == 400
    assert "sanction" in again.json()
    decided = send(
        api,
        "post",
        url("api:appeal-decide", tournament, appeal["id"]),
        staff["panel"][0],
        {"outcome": "annul", "members": ["panel1", "panel2"], "reasons": "Not his phone."},
    )
    assert decided.status_code == 200
    assert decided.json()["outcome"] == "annul"
    listed = send(api, "get", url("api:sanctions", tournament), staff["organiser"]).json()
    assert listed[0]["status"] == "annulled"
    assert listed[0]["appeal"]["outcome"] == "annul"
    assert sheet_adjudication(sheet=sheet).deductions == {}


def test_the_panel_changes_a_bound_decisions_points(api, tournament, sheet, staff):
    given = bound_sanction(api, tournament, sheet, staff)
    appeal = services.appeal_lodge(
        sanction=Sanction.objects.get(pk=given["id"]), by=staff["adjudicator"]
    )
    path = url("api:appeal-decide", tournament, appeal.pk)
    decision = {"outcome": "change", "members": ["panel1"], "reasons": "Once."}
    for payload, field in [
        ({}, "sanction"),
        ({"ruling": {"severity": "minor"}}, "ruling"),
        ({"sanction": {"kind": "disqualification"}}, "sanction"),
        ({"sanction": {"kind": "deduction"}}, "sanction"),
    ]:
        refused = send(api, "post", path, staff["panel"][0], decision | payload)
        assert refused.status_code == 400, payload
        assert field in refused.json(), refused.json()
    changed = send(
        api,
        "post",
        path,
        staff["panel"][0],
        decision | {"sanction": {"kind": "deduction", "points": 2}},
    ).json()
    own = Sanction.objects.get(appeal=appeal)
    assert changed["replacement_sanction"] == own.pk
    assert changed["replacement"] is None
    listed = {
        s["id"]: s
        for s in send(api, "get", url("api:sanctions", tournament), staff["deputy"]).json()
    }
    assert listed[given["id"]]["status"] == "superseded"
    assert (listed[own.pk]["points"], listed[own.pk]["decided_on_appeal"]) == (2, appeal.pk)
    assert sheet_adjudication(sheet=sheet).deductions == {3: -2}


def test_a_sanction_names_a_player_and_round_there_are(api, tournament, sheet, staff):
    path = url("api:sanctions", tournament)
    data = {"round": 7, "kind": "warning", "reasons": "x", "members": ["panel1", "ghost"]}
    missing = send(api, "post", path, staff["panel"][0], data | {"start_number": 99})
    assert missing.status_code == 400
    assert missing.json() == {
        "start_number": ["No player has start number 99."],
        "round": ["There is no round 7."],
        "members": ["No such user: ghost."],
    }
    late = tournament_services.entry_create(tournament=tournament, player=factories.player())
    not_playing = send(
        api,
        "post",
        path,
        staff["panel"][0],
        data | {"start_number": late.start_number, "round": 1, "members": ["panel1"]},
    )
    assert not_playing.status_code == 400
    assert list(not_playing.json()) == ["start_number"]
    too_many = send(
        api,
        "post",
        path,
        staff["panel"][0],
        {
            "start_number": seat_entry(sheet, 1).start_number,
            "round": 1,
            "kind": "deduction",
            "points": 13,
            "reasons": "x",
            "members": ["panel1"],
        },
    )
    assert "TSR 9.6.2 b" in too_many.json()["points"][0]
    assert not Sanction.objects.exists()
