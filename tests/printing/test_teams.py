"""The printouts of team competitions: a match day's line-up sheets and the season table, read
back as text, in German and English, with names beyond Latin-1; and who may download them."""

import datetime
from fractions import Fraction

import pytest
from django.test import Client
from django.utils import translation

from printing.pdf import teams as teams_pdf
from teams import services
from teams.models import Competition, MatchDay
from teams.selectors import SeasonLine
from tests import factories
from tests.printing.helpers import pages_of, words_of
from tests.teams.factories import league, organiser_of, play_round, teams
from tournaments import services as tournament_services

pytestmark = pytest.mark.django_db

DAY = datetime.date(2026, 12, 5)
LONG_TEAM = "Doppelkopffreunde Großwürstenhausen-Überlingen"
CAPTAIN = ("Łukasz", "Żółć")


def _league(**settings) -> Competition:
    """A league of eight teams; team 1 has a long German name and a captain whose name is
    beyond Latin-1, and a fifth player (a reserve)."""
    competition = league(**settings)
    by = organiser_of(competition)
    first = teams(competition)[0]
    services.team_update(team=first, name=LONG_TEAM, club="DSK Ärmel-Öl Süß", by=by)
    captain = first.members.get(is_captain=True)
    captain.player.first_name, captain.player.last_name = CAPTAIN
    captain.player.save()
    services.team_member_add(
        team=first, player=factories.player(first_name="Jürgen", last_name="Weißmüller"), by=by
    )
    return competition


def _match_day(competition: Competition) -> MatchDay:
    all_teams = teams(competition)
    return services.match_day_create(
        competition=competition,
        starts_on=DAY,
        venue="Köln",
        by=organiser_of(competition),
        groups=[all_teams[i : i + 4] for i in range(0, len(all_teams), 4)],
    )


def _client(user=None, language: str = "de") -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    client.cookies["django_language"] = language
    return client


def _line_ups_url(competition: Competition, number: int = 1) -> str:
    return f"/teams/{competition.slug}/match-days/{number}/line-ups.pdf"


# The line-up sheets ----------------------------------------------------------------------------


def test_line_up_sheets_show_each_group_on_its_page_with_captain_and_places():
    competition = _league()
    match_day = _match_day(competition)
    response = _client(organiser_of(competition), "en").get(_line_ups_url(competition))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    pages = pages_of(response.content)
    assert len(pages) == 2  # one page per group (two groups of four, no tables yet)
    first = " ".join(pages[0].split())
    assert "Group 1" in first
    assert LONG_TEAM in first
    assert "DSK Ärmel-Öl Süß" in first
    assert "Captain: Łukasz Żółć" in first
    assert "Jürgen Weißmüller" in first  # the reserve, among the players
    assert "Place 4" in first
    assert "Team 2" in first
    assert "Team 5" not in first
    assert "Group 2" in pages[1]
    assert "Team 5" in pages[1]
    assert match_day.tournament.name in first
    assert response["Content-Disposition"] == (
        f'attachment; filename="{competition.slug}-match-day-1-line-ups.pdf"'
    )


def test_line_up_sheets_in_german_keep_the_names_whole():
    competition = _league()
    _match_day(competition)
    response = _client(organiser_of(competition), "de").get(_line_ups_url(competition))
    text = words_of(response.content)
    assert "Łukasz Żółć" in text
    assert LONG_TEAM in text
    assert "Seite 1" in text  # the footer, in the reader's language


def test_line_up_sheets_list_each_rounds_tables_with_player_and_team():
    competition = _league()
    match_day = _match_day(competition)
    round_ = tournament_services.round_create(tournament=match_day.tournament)
    tournament_services.round_seat(round=round_, seed=3)
    response = _client(organiser_of(competition), "en").get(_line_ups_url(competition))
    content = response.content
    text = words_of(content)
    assert "Group 1" in text
    assert "Captain: Łukasz Żółć" in text
    for number in range(1, 5):  # the match day's rounds are drawn at once
        assert f"Round {number}: tables" in text
    assert "Seat 4" in text
    # Every table of group 1 seats the captain's team once: his name stands with the team's.
    group_one, group_two = text.split("Group 2")
    # Group 1's four tables a round, each with one of the team's players under its name.
    assert group_one.count("Großwürstenhausen") == 1 + 4 * 4
    assert "Team 5" not in group_one
    assert "Team 5" in group_two
    assert "Łukasz Żółć" not in group_two
    assert response["Content-Disposition"].endswith(f'{competition.slug}-match-day-1-line-ups.pdf"')


def test_line_up_sheets_are_refused_to_another_clubs_organiser_with_the_reason():
    competition = _league()
    _match_day(competition)
    stranger = factories.user(is_superuser=False)
    response = _client(stranger, "en").get(_line_ups_url(competition))
    assert response.status_code == 403
    assert "Only the organisers of" in response.content.decode()


def test_line_up_sheets_ask_an_anonymous_reader_to_log_in():
    competition = _league()
    _match_day(competition)
    response = _client().get(_line_ups_url(competition))
    assert response.status_code == 302
    assert "/accounts/login/" in response["Location"]


def test_line_up_sheets_of_a_missing_match_day_are_404():
    competition = _league()
    response = _client(organiser_of(competition)).get(_line_ups_url(competition, 3))
    assert response.status_code == 404


# The season table ------------------------------------------------------------------------------


def test_season_table_shows_match_points_halves_and_the_zones_with_a_legend():
    competition = _league(promotion_places=1, relegation_places=2)
    match_day = _match_day(competition)
    for number in range(1, 5):
        play_round(match_day, number, favoured_team=teams(competition)[0])
    response = _client(language="en").get(f"/teams/{competition.slug}/table.pdf")
    assert response.status_code == 200
    text = words_of(response.content)
    assert "Season table: Testliga" in text
    assert LONG_TEAM in text
    assert "▲ promotion place (the top 1)" in text
    assert "▼ relegation place (the bottom 2)" in text
    assert text.count("▲") == 2
    assert text.count("▼") == 3
    assert "Provisional" not in text  # every sheet confirmed
    # The team that won every game is first with 4 match points.
    assert f"▲ 1. {LONG_TEAM} DSK Ärmel-Öl Süß 4 " in text


def test_season_table_prints_shared_match_points_with_a_half():
    competition = _league(relegation_places=1)
    one, two = teams(competition)[:2]
    lines = [
        SeasonLine(one, Fraction(5), 120, 1, False, ""),
        SeasonLine(two, Fraction(5, 2), -20, 2, False, "relegation"),
    ]
    with translation.override("en"):
        content = teams_pdf.season_table_pdf(competition=competition, lines=lines, provisional=[2])
    text = words_of(content)
    assert "1. Team 2 Club 2 2½ -20" not in text  # team 1 was renamed; team 2 stands second
    assert "▼ 2. Team 2 Club 2 2½ -20" in text
    assert "Not counted yet: match day 2," in text


def test_season_table_in_english_names_the_match_days_not_counted_yet():
    competition = _league(relegation_places=2)
    match_day = _match_day(competition)
    play_round(match_day, 1, favoured_team=teams(competition)[0])
    response = _client(language="en").get(f"/teams/{competition.slug}/table.pdf")
    text = words_of(response.content)
    assert "Season table: Testliga" in text
    assert "Not counted yet: match day 1, until every scoresheet of it is confirmed." in text
    assert "relegation place (the bottom 2)" in text
    assert response["Content-Disposition"].endswith(f'{competition.slug}-season-table.pdf"')


def test_season_table_of_a_hidden_competition_is_404_to_others_and_shown_to_organisers():
    competition = _league(is_public=False)
    assert _client().get(f"/teams/{competition.slug}/table.pdf").status_code == 404
    stranger = factories.user()
    assert _client(stranger).get(f"/teams/{competition.slug}/table.pdf").status_code == 404
    organiser = organiser_of(competition)
    assert _client(organiser).get(f"/teams/{competition.slug}/table.pdf").status_code == 200
