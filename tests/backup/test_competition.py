"""A team competition backed up with export_competition and restored with import_competition
comes back whole: its teams and their players, its match days (each a tournament, restored as
export_tournament's document is), their groups and line-ups, and so the same match points and
season table, under new ids.

The round trip deletes the competition, its tournaments and its players before the import, as
onto a new server. The players have no DDV number, so nothing but the document can tell that
a match day's entry is the same person as the team's member: each must come back once.
"""

import datetime
import json

import pytest
from django.core.exceptions import ValidationError
from django.core.management import call_command

from backup.selectors import competition_export, tournament_export
from backup.services import competition_import, tournament_import
from scoring.models import Hand, Scoresheet
from teams import selectors, services
from teams.models import Competition, Group, GroupTeam, LineUp, MatchDay, Team, TeamMember
from tests import factories
from tests.teams.factories import league, organiser_of, play_round, teams
from tournaments.models import Entry, Player, Seat, Tournament

pytestmark = pytest.mark.django_db

DAY = datetime.date(2026, 12, 5)
MODELS = [
    Competition,
    Team,
    TeamMember,
    MatchDay,
    Group,
    GroupTeam,
    LineUp,
    Tournament,
    Entry,
    Player,
    Seat,
    Scoresheet,
    Hand,
]


def played_league() -> Competition:
    """A league of 8 teams (the first with a reserve): match day 1 played, its reserve in from
    round 3; match day 2 drawn, its first round played."""
    competition = league(teams=8, members=4, promotion_places=1, relegation_places=2)
    by = organiser_of(competition)
    all_teams = teams(competition)
    first = all_teams[0]
    services.team_member_add(team=first, player=factories.player(last_name="Zreserve"), by=by)
    groups = [all_teams[:4], all_teams[4:]]
    day_1 = services.match_day_create(competition=competition, starts_on=DAY, groups=groups, by=by)
    for number in (1, 2):
        play_round(day_1, number, all_teams[number])
    members = [m.player for m in first.members.order_by("-is_captain", "player__last_name")]
    services.line_up_set(
        match_day=day_1, team=first, players=[*members[:3], members[4]], from_round=3, by=by
    )
    for number in (3, 4):
        play_round(day_1, number, all_teams[number])
    day_2 = services.match_day_create(
        competition=competition,
        starts_on=DAY + datetime.timedelta(days=28),
        groups=[[all_teams[0], all_teams[2], all_teams[4], all_teams[6]], all_teams[1::2]],
        by=by,
    )
    play_round(day_2, 1, all_teams[5])
    return competition


def snapshot(competition: Competition) -> dict:
    """What a user sees of the competition, without database ids."""
    match_days = list(competition.match_days.order_by("number"))
    return {
        "competition": (
            competition.name,
            competition.season,
            competition.kind,
            competition.promotion_places,
            competition.relegation_places,
            sorted(competition.organisers.values_list("username", flat=True)),
        ),
        "teams": sorted(
            (
                team.name,
                team.club,
                sorted(
                    team.members.values_list("player__last_name", "is_captain").order_by(
                        "player__last_name"
                    )
                ),
            )
            for team in competition.teams.all()
        ),
        "match_days": [
            (
                match_day.number,
                match_day.stage,
                match_day.tournament.name,
                match_day.tournament.is_match_day,
                [
                    (
                        group.number,
                        group.advance,
                        sorted(group.places.values_list("team__name", "through")),
                    )
                    for group in match_day.groups.order_by("number")
                ],
                sorted(
                    match_day.line_ups.values_list(
                        "team__name", "round_number", "place", "entry__player__last_name"
                    )
                ),
                sorted(
                    Seat.objects.filter(round__tournament=match_day.tournament).values_list(
                        "round__number", "table__number", "position", "entry__player__last_name"
                    )
                ),
                [
                    [(row.team.name, row.points, row.match_points) for row in result.rows]
                    for result in selectors.group_results(match_day=match_day)
                ],
            )
            for match_day in match_days
        ],
        "season": [
            (line.team.name, line.match_points, line.game_points, line.rank, line.zone)
            for line in selectors.season_table(competition=competition)
        ],
    }


def forget(competition: Competition) -> None:
    """Delete the competition, its tournaments and its players (the line-ups and groups first:
    they protect the entries and teams)."""
    players = list(
        TeamMember.objects.filter(competition=competition).values_list("player", flat=True)
    )
    tournaments = list(competition.match_days.values_list("tournament", flat=True))
    LineUp.objects.filter(match_day__competition=competition).delete()
    GroupTeam.objects.filter(match_day__competition=competition).delete()
    Tournament.objects.filter(pk__in=tournaments).delete()
    competition.delete()
    Player.objects.filter(pk__in=players).delete()


def round_trip(competition: Competition) -> Competition:
    """Exported and restored onto the site it came from: its organisers' accounts are theirs."""
    document = json.loads(json.dumps(competition_export(competition=competition)))
    forget(competition)
    assert not Competition.objects.exists()
    return competition_import(data=document, attach_roles_to_existing_accounts=True).competition


def test_a_league_comes_back_whole():
    competition = played_league()
    before = snapshot(competition)
    counts = {model: model.objects.count() for model in MODELS}
    restored = round_trip(competition)
    assert snapshot(restored) == before
    assert {model: model.objects.count() for model in MODELS} == counts
    assert len(before["season"]) == 8
    assert [line[4] for line in before["season"]] == ["promotion"] + [""] * 5 + ["relegation"] * 2


def test_each_person_comes_back_once_as_member_and_as_entry():
    """The match days' entries are the teams' members, not new persons of the same name: a
    line-up changed after the import still finds the player's entry."""
    restored = round_trip(played_league())
    members = set(TeamMember.objects.filter(competition=restored).values_list("player", flat=True))
    entries = set(
        Entry.objects.filter(tournament__match_day__competition=restored).values_list(
            "player", flat=True
        )
    )
    assert entries == members
    assert Player.objects.count() == 33


def test_a_knockout_tie_keeps_the_directors_decision():
    competition = league(teams=4, kind=Competition.Kind.CHAMPIONSHIP, name="DMM")
    by = organiser_of(competition)
    final = services.match_day_create(
        competition=competition,
        starts_on=DAY,
        stage=MatchDay.Stage.KNOCKOUT,
        groups=[teams(competition)],
        advance=2,
        by=by,
    )
    place = GroupTeam.objects.filter(match_day=final).order_by("team__name").first()
    services.tie_decide(place=place, through=True, by=by)
    name = place.team.name
    restored = round_trip(competition)
    tie = GroupTeam.objects.get(match_day__competition=restored, team__name=name)
    assert tie.through is True
    assert tie.group.advance == 2
    assert tie.match_day.stage == MatchDay.Stage.KNOCKOUT


def test_an_import_next_to_the_original_is_refused_and_saves_nothing():
    competition = league(teams=4)
    services.match_day_create(
        competition=competition,
        starts_on=DAY,
        groups=[teams(competition)],
        by=organiser_of(competition),
    )
    document = json.loads(json.dumps(competition_export(competition=competition)))
    counts = {model: model.objects.count() for model in MODELS}
    with pytest.raises(ValidationError, match="exists already"):
        competition_import(data=document)
    document["competition"]["slug"] = "another"
    with pytest.raises(ValidationError, match="exists already"):  # its match day's tournament
        competition_import(data=document)
    assert {model: model.objects.count() for model in MODELS} == counts


def test_a_damaged_backup_is_refused_whole():
    competition = league(teams=4)
    services.match_day_create(
        competition=competition,
        starts_on=DAY,
        groups=[teams(competition)],
        by=organiser_of(competition),
    )
    document = json.loads(json.dumps(competition_export(competition=competition)))
    forget(competition)
    document["match_days"][0]["line_ups"][0]["entry"] = 999
    counts = {model: model.objects.count() for model in MODELS}
    with pytest.raises(ValidationError, match="damaged or incomplete"):
        competition_import(data=document)
    assert {model: model.objects.count() for model in MODELS} == counts


def test_a_tournament_backup_is_refused_as_a_competition():
    with pytest.raises(ValidationError, match="not a team competition backup"):
        competition_import(data=tournament_export(tournament=factories.tournament()))


def test_a_match_days_tournament_backup_keeps_its_kind_and_club_ranking():
    """The tournament's own backup keeps that it is a match day and its club ranking."""
    competition = league(teams=4)
    match_day = services.match_day_create(
        competition=competition,
        starts_on=DAY,
        groups=[teams(competition)],
        by=organiser_of(competition),
    )
    Tournament.objects.filter(pk=match_day.tournament_id).update(club_ranking_players=3)
    document = tournament_export(tournament=Tournament.objects.get(pk=match_day.tournament_id))
    document["tournament"]["slug"] = "copy"
    copy = tournament_import(data=document)
    assert copy.is_match_day
    assert copy.club_ranking_players == 3


def test_the_commands_write_and_restore_a_competition(tmp_path, capsys):
    competition = league(teams=4)
    services.match_day_create(
        competition=competition,
        starts_on=DAY,
        groups=[teams(competition)],
        by=organiser_of(competition),
    )
    before = snapshot(competition)
    path = tmp_path / "league.json"
    call_command("export_competition", competition.slug, "--output", str(path))
    forget(competition)
    call_command("import_competition", str(path), "--attach-roles-to-existing-accounts")
    assert "4 teams, 1 match day" in capsys.readouterr().out
    assert snapshot(Competition.objects.get()) == before
