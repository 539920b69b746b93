"""The public read API of standings, players and ranking lists: ETags, hidden standings and
query counts that do not grow with the field."""

from unittest import mock

import pytest
from django.conf import settings
from django.urls import reverse
from rest_framework.test import APIClient

from doko import sample_sheets
from rankings.models import RankingList
from rankings.services.lists import ranking_list_save
from scoring.models import Scoresheet
from tests import factories
from tests.tournaments.helpers import play
from tournaments import services
from tournaments.api.standings import StandingsView
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db
MATCH = sample_sheets.full_match()


@pytest.fixture
def api():
    return APIClient()


def test_the_standings_list_every_player(api, kreuzpokal):
    tournament, _ = kreuzpokal
    response = api.get(reverse("api:standings", args=[tournament.slug]))
    assert response.status_code == 200
    data = response.json()
    assert len(data["rows"]) == 12
    assert data["tiebreaks"] == ["placings", "best_round", "start_number"]
    assert data["provisional_rounds"] == [1]
    provisional = [row for row in data["rows"] if row["provisional"] is not None]
    assert len(provisional) == 4
    assert all(row["results"][0]["confirmed"] is False for row in provisional)
    # The players of the table whose sheet is only handed in have not played a confirmed
    # round: listed after the others, unranked (issue 32).
    assert [row["rank"] for row in data["rows"]] == [*range(1, 9), *[None] * 4]
    assert [row["played"] for row in data["rows"]] == [True] * 8 + [False] * 4
    assert all(row["provisional"] is not None for row in data["rows"][8:])


def test_an_unchanged_answer_is_a_304(api, kreuzpokal, django_capture_on_commit_callbacks):
    tournament, _ = kreuzpokal
    url = reverse("api:standings", args=[tournament.slug])
    etag = api.get(url)["ETag"]
    not_modified = api.get(url, HTTP_IF_NONE_MATCH=etag)
    assert not_modified.status_code == 304
    assert not_modified.content == b""
    sheet = Scoresheet.objects.get(status=Scoresheet.Status.SUBMITTED)
    with django_capture_on_commit_callbacks(execute=True):
        services.results_refresh(tables=[sheet.table])
    assert api.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 200


@pytest.mark.parametrize(("players", "rounds"), [(8, 1), (16, 2)])
def test_the_standings_api_costs_the_same_queries_for_any_field(
    api, django_assert_num_queries, django_capture_on_commit_callbacks, players, rounds
):
    with django_capture_on_commit_callbacks(execute=True):
        tournament = factories.tournament(players=players)
        play(tournament, rounds=rounds)
    url = reverse("api:standings", args=[tournament.slug])
    with django_assert_num_queries(1):  # the tournament, then kept in the cache
        response = api.get(url)
    assert len(response.json()["rows"]) == players
    with django_assert_num_queries(0):
        assert api.get(url, HTTP_IF_NONE_MATCH=response["ETag"]).status_code == 304


def test_hidden_standings_are_hidden_in_the_api(
    api, kreuzpokal, django_capture_on_commit_callbacks
):
    tournament, organiser = kreuzpokal
    Tournament.objects.filter(pk=tournament.pk).update(standings_public=False)
    assert api.get(reverse("api:standings", args=[tournament.slug])).status_code == 403
    player = api.get(reverse("api:player", args=[tournament.slug, 1])).json()
    assert player["standing"] is None
    assert all(item["result"] is None for item in player["rounds"])
    round_ = api.get(reverse("api:round", args=[tournament.slug, 1])).json()
    assert all(seat["points"] is None for table in round_["tables"] for seat in table["seats"])
    history = api.get(
        reverse("api:player-history", args=[tournament.entries.first().player_id])
    ).json()
    assert history["tournaments"][0]["standings_hidden"] is True
    assert history["tournaments"][0]["points"] is None
    assert history["tournaments"][0]["rounds"] is None
    # Staff read them still.
    api.force_authenticate(organiser)
    assert api.get(reverse("api:standings", args=[tournament.slug])).status_code == 200


def test_a_player_with_rounds_tables_and_opponents(api, kreuzpokal):
    tournament, _ = kreuzpokal
    data = api.get(reverse("api:player", args=[tournament.slug, 1])).json()
    assert data["start_number"] == 1
    (item,) = data["rounds"]
    assert len(item["others"]) == 3
    assert item["result"]["placing"] in {1, 2, 3, 4}
    assert data["standing"]["start_number"] == 1


def test_the_ranking_lists_are_public(api, kreuzpokal):
    ranking_list_save(name="Rangliste", slug="ranking")
    response = api.get(reverse("api:rankings"))
    assert "ranking" in [r["slug"] for r in response.json()]
    detail = api.get(reverse("api:ranking", args=["ranking"]))
    assert detail.status_code == 200
    assert detail.json()["lines"] == []
    assert (
        api.get(
            reverse("api:ranking", args=["ranking"]), HTTP_IF_NONE_MATCH=detail["ETag"]
        ).status_code
        == 304
    )
    RankingList.objects.filter(slug="ranking").update(is_public=False)
    assert api.get(reverse("api:ranking", args=["ranking"])).status_code == 404


def test_every_public_read_has_an_etag(api, kreuzpokal):
    tournament, _ = kreuzpokal
    for url in (
        reverse("api:tournaments"),
        reverse("api:tournament", args=[tournament.slug]),
        reverse("api:rounds", args=[tournament.slug]),
        reverse("api:round", args=[tournament.slug, 1]),
        reverse("api:entries", args=[tournament.slug]),
        reverse("api:player", args=[tournament.slug, 2]),
    ):
        first = api.get(url)
        assert first.status_code == 200, url
        assert first.has_header("ETag"), url
        assert api.get(url, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304, url


def test_the_schema_describes_the_new_endpoints(api):
    schema = api.get(reverse("api-schema"), HTTP_ACCEPT="application/json").json()
    for path in (
        "/api/v1/tournaments/{slug}/standings",
        "/api/v1/tournaments/{slug}/players/{start_number}",
        "/api/v1/rankings/",
        "/api/v1/rankings/{slug}",
        "/api/v1/players/{id}",
    ):
        assert path in schema["paths"], path


def test_a_player_who_missed_a_round_has_null_there(api, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        tournament = factories.tournament(players=8)
        play(tournament)
        services.entry_create(tournament=tournament, player=factories.player())
        services.entry_create(tournament=tournament, player=factories.player())
        services.entry_create(tournament=tournament, player=factories.player())
        services.entry_create(tournament=tournament, player=factories.player())
        play(tournament)
    data = api.get(reverse("api:standings", args=[tournament.slug])).json()
    late = [row for row in data["rows"] if row["start_number"] > 8]
    assert len(late) == 4
    assert all(row["results"][0] is None and row["results"][1] for row in late)


def test_the_standings_come_in_pages(api, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        tournament = factories.tournament(players=130)
    url = reverse("api:standings", args=[tournament.slug])
    first = api.get(url).json()
    assert (first["count"], first["offset"], len(first["rows"])) == (130, 0, 100)
    rest = api.get(url, {"offset": 100, "limit": 50})
    rows = rest.json()["rows"]
    assert [row["start_number"] for row in rows] == list(range(101, 131))
    assert {(row["rank"], row["played"]) for row in rows} == {(None, False)}  # none played yet
    assert rest["ETag"] != api.get(url)["ETag"]
    refused = api.get(url, {"limit": 0})
    assert refused.status_code == 400
    assert "limit" in refused.json()


def test_many_phones_behind_one_address_are_not_throttled(api, kreuzpokal):
    """A venue's phones share one address: the public reads count no requests per address."""
    tournament, _ = kreuzpokal
    urls = [
        reverse("api:standings", args=[tournament.slug]),
        reverse("api:player", args=[tournament.slug, 3]),
    ]
    statuses = {api.get(urls[n % 2], REMOTE_ADDR="10.0.0.1").status_code for n in range(400)}
    assert statuses == {200}


def _headers(response) -> dict:
    """The headers a client sees, the Vary as a set (its order does not matter)."""
    headers = {name.lower(): value for name, value in response.headers.items()}
    headers["vary"] = {part.strip() for part in headers.get("vary", "").split(",")}
    return headers


@pytest.mark.parametrize(
    "query", [{}, {"limit": 10}, {"offset": 5, "limit": 9}, {"offset": 0, "limit": 200}]
)
def test_an_answer_from_the_cache_is_the_answer_drf_gives(api, kreuzpokal, query):
    tournament, _ = kreuzpokal
    url = reverse("api:standings", args=[tournament.slug])
    built = api.get(url, query)  # through DRF, which caches the body
    with mock.patch.object(StandingsView, "initial") as drf:
        cached = api.get(url, query)
        not_modified = api.get(url, query, HTTP_IF_NONE_MATCH=built["ETag"])
    drf.assert_not_called()  # neither parsed by DRF
    assert (cached.status_code, cached.content) == (200, built.content)
    assert _headers(cached) == _headers(built)
    # A session cookie (of nobody logged in) sends the request through DRF.
    api.cookies[settings.SESSION_COOKIE_NAME] = "no-such-session"
    drf_not_modified = api.get(url, query, HTTP_IF_NONE_MATCH=built["ETag"])
    assert (not_modified.status_code, drf_not_modified.status_code) == (304, 304)
    assert _headers(not_modified) == _headers(drf_not_modified)


@pytest.mark.parametrize(
    ("headers", "query", "status"),
    [
        ({"HTTP_AUTHORIZATION": "Token nonsense"}, {}, 401),
        ({"HTTP_ACCEPT": "application/xml"}, {}, 406),
        ({}, {"limit": "10.0"}, 200),
        ({}, {"limit": "201"}, 400),
        ({}, {"limit": ["10", "25"]}, 200),
        ({}, {"offset": "-1"}, 400),
        ({}, {"offset": "500"}, 404),
    ],
)
def test_whatever_the_cache_cannot_judge_goes_through_drf(api, kreuzpokal, headers, query, status):
    tournament, _ = kreuzpokal
    url = reverse("api:standings", args=[tournament.slug])
    api.get(url)
    api.get(url, {"limit": 10})
    answer = api.get(url, query, **headers)
    assert answer.status_code == status


def test_a_logged_in_reader_of_hidden_standings_is_not_answered_from_the_cache(
    api, kreuzpokal, django_capture_on_commit_callbacks
):
    tournament, organiser = kreuzpokal
    url = reverse("api:standings", args=[tournament.slug])
    assert api.get(url).status_code == 200
    with django_capture_on_commit_callbacks(execute=True):
        services.tournament_update(
            tournament=tournament, by=organiser, changes={"standings_public": False}
        )
    assert api.get(url).status_code == 403
    api.force_login(organiser)
    assert api.get(url).status_code == 200


def test_a_substitute_who_has_not_played_is_unranked_and_flagged(api, substitute):
    rows = api.get(reverse("api:standings", args=[substitute.slug])).json()["rows"]
    assert [row["rank"] for row in rows] == [*range(1, 9), None]
    assert [row["played"] for row in rows] == [True] * 8 + [False]
    assert rows[-1]["name"] == "Ersatz Spielerin"
    assert min(row["points"] for row in rows[:8]) < rows[-1]["points"] == 0
    player = api.get(reverse("api:player", args=[substitute.slug, 9])).json()
    assert (player["standing"]["rank"], player["standing"]["played"]) == (None, False)
