"""What the API's JSON parser refuses (api_base/parsers.py): a lone surrogate, a NUL character and
an integer beyond 64 bits, in any value or key at any depth, and JSON nested deeper than Python
reads; each a 400 that names the field, where choice fields of the rules API and the scoresheet
answered with a 500 (their message echoed the surrogate, which cannot be encoded)."""

import json

import pytest
from django.urls import reverse
from rest_framework.authtoken.models import Token

from api_base.parsers import LARGEST, error_detail, problems
from doko.sample_sheets import full_match
from scoring.models import Scoresheet
from tests import factories
from tournaments import services as tournament_services

pytestmark = pytest.mark.django_db

SURROGATE = "\ud800"
NOT_TEXT = "This text holds a lone surrogate (a half of a character), which is no text."


def send(client, name, body, *, args=(), method="post", **headers):
    """``body`` as JSON, a lone surrogate as the escape a client writes for it."""
    return getattr(client, method)(
        reverse(name, args=args),
        json.dumps(body),
        content_type="application/json",
        headers={"Accept-Language": "en", **headers},
    )


# The parser's findings --------------------------------------------------------------------------


def test_every_place_no_field_can_hold_is_found_with_its_path():
    data = {
        "name": "Müller",
        "club": "a\x00b",
        "hands": [{"points": {"1": 2, SURROGATE: 1}}, {"game_value": 10**30}],
        "seed": LARGEST,
        "low": -LARGEST - 1,
        "lower": -LARGEST - 2,
        "ok": [True, None, 1.5, "²"],
    }
    assert problems(data) == [
        (("club",), "Null characters are not allowed."),
        (("hands", "0", "points"), NOT_TEXT),
        (
            ("hands", "1", "game_value"),
            "This number is too large: a number here has at most 64 bits.",
        ),
        (("lower",), "This number is too large: a number here has at most 64 bits."),
    ]


def test_the_problems_are_reported_by_field_as_drf_nests_errors():
    found = problems({SURROGATE: 1, "hands": [{"contract": SURROGATE}], "a": {"b": "\x00"}})
    assert error_detail(found) == {
        "non_field_errors": [NOT_TEXT],
        "hands": {"0": {"contract": [NOT_TEXT]}},
        "a": {"b": ["Null characters are not allowed."]},
    }


def test_json_that_is_no_object_is_refused_as_a_whole(client):
    response = send(client, "api:rules-penalty", [SURROGATE])
    assert response.status_code == 400
    assert response.json() == {"0": [NOT_TEXT]}


# The rules API ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "field"),
    [
        ("api:rules-hand-value", "contract"),
        ("api:rules-hand-value", "solo_type"),
        ("api:rules-hand-value", "re_announcement"),
        ("api:rules-hand-value", "contra_announcement"),
        ("api:rules-penalty", "severity"),
        ("api:rules-penalty", "contract"),
        ("api:rules-scoresheet-check", "players"),
    ],
)
def test_a_lone_surrogate_in_a_choice_of_the_rules_api_is_400_naming_it(client, name, field):
    response = send(client, name, {field: SURROGATE})
    assert response.status_code == 400
    assert response.json() == {field: [NOT_TEXT]}


def _check(hand: dict) -> dict:
    return {"players": 4, "hands": [{"kind": "normal", "dealer": 1, **hand}]}


@pytest.mark.parametrize(
    "hand",
    [
        {"kind": SURROGATE, "points": {"1": 1, "2": -1, "3": 1, "4": -1}},
        {"points": {"1": 1, "2": -1, "3": 1, SURROGATE: -1}},
        {"points": {"1": 1, "2": -1, "3": 1, "4": 10**30}},
    ],
)
def test_a_hand_of_the_sheet_check_that_no_field_can_hold_is_400_naming_the_hands(client, hand):
    response = send(client, "api:rules-scoresheet-check", _check(hand))
    assert response.status_code == 400
    assert list(response.json()) == ["hands"]


def test_a_seat_named_by_a_superscript_in_the_sheet_check_is_400_on_the_points(client):
    response = send(
        client, "api:rules-scoresheet-check", _check({"points": {"1": 1, "2": -1, "3": 1, "²": -1}})
    )
    assert response.status_code == 400
    assert "seats are numbered 1 to 7" in response.json()["hands"]["0"]["points"][0]


# The scoresheet ---------------------------------------------------------------------------------


@pytest.fixture
def sheet():
    tournament = factories.tournament(players=4)
    tournament_services.round_start(round=factories.seated_round(tournament))
    return Scoresheet.objects.get(table__round__tournament=tournament)


def _put(client, sheet, change: dict):
    line = full_match()[0]
    hand = {
        "contract": str(line.contract),
        "points": {str(seat): points for seat, points in line.points.items()},
        **change,
    }
    table = sheet.table
    args = [table.round.tournament.slug, table.round.number, table.number]
    keeper = table.seats.get(position=4).token
    return send(
        client,
        "api:scoresheet",
        {"version": sheet.version, "hands": [hand]},
        args=args,
        method="put",
        **{"X-Seat-Key": keeper},
    )


@pytest.mark.parametrize(
    "change",
    [
        {"contract": SURROGATE},
        {"solo_type": SURROGATE},
        {"points": {"1": 1, "2": -1, "3": 1, SURROGATE: -1}},
        {"points": {"1": 1, "2": -1, "3": 1, "\x00": -1}},
        {"game_value": 10**30},
    ],
)
def test_a_hand_that_no_field_can_hold_is_400_naming_the_hands_and_saves_nothing(
    client, sheet, change
):
    response = _put(client, sheet, change)
    assert response.status_code == 400
    assert list(response.json()) == ["hands"]
    sheet.refresh_from_db()
    assert (sheet.version, sheet.hands.count()) == (1, 0)


def test_a_seat_named_by_a_superscript_on_the_sheet_is_400_on_the_points(client, sheet):
    response = _put(client, sheet, {"points": {"1": 1, "2": -1, "3": 1, "²": -1}})
    assert response.status_code == 400
    assert "points" in response.json()["hands"]["0"]
    assert not sheet.hands.exists()


# Any endpoint ------------------------------------------------------------------------------------


@pytest.mark.parametrize("username", [SURROGATE, "a\x00b"])
def test_a_token_for_a_user_name_that_is_no_text_is_400(client, username):
    response = send(client, "api:token", {"username": username, "password": "x"})
    assert response.status_code == 400
    assert "username" in response.json()


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"first_name": "Er\x00ika"}, "first_name"),
        ({"club": SURROGATE}, "club"),
        ({"start_number": 10**30}, "start_number"),
        ({"start_number": -(10**30)}, "start_number"),
    ],
)
def test_a_registration_that_no_field_can_hold_is_400_naming_the_field(client, change, field):
    organiser = factories.user()
    tournament = factories.tournament(players=4, organiser=organiser)
    token = Token.objects.create(user=organiser).key
    body = {"first_name": "Erika", "last_name": "Muster", **change}
    response = send(
        client, "api:entries", body, args=[tournament.slug], Authorization=f"Token {token}"
    )
    assert response.status_code == 400
    assert list(response.json()) == [field]
    assert tournament.entries.count() == 4


def test_json_nested_deeper_than_python_reads_is_400(client):
    body = '{"username": ' + "[" * 100_000 + "]" * 100_000 + "}"
    response = client.post(
        reverse("api:token"),
        body,
        content_type="application/json",
        headers={"Accept-Language": "en"},
    )
    assert response.status_code == 400
    assert response.json() == {"detail": "The JSON is nested too deeply."}
