"""What the ranking lists count: the finished tournaments that are public with public
standings, once a maintainer has admitted them (tests/rankings/test_governance.py),
and nothing a tournament hides, on any page or in the API."""

import datetime

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse
from rest_framework.test import APIClient

from rankings.models import RankingList
from rankings.services.admissions import ranking_admission_admit, ranking_admission_request
from rankings.services.lists import ranking_list_save
from tests import factories
from tests.tournaments.helpers import play
from tournaments import services
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def english(client):
    client.cookies["django_language"] = "en"


@pytest.fixture
def ranking(django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        ranking = ranking_list_save(name="Clubliste", slug="club", months=6, min_rounds=1)
    RankingList.objects.filter(pk=ranking.pk).update(
        tournament_min_players=4, tournament_min_rounds=1
    )
    ranking.maintainers.add(factories.user(username="listkeeper"))
    return ranking


def admitted(capture, tournament: Tournament, organiser) -> None:
    """The organiser asks the list to count the tournament, its maintainer admits it."""
    ranking = RankingList.objects.get(slug="club")
    with capture(execute=True):
        admission = ranking_admission_request(
            ranking_list=ranking, tournament=tournament, by=organiser
        )
        ranking_admission_admit(
            admission=admission, by=ranking.maintainers.get(username="listkeeper")
        )


def finished(capture, **fields) -> tuple[Tournament, object]:
    """A tournament of four players, ended today, its one round played and closed: finished,
    and the ranking lists rebuilt."""
    organiser = factories.user()
    today = datetime.date.today()
    with capture(execute=True):
        tournament = factories.tournament(
            players=4,
            planned_rounds=1,
            organiser=organiser,
            starts_on=today,
            ends_on=today,
            **fields,
        )
        play(tournament)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    return tournament, organiser


def ranked_players(slug: str = "club") -> set[int]:
    return {player_id for _rank, player_id, *_ in RankingList.objects.get(slug=slug).data}


def players_of(tournament: Tournament) -> set[int]:
    return set(tournament.entries.values_list("player_id", flat=True))


def test_a_public_tournament_with_public_standings_counts(
    ranking, django_capture_on_commit_callbacks
):
    tournament, organiser = finished(django_capture_on_commit_callbacks)
    assert ranked_players() == set()  # not before a maintainer admits it
    admitted(django_capture_on_commit_callbacks, tournament, organiser)
    assert ranked_players() == players_of(tournament)


@pytest.mark.parametrize(
    "hidden", [{"is_public": False}, {"standings_public": False}], ids=["private", "standings"]
)
def test_a_hidden_tournament_feeds_no_ranking_list_page_or_api(
    client, ranking, django_capture_on_commit_callbacks, hidden
):
    shown, organiser = finished(django_capture_on_commit_callbacks)
    admitted(django_capture_on_commit_callbacks, shown, organiser)
    tournament, organiser = finished(django_capture_on_commit_callbacks, **hidden)
    # Hidden, it is not admitted: the refusal names what it hides.
    with pytest.raises(ValidationError) as refused:
        admitted(django_capture_on_commit_callbacks, tournament, organiser)
    assert set(refused.value.message_dict) == set(hidden)
    assert ranked_players() == players_of(shown)
    hidden_player = tournament.entries.select_related("player").first().player
    page = client.get(reverse("rankings:ranking", args=["club"])).content.decode()
    assert hidden_player.name not in page
    lines = APIClient().get(reverse("api:ranking", args=["club"])).json()["lines"]
    assert hidden_player.pk not in {line["player_id"] for line in lines}
    assert len(lines) == 4
    # Nor his history page's average in the list.
    history = client.get(reverse("tournaments:player-history", args=[hidden_player.pk]))
    assert history.status_code in {200, 404}
    assert "average" not in history.content.decode()


@pytest.mark.parametrize("setting", ["is_public", "standings_public"])
def test_hiding_a_finished_tournament_drops_it_at_the_next_rebuild(
    ranking, django_capture_on_commit_callbacks, setting
):
    tournament, organiser = finished(django_capture_on_commit_callbacks)
    admitted(django_capture_on_commit_callbacks, tournament, organiser)
    assert ranked_players() == players_of(tournament)
    with django_capture_on_commit_callbacks(execute=True):
        services.tournament_update(tournament=tournament, by=organiser, changes={setting: False})
    assert ranked_players() == set()
    # Shown again, it counts again.
    with django_capture_on_commit_callbacks(execute=True):
        services.tournament_update(tournament=tournament, by=organiser, changes={setting: True})
    assert ranked_players() == players_of(tournament)


def test_hiding_the_standings_in_the_administration_drops_the_tournament(
    admin_client, ranking, django_capture_on_commit_callbacks
):
    tournament, organiser = finished(django_capture_on_commit_callbacks)
    admitted(django_capture_on_commit_callbacks, tournament, organiser)
    assert ranked_players() == players_of(tournament)
    data = {
        "name": tournament.name,
        "slug": tournament.slug,
        "starts_on": tournament.starts_on.isoformat(),
        "ends_on": tournament.ends_on.isoformat(),
        "planned_rounds": tournament.planned_rounds,
        "seating_method": tournament.seating_method,
        "hands_per_match": tournament.hands_per_match,
        "match_minutes": tournament.match_minutes,
        "hands_per_match_five": tournament.hands_per_match_five,
        "match_minutes_five": tournament.match_minutes_five,
        "is_public": "on",
        "counts_for_ranking": "on",
        "tiebreaks": tournament.tiebreaks,
        "roles-TOTAL_FORMS": 0,
        "roles-INITIAL_FORMS": 0,
    }
    url = reverse("admin:tournaments_tournament_change", args=[tournament.pk])
    with django_capture_on_commit_callbacks(execute=True):
        response = admin_client.post(url, data)
    assert response.status_code == 302, response.content.decode()[:3000]
    tournament.refresh_from_db()
    assert not tournament.standings_public
    assert ranked_players() == set()


def test_the_history_shows_no_points_of_hidden_standings(
    client, ranking, django_capture_on_commit_callbacks
):
    tournament, organiser = finished(django_capture_on_commit_callbacks)
    with django_capture_on_commit_callbacks(execute=True):
        services.tournament_update(
            tournament=tournament, by=organiser, changes={"standings_public": False}
        )
    player = tournament.entries.select_related("player").first().player
    page = client.get(reverse("tournaments:player-history", args=[player.pk]))
    (line,) = page.context["history"]
    assert (line.rounds, line.points, line.average) == (None, None, None)
    assert "Standings hidden" in page.content.decode()
    # Nor the lists' box (``rankings.hooks.PlayerPlaces``): no place in a list.
    assert reverse("rankings:ranking", args=["club"]) not in page.content.decode()
    (api_line,) = (
        APIClient().get(reverse("api:player-history", args=[player.pk])).json()["tournaments"]
    )
    assert api_line["standings_hidden"] is True
    assert api_line["points"] is None
    assert api_line["rounds"] is None
    assert api_line["average"] is None


def test_the_staff_of_a_tournament_read_its_hidden_points_in_the_history(
    client, django_capture_on_commit_callbacks
):
    """The staff read the hidden standings (``policies.may_read_standings``), in the history
    too."""
    tournament, organiser = finished(django_capture_on_commit_callbacks, standings_public=False)
    player = tournament.entries.first().player
    client.force_login(organiser)
    (line,) = client.get(reverse("tournaments:player-history", args=[player.pk])).context["history"]
    assert line.rounds == 1
    assert line.points is not None
    api = APIClient()
    api.force_authenticate(organiser)
    (api_line,) = api.get(reverse("api:player-history", args=[player.pk])).json()["tournaments"]
    assert api_line["standings_hidden"] is False
    assert api_line["rounds"] == 1


def test_hidden_standings_show_no_points_on_any_page_or_api(
    client, django_capture_on_commit_callbacks
):
    tournament, _ = finished(django_capture_on_commit_callbacks, standings_public=False)
    slug = tournament.slug
    api = APIClient()
    player = client.get(reverse("tournaments:player", args=[slug, 1]))
    assert player.context["row"] is None
    assert not player.context["show_points"]
    page = player.content.decode()
    assert "Average per round" not in page
    assert ". at the table" not in page  # the placing
    assert "solos played" not in page
    data = api.get(reverse("api:player", args=[slug, 1])).json()
    assert data["standing"] is None
    assert all(item["result"] is None for item in data["rounds"])
    assert client.get(reverse("tournaments:standings-csv", args=[slug])).status_code == 403
    assert api.get(reverse("api:standings", args=[slug])).status_code == 403
    assert "hand_rows" not in client.get(reverse("scoring:table", args=[slug, 1, 1])).context
    assert not client.get(reverse("tournaments:round", args=[slug, 1])).context["show_points"]
    round_ = api.get(reverse("api:round", args=[slug, 1])).json()
    assert all(seat["points"] is None for table in round_["tables"] for seat in table["seats"])
    assert client.get(reverse("tournaments:screen", args=[slug])).status_code == 200
