"""The team competitions' API (teams/api.py), through DRF's test client: a league and a team
championship set up, drawn, played and scored through the API alone; who may write; what bad
input is told."""

import datetime
import re
from fractions import Fraction

import pytest
from django.contrib.auth.models import Group
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from doko.rules.contracts import Contract
from doko.rules.deal import HANDS_PER_MATCH
from doko.sample_sheets import normal, solo
from teams import services
from teams.models import OrganiserOffer
from tests import factories
from tests.teams.factories import league, organiser_of, teams
from tournaments.policies import ORGANISERS_GROUP

pytestmark = pytest.mark.django_db

DAY = "2026-12-05"
API = "/api/v1/competitions"
ROUNDS = 2  # a league's match day, kept short: the draw's balance is tested with the core


def client_of(user=None, language: str = "en") -> APIClient:
    client = APIClient()
    headers = {"HTTP_ACCEPT_LANGUAGE": language}
    if user is not None:
        headers["HTTP_AUTHORIZATION"] = f"Token {Token.objects.get_or_create(user=user)[0].key}"
    client.credentials(**headers)
    return client


def organiser_user(username: str):
    user = factories.user(username=username)
    user.groups.add(Group.objects.get(name=ORGANISERS_GROUP))
    return user


def ok(response, status: int = 200):
    assert response.status_code == status, (response.status_code, response.content[:600])
    return response.json() if response.content else None


# Playing a table through the sheet API ---------------------------------------------------------


def hand_json(line) -> dict:
    return {
        "contract": str(line.contract),
        "dealer": line.dealer,
        "soloist": line.soloist,
        "solo_type": str(line.solo_type) if line.solo_type else None,
        "game_value": line.game_value,
        "points": {str(seat): points for seat, points in line.points.items()},
    }


def ranked_match(order: list[int]) -> list:
    """A correct match of 24 hands (20 + 4 compulsory solos, TSR 8.5.1) in which the seats of
    ``order`` (best first) end on +20, 0, -8, -12: the first two win 10 normal games, the first
    and third 6, the first and last 4; each compulsory solo is won, which evens out."""
    a, b, c, d = order
    winners = [(a, b)] * 10 + [(a, c)] * 6 + [(a, d)] * 4
    size = 4
    lines, dealer, owing = [], 1, list(range(1, size + 1))
    for main in range(HANDS_PER_MATCH[size] - size):
        if owing and main % 2 == 1:
            lines.append(solo(dealer, owing.pop(0), 2, contract=Contract.COMPULSORY_SOLO))
        lines.append(normal(dealer, winners[main], 1))
        dealer = dealer % size + 1
    return lines


SCORES = (20, 0, -8, -12)  # what each place of ``ranked_match`` scores at one table


def key_of(link: str) -> str:
    return re.search(r"/s/([^/]+)/", link).group(1)


def play_table(api, slug: str, number: int, table: dict, team_of: dict, strength: list[int]):
    """Enter, hand in and confirm one table's sheet as its players do (the keeper's key, then
    seat 1's): the player of the strongest team in ``strength`` scores most."""
    base = f"/api/v1/tournaments/{slug}/rounds/{number}/tables/{table['number']}"
    links = ok(api.get(f"{base}/links"))["seats"]
    keys = {seat["position"]: key_of(seat["link"]) for seat in links}
    seats = {seat["position"]: team_of[seat["start_number"]] for seat in table["seats"]}
    order = sorted(seats, key=lambda position: strength.index(seats[position]))
    keeper, checker = APIClient(), APIClient()
    keeper.credentials(HTTP_X_SEAT_KEY=keys[4], HTTP_ACCEPT_LANGUAGE="en")
    checker.credentials(HTTP_X_SEAT_KEY=keys[1], HTTP_ACCEPT_LANGUAGE="en")
    sheet = ok(keeper.get(f"{base}/scoresheet"))
    hands = [hand_json(line) for line in ranked_match(order)]
    sheet = ok(
        keeper.put(
            f"{base}/scoresheet", {"version": sheet["version"], "hands": hands}, format="json"
        )
    )
    version = {"version": sheet["version"]}
    sheet = ok(keeper.post(f"{base}/scoresheet/submit", version, format="json"))
    ok(checker.post(f"{base}/scoresheet/confirm", {"version": sheet["version"]}, format="json"))
    return seats


def play_match_day(api, slug: str, number: int, strengths: list[list[int]]) -> dict:
    """Draw a match day's rounds through the rounds API, check every table, play every round,
    and return what the tables seated: {team id: [its players' start numbers]}."""
    match_day = ok(api.get(f"{API}/{slug}/match-days/{number}"))
    tournament = match_day["tournament"]
    groups = {
        team["team_id"]: group["number"] for group in match_day["groups"] for team in group["teams"]
    }
    team_of = {}
    for team_id in groups:
        line_up = ok(api.get(f"{API}/{slug}/match-days/{number}/line-ups/{team_id}"))
        for each in line_up["rounds"]:
            for place in each["players"]:
                team_of[place["start_number"]] = team_id
    rounds_url = f"/api/v1/tournaments/{tournament}/rounds/"
    ok(api.post(rounds_url), 201)
    ok(api.post(f"{rounds_url}1/seat", {"seed": 11}, format="json"))
    rounds = ok(api.get(rounds_url))
    assert len(rounds) == match_day["rounds"]  # the team draw draws every round at once
    strength_of = {team: strength for strength in strengths for team in strength}
    for each in rounds:
        number_ = each["number"]
        detail = ok(api.get(f"{rounds_url}{number_}/"))
        for table in detail["tables"]:
            seated = [team_of[seat["start_number"]] for seat in table["seats"]]
            assert len(seated) == 4
            assert len(set(seated)) == 4, seated  # four teams, no team-mates together
            assert len({groups[team] for team in seated}) == 1, seated  # of one group
        if each["status"] != "seated" or detail["round"]["published_at"] is None:
            ok(api.post(f"{rounds_url}{number_}/publish"))
        ok(api.post(f"{rounds_url}{number_}/start"))
        for table in detail["tables"]:
            strength = strength_of[team_of[table["seats"][0]["start_number"]]]
            play_table(api, tournament, number_, table, team_of, strength)
        ok(api.post(f"{rounds_url}{number_}/end"))
        ok(api.post(f"{rounds_url}{number_}/close"))
    return team_of


def by_name(rows: list[dict], key: str = "name") -> dict:
    return {row[key]: row for row in rows}


def test_a_league_and_a_championship_are_set_up_drawn_played_and_scored_through_the_api():
    """The issue's "done when": a league of 8 teams (32 players) with two match days, every
    table seating four different teams (no team-mates together), match points 4/3/2/1 per
    group and match day from the confirmed sheets, a season table with summed match points
    and relegation places marked; a team championship with a group stage and one knock-out
    round whose winner shows in the bracket. All through the API."""
    api = client_of(organiser_user("ligaleiter"))
    slug = _league_created(api)
    t, listed = _league_teams_registered(api, slug)
    _league_match_days_drawn(api, slug, t)
    _league_match_days_played_and_scored(api, slug, t)
    _league_season_table_read(api, slug, t)
    _championship_played_to_its_bracket(api, listed)


def _league_created(api) -> str:
    """The organiser creates the league, one up and two down; its slug."""
    competition = ok(
        api.post(
            API,
            {
                "name": "Bezirksliga",
                "season": "2026/27",
                "kind": "league",
                "promotion_places": 1,
                "relegation_places": 2,
            },
            format="json",
        ),
        201,
    )
    return competition["slug"]


def _league_teams_registered(api, slug: str) -> tuple[dict, list]:
    """Eight teams of four, the first a captain: the teams' ids by number, and the list."""
    team_ids = {}
    for number in range(1, 9):
        team = ok(
            api.post(
                f"{API}/{slug}/teams",
                {"name": f"Team {number}", "club": f"Club {number}"},
                format="json",
            ),
            201,
        )
        team_ids[number] = team["id"]
        for index in range(4):
            ok(
                api.post(
                    f"{API}/{slug}/teams/{team['id']}/players",
                    {
                        "first_name": f"Spieler{index}",
                        "last_name": f"Team{number}",
                        "club": f"Club {number}",
                        "ddv_number": f"{number}{index}0{number}",
                        "captain": index == 0,
                    },
                    format="json",
                ),
                201,
            )
    listed = ok(api.get(f"{API}/{slug}/teams"))
    assert len(listed) == 8
    assert sum(len(team["players"]) for team in listed) == 32
    assert all(team["players"][0]["captain"] for team in listed)
    return team_ids, listed


def _league_match_days_drawn(api, slug: str, t: dict) -> None:
    """Two match days drawn by groups; team 1 names a reserve, who plays from round 2 of the
    second match day."""
    reserve = ok(
        api.post(
            f"{API}/{slug}/teams/{t[1]}/players",
            {"first_name": "Ersatz", "last_name": "Zuletzt", "club": "Club 1"},
            format="json",
        ),
        201,
    )
    reserve_id = next(p["player_id"] for p in reserve["players"] if p["first_name"] == "Ersatz")
    first = ok(
        api.post(
            f"{API}/{slug}/match-days",
            {
                "starts_on": DAY,
                "venue": "Vereinsheim",
                "rounds": ROUNDS,
                "groups": [[t[1], t[2], t[3], t[4]], [t[5], t[6], t[7], t[8]]],
            },
            format="json",
        ),
        201,
    )
    assert first["number"] == 1
    assert first["stage"] == "groups"
    assert not first["complete"]
    second = ok(
        api.post(
            f"{API}/{slug}/match-days",
            {
                "starts_on": "2027-01-16",
                "rounds": ROUNDS,
                "groups": [[t[1], t[3], t[5], t[7]], [t[2], t[4], t[6], t[8]]],
            },
            format="json",
        ),
        201,
    )
    assert second["number"] == 2
    line_up = ok(api.get(f"{API}/{slug}/match-days/2/line-ups/{t[1]}"))
    regulars = [place["player_id"] for place in line_up["rounds"][0]["players"]]
    changed = ok(
        api.put(
            f"{API}/{slug}/match-days/2/line-ups/{t[1]}",
            {"players": [*regulars[:3], reserve_id], "from_round": 2},
            format="json",
        )
    )
    assert [p["player_id"] for p in changed["rounds"][0]["players"]] == regulars
    assert [p["player_id"] for p in changed["rounds"][1]["players"]][3] == reserve_id


def _league_match_days_played_and_scored(api, slug: str, t: dict) -> None:
    """Both match days played from the sheets; each group scores 4/3/2/1 match points in the
    order its teams played."""
    # Match day 1: group 1 finishes 1 > 2 > 3 > 4, group 2 5 > 6 > 7 > 8.
    play_match_day(api, slug, 1, [[t[1], t[2], t[3], t[4]], [t[5], t[6], t[7], t[8]]])
    # Match day 2: group 1 finishes 7 > 5 > 3 > 1, group 2 4 > 2 > 6 > 8.
    seated = play_match_day(api, slug, 2, [[t[7], t[5], t[3], t[1]], [t[4], t[2], t[6], t[8]]])
    reserve_entries = [n for n, team in seated.items() if team == t[1]]
    assert len(reserve_entries) == 5  # the reserve played for team 1 too

    rounds = ROUNDS
    expected = {
        1: [[t[1], t[2], t[3], t[4]], [t[5], t[6], t[7], t[8]]],
        2: [[t[7], t[5], t[3], t[1]], [t[4], t[2], t[6], t[8]]],
    }
    for number, groups in expected.items():
        day = ok(api.get(f"{API}/{slug}/match-days/{number}"))
        assert day["complete"]
        for group, order in zip(day["groups"], groups, strict=True):
            assert group["complete"]
            assert [team["team_id"] for team in group["teams"]] == order
            assert [team["match_points"] for team in group["teams"]] == ["4", "3", "2", "1"]
            assert [team["points"] for team in group["teams"]] == [
                4 * rounds * score for score in SCORES
            ]
            assert [team["place"] for team in group["teams"]] == [1, 2, 3, 4]


def _league_season_table_read(api, slug: str, t: dict) -> None:
    """The season table sums the match days' match points and marks one up, two down."""
    # 5 (7), 7 and 2 (6, by game points), 1 and 4 (5, level on game points: 1 beat 4 on match
    # day 1), 6 (5), 3 (4), 8 (2).
    table = ok(api.get(f"{API}/{slug}/table"))
    assert (table["promotion_places"], table["relegation_places"]) == (1, 2)
    lines = table["lines"]
    names = {team_id: f"Team {number}" for number, team_id in t.items()}
    assert [line["team"] for line in lines] == [names[t[n]] for n in (5, 7, 2, 1, 4, 6, 3, 8)]
    assert [line["match_points"] for line in lines] == ["7", "6", "6", "5", "5", "5", "4", "2"]
    assert [line["rank"] for line in lines] == [1, 2, 3, 4, 5, 6, 7, 8]
    zones = ["promotion", "", "", "", "", "", "relegation", "relegation"]
    assert [line["zone"] for line in lines] == zones
    step = 4 * ROUNDS
    assert by_name(lines, "team_id")[t[1]]["game_points"] == step * (20 - 12)
    assert by_name(lines, "team_id")[t[4]]["game_points"] == step * (-12 + 20)


def _championship_played_to_its_bracket(api, listed: list) -> None:
    """The team championship: the same people, by their records; a group stage, then the first
    two of each group in one knock-out tie, of which one team goes through."""
    cup_slug, c = _championship_teams_registered(api, listed)
    ok(
        api.post(
            f"{API}/{cup_slug}/match-days",
            {
                "starts_on": DAY,
                "rounds": 1,
                "groups": [[c[1], c[2], c[3], c[4]], [c[5], c[6], c[7], c[8]]],
            },
            format="json",
        ),
        201,
    )
    play_match_day(api, cup_slug, 1, [[c[2], c[1], c[3], c[4]], [c[6], c[5], c[7], c[8]]])
    stage = ok(api.get(f"{API}/{cup_slug}/match-days/1"))
    firsts = [team["team_id"] for group in stage["groups"] for team in group["teams"][:2]]
    assert firsts == [c[2], c[1], c[6], c[5]]
    knockout = ok(
        api.post(
            f"{API}/{cup_slug}/match-days",
            {"starts_on": DAY, "rounds": 1, "stage": "knockout", "groups": [firsts], "advance": 1},
            format="json",
        ),
        201,
    )
    assert knockout["stage"] == "knockout"
    bracket = ok(api.get(f"{API}/{cup_slug}/bracket"))
    assert [tie["teams"][0]["through"] for tie in bracket["rounds"][0]["ties"]] == [None]
    play_match_day(api, cup_slug, 2, [[c[5], c[6], c[1], c[2]]])
    bracket = ok(api.get(f"{API}/{cup_slug}/bracket"))
    (final,) = bracket["rounds"]
    (tie,) = final["ties"]
    assert tie["complete"]
    assert tie["advance"] == 1
    assert [(row["name"], row["through"]) for row in tie["teams"]] == [
        ("Team 5", True),
        ("Team 6", False),
        ("Team 1", False),
        ("Team 2", False),
    ]
    # The knock-out round scores no league table: the championship's table counts its groups.
    cup_table = ok(api.get(f"{API}/{cup_slug}/table"))
    assert cup_table["lines"][0]["team"] in {"Team 2", "Team 6"}


def _championship_teams_registered(api, listed: list) -> tuple[str, dict]:
    """The championship, with the league's teams and players (by their records): its slug and
    the teams' ids by the league's numbers."""
    cup = ok(
        api.post(API, {"name": "Mannschaftspokal", "kind": "championship"}, format="json"), 201
    )
    cup_slug = cup["slug"]
    cup_teams = {}
    for team in listed:
        made = ok(api.post(f"{API}/{cup_slug}/teams", {"name": team["name"]}, format="json"), 201)
        cup_teams[team["name"]] = made["id"]
        for player in team["players"]:
            ok(
                api.post(
                    f"{API}/{cup_slug}/teams/{made['id']}/players",
                    {"player_id": player["player_id"]},
                    format="json",
                ),
                201,
            )
    return cup_slug, {number: cup_teams[f"Team {number}"] for number in range(1, 9)}


def test_match_points_are_written_as_exact_fractions():
    from teams.api import match_points_text

    assert [match_points_text(Fraction(n, d)) for n, d in ((4, 1), (5, 2), (7, 3))] == [
        "4",
        "5/2",
        "7/3",
    ]
    assert match_points_text(None) is None


# Who may write -----------------------------------------------------------------------------------


@pytest.fixture
def world():
    """A league of four teams of five (one reserve each), with a match day of one group, its
    organiser, and another club's organiser (who may create competitions of his own)."""
    from teams import services

    competition = league(teams=4, members=5, relegation_places=1)
    by = organiser_of(competition)
    match_day = services.match_day_create(
        competition=competition,
        starts_on=datetime.date(2026, 12, 5),
        by=by,
        groups=[teams(competition)],
    )
    return {
        "competition": competition,
        "organiser": by,
        "stranger": organiser_user("fremder-leiter"),
        "match_day": match_day,
        "team": teams(competition)[0],
    }


def _writes(w) -> list[tuple[str, str, dict | None]]:
    """Every write of the API, with a body the organiser may send."""
    slug, team = w["competition"].slug, w["team"]
    members = list(team.members.order_by("-is_captain", "player__last_name"))
    base = f"{API}/{slug}"
    return [
        ("patch", base, {"name": "Umbenannt"}),
        ("post", f"{base}/organisers", {"username": w["stranger"].username}),
        ("post", f"{base}/teams", {"name": "Neue Mannschaft"}),
        ("patch", f"{base}/teams/{team.pk}", {"name": "Umbenannt"}),
        ("delete", f"{base}/teams/{team.pk}", None),
        ("post", f"{base}/teams/{team.pk}/players", {"first_name": "Neu", "last_name": "Ling"}),
        ("post", f"{base}/teams/{team.pk}/captain", {"player_id": members[1].player_id}),
        (
            "post",
            f"{base}/match-days",
            {"starts_on": DAY, "groups": [[t.pk for t in teams(w["competition"])]]},
        ),
        (
            "put",
            f"{base}/match-days/1/line-ups/{team.pk}",
            {"players": [m.player_id for m in reversed(members[:4])]},
        ),
        ("delete", f"{base}/teams/{team.pk}/players/{members[4].player_id}", None),
        ("post", f"{base}/match-days/1/ties/{team.pk}/decide", {"through": True}),
        # Match day 2, which the organiser's POST above made: not drawn, so deleted.
        ("delete", f"{base}/match-days/2", None),
    ]


def _state(competition) -> tuple:
    from teams.models import GroupTeam, LineUp, MatchDay, Team, TeamMember
    from tournaments.models import Player

    competition.refresh_from_db()
    return (
        competition.name,
        sorted(competition.organisers.values_list("pk", flat=True)),
        sorted(Team.objects.values_list("pk", "name")),
        sorted(TeamMember.objects.values_list("pk", "is_captain")),
        MatchDay.objects.count(),
        sorted(LineUp.objects.values_list("pk", "entry_id")),
        sorted(GroupTeam.objects.values_list("pk", "through")),
        Player.objects.count(),
    )


def test_another_clubs_organiser_is_refused_every_write_with_the_reason(world):
    stranger = client_of(world["stranger"])
    before = _state(world["competition"])
    for method, address, body in _writes(world):
        response = getattr(stranger, method)(address, body, format="json")
        assert response.status_code == 403, (method, address, response.content)
        assert "Only the organisers of “Testliga”" in response.json()["detail"], address
        assert "ask one of them" in response.json()["detail"]
    assert _state(world["competition"]) == before


def test_a_bad_body_from_another_clubs_organiser_is_refused_before_it_is_read(world):
    stranger = client_of(world["stranger"])
    slug, team = world["competition"].slug, world["team"]
    response = stranger.put(
        f"{API}/{slug}/match-days/1/line-ups/{team.pk}", {"players": [999999]}, format="json"
    )
    assert response.status_code == 403


def test_without_an_account_every_write_asks_for_one(world):
    anonymous = client_of()
    before = _state(world["competition"])
    for method, address, body in _writes(world):
        response = getattr(anonymous, method)(address, body, format="json")
        assert response.status_code == 401, (method, address, response.content)
    assert _state(world["competition"]) == before


def test_the_organiser_may_make_every_write(world):
    """The other side of the refusals above: each of those requests is the organiser's to make
    (tie decisions only in a knock-out round: a group's is refused on ``through``)."""
    organiser = client_of(world["organiser"])
    for method, address, body in _writes(world):
        response = getattr(organiser, method)(address, body, format="json")
        if address.endswith("/decide"):
            assert response.status_code == 400
            assert "through" in response.json()
        elif address.endswith(f"/teams/{world['team'].pk}") and method == "delete":
            assert response.status_code == 400  # it plays on the match day: named on team
            assert "team" in response.json()
        else:
            assert response.status_code in {200, 201, 202, 204}, (
                method,
                address,
                response.content,
            )


def test_a_group_whose_team_cannot_field_four_is_refused_naming_the_team(world):
    """A team plays with four players, one at every table of its group (team play, DDV): a
    match day for a group whose team names three is refused at once, not at the draw."""
    from teams.models import MatchDay

    competition, team = world["competition"], world["team"]
    for member in team.members.order_by("-pk")[:2]:  # the reserve and a regular: three left
        member.delete()
    before = _state(competition)
    response = client_of(world["organiser"]).post(
        f"{API}/{competition.slug}/match-days",
        {"starts_on": DAY, "groups": [[t.pk for t in teams(competition)]]},
        format="json",
    )
    assert response.status_code == 400
    assert list(response.json()) == ["groups"]
    assert response.json()["groups"] == [
        f"Group 1: {team.name} names 3 players; a team plays with four, one at every table of "
        "its group (team play, DDV). Add players to the team first."
    ]
    assert _state(competition) == before
    assert MatchDay.objects.count() == 1


def test_a_match_day_is_deleted_until_it_is_drawn(world):
    from teams.models import GroupTeam, LineUp, MatchDay
    from tournaments import services as tournament_services
    from tournaments.models import Tournament

    competition, organiser = world["competition"], client_of(world["organiser"])
    base = f"{API}/{competition.slug}/match-days"
    second = ok(
        organiser.post(
            base, {"starts_on": DAY, "groups": [[t.pk for t in teams(competition)]]}, format="json"
        ),
        201,
    )
    assert second["number"] == 2
    first = world["match_day"]
    tournament_services.round_seat(
        round=tournament_services.round_create(tournament=first.tournament), seed=5
    )
    refused = organiser.delete(f"{base}/1")
    assert refused.status_code == 400
    assert list(refused.json()) == ["match_day"]
    assert "of match day 1 are drawn" in refused.json()["match_day"][0]
    assert "undoes the draws" in refused.json()["match_day"][0]
    assert MatchDay.objects.filter(pk=first.pk).exists()

    tournament = MatchDay.objects.get(number=2).tournament
    assert organiser.delete(f"{base}/2").status_code == 204
    assert list(MatchDay.objects.values_list("number", flat=True)) == [1]
    assert not Tournament.objects.filter(pk=tournament.pk).exists()
    assert not GroupTeam.objects.exclude(match_day=first).exists()
    assert not LineUp.objects.exclude(match_day=first).exists()
    assert organiser.delete(f"{base}/2").status_code == 404
    assert ok(organiser.get(base))[0]["number"] == 1


def test_only_organisers_create_competitions_and_are_told_who_adds_them():
    response = client_of(factories.user()).post(API, {"name": "Meine Liga"}, format="json")
    assert response.status_code == 403
    assert "Organisers" in response.json()["detail"]
    created = client_of(organiser_user("neu")).post(API, {"name": "Meine Liga"}, format="json")
    assert created.status_code == 201
    assert created.json()["slug"] == "meine-liga"


def test_an_organiser_offered_by_user_name_manages_it_once_he_accepts(world):
    organiser = client_of(world["organiser"])
    slug = world["competition"].slug
    response = organiser.post(
        f"{API}/{slug}/organisers", {"username": world["stranger"].username}, format="json"
    )
    assert response.status_code == 202
    assert response.json()["username"] == world["stranger"].username
    stranger = client_of(world["stranger"])
    assert stranger.patch(f"{API}/{slug}", {"season": "2027"}, format="json").status_code == 403
    offer = OrganiserOffer.objects.get(pk=response.json()["id"])
    services.competition_organiser_accept(offer=offer, by=world["stranger"])
    assert stranger.patch(f"{API}/{slug}", {"season": "2027"}, format="json").status_code == 200
    tournament = world["match_day"].tournament.slug
    assert stranger.post(f"/api/v1/tournaments/{tournament}/rounds/").status_code == 201
    unknown = organiser.post(f"{API}/{slug}/organisers", {"username": "niemand"}, format="json")
    assert unknown.status_code == 202  # the same answer: whether it has an account is not said
    assert set(unknown.json()) == set(response.json())
    blank = organiser.post(f"{API}/{slug}/organisers", {"username": " "}, format="json")
    assert blank.status_code == 400
    assert "username" in blank.json()


# Hidden competitions -----------------------------------------------------------------------------


def test_a_hidden_competition_is_not_found_but_by_its_organisers(world):
    competition = world["competition"]
    competition.is_public = False
    competition.save()
    slug, team = competition.slug, world["team"]
    reads = [
        f"{API}/{slug}",
        f"{API}/{slug}/teams",
        f"{API}/{slug}/teams/{team.pk}",
        f"{API}/{slug}/match-days",
        f"{API}/{slug}/match-days/1",
        f"{API}/{slug}/match-days/1/line-ups/{team.pk}",
        f"{API}/{slug}/table",
        f"{API}/{slug}/bracket",
    ]
    for client in (client_of(), client_of(world["stranger"])):
        assert slug not in str(client.get(API).json())
        for address in reads:
            response = client.get(address)
            assert response.status_code == 404, address
            assert response.json()["detail"].startswith("Nothing was found at this address")
    stranger = client_of(world["stranger"])
    for method, address, body in _writes(world):
        assert getattr(stranger, method)(address, body, format="json").status_code == 404
    organiser = client_of(world["organiser"])
    assert slug in str(organiser.get(API).json())
    for address in reads:
        assert organiser.get(address).status_code == 200, address


# Bad input ---------------------------------------------------------------------------------------


def _refused(client, method, address, body, field):
    from teams.models import LineUp, MatchDay, Team, TeamMember
    from tournaments.models import Player, Tournament

    models = (Team, TeamMember, MatchDay, LineUp, Player, Tournament)
    counts = [model.objects.count() for model in models]
    response = getattr(client, method)(address, body, format="json")
    assert response.status_code == 400, (address, body, response.content)
    assert field in response.json(), response.json()
    assert [model.objects.count() for model in models] == counts
    return response.json()[field]


def test_bad_input_is_400_naming_the_field_and_saves_nothing(world):
    organiser = client_of(world["organiser"])
    slug, team = world["competition"].slug, world["team"]
    four = [t.pk for t in teams(world["competition"])]
    base = f"{API}/{slug}"
    days = f"{base}/match-days"
    message = _refused(
        organiser, "post", days, {"starts_on": DAY, "groups": [[*four[:3], 99999]]}, "groups"
    )
    assert "99999" in message[0]
    message = _refused(organiser, "post", days, {"starts_on": DAY, "groups": [four[:3]]}, "groups")
    assert "Group 1 has 3 teams" in message[0]
    _refused(organiser, "post", days, {"starts_on": DAY, "groups": [four, four]}, "groups")
    _refused(organiser, "post", days, {"starts_on": "morgen"}, "starts_on")
    _refused(organiser, "post", days, {"starts_on": DAY, "rounds": "vier"}, "rounds")
    _refused(organiser, "post", days, {"starts_on": DAY, "groups": "1,2,3,4"}, "groups")
    _refused(organiser, "post", days, {"starts_on": DAY, "stage": "knockout"}, "stage")
    _refused(organiser, "post", days, {"starts_on": DAY, "tables": 3}, "tables")
    members = list(team.members.values_list("player_id", flat=True))
    line_up = f"{days}/1/line-ups/{team.pk}"
    message = _refused(organiser, "put", line_up, {"players": members[:5]}, "players")
    assert "four different players" in message[0]
    _refused(organiser, "put", line_up, {"players": [members[0]] * 4}, "players")
    other = teams(world["competition"])[1].members.first().player_id
    message = _refused(organiser, "put", line_up, {"players": [*members[:3], other]}, "players")
    assert "does not play for Team 1" in message[0]
    _refused(organiser, "put", line_up, {"players": members[:4], "from_round": 9}, "from_round")
    _refused(organiser, "put", line_up, {"players": [1, "x", 2, 3]}, "players")
    _refused(organiser, "post", f"{base}/teams", {"name": "x" * 121}, "name")
    _refused(organiser, "post", f"{base}/teams", {"name": ["Team"]}, "name")
    _refused(organiser, "post", f"{base}/teams", {"name": "Team 2"}, "name")  # taken
    _refused(organiser, "post", f"{base}/teams", {"name": "a\x00b"}, "name")
    _refused(organiser, "post", f"{base}/teams", {"name": "Neu", "captain": 1}, "captain")
    players = f"{base}/teams/{team.pk}/players"
    _refused(organiser, "post", players, {"player_id": 99999}, "player_id")
    _refused(organiser, "post", players, {}, "player_id")
    _refused(organiser, "post", players, {"first_name": "Nur"}, "last_name")
    _refused(organiser, "post", players, {"ddv_number": "123456789"}, "ddv_number")
    _refused(organiser, "post", players, {"player_id": other}, "player")  # another team's
    person = teams(world["competition"])[1].members.first().player
    taken = {"first_name": person.first_name, "last_name": person.last_name, "club": person.club}
    _refused(organiser, "post", players, taken, "player")  # found by name: another team's
    _refused(
        organiser, "post", f"{base}/teams/{team.pk}/captain", {"player_id": other}, "player_id"
    )
    _refused(organiser, "patch", base, {"kind": "cup"}, "kind")
    _refused(organiser, "patch", base, {"kind": "championship"}, "kind")  # has a match day
    _refused(organiser, "patch", base, {"relegation_places": 65}, "relegation_places")
    _refused(organiser, "patch", base, {"slug": "neu"}, "slug")
    _refused(organiser, "patch", base, {"is_public": "vielleicht"}, "is_public")


def test_a_team_of_another_competition_is_not_found_here(world):
    other = league(teams=1, name="Andere Liga")
    team = other.teams.get()
    organiser = client_of(world["organiser"])
    slug = world["competition"].slug
    assert organiser.get(f"{API}/{slug}/teams/{team.pk}").status_code == 404
    assert (
        organiser.patch(f"{API}/{slug}/teams/{team.pk}", {"name": "X"}, format="json").status_code
        == 404
    )


# Reading -----------------------------------------------------------------------------------------


def test_reads_show_teams_line_ups_and_an_empty_table_before_play(world):
    anonymous = client_of()
    slug, team = world["competition"].slug, world["team"]
    detail = anonymous.get(f"{API}/{slug}").json()
    assert (detail["kind"], detail["relegation_places"], detail["ties"]) == ("league", 1, "shared")
    line_up = anonymous.get(f"{API}/{slug}/match-days/1/line-ups/{team.pk}").json()
    assert [len(each["players"]) for each in line_up["rounds"]] == [4, 4, 4, 4]
    assert [place["place"] for place in line_up["rounds"][0]["players"]] == [1, 2, 3, 4]
    day = anonymous.get(f"{API}/{slug}/match-days/1").json()
    assert not day["complete"]
    assert [row["match_points"] for row in day["groups"][0]["teams"]] == [None] * 4
    table = anonymous.get(f"{API}/{slug}/table").json()
    assert [line["match_points"] for line in table["lines"]] == ["0"] * 4
    assert table["lines"][-1]["zone"] == ""  # no zone before a match day counts
    assert anonymous.get(f"{API}/{slug}/bracket").json()["rounds"] == []


@pytest.mark.parametrize("count", [4, 8])
def test_the_lists_read_in_a_fixed_number_of_queries(count, django_assert_max_num_queries):
    from teams import services

    competition = league(teams=count)
    services.match_day_create(
        competition=competition,
        starts_on=datetime.date(2026, 12, 5),
        by=organiser_of(competition),
    )
    slug = competition.slug
    anonymous = client_of()
    for address, most in (
        (API, 3),
        (f"{API}/{slug}/teams", 3),
        (f"{API}/{slug}/match-days", 3),
        (f"{API}/{slug}/match-days/1", 12),
        (f"{API}/{slug}/table", 14),
        (f"{API}/{slug}/bracket", 3),
    ):
        with django_assert_max_num_queries(most):
            assert anonymous.get(address).status_code == 200, address


# A knock-out tie level at the cut ----------------------------------------------------------------


def _level_match(order: list[int]) -> list:
    """A correct match in which the first two seats of ``order`` win every normal game together
    (+20 each) and the other two lose them all (-20 each)."""
    a, b, _c, _d = order
    size = 4
    lines, dealer, owing = [], 1, list(range(1, size + 1))
    for main in range(HANDS_PER_MATCH[size] - size):
        if owing and main % 2 == 1:
            lines.append(solo(dealer, owing.pop(0), 2, contract=Contract.COMPULSORY_SOLO))
        lines.append(normal(dealer, (a, b), 1))
        dealer = dealer % size + 1
    return lines


def test_a_tie_level_at_the_cut_waits_for_the_directors_decision(world):
    from teams import services
    from teams.models import LineUp
    from tournaments import services as tournament_services

    competition = league(teams=4, kind="championship", name="Pokal")
    by = organiser_of(competition)
    cup = teams(competition)
    match_day = services.match_day_create(
        competition=competition,
        starts_on=datetime.date(2026, 12, 5),
        by=by,
        rounds=1,
        stage="knockout",
        groups=[cup],
        advance=1,
    )
    team_of = dict(LineUp.objects.filter(match_day=match_day).values_list("entry_id", "team_id"))
    strength = [cup[2].pk, cup[0].pk, cup[1].pk, cup[3].pk]  # 3 and 1 level on top
    round_ = tournament_services.round_create(tournament=match_day.tournament)
    round_ = tournament_services.round_seat(round=round_, seed=5)
    round_ = tournament_services.round_start(round=tournament_services.round_publish(round=round_))
    for table in round_.tables.all():
        seats = {seat.position: team_of[seat.entry_id] for seat in table.seats.all()}
        order = sorted(seats, key=lambda position: strength.index(seats[position]))
        factories.sheet_confirmed(table.scoresheet, _level_match(order))
    slug = competition.slug
    address = f"{API}/{slug}/match-days/1"
    (tie,) = client_of().get(address).json()["groups"]
    assert tie["complete"]
    assert tie["level_at_cut"]
    assert [(row["team_id"], row["through"]) for row in tie["teams"]] == [
        (cup[0].pk, None),
        (cup[2].pk, None),
        (cup[1].pk, False),
        (cup[3].pk, False),
    ]
    decide = f"{address}/ties/{cup[2].pk}/decide"
    assert (
        client_of(world["stranger"]).post(decide, {"through": True}, format="json").status_code
        == 403
    )
    organiser = client_of(by)
    assert organiser.post(decide, {"through": "ja"}, format="json").status_code == 400
    ok(organiser.post(decide, {"through": True}, format="json"))
    answer = ok(
        organiser.post(f"{address}/ties/{cup[0].pk}/decide", {"through": False}, format="json")
    )
    (tie,) = answer["groups"]
    assert not tie["level_at_cut"]
    (final,) = client_of().get(f"{API}/{slug}/bracket").json()["rounds"]
    through = {row["team_id"]: row["through"] for row in final["ties"][0]["teams"]}
    assert through == {cup[2].pk: True, cup[0].pk: False, cup[1].pk: False, cup[3].pk: False}
