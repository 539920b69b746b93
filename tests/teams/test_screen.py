"""The venue screen of a team competition: the current match day's groups with points and match
points, provisional while sheets are open, the season table below, refreshing itself; public
only when the competition is."""

import datetime
import re

import pytest
from django.test import Client

from teams import services
from teams.models import Competition, MatchDay
from tests import factories
from tests.teams.factories import league, organiser_of, play_round, teams

pytestmark = pytest.mark.django_db

DAY = datetime.date(2026, 12, 5)


def _match_day(competition: Competition, **kwargs) -> MatchDay:
    all_teams = teams(competition)
    return services.match_day_create(
        competition=competition,
        starts_on=DAY,
        by=organiser_of(competition),
        groups=[all_teams[i : i + 4] for i in range(0, len(all_teams), 4)],
        **kwargs,
    )


def _screen(competition: Competition, *, language: str = "en", user=None, htmx=False):
    client = Client()
    client.cookies["django_language"] = language
    if user is not None:
        client.force_login(user)
    headers = {"HX-Request": "true"} if htmx else {}
    return client.get(f"/teams/{competition.slug}/screen/", headers=headers)


def _text(response) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", response.content.decode()).split())


def test_screen_before_any_match_day_says_so_and_refreshes_itself():
    competition = league()
    response = _screen(competition)
    assert response.status_code == 200
    html = response.content.decode()
    assert f'hx-get="/teams/{competition.slug}/screen/"' in html
    assert 'hx-trigger="every 30s"' in html
    assert "No match day has been set up yet." in _text(response)
    assert "style=" not in html  # the Content-Security-Policy refuses inline styles
    assert "<script>" not in html


def test_screen_shows_the_groups_with_provisional_match_points_and_the_season_table():
    competition = league(relegation_places=2, promotion_places=1)
    match_day = _match_day(competition)
    first = teams(competition)[0]
    play_round(match_day, 1, favoured_team=first)
    text = _text(_screen(competition))
    assert "Match day 1 · Round 2 · seated" in text  # round 1 is closed, 2 is next
    assert "Group 1" in text
    assert "Group 2" in text
    assert "Provisional: not every scoresheet of this match day is confirmed yet" in text
    assert re.search(r"1\. Team 1 \d+ 4\*", text)  # first in its group, 4 match points so far
    assert "Season table" in text
    # The match day counts once every sheet is confirmed: nobody is on a zone before.
    assert "▲ promotion" not in text
    assert "▼ relegation" not in text


def test_screen_drops_the_provisional_mark_when_every_sheet_is_confirmed():
    competition = league(relegation_places=1)
    match_day = _match_day(competition)
    first = teams(competition)[0]
    for number in range(1, 5):
        play_round(match_day, number, favoured_team=first)
    response = _screen(competition, htmx=True)
    text = _text(response)
    assert "<html" not in response.content.decode()  # the refresh takes the body alone
    assert "Provisional" not in text
    assert re.search(r"1\. Team 1 \d+ 4 ", text)
    assert "*" not in text
    assert re.search(r"Season table Rank Team Match points Game points 1\. Team 1 4 ", text)


def test_screen_shows_shared_match_points_with_a_half(monkeypatch):
    competition = league(teams=4)
    match_day = _match_day(competition)
    play_round(match_day, 1, favoured_team=teams(competition)[0])
    # Four teams level on points share the 4, 3, 2, 1 match points: 2½ each.
    everyone = {team.pk for team in teams(competition)}
    monkeypatch.setattr(
        "teams.selectors._confirmed_points",
        lambda match_day: (dict.fromkeys(everyone, 0), everyone),
    )
    text = _text(_screen(competition))
    assert len(re.findall(r"1\. Team \d 0 2½\*", text)) == 4
    # The season table counts complete match days only: nothing yet.
    assert len(re.findall(r"– Team \d 0 0", text)) == 4  # none ranked before a result


def test_screen_in_german_is_served_in_german():
    competition = league()
    _match_day(competition)
    response = _screen(competition, language="de")
    assert '<html lang="de">' in response.content.decode()
    text = _text(response)
    assert "Team 1" in text
    assert "Punkte" in text  # a heading the site translates already


def test_screen_of_a_hidden_competition_is_404_to_the_hall_and_shown_to_organisers():
    competition = league(is_public=False)
    assert _screen(competition).status_code == 404
    assert _screen(competition, user=factories.user()).status_code == 404
    assert _screen(competition, user=organiser_of(competition)).status_code == 200


def test_screen_of_a_knockout_round_shows_who_goes_through():
    competition = league(kind=Competition.Kind.CHAMPIONSHIP, name="DMM", teams=4)
    knockout = _match_day(competition, stage=MatchDay.Stage.KNOCKOUT, advance=2, rounds=1)
    play_round(knockout, 1, favoured_team=teams(competition)[0])
    text = _text(_screen(competition))
    assert "Knock-out round (match day 1)" in text
    assert "Tie 1" in text
    assert text.count(" through") + text.count(" out") >= 2


def test_screen_queries_do_not_grow_with_the_teams(django_assert_max_num_queries):
    competition = league(teams=8)
    match_day = _match_day(competition)
    play_round(match_day, 1, favoured_team=teams(competition)[0])
    with django_assert_max_num_queries(30):
        assert _screen(competition).status_code == 200
