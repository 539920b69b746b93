"""The rounds API: a round's tables and seats, its actions and who may run them (TSR 8.3, 8.5.1,
10), and finding a player's table."""

import pytest
from django.urls import reverse
from rest_framework.authtoken.models import Token

from tests import factories
from tournaments import services

pytestmark = pytest.mark.django_db


def test_round_lists_tables_with_seats_in_order(client, tournament):
    data = client.get(reverse("api:round", args=[tournament.slug, 1])).json()
    assert data["round"]["table_count"] == 2
    table = data["tables"][0]
    assert [seat["position"] for seat in table["seats"]] == [1, 2, 3, 4]
    assert table["hand_count"] == 24
    assert sum(seat["points"] for t in data["tables"] for seat in t["seats"]) == 0


@pytest.mark.parametrize("players", [8, 32])
def test_round_detail_runs_a_fixed_number_of_queries(client, django_assert_num_queries, players):
    tournament = factories.tournament(players=players)
    factories.seated_round(tournament)
    with django_assert_num_queries(4):
        client.get(reverse("api:round", args=[tournament.slug, 1]))


def test_api_runs_a_round(client, staffed):
    tournament, headers = staffed
    slug = tournament.slug
    created = client.post(reverse("api:rounds", args=[slug]), headers=headers["organiser"])
    assert created.status_code == 201
    assert created.json()["number"] == 1
    seated = client.post(
        reverse("api:round-seat", args=[slug, 1]),
        {"seed": 7},
        content_type="application/json",
        headers=headers["organiser"],
    )
    assert seated.json()["status"] == "seated"
    assert seated.json()["table_count"] == 3
    assert client.get(reverse("api:round", args=[slug, 1])).json()["tables"] == []
    client.post(reverse("api:round-publish", args=[slug, 1]), headers=headers["organiser"])
    assert len(client.get(reverse("api:round", args=[slug, 1])).json()["tables"]) == 3
    # The adjudicator starts the round and grants extra time, but may not draw.
    refused = client.post(reverse("api:round-seat", args=[slug, 1]), headers=headers["adjudicator"])
    assert refused.status_code == 403
    started = client.post(
        reverse("api:round-start", args=[slug, 1]), headers=headers["adjudicator"]
    )
    assert started.json()["status"] == "running"
    extra = client.post(
        reverse("api:table-extra-time", args=[slug, 1, 2]),
        {"minutes": 5, "reason": "Beschwerde"},
        content_type="application/json",
        headers=headers["adjudicator"],
    )
    assert extra.status_code == 201
    assert extra.json()["tables"][0]["extra_minutes"] == 5
    clock = client.get(reverse("api:round-clock", args=[slug, 1])).json()
    assert clock["status"] == "running"
    assert 0 < clock["seconds_left"] <= 6000
    client.post(reverse("api:round-end", args=[slug, 1]), headers=headers["adjudicator"])
    closing = client.post(
        reverse("api:round-close", args=[slug, 1]),
        headers={**headers["organiser"], "Accept-Language": "en"},
    )
    assert closing.status_code == 400
    (refusal,) = closing.json()["non_field_errors"]
    assert refusal.startswith("3 scoresheets are not confirmed yet (tables 1, 2, 3).")


def test_api_round_actions_need_a_role(client, staffed):
    tournament, _headers = staffed
    factories.seated_round(tournament)
    assert client.post(reverse("api:round-start", args=[tournament.slug, 1])).status_code in {
        401,
        403,
    }
    client.force_login(factories.user())
    assert client.post(reverse("api:round-start", args=[tournament.slug, 1])).status_code == 403


def test_api_round_end_is_the_adjudicators_or_the_organisers(client, staffed):
    """TSR 8.5.1: a panel member's token is refused with the reason, and nothing changes."""
    tournament, headers = staffed
    services.round_start(round=factories.seated_round(tournament))
    member = factories.user()
    factories.role_grant(tournament=tournament, user=member, role="panel")
    token = Token.objects.create(user=member).key
    refused = client.post(
        reverse("api:round-end", args=[tournament.slug, 1]),
        headers={"Authorization": f"Token {token}", "Accept-Language": "en"},
    )
    assert refused.status_code == 403
    assert "TSR 8.5.1" in refused.json()["detail"]
    assert tournament.rounds.get().ended_at is None
    ended = client.post(
        reverse("api:round-end", args=[tournament.slug, 1]), headers=headers["organiser"]
    )
    assert ended.json()["status"] == "finished"


def test_api_seat_says_why_the_players_cannot_be_drawn_and_allowing_fives_seats_them(
    client, staffed
):
    """TSR 8.3.1: tables of four only by default; the round's seat action answers 400 on
    ``entries`` with the numbers and the choices, as the page does (TSR 10)."""
    tournament, headers = staffed
    services.entry_create(tournament=tournament, player=factories.player())  # 13 players
    services.round_create(tournament=tournament)
    organiser = {**headers["organiser"], "Accept-Language": "en"}
    refused = client.post(reverse("api:round-seat", args=[tournament.slug, 1]), headers=organiser)
    assert refused.status_code == 400
    assert refused.json() == {
        "entries": [
            "13 active players do not divide into tables of four (TSR 8.3.1): register 3 more "
            "or withdraw 1, or allow tables of five (TSR 10)."
        ]
    }
    denied = client.post(
        reverse("api:tables-of-five", args=[tournament.slug]), headers=headers["adjudicator"]
    )
    assert denied.status_code == 403
    allowed = client.post(reverse("api:tables-of-five", args=[tournament.slug]), headers=organiser)
    assert allowed.status_code == 200
    assert allowed.json()["allow_tables_of_five"] is True
    seated = client.post(reverse("api:round-seat", args=[tournament.slug, 1]), headers=organiser)
    assert seated.json()["table_count"] == 3


@pytest.mark.parametrize("seed", ["²", 2**70, -1, "sieben", [1]])
def test_api_seat_refuses_a_hostile_seed_by_field(client, staffed, seed):
    tournament, headers = staffed
    services.round_create(tournament=tournament)
    response = client.post(
        reverse("api:round-seat", args=[tournament.slug, 1]),
        {"seed": seed},
        content_type="application/json",
        headers=headers["organiser"],
    )
    assert response.status_code == 400
    assert "seed" in response.json()
    assert not tournament.rounds.get().tables.exists()


def test_api_finds_a_players_table(client, tournament):
    data = client.get(reverse("api:find", args=[tournament.slug]), {"q": "3"}).json()
    assert data[0]["start_number"] == 3
    assert data[0]["current_round"] == 1
    assert data[0]["seats"][0]["table"] in {1, 2}
