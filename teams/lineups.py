"""The teams app's answer to ``tournaments.lineups``: a match day's groups and line-ups as the
draw needs them (registered by ``TeamsConfig.ready``)."""

from teams.models import LINE_UP_PLACES, GroupTeam, LineUp, MatchDay
from tournaments.lineups import SLOTS, TeamField
from tournaments.models import Tournament


def slot_key(team_id: int, place: int) -> int:
    """The draw's key of a line-up's place."""
    return team_id * SLOTS + place


class MatchDayLineUps:
    def team_field(self, *, tournament: Tournament) -> TeamField | None:
        match_day = MatchDay.objects.filter(tournament=tournament).first()
        if match_day is None:
            return None
        groups: dict[int, dict[int, tuple[int, ...]]] = {}
        names: dict[int, str] = {}
        for group_number, team_id, name in (
            GroupTeam.objects.filter(match_day=match_day)
            .order_by("group__number", "team_id")
            .values_list("group__number", "team_id", "team__name")
        ):
            groups.setdefault(group_number, {})[team_id] = tuple(
                slot_key(team_id, place) for place in range(1, LINE_UP_PLACES + 1)
            )
            names[team_id] = name
        players: dict[int, dict[int, int]] = {}
        teams: dict[int, set[int]] = {}
        for round_number, team_id, place, entry_id in LineUp.objects.filter(
            match_day=match_day
        ).values_list("round_number", "team_id", "place", "entry_id"):
            players.setdefault(round_number, {})[slot_key(team_id, place)] = entry_id
            teams.setdefault(team_id, set()).add(entry_id)
        return TeamField(
            groups=tuple(groups[number] for number in sorted(groups)),
            players=players,
            teams={team: tuple(sorted(entries)) for team, entries in teams.items()},
            names=names,
        )
