"""The adjudication API (TSR 8.2, 9): complaints, rulings, initials, appeals, sanctions, the
catalogue, the staff and the log, for the tournament's organisers, adjudicators and panel; every
write goes through the services, which say who may do it."""

import pytest
from django.urls import reverse

from adjudication import services
from adjudication.models import Appeal, Decision, Event, Offence, Sanction
from adjudication.selectors import sheet_adjudication
from doko.rules.penalty import Severity
from tests import factories
from tests.adjudication.api.helpers import appealed, complaint, decided, key, send, token, url
from tests.adjudication.helpers import MATCH, seat_entry
from tournaments import services as tournament_services
from tournaments.models import TournamentRole

pytestmark = pytest.mark.django_db
Role = TournamentRole.Role
Ruling = services.Ruling


# Complaints and rulings -------------------------------------------------------------------------


def test_the_adjudicator_records_a_complaint(api, tournament, sheet, staff):
    response = send(
        api,
        "post",
        url("api-decisions", tournament),
        staff["adjudicator"],
        {
            "round": 1,
            "table": 1,
            "hand_number": 3,
            "offender": 2,
            "complainant": 3,
            "description": "Trumped a club lead holding the club ten",
        },
    )
    assert response.status_code == 201
    data = response.json()
    decision = Decision.objects.get()
    assert data["id"] == decision.pk
    assert (data["round"], data["table"], data["hand_number"]) == (1, 1, 3)
    assert (data["offender"], data["complainant"]) == (2, 3)
    assert data["status"] == "open"
    assert data["severity"] is None
    assert data["penalty"] is None
    assert data["computed"] is None
    assert data["recorded_by"] == "adjudicator"
    assert data["initialled_by"] is None
    assert data["appeal"] is None
    assert Event.objects.get().action == Event.Action.COMPLAINT


def test_a_complaint_about_a_table_or_offence_not_there_is_refused_by_field(
    api, tournament, sheet, staff
):
    response = send(
        api,
        "post",
        url("api-decisions", tournament),
        staff["adjudicator"],
        {"round": 1, "table": 9, "hand_number": 1, "offender": 1, "offence": 999},
    )
    assert response.status_code == 400
    assert response.json() == {
        "table": ["Round 1 has no table 9."],
        "offence": ["There is no offence 999 in this tournament's catalogue."],
    }
    assert not Decision.objects.exists()


@pytest.mark.parametrize(
    ("fields", "field", "rule"),
    [
        ({"hand_number": 9}, "hand_number", None),
        ({"complainant": 2}, "complainant", "TSR 9.7.1"),
        ({"offender": 5}, "offender", None),
    ],
)
def test_the_services_rule_check_comes_back_by_field(
    api, tournament, sheet, staff, fields, field, rule
):
    data = {"round": 1, "table": 1, "hand_number": 3, "offender": 2, "description": "x"}
    response = send(
        api, "post", url("api-decisions", tournament), staff["adjudicator"], data | fields
    )
    assert response.status_code == 400
    errors = response.json()
    assert list(errors) == [field]
    if rule:
        assert rule in errors[field][0]
    assert not Decision.objects.exists()


def test_an_unsporting_offence_is_not_a_complaint_about_a_hand(api, tournament, sheet, staff):
    services.offences_default(tournament=tournament, by=staff["organiser"])
    unsporting = Offence.objects.filter(kind=Offence.Kind.UNSPORTING).first()
    response = send(
        api,
        "post",
        url("api-decisions", tournament),
        staff["adjudicator"],
        {"round": 1, "table": 1, "hand_number": 3, "offender": 2, "offence": unsporting.pk},
    )
    assert response.status_code == 400
    assert "TSR 9.6.2" in response.json()["offence"][0]


def test_a_silent_wedding_is_ruled_as_a_solo_after_the_second_queen_of_clubs(
    api, tournament, sheet, staff
):
    """TSR 4.4.5: the ruling's ``wedding_clarified_as_solo`` makes the holder of both Queens
    of Clubs the soloist; without it the silent wedding is still a normal game."""
    decision = complaint(sheet, staff, hand=5, offender=2)
    path = url("api-decision-ruling", tournament, decision.pk)
    payload = {"severity": "minor", "contract": "silent_wedding", "soloist": 4}
    before = send(api, "post", path, staff["adjudicator"], payload).json()
    assert (before["rule"], before["wedding_clarified_as_solo"]) == ("TSR 9.3.2", False)
    after = send(
        api,
        "post",
        path,
        staff["adjudicator"],
        payload | {"wedding_clarified_as_solo": True, "disadvantages_soloist": True},
    ).json()
    assert after["rule"] == "TSR 9.3.3 (b1)"
    assert after["penalty"] == {"1": 0, "2": -3, "3": 0, "4": 3}
    assert (after["soloist"], after["solo_type"]) == (4, "diamonds")
    assert after["wedding_clarified_as_solo"] is True
    refused = send(
        api,
        "post",
        path,
        staff["adjudicator"],
        {"severity": "minor", "wedding_clarified_as_solo": True},
    )
    assert refused.status_code == 400
    assert "TSR 4.4.3 b" in refused.json()["wedding_clarified_as_solo"][0]


def test_the_adjudicator_rules_and_initials(api, tournament, sheet, staff):
    decision = complaint(sheet, staff)
    ruled = send(
        api,
        "post",
        url("api-decision-ruling", tournament, decision.pk),
        staff["adjudicator"],
        {"severity": "minor"},
    )
    assert ruled.status_code == 200
    data = ruled.json()
    assert data["status"] == "draft"
    assert data["severity"] == "minor"
    assert data["penalty"] == {"1": 1, "2": -3, "3": 1, "4": 1}
    assert data["computed"] == data["penalty"]
    assert data["deviates"] is False
    assert data["rule"] == "TSR 9.3.2"
    initialled = send(
        api,
        "post",
        url("api-decision-initial", tournament, decision.pk),
        staff["deputy"],
    )
    assert initialled.status_code == 200
    data = initialled.json()
    assert data["status"] == "initialled"
    assert data["initialled_by"] == "deputy"
    assert data["initialled_at"] is not None
    decision.refresh_from_db()
    assert decision.status == Decision.Status.INITIALLED


def test_a_solo_ruling_and_a_major_breach_that_stops_the_hand(api, tournament, sheet, staff):
    solo = complaint(sheet, staff, hand=2, offender=2)
    response = send(
        api,
        "post",
        url("api-decision-ruling", tournament, solo.pk),
        staff["adjudicator"],
        {
            "severity": "minor",
            "contract": "compulsory_solo",
            "soloist": 1,
            "solo_type": "queens",
            "disadvantages_soloist": True,
        },
    )
    assert response.status_code == 200
    assert response.json()["penalty"] == {"1": 3, "2": -3, "3": 0, "4": 0}
    assert response.json()["rule"] == "TSR 9.3.3 (b1)"

    major = complaint(sheet, staff, hand=5, offender=1)
    send(
        api,
        "post",
        url("api-decision-ruling", tournament, major.pk),
        staff["adjudicator"],
        {"severity": "major", "announcements": 3},
    )
    data = send(
        api, "post", url("api-decision-initial", tournament, major.pk), staff["adjudicator"]
    ).json()
    assert data["hand_not_played"] is True
    assert data["penalty"] == {"1": -18, "2": 6, "3": 6, "4": 6}
    assert data["rule"] == "TSR 9.4.3"


def test_one_major_breach_ends_a_hand_and_nothing_more_in_it_counts(api, tournament, sheet, staff):
    """TSR 9.4.2, 9.7.6: a second major ruling on hand 3 is not initialled, and once the hand
    is ended no complaint about it is recorded; both refusals name the field and save
    nothing. The replay, line 4, takes complaints."""
    first = complaint(sheet, staff, hand=3, offender=2)
    second = complaint(sheet, staff, hand=3, offender=4)
    for decision in (first, second):
        send(
            api,
            "post",
            url("api-decision-ruling", tournament, decision.pk),
            staff["adjudicator"],
            {"severity": "major"},
        )
    initial = url("api-decision-initial", tournament, first.pk)
    assert send(api, "post", initial, staff["adjudicator"]).status_code == 200
    refused = send(
        api, "post", url("api-decision-initial", tournament, second.pk), staff["adjudicator"]
    )
    assert refused.status_code == 400
    assert "TSR 9.7.6" in refused.json()["hand_number"][0]
    assert Decision.objects.get(pk=second.pk).status == Decision.Status.DRAFT
    data = {"round": 1, "table": 1, "offender": 1, "description": "Revoke"}
    path = url("api-decisions", tournament)
    again = send(api, "post", path, staff["adjudicator"], data | {"hand_number": 3})
    assert again.status_code == 400
    assert list(again.json()) == ["hand_number"]
    assert Decision.objects.count() == 2
    replay = send(api, "post", path, staff["adjudicator"], data | {"hand_number": 4})
    assert replay.status_code == 201


def test_an_opponents_major_breach_in_a_solo_takes_the_solos_game_points(
    api, tournament, sheet, staff
):
    """TSR 9.4.4: initialled, the decision says the solo counts as played without game points;
    the scoresheet API shows hand 2 with a game value of 0, and the scorekeeper's PUT that
    would give it back its points is refused with nothing saved."""
    decision = complaint(sheet, staff, hand=2, offender=3)
    send(
        api,
        "post",
        url("api-decision-ruling", tournament, decision.pk),
        staff["adjudicator"],
        {"severity": "major", "contract": "compulsory_solo", "soloist": 1, "solo_type": "queens"},
    )
    data = send(
        api, "post", url("api-decision-initial", tournament, decision.pk), staff["adjudicator"]
    ).json()
    assert data["played_without_game_points"] is True
    assert data["hand_not_played"] is False
    assert data["penalty"] == {"1": 12, "2": 0, "3": -12, "4": 0}
    sheet_path = reverse("api-scoresheet", args=[tournament.slug, 1, 1])
    shown = send(api, "get", sheet_path, staff["adjudicator"]).json()
    assert shown["hands"][1]["game_value"] == 0
    assert shown["hands"][1]["points"] == {"1": 0, "2": 0, "3": 0, "4": 0}
    hands = [
        {
            "contract": str(line.contract),
            "dealer": line.dealer,
            "soloist": line.soloist,
            "solo_type": str(line.solo_type) if line.solo_type else None,
            "game_value": line.game_value,
            "points": {str(seat): points for seat, points in line.points.items()},
        }
        for line in MATCH[:4]
    ]
    refused = api.put(
        sheet_path,
        {"version": shown["version"], "hands": hands},
        format="json",
        headers={**key(sheet, 4), "Accept-Language": "en"},
    )
    assert refused.status_code == 400
    assert "TSR 9.4.4" in str(refused.json())
    assert send(api, "get", sheet_path, staff["adjudicator"]).json()["version"] == shown["version"]


def test_a_deviation_needs_a_reason(api, tournament, sheet, staff):
    decision = complaint(sheet, staff)
    path = url("api-decision-ruling", tournament, decision.pk)
    points = {"1": 3, "2": -3, "3": 0, "4": 0}
    refused = send(
        api, "post", path, staff["adjudicator"], {"severity": "minor", "penalty": points}
    )
    assert refused.status_code == 400
    assert list(refused.json()) == ["deviation_reason"]
    assert "TSR 9.3.2" in refused.json()["deviation_reason"][0]
    not_zero = send(
        api,
        "post",
        path,
        staff["adjudicator"],
        {"severity": "minor", "penalty": {"1": 3, "2": -2}, "deviation_reason": "x"},
    )
    assert "zero" in not_zero.json()["penalty"][0]
    ruled = send(
        api,
        "post",
        path,
        staff["adjudicator"],
        {
            "severity": "minor",
            "penalty": points,
            "deviation_reason": "Only seat 1 was put at a disadvantage",
        },
    )
    assert ruled.status_code == 200
    data = ruled.json()
    assert data["deviates"] is True
    assert data["penalty"] == points
    assert data["computed"] == {"1": 1, "2": -3, "3": 1, "4": 1}
    assert data["deviation_reason"] == "Only seat 1 was put at a disadvantage"


@pytest.mark.parametrize(
    ("ruling", "field"),
    [
        ({"severity": "huge"}, "severity"),
        ({}, "severity"),
        ({"severity": "minor", "penalty": {"9": 1}}, "penalty"),
        ({"severity": "minor", "announcements": 6}, "announcements"),
        ({"severity": "minor", "contract": "voluntary_solo", "soloist": 1}, "solo_type"),
    ],
)
def test_a_ruling_that_is_not_one_is_refused_by_field(api, tournament, sheet, staff, ruling, field):
    decision = complaint(sheet, staff, hand=5)  # the hand being played
    response = send(
        api,
        "post",
        url("api-decision-ruling", tournament, decision.pk),
        staff["adjudicator"],
        ruling,
    )
    assert response.status_code == 400
    assert field in response.json()
    decision.refresh_from_db()
    assert decision.status == Decision.Status.OPEN


def test_an_initialled_decision_is_not_ruled_again(api, tournament, sheet, staff):
    decision = decided(sheet, staff)
    response = send(
        api,
        "post",
        url("api-decision-ruling", tournament, decision.pk),
        staff["adjudicator"],
        {"severity": "major"},
    )
    assert response.status_code == 400
    assert "TSR 8.2.1" in response.json()["status"][0]
    again = send(
        api, "post", url("api-decision-initial", tournament, decision.pk), staff["adjudicator"]
    )
    assert again.status_code == 400
    assert "status" in again.json()


def test_the_decisions_are_listed_and_filtered(api, tournament, sheet, staff):
    first = decided(sheet, staff)
    second = complaint(sheet, staff, hand=4, offender=1)
    path = url("api-decisions", tournament)
    listed = send(api, "get", path, staff["organiser"]).json()
    assert [d["id"] for d in listed] == [first.pk, second.pk]
    assert listed[0]["penalty"] == {"1": 1, "2": -3, "3": 1, "4": 1}
    assert [d["id"] for d in send(api, "get", f"{path}?status=open", staff["panel"][0]).json()] == [
        second.pk
    ]
    assert len(send(api, "get", f"{path}?round=1", staff["adjudicator"]).json()) == 2
    assert send(api, "get", f"{path}?round=2", staff["adjudicator"]).json() == []
    wrong = send(api, "get", f"{path}?status=bogus&round=x", staff["adjudicator"])
    assert wrong.status_code == 400
    assert set(wrong.json()) == {"status", "round"}
    detail = send(api, "get", url("api-decision", tournament, first.pk), staff["panel"][1])
    assert detail.json() == listed[0]


def test_a_decision_of_another_tournament_is_not_found(api, tournament, sheet, staff):
    decision = decided(sheet, staff)
    other = factories.tournament(players=4, organiser=staff["organiser"])
    assert (
        send(api, "get", url("api-decision", other, decision.pk), staff["organiser"]).status_code
        == 404
    )


# Appeals ----------------------------------------------------------------------------------------


def test_an_appeal_is_lodged_and_shown_with_the_decision(api, tournament, sheet, staff):
    decision = decided(sheet, staff)
    response = send(
        api,
        "post",
        url("api-decision-appeal", tournament, decision.pk),
        staff["adjudicator"],
        {"appellant": 2, "grounds": "I had no club"},
    )
    assert response.status_code == 201
    data = response.json()
    assert data["decision"] == {
        "id": decision.pk,
        "round": 1,
        "table": 1,
        "hand_number": 3,
        "offender": 2,
    }
    assert (data["appellant"], data["grounds"], data["outcome"]) == (2, "I had no club", None)
    assert data["lodged_by"] == "adjudicator"
    appeal = send(api, "get", url("api-decision", tournament, decision.pk), staff["organiser"])
    assert appeal.json()["appeal"]["id"] == data["id"]
    assert appeal.json()["appeal"]["outcome"] is None
    twice = send(
        api,
        "post",
        url("api-decision-appeal", tournament, decision.pk),
        staff["adjudicator"],
        {"appellant": 2},
    )
    assert twice.status_code == 400
    assert "decision" in twice.json()


def test_an_appeal_against_a_draft_is_refused(api, tournament, sheet, staff):
    decision = complaint(sheet, staff)
    response = send(
        api,
        "post",
        url("api-decision-appeal", tournament, decision.pk),
        staff["adjudicator"],
        {"appellant": 2},
    )
    assert response.status_code == 400
    assert "TSR 9.7.7" in response.json()["decision"][0]
    assert not Appeal.objects.exists()


def test_the_panel_changes_a_decision(api, tournament, sheet, staff):
    appeal = appealed(sheet, staff, ruling=Ruling(Severity.MAJOR), hand=5, offender=2)
    response = send(
        api,
        "post",
        url("api-appeal-decide", tournament, appeal.pk),
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
    decisions = send(api, "get", url("api-decisions", tournament), staff["adjudicator"]).json()
    assert [(d["status"], d["decided_on_appeal"]) for d in decisions] == [
        ("superseded", None),
        ("initialled", appeal.pk),
    ]
    assert decisions[0]["appeal"]["replacement"] == replacement.pk
    assert decisions[1]["penalty"] == {"1": 1, "2": -3, "3": 1, "4": 1}
    appeals = send(api, "get", url("api-appeals", tournament), staff["organiser"]).json()
    assert appeals == [data]


def test_the_panel_upholds_and_annuls(api, tournament, sheet, staff):
    upheld = appealed(sheet, staff)
    response = send(
        api,
        "post",
        url("api-appeal-decide", tournament, upheld.pk),
        staff["panel"][1],
        {"outcome": "uphold", "members": ["panel2"], "reasons": "As ruled."},
    )
    assert response.json()["outcome"] == "uphold"
    annulled = appealed(sheet, staff, hand=4, offender=1)
    send(
        api,
        "post",
        url("api-appeal-decide", tournament, annulled.pk),
        staff["panel"][1],
        {"outcome": "annul", "members": ["panel2"], "reasons": "No breach."},
    )
    assert Decision.objects.get(pk=annulled.decision_id).status == Decision.Status.ANNULLED
    final = send(
        api,
        "post",
        url("api-appeal-decide", tournament, upheld.pk),
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
        api, "post", url("api-appeal-decide", tournament, appeal.pk), staff["panel"][0], decision
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
        url("api-appeal-decide", tournament, appeal.pk),
        staff["panel"][0],
        {
            "outcome": "change",
            "members": ["panel1"],
            "reasons": "x",
            "ruling": {"severity": "minor", "penalty": {"1": 2, "2": -2, "3": 0, "4": 0}},
        },
    )
    assert response.status_code == 400
    assert list(response.json()["ruling"]) == ["deviation_reason"]
    assert not Decision.objects.filter(appeal=appeal).exists()


# Sanctions --------------------------------------------------------------------------------------


def test_the_panel_deducts_points(api, tournament, sheet, staff):
    entry = seat_entry(sheet, 3)
    response = send(
        api,
        "post",
        url("api-sanctions", tournament),
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
    listed = send(api, "get", url("api-sanctions", tournament), staff["organiser"]).json()
    assert listed == [data]


def test_the_adjudicator_gives_a_bound_decision_only(api, tournament, sheet, staff):
    services.offences_default(tournament=tournament, by=staff["organiser"])
    bound = Offence.objects.get(tournament=tournament, bound=True)
    free = Offence.objects.filter(kind="unsporting", bound=False).first()
    entry = seat_entry(sheet, 1)
    data = {"start_number": entry.start_number, "round": 1, "kind": "warning", "reasons": "x"}
    path = url("api-sanctions", tournament)
    given = send(api, "post", path, staff["adjudicator"], data | {"offence": bound.pk})
    assert given.status_code == 201
    assert given.json()["offence"] == {"id": bound.pk, "name": bound.name, "rule": "TSR 9.1.4"}
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
        url("api-sanctions", tournament),
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
        url("api-sanction-appeal", tournament, given["id"]),
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
    again = send(api, "post", url("api-sanction-appeal", tournament, given["id"]), staff["deputy"])
    assert again.status_code == 400
    assert "sanction" in again.json()
    decided = send(
        api,
        "post",
        url("api-appeal-decide", tournament, appeal["id"]),
        staff["panel"][0],
        {"outcome": "annul", "members": ["panel1", "panel2"], "reasons": "Not his phone."},
    )
    assert decided.status_code == 200
    assert decided.json()["outcome"] == "annul"
    listed = send(api, "get", url("api-sanctions", tournament), staff["organiser"]).json()
    assert listed[0]["status"] == "annulled"
    assert listed[0]["appeal"]["outcome"] == "annul"
    assert sheet_adjudication(sheet=sheet).deductions == {}


def test_the_panel_changes_a_bound_decisions_points(api, tournament, sheet, staff):
    given = bound_sanction(api, tournament, sheet, staff)
    appeal = services.sanction_appeal_lodge(
        sanction=Sanction.objects.get(pk=given["id"]), by=staff["adjudicator"]
    )
    path = url("api-appeal-decide", tournament, appeal.pk)
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
        for s in send(api, "get", url("api-sanctions", tournament), staff["deputy"]).json()
    }
    assert listed[given["id"]]["status"] == "superseded"
    assert (listed[own.pk]["points"], listed[own.pk]["decided_on_appeal"]) == (2, appeal.pk)
    assert sheet_adjudication(sheet=sheet).deductions == {3: -2}


def test_who_plays_at_the_table_is_refused_and_told_who_decides(api, tournament, sheet, staff):
    """TSR 8.2.1: 403 with the reason for the one who acts; 400 on the members named."""
    appeal = appealed(sheet, staff)
    entry = seat_entry(sheet, 2)
    TournamentRole.objects.filter(user__in=[staff["adjudicator"], staff["panel"][0]]).update(
        entry=entry
    )
    refused = send(
        api,
        "post",
        url("api-decisions", tournament),
        staff["adjudicator"],
        {"round": 1, "table": 1, "hand_number": 3, "offender": 1, "description": "x"},
    )
    assert refused.status_code == 403
    assert refused.json()["detail"] == (
        "You play at table 1: the deputy adjudicator decides this complaint (TSR 8.2.1)."
    )
    path = url("api-appeal-decide", tournament, appeal.pk)
    decision = {"outcome": "uphold", "reasons": "As ruled."}
    own = send(api, "post", path, staff["panel"][0], decision | {"members": ["panel2"]})
    assert own.status_code == 403
    assert "another member of the arbitration panel" in own.json()["detail"]
    named = send(api, "post", path, staff["panel"][1], decision | {"members": ["panel1", "panel2"]})
    assert named.status_code == 400
    assert "TSR 8.2.1" in named.json()["members"][0]
    assert Appeal.objects.get().outcome == ""


def test_a_sanction_names_a_player_and_round_there_are(api, tournament, sheet, staff):
    path = url("api-sanctions", tournament)
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


# The catalogue ----------------------------------------------------------------------------------


def test_the_catalogue_is_kept(api, tournament, staff):
    path = url("api-offences", tournament)
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
        url("api-offence", tournament, offence["id"]),
        staff["organiser"],
        {"name": "Counting aloud", "kind": "unsporting", "bound": True, "deduction": 2},
    )
    assert changed.status_code == 200
    assert changed.json()["severity"] is None
    assert changed.json()["deduction"] == 2
    defaults = send(api, "post", url("api-offences-defaults", tournament), staff["panel"][0])
    assert defaults.status_code == 201
    assert len(defaults.json()) == 6
    again = send(api, "post", url("api-offences-defaults", tournament), staff["panel"][0])
    assert (again.status_code, again.json()) == (200, [])
    assert len(send(api, "get", path, staff["adjudicator"]).json()) == 7
    deleted = send(api, "delete", url("api-offence", tournament, offence["id"]), staff["organiser"])
    assert deleted.status_code == 204
    assert not Offence.objects.filter(pk=offence["id"]).exists()


def test_a_bound_decision_without_points_and_a_name_twice_are_refused(api, tournament, staff):
    path = url("api-offences", tournament)
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
    response = send(api, "delete", url("api-offence", tournament, offence.pk), staff["organiser"])
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
        url("api-offence", tournament, offence.pk),
        staff["organiser"],
        {"name": "Y", "kind": "unsporting"},
    )
    assert response.status_code == 404
    offence.refresh_from_db()
    assert offence.name == "X"


# Staff and the log ------------------------------------------------------------------------------


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


def test_the_log_lists_every_action_oldest_first(api, tournament, sheet, staff):
    appealed(sheet, staff)
    path = url("api-adjudication-log", tournament)
    data = send(api, "get", path, staff["organiser"]).json()
    assert data["count"] == 4
    assert [(e["action"], e["by"]) for e in data["results"]] == [
        ("complaint", "adjudicator"),
        ("ruling", "adjudicator"),
        ("initials", "adjudicator"),
        ("appeal", "adjudicator"),
    ]
    decision = Decision.objects.get()
    assert data["results"][0]["decision"] == decision.pk
    assert data["results"][-1]["appeal"] == decision.appealed.pk
    assert data["results"][-1]["details"] == {"grounds": "I had no club"}
    last = send(api, "get", f"{path}?limit=1&offset=3", staff["organiser"]).json()
    assert [e["action"] for e in last["results"]] == ["appeal"]


# Who may --------------------------------------------------------------------------------------


def _reads(tournament, decision):
    return [
        url("api-decisions", tournament),
        url("api-decision", tournament, decision.pk),
        url("api-appeals", tournament),
        url("api-sanctions", tournament),
        url("api-offences", tournament),
        url("api-adjudication-log", tournament),
        url("api-roles", tournament),
    ]


@pytest.mark.parametrize("who", ["organiser", "adjudicator", "panel"])
def test_the_staff_read_everything(api, tournament, sheet, staff, who):
    decision = decided(sheet, staff)
    user = staff[who][0] if who == "panel" else staff[who]
    for path in _reads(tournament, decision):
        assert send(api, "get", path, user).status_code == 200, path


def test_a_logged_in_adjudicator_reads_by_session(api, tournament, sheet, staff):
    decision = decided(sheet, staff)
    api.force_login(staff["adjudicator"])
    assert api.get(url("api-decision", tournament, decision.pk)).status_code == 200


@pytest.mark.parametrize("who", ["anonymous", "seat key", "scorekeeper", "stranger"])
def test_nobody_else_reads_anything(api, tournament, sheet, staff, who):
    decision = decided(sheet, staff)
    user, headers = None, {}
    if who == "seat key":
        headers = key(sheet, 2)
    elif who == "scorekeeper":
        user = staff["keeper"]
    elif who == "stranger":
        user = factories.user()
    for path in _reads(tournament, decision):
        response = send(api, "get", path, user, headers=headers)
        # Without credentials a client is asked for them; everybody else is refused.
        assert response.status_code == (401 if who == "anonymous" else 403), path
        assert "results" not in response.json()
        assert "id" not in response.json()


def _writes(tournament, sheet, staff):
    """Each write a scorekeeper or a player might try, and what it would change."""
    decision = complaint(sheet, staff)
    draft = services.decision_rule(
        decision=complaint(sheet, staff, hand=4, offender=1),
        ruling=Ruling(Severity.MINOR),
        by=staff["adjudicator"],
    )
    appeal = appealed(sheet, staff, hand=2, offender=3)
    initialled = decided(sheet, staff, hand=1, offender=2)
    entry = seat_entry(sheet, 1)
    return [
        (
            "record",
            url("api-decisions", tournament),
            {"round": 1, "table": 1, "hand_number": 3, "offender": 1, "description": "x"},
        ),
        ("rule", url("api-decision-ruling", tournament, decision.pk), {"severity": "major"}),
        ("initial", url("api-decision-initial", tournament, draft.pk), {}),
        ("appeal", url("api-decision-appeal", tournament, initialled.pk), {"appellant": 1}),
        (
            "decide",
            url("api-appeal-decide", tournament, appeal.pk),
            {"outcome": "annul", "members": ["panel1"], "reasons": "x"},
        ),
        (
            "sanction",
            url("api-sanctions", tournament),
            {
                "start_number": entry.start_number,
                "round": 1,
                "kind": "warning",
                "reasons": "x",
                "members": ["panel1"],
            },
        ),
        ("offence", url("api-offences", tournament), {"name": "X", "kind": "unsporting"}),
        ("role", url("api-roles", tournament), {"username": "desk", "role": "organiser"}),
    ]


def _state():
    return (
        list(Decision.objects.order_by("pk").values_list("status", "severity", "hand_number")),
        list(Appeal.objects.values_list("outcome", flat=True)),
        Sanction.objects.count(),
        Offence.objects.count(),
        sorted(TournamentRole.objects.values_list("user__username", "role")),
        Event.objects.count(),
    )


@pytest.mark.parametrize("who", ["seat key", "scorekeeper", "stranger", "anonymous"])
def test_a_scorekeeper_or_a_player_writes_nothing(api, tournament, sheet, staff, who):
    writes = _writes(tournament, sheet, staff)
    before = _state()
    for _name, path, data in writes:
        if who == "seat key":
            response = send(api, "post", path, headers=key(sheet, 4), data=data)
        elif who == "anonymous":
            response = send(api, "post", path, data=data)
        else:
            user = staff["keeper"] if who == "scorekeeper" else factories.user()
            response = send(api, "post", path, user, data)
        assert response.status_code == (401 if who == "anonymous" else 403), path
    assert _state() == before


@pytest.mark.parametrize(
    ("who", "refused"),
    [
        ("organiser", {"record", "rule", "initial", "appeal", "decide", "sanction"}),
        ("adjudicator", {"decide", "sanction", "role"}),
        ("deputy", {"decide", "sanction", "role"}),
        ("panel", {"record", "rule", "initial", "role"}),
    ],
)
def test_the_staff_write_what_the_services_allow(api, tournament, sheet, staff, who, refused):
    """TSR 8.2.1: the organiser runs the tournament but decides no complaint; the adjudicator
    and his deputy decide complaints but not appeals nor free sanctions; the panel hears the
    appeals and decides unsporting conduct, but rules on no complaint in the first instance
    and appoints nobody."""
    user = staff[who][0] if who == "panel" else staff[who]
    for name, path, data in _writes(tournament, sheet, staff):
        before = _state()
        response = send(api, "post", path, user, data)
        if name in refused:
            assert response.status_code == 403, name
            assert _state() == before, name
        else:
            assert response.status_code in {200, 201}, (name, response.json())


# Queries ----------------------------------------------------------------------------------------


@pytest.fixture
def busy(tournament, sheet, staff):
    """``n`` appealed and decided decisions, sanctions, offences and staff, and their log."""

    def make(n: int):
        services.offences_default(tournament=tournament, by=staff["organiser"])
        for number in range(n):
            appeal = appealed(sheet, staff, hand=number + 1, offender=number % 4 + 1)
            services.appeal_decide(
                appeal=appeal,
                outcome=Appeal.Outcome.CHANGE,
                members=staff["panel"],
                reasons="x",
                ruling=Ruling(Severity.INSIGNIFICANT),
                by=staff["panel"][0],
            )
            services.sanction_impose(
                entry=seat_entry(sheet, number % 4 + 1),
                round=sheet.table.round,
                kind=Sanction.Kind.WARNING,
                reasons="x",
                members=staff["panel"],
                by=staff["panel"][0],
            )
            bound = services.sanction_impose(
                entry=seat_entry(sheet, number % 4 + 1),
                round=sheet.table.round,
                kind=Sanction.Kind.WARNING,
                offence=Offence.objects.get(tournament=tournament, bound=True),
                reasons="Counted trumps aloud",
                by=staff["adjudicator"],
            )
            services.appeal_decide(
                appeal=services.sanction_appeal_lodge(sanction=bound, by=staff["adjudicator"]),
                outcome=Appeal.Outcome.CHANGE,
                members=staff["panel"],
                reasons="x",
                sanction=services.SanctionRuling(Sanction.Kind.DEDUCTION, 2),
                by=staff["panel"][0],
            )
            services.role_grant(
                tournament=tournament,
                user=factories.user(),
                role=Role.SCOREKEEPER,
                entry=seat_entry(sheet, number % 4 + 1),
                by=staff["organiser"],
            )

    return make


# token with its user, tournament, roles, then the rows and what they prefetch
QUERIES = {
    "api-decisions": 3 + 3,  # decisions, the appeals' members, the panel's own decisions
    # appeals, members, the panel's own decisions and sanctions
    "api-appeals": 3 + 4,
    # sanctions, members, the appeals' members, the panel's own sanctions
    "api-sanctions": 3 + 4,
    "api-offences": 3 + 1,
    "api-adjudication-log": 3 + 2,  # count, page
    "api-roles": 3 + 1,
}


@pytest.mark.parametrize("rows", [1, 4])
@pytest.mark.parametrize("name", list(QUERIES))
def test_the_lists_run_a_fixed_number_of_queries(
    api, tournament, staff, busy, django_assert_num_queries, rows, name
):
    busy(rows)
    headers = token(staff["adjudicator"])
    with django_assert_num_queries(QUERIES[name]):
        response = api.get(url(name, tournament), headers=headers)
    assert response.status_code == 200
    data = response.json()
    listed = data["results"] if isinstance(data, dict) else data
    assert len(listed) >= rows


def test_a_decision_is_read_in_a_fixed_number_of_queries(
    api, tournament, staff, busy, django_assert_num_queries
):
    busy(1)
    decision = Decision.objects.filter(appeal__isnull=True).get()
    headers = token(staff["adjudicator"])
    with django_assert_num_queries(6):
        assert api.get(url("api-decision", tournament, decision.pk), headers=headers).json()[
            "appeal"
        ]["members"] == ["panel1", "panel2", "panel3"]


# Schema -----------------------------------------------------------------------------------------


def test_the_schema_documents_the_adjudication_endpoints(api):
    schema = api.get(reverse("api-schema"), headers={"Accept": "application/json"}).json()
    base = "/api/v1/tournaments/{slug}"
    for path in [
        "decisions",
        "decisions/{id}",
        "decisions/{id}/ruling",
        "decisions/{id}/initial",
        "decisions/{id}/appeal",
        "appeals",
        "appeals/{id}/decide",
        "sanctions",
        "sanctions/{id}/appeal",
        "offences",
        "offences/{id}",
        "offences/defaults",
        "adjudication-log",
        "roles",
        "roles/{id}",
    ]:
        operations = schema["paths"][f"{base}/{path}"]
        for operation in operations.values():
            assert operation["tags"] == ["adjudication"]
            # A seat's key opens a scoresheet, never these.
            assert {"seatKey": []} not in operation["security"]
    enums = schema["components"]["schemas"]
    assert enums["DecisionStatusEnum"]["enum"] == [
        "open",
        "draft",
        "initialled",
        "superseded",
        "annulled",
    ]
    assert enums["SanctionKindEnum"]["enum"] == ["warning", "deduction", "disqualification"]
    assert enums["SanctionStatusEnum"]["enum"] == ["in_force", "superseded", "annulled"]
    assert "deputy" in enums["StaffRoleEnum"]["enum"]
