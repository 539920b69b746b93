"""Tables of six and seven (TSR 10) through the API: a club evening of 7 players and one of 11
are allowed them, drawn, played, handed in, confirmed and ranked; an official tournament
refuses them (TSR 8.3.1)."""

import random
import re

import pytest
from django.contrib.auth.models import Group
from django.urls import reverse
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from doko.rules.deal import scorekeeper
from doko.simulation import simulate_match
from rankings.selectors import counted_results
from tests import factories
from tournaments import policies
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def _client(user=None) -> APIClient:
    client = APIClient()
    headers = {"HTTP_ACCEPT_LANGUAGE": "en"}
    if user is not None:
        headers["HTTP_AUTHORIZATION"] = f"Token {Token.objects.get_or_create(user=user)[0].key}"
    client.credentials(**headers)
    return client


def _ok(response, status: int = 200):
    assert response.status_code == status, (response.status_code, response.content[:800])
    return response.json() if response.content else None


def _hand(line) -> dict:
    return {
        "contract": str(line.contract),
        "dealer": line.dealer,
        "soloist": line.soloist,
        "solo_type": str(line.solo_type) if line.solo_type else None,
        "game_value": line.game_value,
        "points": {str(seat): points for seat, points in line.points.items()},
    }


def _play_table(api, slug: str, number: int, table: dict, *, hands: int, seed: int) -> dict:
    """Write a simulated match at the table by its keeper's key (the last seat, TSR 10.1.4 as
    the system reads it for six and seven), hand it in, and confirm it by seat 1's key."""
    base = f"/api/v1/tournaments/{slug}/rounds/{number}/tables/{table['number']}"
    keys = {
        seat["position"]: re.search(r"/s/([^/]+)/", seat["link"]).group(1)
        for seat in _ok(api.get(f"{base}/links"))["seats"]
    }
    size = len(table["seats"])
    keeper, checker = APIClient(), APIClient()
    keeper.credentials(HTTP_X_SEAT_KEY=keys[scorekeeper(size)], HTTP_ACCEPT_LANGUAGE="en")
    checker.credentials(HTTP_X_SEAT_KEY=keys[1], HTTP_ACCEPT_LANGUAGE="en")
    lines = simulate_match(rng=random.Random(seed), table_size=size, hands_per_match=hands)
    sheet = _ok(keeper.get(f"{base}/scoresheet"))
    sheet = _ok(
        keeper.put(
            f"{base}/scoresheet",
            {"version": sheet["version"], "hands": [_hand(line) for line in lines]},
            format="json",
        )
    )
    sheet = _ok(
        keeper.post(f"{base}/scoresheet/submit", {"version": sheet["version"]}, format="json")
    )
    _ok(checker.post(f"{base}/scoresheet/confirm", {"version": sheet["version"]}, format="json"))
    totals = dict.fromkeys(range(1, size + 1), 0)
    for line in lines:
        for seat, points in line.points.items():
            totals[seat] += points
    return {seat["start_number"]: totals[seat["position"]] for seat in table["seats"]}


def _round_closed(api, url: str) -> None:
    """End and close the round, unless its last sheet confirmed closed it already (TSR 8.5.2)."""
    if _ok(api.get(url))["round"]["status"] != "closed":
        _ok(api.post(f"{url}end"))
        _ok(api.post(f"{url}close"))
    assert _ok(api.get(url))["round"]["status"] == "closed"


def _organiser():
    user = factories.user()
    user.groups.add(Group.objects.get(name=policies.ORGANISERS_GROUP))
    return user


@pytest.mark.parametrize(("players", "sizes"), [(7, [7]), (11, [4, 7])])
def test_a_club_evening_of_seven_or_eleven_is_drawn_played_and_ranked(
    players, sizes, django_capture_on_commit_callbacks
):
    organiser = _organiser()
    tournament = factories.tournament(players=players, organiser=organiser, planned_rounds=2)
    api = _client(organiser)
    slug = tournament.slug
    rounds_url = f"/api/v1/tournaments/{slug}/rounds/"
    _ok(api.post(rounds_url), 201)
    refused = api.post(f"{rounds_url}1/seat", {"seed": 3}, format="json")
    assert refused.status_code == 400
    assert "allow tables of six and seven (TSR 10)" in str(refused.json())
    settings = _ok(
        api.patch(
            reverse("api:tournament", args=[slug]),
            {"allow_tables_of_six_and_seven": True, "allow_tables_of_five": True},
            format="json",
        )
    )
    assert settings["allow_tables_of_six_and_seven"] is True
    scored: dict[int, int] = {}
    for number in (1, 2):
        if number == 2:
            _ok(api.post(rounds_url), 201)
        _ok(api.post(f"{rounds_url}{number}/seat", {"seed": 3 + number}, format="json"))
        detail = _ok(api.get(f"{rounds_url}{number}/"))
        assert sorted(len(table["seats"]) for table in detail["tables"]) == sizes
        _ok(api.post(f"{rounds_url}{number}/publish"))
        _ok(api.post(f"{rounds_url}{number}/start"))
        for table in detail["tables"]:
            size = len(table["seats"])
            hands = {4: 24, 7: 42}[size]  # six hands a player (TSR 10, doko.rules.deal)
            with django_capture_on_commit_callbacks(execute=True):
                played = _play_table(
                    api, slug, number, table, hands=hands, seed=number * 10 + table["number"]
                )
            for start, points in played.items():
                scored[start] = scored.get(start, 0) + points
        _round_closed(api, f"{rounds_url}{number}/")
    standings = _ok(_client().get(reverse("api:standings", args=[slug])))
    rows = standings["rows"]
    assert len(rows) == players
    assert all(row["rank"] is not None for row in rows)
    assert {row["start_number"]: row["points"] for row in rows} == scored
    assert [row["points"] for row in rows] == sorted(scored.values(), reverse=True)


def test_an_official_tournament_refuses_tables_of_six_and_seven():
    organiser = _organiser()
    tournament = factories.tournament(organiser=organiser, official=True)
    response = _client(organiser).patch(
        reverse("api:tournament", args=[tournament.slug]),
        {"allow_tables_of_six_and_seven": True},
        format="json",
    )
    assert response.status_code == 400
    assert "TSR 8.3.1" in response.json()["allow_tables_of_six_and_seven"][0]
    tournament.refresh_from_db()
    assert tournament.allow_tables_of_six_and_seven is False


def test_the_database_refuses_an_official_tournament_at_tables_of_six_and_seven():
    from django.db import IntegrityError, transaction

    tournament = factories.tournament(official=True)
    with pytest.raises(IntegrityError), transaction.atomic():
        Tournament.objects.filter(pk=tournament.pk).update(allow_tables_of_six_and_seven=True)


def test_the_clock_gives_a_table_of_seven_its_own_longer_time():
    """100 minutes at four make 175 at seven, the pace of 10.1.5 (TSR 10 as the manual reads
    it): the round clock lists the table with its end."""
    import datetime

    from tournaments import services
    from tournaments.selectors.clock import round_clock

    tournament = factories.tournament(players=11, allow_tables_of_six_and_seven=True)
    round_ = services.round_start(round=factories.seated_round(tournament))
    clock = round_clock(round=round_)
    seven = next(table for table in round_.tables.all() if table.seats.count() == 7)
    assert clock.ends_at == round_.started_at + datetime.timedelta(minutes=100)
    assert [(table.number, table.ends_at) for table in clock.tables] == [
        (seven.number, round_.started_at + datetime.timedelta(minutes=175))
    ]
    assert tournament.hands_at(7) == 42


def test_an_official_tournament_of_seven_is_not_told_to_allow_tables_of_seven():
    """TSR 8.3.1: the refusal names what an official tournament can do, not what it cannot."""
    organiser = _organiser()
    tournament = factories.tournament(
        players=7, organiser=organiser, official=True, allow_tables_of_five=True
    )
    api = _client(organiser)
    rounds_url = f"/api/v1/tournaments/{tournament.slug}/rounds/"
    _ok(api.post(rounds_url), 201)
    refused = api.post(f"{rounds_url}1/seat", {"seed": 3}, format="json")
    assert refused.status_code == 400
    message = refused.json()["entries"][0]
    assert "register 1 more or withdraw 2" in message
    assert "six and seven" not in message


def test_a_club_evening_of_seven_with_a_springer_is_drawn_played_and_ranked(
    django_capture_on_commit_callbacks,
):
    """TSR 10 „Springer": instead of a table of seven, two tables of four share one player at
    seat 1; his round counts as the mean of his two tables, rounded down (the manual)."""
    organiser = _organiser()
    tournament = factories.tournament(players=7, organiser=organiser, planned_rounds=2)
    api = _client(organiser)
    slug = tournament.slug
    url = reverse("api:tournament", args=[slug])
    refused = api.patch(url, {"springer": True}, format="json")
    assert refused.status_code == 400
    assert "allow tables of six and seven first" in refused.json()["springer"][0]
    settings = _ok(
        api.patch(url, {"allow_tables_of_six_and_seven": True, "springer": True}, format="json")
    )
    assert settings["springer"] is True
    rounds_url = f"/api/v1/tournaments/{slug}/rounds/"
    scored: dict[int, int] = {}
    springers = []
    for number in (1, 2):
        _ok(api.post(rounds_url), 201)
        _ok(api.post(f"{rounds_url}{number}/seat", {"seed": 3 + number}, format="json"))
        detail = _ok(api.get(f"{rounds_url}{number}/"))
        assert [len(table["seats"]) for table in detail["tables"]] == [4, 4]
        firsts = {table["seats"][0]["start_number"] for table in detail["tables"]}
        assert len(firsts) == 1  # the Springer at seat 1 of both tables
        (springer,) = firsts
        springers.append(springer)
        _ok(api.post(f"{rounds_url}{number}/publish"))
        _ok(api.post(f"{rounds_url}{number}/start"))
        results: dict[int, list[int]] = {}
        for table in detail["tables"]:
            with django_capture_on_commit_callbacks(execute=True):
                played = _play_table(
                    api, slug, number, table, hands=24, seed=number * 10 + table["number"]
                )
            for start, points in played.items():
                results.setdefault(start, []).append(points)
        assert len(results[springer]) == 2
        for start, points in results.items():
            scored[start] = scored.get(start, 0) + sum(points) // len(points)
        _round_closed(api, f"{rounds_url}{number}/")
        if number == 1:
            # Once seated, the Springer stays allowed: his rounds count as his.
            locked = _ok(api.get(url))["locked"]
            assert "springer" in locked
    assert springers[0] != springers[1]  # the one who jumped least jumps next
    rows = _ok(_client().get(reverse("api:standings", args=[slug])))["rows"]
    assert len(rows) == 7
    assert all(row["rank"] is not None for row in rows)
    assert {row["start_number"]: row["points"] for row in rows} == scored
    assert all(len([r for r in row["results"] if r]) == 2 for row in rows)
    entry = tournament.entries.get(start_number=springers[0])
    player = _ok(_client().get(reverse("api:player", args=[slug, entry.start_number])))
    first = [item for item in player["rounds"] if item["round"] == 1]
    assert len(first) == 2
    assert all(item["springer"] for item in first)
    assert {item["table"] for item in first} == {1, 2}
    # The standings draw's ranking and the ranking lists count his rounds alike.
    from tournaments import selectors

    tournament.refresh_from_db()
    by_entry = dict(tournament.entries.values_list("pk", "start_number"))
    points = selectors.entry_points(tournament=tournament)
    assert {by_entry[pk]: total for pk, total in points.items()} == scored
    counted = counted_results(tournament_ids=[tournament.pk])[tournament.pk]
    assert sorted((c.rounds, c.points) for c in counted) == sorted((2, p) for p in scored.values())


def test_an_official_tournament_refuses_a_springer():
    organiser = _organiser()
    tournament = factories.tournament(organiser=organiser, official=True)
    response = _client(organiser).patch(
        reverse("api:tournament", args=[tournament.slug]),
        {"springer": True, "allow_tables_of_six_and_seven": True},
        format="json",
    )
    assert response.status_code == 400
    assert "TSR 8.3.1" in response.json()["springer"][0]
    tournament.refresh_from_db()
    assert tournament.springer is False


def test_the_database_holds_the_springer_to_one_second_seat_a_round():
    from django.db import IntegrityError, transaction

    from tournaments.models import Seat

    tournament = factories.tournament(players=7, allow_tables_of_six_and_seven=True)
    with pytest.raises(IntegrityError), transaction.atomic():
        Tournament.objects.filter(pk=tournament.pk).update(
            allow_tables_of_six_and_seven=False, springer=True
        )
    Tournament.objects.filter(pk=tournament.pk).update(springer=True)
    tournament.refresh_from_db()
    round_ = factories.seated_round(tournament)
    second = Seat.objects.get(round=round_, second=True)
    first = Seat.objects.get(round=round_, entry=second.entry, second=False)
    assert first.table_id != second.table_id
    with pytest.raises(IntegrityError), transaction.atomic():
        Seat.objects.filter(pk=first.pk).update(second=True)
    with pytest.raises(IntegrityError), transaction.atomic():
        Seat.objects.filter(pk=second.pk).update(table=first.table, position=5)


def test_a_springers_round_is_mended_after_a_late_entry_and_a_withdrawal():
    """TSR 10: seven with a Springer sit at two tables of four sharing him; an eighth player
    makes two plain tables of four, and one leaving again brings the Springer back."""
    from tournaments import services
    from tournaments.models import Seat

    tournament = factories.tournament(
        players=7, allow_tables_of_six_and_seven=True, springer=True, planned_rounds=1
    )
    round_ = factories.seated_round(tournament)
    assert round_.seats.count() == 8
    assert round_.seats.filter(second=True).count() == 1
    late = services.entry_create(tournament=tournament, player=factories.player())
    assert round_.seats.count() == 8
    assert not round_.seats.filter(second=True).exists()
    assert round_.seats.filter(entry=late).exists()
    services.entry_withdraw(entry=late)
    seats = Seat.objects.filter(round=round_)
    assert seats.count() == 8
    (second,) = seats.filter(second=True)
    first = seats.get(entry=second.entry, second=False)
    assert (first.position, second.position) == (1, 1)
    assert first.table_id != second.table_id


def test_the_round_page_marks_the_springer_at_both_tables(client):
    from tournaments.models import Seat

    tournament = factories.tournament(
        players=7, allow_tables_of_six_and_seven=True, springer=True, planned_rounds=1
    )
    round_ = factories.seated_round(tournament)
    client.cookies["django_language"] = "en"
    html = client.get(
        reverse("tournaments:round", args=[tournament.slug, round_.number])
    ).content.decode()
    assert html.count(">Springer</span>") == 2
    assert Seat.objects.filter(round=round_, second=True).count() == 1
