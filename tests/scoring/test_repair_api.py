"""The scoresheet API's repairs, as the page offers them: a hand struck out, a handed-in sheet
sent back to its scorekeeper with a reason (TSR 3.3, 7.3.2)."""

import pytest
from django.urls import reverse
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from doko.sample_sheets import full_match, normal
from scoring import services
from scoring.models import RETURN_REASON_LENGTH, Scoresheet
from tests import factories
from tournaments import services as tournament_services
from tournaments.models import TournamentRole

pytestmark = pytest.mark.django_db

Role = TournamentRole.Role


@pytest.fixture
def organiser():
    return factories.user(first_name="Olga", last_name="Organ")


@pytest.fixture
def sheet(organiser) -> Scoresheet:
    tournament = factories.tournament(players=8, organiser=organiser)
    round_ = tournament_services.round_start(round=factories.seated_round(tournament))
    return Scoresheet.objects.get(table__round=round_, table__number=1)


@pytest.fixture
def api():
    return APIClient()


def url(sheet, action=""):
    table = sheet.table
    args = [table.round.tournament.slug, table.round.number, table.number]
    return reverse("api:scoresheet" + (f"-{action}" if action else ""), args=args)


def key(sheet, position) -> dict:
    return {"X-Seat-Key": sheet.table.seats.get(position=position).token}


def post(api, sheet, action, data, headers):
    return api.post(
        url(sheet, action), data, format="json", headers={"Accept-Language": "en", **headers}
    )


def handed_in(sheet) -> Scoresheet:
    keeper = factories.keeper(sheet)
    sheet = services.scoresheet_hands_replace(
        scoresheet=sheet, hands=full_match(), version=sheet.version, by=keeper
    )
    return services.scoresheet_submit(scoresheet=sheet, version=sheet.version, by=keeper)


def test_a_players_key_sends_the_sheet_back_and_the_sheet_says_why(api, sheet):
    sheet = handed_in(sheet)
    response = post(
        api, sheet, "return", {"version": sheet.version, "reason": "Hand 7"}, key(sheet, 2)
    )
    assert response.status_code == 200, response.json()
    data = response.json()
    assert data["status"] == "draft"
    assert data["sent_back_reason"] == "Hand 7"
    assert data["sent_back_by"].endswith("(seat 2)")
    assert data["submitted_by"] is None
    changes = api.get(url(sheet, "changes"), headers=key(sheet, 4)).json()
    assert (changes[-1]["action"], changes[-1]["reason"]) == ("return", "Hand 7")
    assert api.get(url(sheet), headers=key(sheet, 4)).json()["sent_back_reason"] == "Hand 7"


@pytest.mark.parametrize(
    "body",
    [
        {},
        {"reason": "x"},
        {"version": 3},
        {"version": 3, "reason": ""},
        {"version": 3, "reason": "x" * (RETURN_REASON_LENGTH + 1)},
        {"version": "drei", "reason": "x"},
        {"version": 3, "reason": ["x"]},
    ],
)
def test_a_send_back_without_a_short_reason_or_a_version_is_refused_by_field(api, sheet, body):
    sheet = handed_in(sheet)
    response = post(api, sheet, "return", body, key(sheet, 2))
    assert response.status_code == 400
    assert set(response.json()) <= {"version", "reason"}
    assert Scoresheet.objects.get(pk=sheet.pk).status == "submitted"


def test_a_draft_is_not_sent_back_and_a_stale_send_back_gets_409(api, sheet):
    response = post(api, sheet, "return", {"version": 1, "reason": "x"}, key(sheet, 2))
    assert response.status_code == 400
    assert "status" in response.json()
    sheet = handed_in(sheet)
    response = post(api, sheet, "return", {"version": 1, "reason": "x"}, key(sheet, 2))
    assert response.status_code == 409
    assert response.json()["current"]["status"] == "submitted"


def test_a_key_of_another_table_and_a_panel_member_may_not_send_it_back(api, sheet):
    sheet = handed_in(sheet)
    other = Scoresheet.objects.get(table__round=sheet.table.round, table__number=2)
    data = {"version": sheet.version, "reason": "x"}
    assert post(api, sheet, "return", data, key(other, 1)).status_code == 403
    panel = factories.user()
    factories.role_grant(tournament=sheet.table.round.tournament, user=panel, role=Role.PANEL)
    token = Token.objects.create(user=panel).key
    response = post(api, sheet, "return", data, {"Authorization": f"Token {token}"})
    assert response.status_code == 403
    assert Scoresheet.objects.get(pk=sheet.pk).status == "submitted"


def test_the_scorekeepers_key_strikes_a_hand_and_the_later_ones_are_dealt_again(api, sheet):
    keeper = factories.keeper(sheet)
    lines = [normal(1, (1, 2), 1), normal(2, (1, 3), 2), normal(3, (2, 4), 3)]
    services.scoresheet_hands_replace(scoresheet=sheet, hands=lines, version=1, by=keeper)
    response = post(api, sheet, "strike", {"version": 2, "number": 2}, key(sheet, 4))
    assert response.status_code == 200, response.json()
    hands = response.json()["hands"]
    assert [(hand["dealer"], hand["game_value"]) for hand in hands] == [(1, 1), (2, 3)]
    assert response.json()["version"] == 3


def test_a_strike_the_tsr_refuses_answers_with_its_problems():
    tournament = factories.tournament(players=5, allow_tables_of_five=True)
    round_ = tournament_services.round_start(round=factories.seated_round(tournament))
    five = Scoresheet.objects.get(table__round=round_)
    keeper = factories.keeper(five)
    lines = [normal(1, (2, 4), 1, size=5), normal(2, (1, 3), 2, size=5)]
    services.scoresheet_hands_replace(scoresheet=five, hands=lines, version=1, by=keeper)
    response = post(APIClient(), five, "strike", {"version": 2, "number": 1}, key(five, 5))
    assert response.status_code == 400
    assert {"hand": 1, "code": "dealer"}.items() <= response.json()["problems"][0].items()
    assert five.hands.count() == 2


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"version": 2, "number": 9}, "number"),
        ({"version": 2, "number": 0}, "number"),
        ({"version": 2}, "number"),
        ({"number": 1}, "version"),
    ],
)
def test_a_strike_of_no_such_hand_is_refused_on_its_field(api, sheet, body, field):
    keeper = factories.keeper(sheet)
    services.scoresheet_hands_replace(
        scoresheet=sheet, hands=[normal(1, (1, 2), 1)], version=1, by=keeper
    )
    response = post(api, sheet, "strike", body, key(sheet, 4))
    assert response.status_code == 400
    assert field in response.json()
    assert sheet.hands.count() == 1


def test_another_players_key_may_not_strike_a_hand(api, sheet):
    keeper = factories.keeper(sheet)
    services.scoresheet_hands_replace(
        scoresheet=sheet, hands=[normal(1, (1, 2), 1)], version=1, by=keeper
    )
    assert post(api, sheet, "strike", {"version": 2, "number": 1}, key(sheet, 2)).status_code == 403
    assert sheet.hands.count() == 1
