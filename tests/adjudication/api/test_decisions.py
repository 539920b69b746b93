"""Complaints, rulings and initials through the API (TSR 8.2, 9.2-9.5), the decisions
listed and filtered, and an appeal lodged against one (TSR 9.7.7)."""

import pytest
from django.urls import reverse

from adjudication import services
from adjudication.models import Appeal, Decision, Event, Offence
from tests import factories
from tests.adjudication.api.helpers import complaint, decided, key, send, url
from tests.adjudication.helpers import MATCH, enter

pytestmark = pytest.mark.django_db


def test_the_adjudicator_records_a_complaint(api, tournament, sheet, staff):
    response = send(
        api,
        "post",
        url("api:decisions", tournament),
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
        url("api:decisions", tournament),
        staff["adjudicator"],
        {"round": 1, "table": 9, "hand_number": 1, "offender": 1, "offence": 999},
    )
    assert response.status_code == 400
    assert response.json() == {
        "table": ["Round 1 has no table 9."],
        "offence": ["There is no offence 999 in this tournament's catalogue."],
    }
    assert not Decision.objects.exists()


@pytest.mark.parametrize("round_number", [3, "٣"])
def test_a_complaint_in_a_round_not_there_is_refused_on_the_round(
    api, tournament, sheet, staff, round_number
):
    """ "٣" is 3 to Python: a round that does not exist, named where it was given."""
    response = send(
        api,
        "post",
        url("api:decisions", tournament),
        staff["adjudicator"],
        {"round": round_number, "table": 1, "hand_number": 1, "offender": 1},
    )
    assert response.status_code == 400
    assert response.json() == {"round": ["There is no round 3."]}
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
        api, "post", url("api:decisions", tournament), staff["adjudicator"], data | fields
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
        url("api:decisions", tournament),
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
    path = url("api:decision-ruling", tournament, decision.pk)
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
        url("api:decision-ruling", tournament, decision.pk),
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
        url("api:decision-initial", tournament, decision.pk),
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
        url("api:decision-ruling", tournament, solo.pk),
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
        url("api:decision-ruling", tournament, major.pk),
        staff["adjudicator"],
        {"severity": "major", "announcements": 3},
    )
    data = send(
        api, "post", url("api:decision-initial", tournament, major.pk), staff["adjudicator"]
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
            url("api:decision-ruling", tournament, decision.pk),
            staff["adjudicator"],
            {"severity": "major", "written_line": "next"},
        )
    initial = url("api:decision-initial", tournament, first.pk)
    assert send(api, "post", initial, staff["adjudicator"]).status_code == 200
    refused = send(
        api, "post", url("api:decision-initial", tournament, second.pk), staff["adjudicator"]
    )
    assert refused.status_code == 400
    assert "TSR 9.7.6" in refused.json()["hand_number"][0]
    assert Decision.objects.get(pk=second.pk).status == Decision.Status.DRAFT
    data = {"round": 1, "table": 1, "offender": 1, "description": "Revoke"}
    path = url("api:decisions", tournament)
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
        url("api:decision-ruling", tournament, decision.pk),
        staff["adjudicator"],
        {
            "severity": "major",
            "contract": "compulsory_solo",
            "soloist": 1,
            "solo_type": "queens",
            "written_line": "stopped",
        },
    )
    data = send(
        api, "post", url("api:decision-initial", tournament, decision.pk), staff["adjudicator"]
    ).json()
    assert data["played_without_game_points"] is True
    assert data["hand_not_played"] is False
    assert data["penalty"] == {"1": 12, "2": 0, "3": -12, "4": 0}
    sheet_path = reverse("api:scoresheet", args=[tournament.slug, 1, 1])
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
    path = url("api:decision-ruling", tournament, decision.pk)
    points = {"1": 0, "2": 0, "3": 0, "4": 0}  # TSR 9.2.3, for a breach judged minor
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
            "deviation_reason": "The breach had no influence on the game",
        },
    )
    assert ruled.status_code == 200
    data = ruled.json()
    assert data["deviates"] is True
    assert data["penalty"] == points
    assert data["computed"] == {"1": 1, "2": -3, "3": 1, "4": 1}
    assert data["deviation_reason"] == "The breach had no influence on the game"


def test_points_off_the_tsrs_scale_are_refused_whatever_the_reason(api, tournament, sheet, staff):
    """TSR 9.2-9.5: +5/0/0/-5 is no penalty the TSR gives for a breach; a punishment beyond the
    scale is a sanction for unsporting conduct (TSR 9.6.2 b). Nothing is saved."""
    decision = complaint(sheet, staff, offender=4)
    refused = send(
        api,
        "post",
        url("api:decision-ruling", tournament, decision.pk),
        staff["adjudicator"],
        {
            "severity": "minor",
            "penalty": {"1": 5, "2": 0, "3": 0, "4": -5},
            "deviation_reason": "He was rude",
        },
    )
    assert refused.status_code == 400
    assert list(refused.json()) == ["penalty"]
    assert "+5/0/0/-5" in refused.json()["penalty"][0]
    assert "TSR 9.2-9.5, 9.6.2" in refused.json()["penalty"][0]
    decision.refresh_from_db()
    assert decision.status == Decision.Status.OPEN


def test_two_credits_to_the_soloist_in_one_solo_leave_the_sheet_correct(
    api, tournament, sheet, staff
):
    """TSR 7.3.3.2: two opponents' minor breaches that may disadvantage the soloist (TSR 9.3.3
    b1) make +6/-3/-3/0 on seat 1's compulsory solo, hand 2: the sheet's check stands."""
    enter(sheet, MATCH[:4])
    solo = {"contract": "compulsory_solo", "soloist": 1, "solo_type": "queens"}
    for offender in (2, 3):
        decision = complaint(sheet, staff, hand=2, offender=offender)
        ruled = send(
            api,
            "post",
            url("api:decision-ruling", tournament, decision.pk),
            staff["adjudicator"],
            {"severity": "minor", "disadvantages_soloist": True, **solo},
        )
        assert ruled.status_code == 200, ruled.json()
        initialled = send(
            api, "post", url("api:decision-initial", tournament, decision.pk), staff["adjudicator"]
        )
        assert initialled.status_code == 200
    shown = send(
        api, "get", reverse("api:scoresheet", args=[tournament.slug, 1, 1]), staff["adjudicator"]
    ).json()
    assert shown["check"]["ok"] is True
    assert shown["check"]["problems"] == []


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
        url("api:decision-ruling", tournament, decision.pk),
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
        url("api:decision-ruling", tournament, decision.pk),
        staff["adjudicator"],
        {"severity": "major"},
    )
    assert response.status_code == 400
    assert "TSR 8.2.1" in response.json()["status"][0]
    again = send(
        api, "post", url("api:decision-initial", tournament, decision.pk), staff["adjudicator"]
    )
    assert again.status_code == 400
    assert "status" in again.json()


def test_the_decisions_are_listed_and_filtered(api, tournament, sheet, staff):
    first = decided(sheet, staff)
    second = complaint(sheet, staff, hand=4, offender=1)
    path = url("api:decisions", tournament)
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
    detail = send(api, "get", url("api:decision", tournament, first.pk), staff["panel"][1])
    assert detail.json() == listed[0]


def test_a_decision_of_another_tournament_is_not_found(api, tournament, sheet, staff):
    decision = decided(sheet, staff)
    other = factories.tournament(players=4, organiser=staff["organiser"])
    assert (
        send(api, "get", url("api:decision", other, decision.pk), staff["organiser"]).status_code
        == 404
    )


def test_an_appeal_is_lodged_and_shown_with_the_decision(api, tournament, sheet, staff):
    decision = decided(sheet, staff)
    response = send(
        api,
        "post",
        url("api:decision-appeal", tournament, decision.pk),
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
    appeal = send(api, "get", url("api:decision", tournament, decision.pk), staff["organiser"])
    assert appeal.json()["appeal"]["id"] == data["id"]
    assert appeal.json()["appeal"]["outcome"] is None
    twice = send(
        api,
        "post",
        url("api:decision-appeal", tournament, decision.pk),
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
        url("api:decision-appeal", tournament, decision.pk),
        staff["adjudicator"],
        {"appellant": 2},
    )
    assert response.status_code == 400
    assert "TSR 9.7.7" in response.json()["decision"][0]
    assert not Appeal.objects.exists()
