"""Team competitions through the services: match days seated four teams to a table, match
points from the confirmed sheets, the season table, a knock-out tie."""

import datetime
from fractions import Fraction

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from teams import selectors, services
from teams.models import Competition, GroupTeam, LineUp, MatchDay
from tests import factories
from tests.teams.factories import league, organiser_of, play_round, teams
from tournaments import services as tournament_services

pytestmark = pytest.mark.django_db

DAY = datetime.date(2026, 12, 5)


def _match_day(competition, **kwargs) -> MatchDay:
    all_teams = teams(competition)
    groups = [all_teams[i : i + 4] for i in range(0, len(all_teams), 4)]
    return services.match_day_create(
        competition=competition,
        starts_on=DAY,
        by=organiser_of(competition),
        groups=groups,
        **kwargs,
    )


def _team_of(match_day: MatchDay) -> dict[int, int]:
    return dict(LineUp.objects.filter(match_day=match_day).values_list("entry_id", "team_id"))


def test_match_day_seats_four_different_teams_of_one_group_at_every_table():
    competition = league()
    match_day = _match_day(competition)
    round_ = tournament_services.round_create(tournament=match_day.tournament)
    tournament_services.round_seat(round=round_, seed=3)
    team_of = _team_of(match_day)
    group_of = dict(
        GroupTeam.objects.filter(match_day=match_day).values_list("team_id", "group__number")
    )
    rounds = list(match_day.tournament.rounds.order_by("number"))
    assert len(rounds) == 4  # drawn at once, every planned round
    met = set()
    for each in rounds:
        tables = each.tables.prefetch_related("seats")
        assert tables.count() == 8
        for table in tables:
            seated = [seat.entry_id for seat in table.seats.all()]
            assert len({team_of[e] for e in seated}) == 4
            assert len({group_of[team_of[e]] for e in seated}) == 1
            for a in seated:
                for b in seated:
                    if a < b:
                        assert (a, b) not in met  # GF(4): nobody meets anybody twice
                        met.add((a, b))


def test_match_points_per_group_follow_the_confirmed_sheets():
    competition = league()
    match_day = _match_day(competition)
    first = teams(competition)[0]
    for number in range(1, 5):
        play_round(match_day, number, favoured_team=first)
    results = selectors.group_results(match_day=match_day)
    assert len(results) == 2
    for result in results:
        assert result.complete
        assert sum(row.match_points for row in result.rows) == 10
    group_one = results[0]
    assert group_one.rows[0].team == first
    assert group_one.rows[0].match_points == 4


def test_season_table_sums_match_points_and_marks_relegation():
    competition = league(relegation_places=2, promotion_places=1)
    for favourite in (0, 0):
        match_day = _match_day(competition)
        for number in range(1, 5):
            play_round(match_day, number, favoured_team=teams(competition)[favourite])
    table = selectors.season_table(competition=competition)
    assert len(table) == 8
    assert table[0].team == teams(competition)[0]
    assert table[0].match_points == 8
    assert table[0].zone == "promotion"
    assert [line.zone for line in table[-2:]] == ["relegation", "relegation"]
    assert sum(line.match_points for line in table) == 40


def test_knockout_tie_sends_the_best_through():
    competition = league(kind=Competition.Kind.CHAMPIONSHIP, name="DMM")
    _match_day(competition)
    knockout = services.match_day_create(
        competition=competition,
        starts_on=DAY,
        by=organiser_of(competition),
        stage=MatchDay.Stage.KNOCKOUT,
        groups=[teams(competition)[:4]],
        advance=1,
    )
    for number in range(1, 5):
        play_round(knockout, number, favoured_team=teams(competition)[2])
    (round_,) = selectors.bracket(competition=competition)
    (tie,) = round_.ties
    winners = [row.team for row in tie.rows if row.through]
    assert winners == [teams(competition)[2]]


def test_line_up_change_after_the_draw_seats_the_reserve_in_the_place():
    competition = league(members=5)
    match_day = _match_day(competition)
    round_ = tournament_services.round_create(tournament=match_day.tournament)
    tournament_services.round_seat(round=round_, seed=3)
    team = teams(competition)[0]
    members = [m.player for m in team.members.order_by("pk")]
    services.line_up_set(
        match_day=match_day,
        team=team,
        players=[*members[:3], members[4]],
        from_round=2,
        by=organiser_of(competition),
    )
    reserve = match_day.tournament.entries.get(player=members[4])
    assert not match_day.tournament.rounds.get(number=1).seats.filter(entry=reserve).exists()
    assert match_day.tournament.rounds.get(number=2).seats.filter(entry=reserve).exists()


def test_a_reserve_named_before_the_draw_takes_the_place_among_the_players():
    """Issue 47: the match day counted the reserve with the four who play (17 players for
    four teams); the player he replaced before any round was drawn never played."""
    competition = league(teams=4, members=5)
    match_day = _match_day(competition)
    team = teams(competition)[0]
    members = [m.player for m in team.members.order_by("pk")]
    services.line_up_set(
        match_day=match_day,
        team=team,
        players=[*members[:3], members[4]],
        by=organiser_of(competition),
    )
    entries = match_day.tournament.entries
    assert entries.count() == 16
    assert entries.filter(player=members[4]).exists()
    assert not entries.filter(player=members[3]).exists()


def test_another_clubs_organiser_cannot_change_the_competition():
    competition = league()
    other = factories.user()
    with pytest.raises(PermissionDenied):
        services.team_create(competition=competition, name="Eindringlinge", by=other)


def test_a_player_plays_for_one_team_per_competition():
    competition = league()
    first, second = teams(competition)[:2]
    player = first.members.first().player
    with pytest.raises(ValidationError) as error:
        services.team_member_add(team=second, player=player, by=organiser_of(competition))
    assert "player" in error.value.message_dict


def test_group_of_three_teams_is_refused_on_groups():
    competition = league()
    with pytest.raises(ValidationError) as error:
        services.match_day_create(
            competition=competition,
            starts_on=DAY,
            by=organiser_of(competition),
            groups=[teams(competition)[:3]],
        )
    assert "groups" in error.value.message_dict
    assert Fraction(1) == 1


def test_a_seasons_slash_becomes_a_dash_in_the_short_name():
    competition = league(name="Doppelkopf-Liga Nord", season="2026/27", teams=0)
    assert competition.slug == "doppelkopf-liga-nord-2026-27"


def test_a_match_day_round_closes_with_its_last_confirmed_sheet(
    django_capture_on_commit_callbacks,
):
    """Issue 47: the round stayed "running", its clock on, after every sheet was confirmed."""
    competition = league(teams=4)
    match_day = _match_day(competition)
    with django_capture_on_commit_callbacks(execute=True):
        play_round(match_day, 1, favoured_team=teams(competition)[0])
    round_ = match_day.tournament.rounds.get(number=1)
    assert round_.status == round_.Status.CLOSED
    assert round_.ended_at is not None
