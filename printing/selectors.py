"""Reads of printouts."""

from dataclasses import dataclass

from django.shortcuts import get_object_or_404

from printing.models import Job
from teams.models import LINE_UP_PLACES, GroupTeam, LineUp, MatchDay, TeamMember
from tournaments.models import Round, Seat


def round_jobs(*, round: Round, limit: int = 6) -> list[Job]:
    """The latest printouts of a round."""
    return list(round.jobs.order_by("-created_at")[:limit])


def job_get(*, pk) -> Job:
    """A job with its tournament, round, table and player (404 if there is none)."""
    return get_object_or_404(
        Job.objects.select_related("tournament", "round", "table", "entry"), pk=pk
    )


# Team competitions ----------------------------------------------------------------------------


@dataclass(frozen=True)
class SheetTeam:
    """A team on a match day's line-up sheet: its players by round and place (1-4)."""

    name: str
    club: str
    captain: str
    players: tuple[str, ...]  # every member, captain first (reserves included)
    rounds: tuple[tuple[int, tuple[str, ...]], ...]  # (round number, names of places 1-4)


@dataclass(frozen=True)
class SheetSeat:
    position: int
    name: str
    team: str


@dataclass(frozen=True)
class SheetTable:
    number: int
    seats: tuple[SheetSeat, ...]


@dataclass(frozen=True)
class SheetGroup:
    """A group of a match day: its teams' line-ups and, for each round drawn, its tables."""

    number: int
    teams: tuple[SheetTeam, ...]
    rounds: tuple[tuple[int, tuple[SheetTable, ...]], ...]  # (round number, its tables)


def line_up_sheets(*, match_day: MatchDay) -> list[SheetGroup]:
    """Each group of the match day with its teams' line-ups round by round and the tables of
    every round drawn so far, seat by seat with the player's team (a table seats one group)."""
    places = list(
        GroupTeam.objects.filter(match_day=match_day)
        .select_related("group", "team")
        .order_by("group__number", "team__name")
    )
    team_ids = [place.team_id for place in places]
    members: dict[int, list[TeamMember]] = {}
    for member in (
        TeamMember.objects.filter(team_id__in=team_ids)
        .select_related("player")
        .order_by("-is_captain", "player__last_name", "player__first_name")
    ):
        members.setdefault(member.team_id, []).append(member)
    rounds = range(1, match_day.tournament.planned_rounds + 1)
    line_ups: dict[int, dict[int, list[str]]] = {
        team_id: {number: [""] * LINE_UP_PLACES for number in rounds} for team_id in team_ids
    }
    team_of_entry: dict[int, int] = {}
    for line in LineUp.objects.filter(match_day=match_day).select_related("entry"):
        team_of_entry[line.entry_id] = line.team_id
        places_of = line_ups.setdefault(line.team_id, {})
        if line.round_number in places_of:
            places_of[line.round_number][line.place - 1] = line.entry.name
    group_of_team = {place.team_id: place.group.number for place in places}
    team_names = {place.team_id: place.team.name for place in places}
    tables: dict[int, dict[int, list[SheetTable]]] = {}
    for seat in (
        Seat.objects.filter(round__tournament_id=match_day.tournament_id)
        .select_related("entry", "table", "round")
        .order_by("round__number", "table__number", "position")
    ):
        team_id = team_of_entry.get(seat.entry_id)
        group = group_of_team.get(team_id) if team_id is not None else None
        seated = SheetSeat(
            position=seat.position,
            name=seat.entry.name,
            team=team_names.get(team_id, "") if team_id is not None else "",
        )
        round_tables = tables.setdefault(group or 0, {}).setdefault(seat.round.number, [])
        if round_tables and round_tables[-1].number == seat.table.number:
            last = round_tables[-1]
            round_tables[-1] = SheetTable(last.number, (*last.seats, seated))
        else:
            round_tables.append(SheetTable(seat.table.number, (seated,)))
    groups: dict[int, list[SheetTeam]] = {}
    for place in places:
        team_members = members.get(place.team_id, [])
        captain = next((m.player.name for m in team_members if m.is_captain), "")
        groups.setdefault(place.group.number, []).append(
            SheetTeam(
                name=place.team.name,
                club=place.team.club,
                captain=captain,
                players=tuple(member.player.name for member in team_members),
                rounds=tuple(
                    (number, tuple(names))
                    for number, names in sorted(line_ups.get(place.team_id, {}).items())
                ),
            )
        )
    return [
        SheetGroup(
            number=number,
            teams=tuple(teams),
            rounds=tuple(
                (round_number, tuple(round_tables))
                for round_number, round_tables in sorted(tables.get(number, {}).items())
            ),
        )
        for number, teams in sorted(groups.items())
    ]
