"""The public rules API: POST /api/v1/rules/hand-value, /rules/penalty, /rules/scoresheet-check."""

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from doko.rules.contracts import Contract
from doko.sample_sheets import full_match
from limits.clients import CLIENT_COOKIE
from tests import factories

pytestmark = pytest.mark.django_db


@pytest.fixture
def api():
    return APIClient()


def post(api, name, data, language="en", **headers):
    return api.post(
        reverse(name), data, format="json", headers={"Accept-Language": language, **headers}
    )


# hand-value -----------------------------------------------------------------------------------


def test_hand_value_of_contra_announced_and_won(api):
    response = post(
        api,
        "api:rules-hand-value",
        {
            "contract": "normal",
            "re_card_points": 80,
            "re_tricks": 4,
            "contra_announcement": "contra",
            "re_seats": [1, 3],
        },
    )
    assert response.status_code == 200
    data = response.json()
    assert data["winner"] == "contra"
    assert data["settled_as"] == "normal"
    assert data["re_value"] == -5
    assert data["scores"] == {"1": -5, "2": 5, "3": -5, "4": 5}
    assert data["breakdown"] == [
        {"rule": "TSR 7.2.2 (a)", "label": "Won", "team": "contra", "points": 1},
        {"rule": "TSR 7.2.2 (a)", "label": "Opponents under 90", "team": "contra", "points": 1},
        {"rule": "TSR 7.2.2 (b)", "label": "“Contra” announced", "team": "contra", "points": 2},
        {
            "rule": "TSR 7.2.3",
            "label": "Won against the Queens of Clubs",
            "team": "contra",
            "points": 1,
        },
    ]


def test_hand_value_labels_follow_the_request_language(api):
    data = post(
        api,
        "api:rules-hand-value",
        {"contract": "normal", "re_card_points": 80, "re_tricks": 4},
        language="de",
    ).json()
    assert [item["label"] for item in data["breakdown"]] == [
        "Gewonnen",
        "Gegner unter 90",
        "Gegen die Kreuz-Damen gewonnen",
    ]


def test_hand_value_of_a_solo_pays_the_soloist_three_times(api):
    data = post(
        api,
        "api:rules-hand-value",
        {
            "contract": "solo",
            "solo_type": "queens",
            "re_card_points": 185,
            "re_tricks": 9,
            "re_announcement": "re",
            "re_seats": [5],
            "seats": [2, 3, 4, 5],
        },
    ).json()
    assert data["settled_as"] == "solo"
    assert data["re_value"] == 5
    assert data["scores"] == {"2": -5, "3": -5, "4": -5, "5": 15}


def test_hand_value_without_seats_gives_no_scores(api):
    data = post(
        api, "api:rules-hand-value", {"contract": "normal", "re_card_points": 121, "re_tricks": 6}
    ).json()
    assert data["re_value"] == 1
    assert "scores" not in data


def test_nobody_wins_when_both_miss_their_point_announcement(api):
    data = post(
        api,
        "api:rules-hand-value",
        {
            "contract": "normal",
            "re_card_points": 140,
            "re_tricks": 7,
            "re_announcement": "no90",
            "contra_announcement": "no90",
        },
    ).json()
    assert data["winner"] == "none"
    assert data["re_value"] == 1


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"re_card_points": 241}, "re_card_points"),
        ({"re_tricks": 13}, "re_tricks"),
        ({"re_card_points": 10, "re_tricks": 0}, "re_card_points"),
        ({"contract": "solo", "solo_type": "aces", "re_specials": {"fox": 1}}, "re_specials"),
        ({"re_specials": {"fox": 3}}, "re_specials"),
        ({"re_specials": {"fox": 2}, "contra_specials": {"fox": 1}}, "contra_specials"),
        ({"re_announcement": "contra"}, "re_announcement"),
        ({"contra_announcement": "re"}, "contra_announcement"),
        ({"contract": "solo"}, "solo_type"),
        ({"wedding_solo": True}, "wedding_solo"),
        ({"re_seats": [1]}, "re_seats"),
        ({"re_seats": [1, 5]}, "re_seats"),
        ({"contract": "silent_wedding", "re_seats": [1, 2]}, "re_seats"),
        ({"seats": [1, 1, 2, 3]}, "seats"),
        ({"contract": "ramsch"}, "contract"),
    ],
)
def test_hand_value_rejects_inconsistent_input_naming_the_field(api, data, field):
    body = {"contract": "normal", "re_card_points": 130, "re_tricks": 7, **data}
    response = post(api, "api:rules-hand-value", body)
    assert response.status_code == 400
    assert field in response.json()


@pytest.mark.parametrize(("points", "tricks"), [(0, 5), (130, 3), (240, 6)])
def test_hand_value_refuses_card_points_the_tricks_cannot_hold(api, points, tricks):
    """TSR 2.2.2: k tricks hold the card points of 4k cards of the pack, no fewer, no more."""
    body = {"contract": "normal", "re_card_points": points, "re_tricks": tricks}
    response = post(api, "api:rules-hand-value", body)
    assert response.status_code == 400
    errors = response.json()
    assert set(errors) == {"re_card_points", "re_tricks"}
    for field in ("re_card_points", "re_tricks"):
        assert errors[field][0].endswith("(TSR 2.2.2)")
        assert f"not {points}" in errors[field][0]


def test_hand_value_errors_cite_the_rule_in_german(api):
    response = post(
        api,
        "api:rules-hand-value",
        {
            "contract": "solo",
            "solo_type": "aces",
            "re_card_points": 130,
            "re_tricks": 7,
            "re_specials": {"fox": 1},
        },
        language="de",
    )
    message = response.json()["re_specials"][0]
    assert "Sonderpunkte" in message
    assert message.endswith("(TSR 7.2.3, 7.2.4)")


# penalty --------------------------------------------------------------------------------------


def test_penalty_for_a_major_breach_by_an_opponent_of_the_soloist(api):
    response = post(
        api,
        "api:rules-penalty",
        {"severity": "major", "contract": "solo", "offender": 2, "soloist": 4, "announcements": 2},
    )
    assert response.status_code == 200
    assert response.json() == {
        "points": {"1": 0, "2": -15, "3": 0, "4": 15},
        "hand_not_played": False,
        # TSR 9.4.4: "das Solo [wird] als gespielt gewertet", the penalty points alone count
        "played_without_game_points": True,
        "rule": "TSR 9.4.4",
    }


def test_penalty_for_a_major_breach_in_a_normal_game_replays_the_hand(api):
    data = post(
        api,
        "api:rules-penalty",
        {"severity": "major", "contract": "normal", "offender": 5, "seats": [1, 2, 3, 5]},
    ).json()
    assert data == {
        "points": {"1": 4, "2": 4, "3": 4, "5": -12},
        "hand_not_played": True,
        "played_without_game_points": False,
        "rule": "TSR 9.4.3",
    }


def test_penalty_minor_breach_that_may_disadvantage_the_soloist(api):
    data = post(
        api,
        "api:rules-penalty",
        {
            "severity": "minor",
            "contract": "solo",
            "offender": 1,
            "soloist": 3,
            "disadvantages_soloist": True,
        },
    ).json()
    assert data["points"] == {"1": -3, "2": 0, "3": 3, "4": 0}
    assert data["rule"] == "TSR 9.3.3 (b1)"


def test_penalty_for_a_major_breach_in_a_game_already_won_is_a_minor_one(api):
    """TSR 9.5.1: the game ends, the hand is scored (not replayed), and the breach costs what
    a minor one does, whatever the announcements."""
    data = post(
        api,
        "api:rules-penalty",
        {
            "severity": "major",
            "contract": "normal",
            "offender": 3,
            "announcements": 4,
            "decided": True,
        },
    ).json()
    assert data["points"] == {"1": 1, "2": 1, "3": -3, "4": 1}
    assert data["hand_not_played"] is False
    assert data["rule"] == "TSR 9.5.1, TSR 9.3.2"


def test_penalty_for_a_major_breach_against_the_soloist_in_a_game_already_won(api):
    data = post(
        api,
        "api:rules-penalty",
        {
            "severity": "major",
            "contract": "solo",
            "offender": 2,
            "soloist": 4,
            "disadvantages_soloist": True,
            "decided": True,
        },
    ).json()
    assert data["points"] == {"1": 0, "2": -3, "3": 0, "4": 3}
    assert data["hand_not_played"] is False
    assert data["rule"] == "TSR 9.5.1, TSR 9.3.3 (b1)"


def test_penalty_decided_is_false_unless_sent(api):
    data = post(
        api,
        "api:rules-penalty",
        {"severity": "major", "contract": "normal", "offender": 3},
    ).json()
    assert data["hand_not_played"] is True
    assert data["rule"] == "TSR 9.4.3"


def test_penalty_decided_is_documented_with_an_example(api):
    schema = api.get(reverse("api-schema"), {"format": "json"}).json()
    fields = schema["components"]["schemas"]["PenaltyRequestRequest"]["properties"]
    assert "9.5.1" in fields["decided"]["description"]
    assert fields["decided"]["default"] is False
    examples = schema["paths"]["/api/v1/rules/penalty"]["post"]["requestBody"]["content"][
        "application/json"
    ]["examples"]
    assert any(example["value"].get("decided") for example in examples.values())


def test_penalty_in_a_wedding_played_alone_is_asked_as_a_solo(api):
    """The schema says how to ask for a wedding (TSR 4.4.3 b, 4.4.5): "solo" once it turned
    into one, with the holder of both Queens of Clubs as the soloist."""
    schema = api.get(reverse("api-schema"), {"format": "json"}).json()
    contract = schema["components"]["schemas"]["PenaltyRequestRequest"]["properties"]["contract"]
    assert "4.4.3 b" in contract["description"]
    assert "4.4.5" in contract["description"]
    data = post(
        api,
        "api:rules-penalty",
        {"severity": "minor", "contract": "solo", "offender": 1, "soloist": 3},
    ).json()
    assert data["points"] == {"1": -3, "2": 1, "3": 1, "4": 1}
    assert data["rule"] == "TSR 9.3.3 (b2)"


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"offender": 5}, "offender"),
        ({"contract": "solo"}, "soloist"),
        ({"soloist": 2}, "soloist"),
        ({"announcements": 6}, "announcements"),
        ({"severity": "dreadful"}, "severity"),
        ({"disadvantages_soloist": True}, "disadvantages_soloist"),
        ({"decided": True}, "decided"),
        ({"decided": "perhaps"}, "decided"),
    ],
)
def test_penalty_rejects_inconsistent_input_naming_the_field(api, data, field):
    response = post(
        api, "api:rules-penalty", {"severity": "minor", "contract": "normal", "offender": 1, **data}
    )
    assert response.status_code == 400
    assert field in response.json()


# scoresheet-check -----------------------------------------------------------------------------


def as_json(lines):
    return [
        {
            "kind": line.contract.value,
            "dealer": line.dealer,
            "soloist": line.soloist,
            "points": {str(seat): points for seat, points in line.points.items()},
        }
        for line in lines
    ]


def test_a_complete_sheet_is_ok(api):
    data = post(
        api, "api:rules-scoresheet-check", {"players": 4, "hands": as_json(full_match())}
    ).json()
    assert data["ok"]
    assert data["problems"] == []
    assert data["complete"]
    assert data["compulsory_played"] == {"1": True, "2": True, "3": True, "4": True}
    assert sum(data["totals"].values()) == 0
    assert data["next"]["hands_remaining"] == 0


def test_a_complete_sheet_of_five_is_ok(api):
    hands = as_json(full_match(size=5))
    for hand in hands:  # the sitting-out dealer may be left out
        del hand["points"][str(hand["dealer"])]
    data = post(api, "api:rules-scoresheet-check", {"players": 5, "hands": hands}).json()
    assert data["ok"], data["problems"]
    assert data["complete"]


def test_every_problem_is_reported_with_code_rule_and_message(api):
    hands = [
        {"kind": "normal", "dealer": 1, "points": {"1": 2, "2": -2, "3": 2, "4": -1}},
        {"kind": "normal", "dealer": 3, "points": {"1": 1, "2": 1, "3": -1, "4": -1}},
        {
            "kind": "voluntary_solo",
            "dealer": 4,
            "soloist": 2,
            "points": {"1": -1, "2": 3, "3": -1, "4": -1},
        },
    ]
    data = post(api, "api:rules-scoresheet-check", {"players": 4, "hands": hands}).json()
    assert not data["ok"]
    assert [(p["hand"], p["code"], p["rule"]) for p in data["problems"]] == [
        (1, "checksum", "TSR 7.3.3.1"),
        (1, "parity", "TSR 7.3.3.2"),
        (3, "solo_order", "TSR 4.3.1"),
    ]
    # A hand dealt by the wrong player stands (TSR 9.7.3): a warning, not a problem.
    assert [(w["hand"], w["code"], w["rule"]) for w in data["warnings"]] == [
        (2, "dealer", "TSR 3.3.1, 9.7.3")
    ]
    assert data["warnings"][0]["message"] == (
        "Hand 2 was dealt by seat 3, not by seat 2. Nobody complained in time, so the deal "
        "stands as valid, and the deal goes on from seat 3. (TSR 3.3.1, 9.7.3)"
    )


@pytest.mark.parametrize(
    ("penalty", "ok"),
    [
        ({"1": 6, "2": -3, "3": -3, "4": 0}, True),  # two opponents' 9.3.3 (b1)
        ({"1": 0, "2": -2, "3": 1, "4": 1}, True),  # a (b1) and the soloist's own (a)
        ({"1": -3, "2": 0, "3": 3, "4": 0}, False),  # a debit to the soloist
    ],
)
def test_a_paper_solo_line_breaks_the_odd_even_rule_only_in_the_soloists_favour(api, penalty, ok):
    """TSR 7.3.3.2 from the sums alone: seat 1's compulsory solo won at 2, with penalty points."""
    hands = [
        {
            "kind": "compulsory_solo",
            "dealer": 1,
            "soloist": 1,
            "points": {"1": 6, "2": -2, "3": -2, "4": -2},
            "penalty": penalty,
        }
    ]
    data = post(api, "api:rules-scoresheet-check", {"players": 4, "hands": hands}).json()
    assert data["ok"] is ok
    assert [p["rule"] for p in data["problems"]] == ([] if ok else ["TSR 7.3.3.2"])


def test_problems_are_explained_in_german(api):
    hands = [{"kind": "normal", "dealer": 1, "points": {"1": 1, "2": 1, "3": 1, "4": -3}}]
    data = post(
        api, "api:rules-scoresheet-check", {"players": 4, "hands": hands}, language="de"
    ).json()
    assert data["problems"][0]["message"] == (
        "Spiel 1: Die Punkte passen nicht zu einem Spielwert von 3: Im Normalspiel gewinnen "
        "ihn zwei Spieler und zwei verlieren ihn; ein Solospieler gewinnt oder verliert "
        "ihn dreifach, jeder Gegenspieler einfach. (TSR 7.2.2, 7.2.4)"
    )


def test_a_hand_dealt_out_of_turn_is_explained_in_german(api):
    hands = [{"kind": "normal", "dealer": 2, "points": {"1": 1, "2": 1, "3": -1, "4": -1}}]
    data = post(
        api, "api:rules-scoresheet-check", {"players": 4, "hands": hands}, language="de"
    ).json()
    assert data["ok"]
    assert data["warnings"][0]["message"] == (
        "Spiel 1 hat Position 2 gegeben, nicht Position 1. Niemand hat rechtzeitig "
        "reklamiert, also gilt das Geben, und es gibt weiter ab Position 2. (TSR 3.3.1, 9.7.3)"
    )


def test_the_next_hand_must_be_a_forced_solo(api):
    lines = [line for line in full_match() if not line.contract.is_solo][:20]
    data = post(api, "api:rules-scoresheet-check", {"players": 4, "hands": as_json(lines)}).json()
    assert data["next"] == {
        "dealer": 1,
        "must_be_forced_solo": True,
        "forced_soloist": 2,
        "hands_remaining": 4,
    }
    assert not data["complete"]


def test_after_the_playing_time_only_forced_solos(api):
    lines = [line for line in full_match() if not line.contract.is_solo][:10]
    body = {"players": 4, "hands": as_json(lines), "time_over_after_hand": 9}
    data = post(api, "api:rules-scoresheet-check", body).json()
    assert [(p["hand"], p["code"]) for p in data["problems"]] == [(10, "forced_solo")]
    assert data["next"]["must_be_forced_solo"]
    # After the playing time what remains are the forced solos still owed (TSR 8.5.3, 8.6.1).
    assert data["next"]["hands_remaining"] == 4


def test_penalty_points_are_checked_and_counted(api):
    hands = as_json(full_match()[:1])
    hands[0]["penalty"] = {"2": 1, "3": 1, "4": 1, "1": -3}
    data = post(api, "api:rules-scoresheet-check", {"players": 4, "hands": hands}).json()
    assert data["ok"]
    points = full_match()[0].points
    assert data["totals"]["1"] == points[1] - 3
    hands[0]["penalty"] = {"1": -3, "2": 1}
    data = post(api, "api:rules-scoresheet-check", {"players": 4, "hands": hands}).json()
    assert [p["code"] for p in data["problems"]] == ["checksum", "parity"]


def test_solo_penalty_credited_to_the_soloist_may_break_parity(api):
    hands = [
        {
            "kind": "compulsory_solo",
            "dealer": 1,
            "soloist": 1,
            "points": {"1": 6, "2": -2, "3": -2, "4": -2},
            "penalty": {"1": 15, "3": -15},
        },
    ]
    data = post(api, "api:rules-scoresheet-check", {"players": 4, "hands": hands}).json()
    assert data["ok"], data["problems"]


@pytest.mark.parametrize(
    ("hand", "players", "field"),
    [
        ({"dealer": 5}, 4, "dealer"),
        ({"points": {"1": 1, "2": -1, "3": 1}}, 4, "points"),
        ({"points": {"1": 1, "2": -1, "3": 1, "4": -1, "6": 0}}, 4, "points"),
        ({"points": {"1": 1, "2": -1, "3": 1, "x": -1}}, 4, "points"),
        ({"kind": "compulsory_solo"}, 4, "soloist"),
        ({"soloist": 2}, 4, "soloist"),
        ({"kind": "voluntary_solo", "soloist": 5}, 4, "soloist"),
        ({"penalty": {"5": 3}}, 4, "penalty"),
        ({"kind": "bock"}, 4, "kind"),
    ],
)
def test_scoresheet_check_rejects_malformed_hands(api, hand, players, field):
    body = {"kind": "normal", "dealer": 1, "points": {"1": 1, "2": -1, "3": 1, "4": -1}, **hand}
    response = post(api, "api:rules-scoresheet-check", {"players": players, "hands": [body]})
    assert response.status_code == 400
    assert field in response.json()["hands"]["0"]


@pytest.mark.parametrize("players", [3, 8])
def test_scoresheet_check_rejects_other_table_sizes(api, players):
    response = post(api, "api:rules-scoresheet-check", {"players": players, "hands": []})
    assert response.status_code == 400
    assert "players" in response.json()


def test_scoresheet_check_reads_a_table_of_seven(api):
    """TSR 10 as the manual reads it: 42 hands, the dealer and two to his left sit out."""
    response = post(api, "api:rules-scoresheet-check", {"players": 7, "hands": []})
    assert response.status_code == 200, response.content
    assert response.json()["next"]["hands_remaining"] == 42


# Abuse: sizes, rates, no login, no CSRF -----------------------------------------------------


def test_too_large_a_request_is_refused_before_parsing(api, settings):
    settings.PUBLIC_API_MAX_BODY = 1000
    hands = as_json(full_match())
    response = post(api, "api:rules-scoresheet-check", {"players": 4, "hands": hands})
    assert response.status_code == 413


def test_too_many_hands_are_refused(api):
    hands = as_json(full_match()) * 6
    response = post(api, "api:rules-scoresheet-check", {"players": 4, "hands": hands})
    assert response.status_code == 400
    assert "hands" in response.json()


def test_logged_in_browser_needs_no_csrf_token(settings):
    browser = APIClient(enforce_csrf_checks=True)
    browser.force_login(factories.user())
    response = post(
        browser, "api:rules-penalty", {"severity": "minor", "contract": "normal", "offender": 1}
    )
    assert response.status_code == 200


@pytest.fixture
def limits(settings):
    from django.core.cache import cache

    def set_limits(client, address):
        settings.PUBLIC_API_RATE_CLIENT = client
        settings.PUBLIC_API_RATE_ADDRESS = address

    cache.clear()
    yield set_limits
    cache.clear()


def penalty(client):
    return post(
        client, "api:rules-penalty", {"severity": "minor", "contract": "normal", "offender": 1}
    )


def test_each_client_is_limited_without_locking_out_its_neighbours(limits):
    limits(client="3/min", address="100/min")
    first, second = APIClient(), APIClient()  # two phones on the same Wi-Fi (one address)
    assert penalty(first).status_code == 200  # hands out the client cookie
    assert CLIENT_COOKIE in first.cookies
    assert [penalty(first).status_code for _ in range(4)] == [200, 200, 200, 429]
    refused = penalty(first)
    assert refused.status_code == 429
    assert int(refused.headers["Retry-After"]) > 0
    # The neighbour behind the same address still gets answers.
    assert [penalty(second).status_code for _ in range(4)] == [200] * 4


def test_one_address_is_limited_in_total(limits):
    limits(client="3/min", address="8/min")
    statuses = [penalty(APIClient()).status_code for _ in range(10)]
    assert statuses == [200] * 8 + [429] * 2


def test_a_forged_client_cookie_is_replaced(limits):
    limits(client="3/min", address="100/min")
    forger = APIClient()
    forger.cookies[CLIENT_COOKIE] = "made-up"
    assert penalty(forger).status_code == 200
    assert forger.cookies[CLIENT_COOKIE].value != "made-up"


def test_rules_endpoints_are_in_the_schema(api):
    paths = api.get(reverse("api-schema"), headers={"Accept": "application/json"}).json()["paths"]
    for path in ("hand-value", "penalty", "scoresheet-check"):
        operation = paths[f"/api/v1/rules/{path}"]["post"]
        assert operation["security"] == [{"tokenAuth": []}, {}]
        assert "200" in operation["responses"]


def test_contract_values_match_the_scoresheet_kinds():
    assert {contract.value for contract in Contract} == {
        "normal",
        "wedding",
        "silent_wedding",
        "voluntary_solo",
        "compulsory_solo",
        "forced_solo",
    }


def test_rules_still_answer_when_the_cache_is_down(limits, monkeypatch):
    limits(client="3/min", address="8/min")

    def broken(*args, **kwargs):
        raise ConnectionError("cache down")

    monkeypatch.setattr("limits.windows.cache.add", broken)
    assert penalty(APIClient()).status_code == 200


# The round's count and plausible lines (TSR 7.2, 8.5.1, 10.1.5, 10.2.1) ---------------------


def test_a_normal_game_split_three_to_one_is_a_value_problem(api):
    hands = [{"kind": "normal", "dealer": 1, "points": {"1": 1, "2": 1, "3": 1, "4": -3}}]
    data = post(api, "api:rules-scoresheet-check", {"players": 4, "hands": hands}).json()
    assert [(p["hand"], p["code"], p["rule"]) for p in data["problems"]] == [
        (1, "value", "TSR 7.2.2, 7.2.4")
    ]


def test_a_normal_game_worth_a_thousand_is_a_value_problem(api):
    points = {"1": 1000, "2": 1000, "3": -1000, "4": -1000}
    hands = [{"kind": "normal", "dealer": 1, "points": points}]
    data = post(api, "api:rules-scoresheet-check", {"players": 4, "hands": hands}).json()
    assert [p["code"] for p in data["problems"]] == ["value"]
    assert "at most 29 in a normal game" in data["problems"][0]["message"]


def test_the_round_has_twenty_four_lines_with_the_compulsory_solos(api):
    hands = as_json(full_match())
    data = post(api, "api:rules-scoresheet-check", {"players": 4, "hands": hands}).json()
    assert data["complete"]
    assert data["next"]["hands_remaining"] == 0
    more = [*hands, {"kind": "normal", "dealer": 1, "points": {"1": 1, "2": 1, "3": -1, "4": -1}}]
    data = post(api, "api:rules-scoresheet-check", {"players": 4, "hands": more}).json()
    assert [(p["hand"], p["code"]) for p in data["problems"]] == [(25, "hand_count")]


@pytest.mark.parametrize(("players", "least"), [(4, 8), (5, 10)])
def test_a_round_too_short_for_the_compulsory_solos_is_refused(api, players, least):
    body = {"players": players, "hands_per_match": least - 1, "hands": []}
    response = post(api, "api:rules-scoresheet-check", body)
    assert response.status_code == 400
    assert f"at least {least} hands" in response.json()["hands_per_match"][0]
    body["hands_per_match"] = least
    assert post(api, "api:rules-scoresheet-check", body).status_code == 200


def test_a_seat_written_in_other_digits_is_refused(api):
    hands = [{"kind": "normal", "dealer": 1, "points": {"1": 1, "2": -1, "3": 1, "²": -1}}]
    response = post(api, "api:rules-scoresheet-check", {"players": 4, "hands": hands})
    assert response.status_code == 400
    assert "seats are numbered 1 to 7" in response.json()["hands"]["0"]["points"][0]


def test_hand_value_needs_the_tricks_only_where_a_team_took_no_card_points(api):
    """Card points decide everything but schwarz (TSR 7.2.2 a): left out, the tricks are
    asked for only when a team took no card points."""
    data = post(api, "api:rules-hand-value", {"contract": "normal", "re_card_points": 130}).json()
    assert data["re_value"] == 1
    response = post(api, "api:rules-hand-value", {"contract": "normal", "re_card_points": 240})
    assert response.status_code == 400
    assert "re_tricks" in response.json()
    data = post(
        api,
        "api:rules-hand-value",
        {"contract": "normal", "re_card_points": 240, "re_tricks": 12},
    ).json()
    assert data["re_value"] == 5
