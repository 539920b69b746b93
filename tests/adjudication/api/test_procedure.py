"""The procedure around the table through the API (issue 31, points 1-4): an appeal only at
once (TSR 9.7.7), two instances (TSR 8.2.1), initials by a member of the panel (TSR 8.2.2),
and a ruling on a written hand saying which game its line is (TSR 9.4.3, 9.4.4). Each
refusal names its field and its TSR section, and saves nothing."""

from datetime import timedelta

import pytest
from django.utils import timezone

from adjudication import services
from adjudication.models import Appeal, Decision, Sanction
from doko.rules.penalty import Severity
from doko.rules.procedure import APPEAL_MINUTES
from scoring.models import Scoresheet
from tests.adjudication.api.helpers import complaint, decided, send, url
from tests.adjudication.helpers import MATCH, bound_deduction, enter, on_sheet, plays
from tournaments.models import TournamentRole

pytestmark = pytest.mark.django_db
Ruling = services.Ruling
Role = TournamentRole.Role


def _appeal(api, tournament, decision, user):
    return send(
        api, "post", url("api:decision-appeal", tournament, decision.pk), user, {"appellant": 2}
    )


# TSR 9.7.7 ------------------------------------------------------------------------------------


def test_an_appeal_after_the_next_hand_is_written_is_refused(api, tournament, sheet, staff):
    """Hand 3 ruled and initialled with four hands on the sheet; the table writes hand 5:
    the ruling stands."""
    decision = decided(sheet, staff, hand=3, offender=2)
    enter(sheet, MATCH[:5])
    response = _appeal(api, tournament, decision, staff["adjudicator"])
    assert response.status_code == 400
    assert "TSR 9.7.7" in response.json()["decision"][0]
    assert not Appeal.objects.exists()


def test_an_appeal_before_the_next_hand_is_in_time(api, tournament, sheet, staff):
    decision = decided(sheet, staff, hand=3, offender=2)
    Decision.objects.filter(pk=decision.pk).update(
        initialled_at=decision.initialled_at - timedelta(hours=1)
    )
    assert _appeal(api, tournament, decision, staff["adjudicator"]).status_code == 201


def test_a_stopped_hand_on_the_sheet_is_no_hand_written_since(api, tournament, sheet, staff):
    """A minor breach in hand 5, then a major one that stops it: the stopped line is the
    adjudicator's, not a hand the table wrote, so the first ruling can still be appealed."""
    minor = decided(sheet, staff, hand=5, offender=2)
    decided(sheet, staff, hand=5, offender=3, ruling=Ruling(Severity.MAJOR))
    assert len(on_sheet(sheet)) == 5
    assert _appeal(api, tournament, minor, staff["adjudicator"]).status_code == 201


@pytest.mark.parametrize(
    ("minutes", "status"), [(APPEAL_MINUTES - 1, 201), (APPEAL_MINUTES + 1, 400)]
)
def test_with_no_hand_to_follow_an_appeal_comes_within_minutes(
    api, tournament, sheet, staff, minutes, status
):
    """The sheet handed in, no hand follows: the appeal comes within APPEAL_MINUTES of the
    initials."""
    decision = decided(sheet, staff, hand=3, offender=2)
    Scoresheet.objects.filter(pk=sheet.pk).update(
        status=Scoresheet.Status.SUBMITTED,
        submitted_at=timezone.now(),
        submitted_by_seat=sheet.table.seats.get(position=4),
    )
    Decision.objects.filter(pk=decision.pk).update(
        initialled_at=decision.initialled_at - timedelta(minutes=minutes)
    )
    response = _appeal(api, tournament, decision, staff["adjudicator"])
    assert response.status_code == status
    if status == 400:
        assert "TSR 9.7.7" in response.json()["decision"][0]
        assert not Appeal.objects.exists()


# TSR 8.2.1 ------------------------------------------------------------------------------------


def _ruled_by_member(tournament, sheet, staff):
    """Panel member 1, appointed deputy, rules on and initials hand 3; seat 2 appeals."""
    member = staff["panel"][0]
    services.role_grant(tournament=tournament, user=member, role=Role.DEPUTY, by=staff["organiser"])
    decision = complaint(sheet, staff)
    decision = services.decision_rule(decision=decision, ruling=Ruling(Severity.MINOR), by=member)
    decision = services.decision_initial(decision=decision, by=member)
    return services.appeal_lodge(decision=decision, appellant=2, by=staff["adjudicator"])


DECIDE = {"outcome": "annul", "reasons": "No breach."}


def test_who_ruled_does_not_record_the_panels_decision(api, tournament, sheet, staff):
    appeal = _ruled_by_member(tournament, sheet, staff)
    path = url("api:appeal-decide", tournament, appeal.pk)
    response = send(
        api, "post", path, staff["panel"][0], DECIDE | {"members": ["panel2", "panel3"]}
    )
    assert response.status_code == 403
    assert "TSR 8.2.1" in str(response.json())
    appeal.refresh_from_db()
    assert appeal.outcome == ""


def test_who_ruled_does_not_sit_on_the_panel(api, tournament, sheet, staff):
    appeal = _ruled_by_member(tournament, sheet, staff)
    path = url("api:appeal-decide", tournament, appeal.pk)
    members = {"members": ["panel1", "panel2"]}
    response = send(api, "post", path, staff["panel"][1], DECIDE | members)
    assert response.status_code in {400, 403}
    assert "TSR 8.2.1" in str(response.json()["members"])
    appeal.refresh_from_db()
    assert appeal.outcome == ""
    other = {"members": ["panel2", "panel3"]}
    assert send(api, "post", path, staff["panel"][1], DECIDE | other).status_code == 200


def test_who_initialled_does_not_sit_on_the_panel(api, tournament, sheet, staff):
    """The adjudicator rules, a member of the panel initials (TSR 8.2.2): he is then the
    first instance too."""
    decision = services.decision_rule(
        decision=complaint(sheet, staff), ruling=Ruling(Severity.MINOR), by=staff["adjudicator"]
    )
    services.decision_initial(decision=decision, by=staff["panel"][2])
    appeal = services.appeal_lodge(decision=decision, appellant=2, by=staff["adjudicator"])
    path = url("api:appeal-decide", tournament, appeal.pk)
    response = send(
        api, "post", path, staff["panel"][0], DECIDE | {"members": ["panel1", "panel3"]}
    )
    assert "TSR 8.2.1" in str(response.json()["members"])


# TSR 8.2.2 ------------------------------------------------------------------------------------


def test_a_member_of_the_panel_initials(api, tournament, sheet, staff):
    decision = services.decision_rule(
        decision=complaint(sheet, staff), ruling=Ruling(Severity.MINOR), by=staff["adjudicator"]
    )
    path = url("api:decision-initial", tournament, decision.pk)
    response = send(api, "post", path, staff["panel"][0])
    assert response.status_code == 200
    assert response.json()["initialled_by"] == "panel1"
    assert response.json()["ruled_by"] == "adjudicator"


def test_a_member_of_the_panel_playing_at_the_table_does_not_initial(api, tournament, sheet, staff):
    plays(staff["panel"][0], sheet, 3, role=Role.PANEL)
    decision = services.decision_rule(
        decision=complaint(sheet, staff), ruling=Ruling(Severity.MINOR), by=staff["adjudicator"]
    )
    response = send(
        api, "post", url("api:decision-initial", tournament, decision.pk), staff["panel"][0]
    )
    assert response.status_code == 403
    assert "TSR 8.2.2" in str(response.json())
    decision.refresh_from_db()
    assert decision.status == Decision.Status.DRAFT


# TSR 9.4.3, 9.4.4 -----------------------------------------------------------------------------

SOLO = {"contract": "compulsory_solo", "soloist": 1, "solo_type": "queens"}


def _rule(api, tournament, decision, staff, data):
    return send(
        api, "post", url("api:decision-ruling", tournament, decision.pk), staff["adjudicator"], data
    )


@pytest.mark.parametrize(
    ("hand", "offender", "fields", "rule"), [(3, 2, {}, "TSR 9.4.3"), (2, 3, SOLO, "TSR 9.4.4")]
)
def test_a_ruling_on_a_written_hand_must_say_which_its_line_is(
    api, tournament, sheet, staff, hand, offender, fields, rule
):
    decision = complaint(sheet, staff, hand=hand, offender=offender)
    response = _rule(api, tournament, decision, staff, {"severity": "major", **fields})
    assert response.status_code == 400
    assert rule in response.json()["written_line"][0]
    decision.refresh_from_db()
    assert decision.status == Decision.Status.OPEN


def test_a_ruling_on_the_hand_being_played_takes_no_written_line(api, tournament, sheet, staff):
    decision = complaint(sheet, staff, hand=5, offender=2)
    data = {"severity": "major", "written_line": "stopped"}
    response = _rule(api, tournament, decision, staff, data)
    assert response.status_code == 400
    assert "TSR 9.4.3" in response.json()["written_line"][0]


def _annul(api, tournament, decision, staff):
    appeal = services.appeal_lodge(decision=decision, appellant=2, by=staff["adjudicator"])
    path = url("api:appeal-decide", tournament, appeal.pk)
    data = DECIDE | {"members": ["panel1", "panel2"]}
    assert send(api, "post", path, staff["panel"][0], data).status_code == 200


def test_the_written_line_is_the_stopped_game_it_is_replaced(api, tournament, sheet, staff):
    """TSR 9.4.3: hand 3 as written is the stopped game: it becomes the line "not played" and
    the replay follows; annulled, the line comes back exactly as written."""
    before = on_sheet(sheet)
    decision = complaint(sheet, staff, hand=3, offender=2)
    assert (
        _rule(
            api, tournament, decision, staff, {"severity": "major", "written_line": "stopped"}
        ).status_code
        == 200
    )
    data = send(
        api, "post", url("api:decision-initial", tournament, decision.pk), staff["adjudicator"]
    ).json()
    assert data["written_line"] == "stopped"
    lines = on_sheet(sheet)
    assert [line.not_played for line in lines] == [False, False, True, False]
    assert lines[2].dealer == before[2].dealer
    _annul(api, tournament, Decision.objects.get(pk=decision.pk), staff)
    assert on_sheet(sheet) == before


def test_the_written_line_is_the_next_game_the_stopped_one_goes_before(
    api, tournament, sheet, staff
):
    before = on_sheet(sheet)
    decision = complaint(sheet, staff, hand=3, offender=2)
    _rule(api, tournament, decision, staff, {"severity": "major", "written_line": "next"})
    send(api, "post", url("api:decision-initial", tournament, decision.pk), staff["adjudicator"])
    lines = on_sheet(sheet)
    assert [line.not_played for line in lines] == [False, False, True, False, False]
    assert lines[3] == before[2]
    _annul(api, tournament, Decision.objects.get(pk=decision.pk), staff)
    assert on_sheet(sheet) == before


@pytest.mark.parametrize("written_line", ["stopped", "next"])
def test_a_solo_counted_without_game_points_on_a_written_line(
    api, tournament, sheet, staff, written_line
):
    """TSR 9.4.4: hand 2 as written is the solo (its points are replaced by none) or the game
    dealt after it (the solo's line goes in before it); annulled, the sheet is as written."""
    before = on_sheet(sheet)
    decision = complaint(sheet, staff, hand=2, offender=3)
    response = _rule(
        api,
        tournament,
        decision,
        staff,
        {"severity": "major", **SOLO, "written_line": written_line},
    )
    assert response.status_code == 200
    send(api, "post", url("api:decision-initial", tournament, decision.pk), staff["adjudicator"])
    lines = on_sheet(sheet)
    assert lines[1].game_value == 0
    assert len(lines) == (4 if written_line == "stopped" else 5)
    if written_line == "next":
        assert lines[2] == before[1]
    _annul(api, tournament, Decision.objects.get(pk=decision.pk), staff)
    assert on_sheet(sheet) == before


def test_an_appeal_against_a_bound_decision_is_at_once_too(api, tournament, round_, sheet, staff):
    """TSR 9.6.3, 9.7.7: a bound deduction given with four hands on the player's sheet is
    appealed before the table writes the next; after, it stands."""
    sanction = bound_deduction(tournament, round_, sheet, staff)
    assert sanction.hands_at_decision == 4
    enter(sheet, MATCH[:5])
    path = url("api:sanction-appeal", tournament, sanction.pk)
    response = send(api, "post", path, staff["adjudicator"], {"grounds": "Not my phone."})
    assert response.status_code == 400
    assert "TSR 9.7.7" in response.json()["sanction"][0]
    assert not Appeal.objects.exists()
    Sanction.objects.filter(pk=sanction.pk).update(hands_at_decision=5)
    response = send(api, "post", path, staff["adjudicator"], {"grounds": "Not my phone."})
    assert response.status_code == 201


def test_the_refusal_reads_in_german(api, tournament, sheet, staff):
    decision = decided(sheet, staff, hand=3, offender=2)
    enter(sheet, MATCH[:5])
    path = url("api:decision-appeal", tournament, decision.pk)
    response = send(
        api, "post", path, staff["adjudicator"], {"appellant": 2}, {"Accept-Language": "de"}
    )
    assert response.json()["decision"] == [
        "Einspruch ist nur sofort möglich: Seit dem Abzeichnen der Entscheidung wurde 1 Spiel "
        "eingetragen, daher bleibt sie bestehen. (TSR 9.7.7)"
    ]
