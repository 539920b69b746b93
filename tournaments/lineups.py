"""What the tournaments app needs to know of a team match day (Spieltag), whose teams and
line-ups the teams app keeps: the one door between a tournament's draw and the teams.

A match day of a team competition is played as a tournament: its rounds, tables, scoresheets,
checks and standings are the individual side's, unchanged. Only its draw differs: every table
seats one player of each of four different teams of one group (``doko.team_seating``). The
teams app sits above tournaments, so this module says what the draw asks (``LineUps``) and the
teams app answers; it registers its answer when Django starts (``TeamsConfig.ready``), as the
scoring app answers ``tournaments.play``. Without it every tournament is an individual one.

The draw seats *slots*: the places of a team's line-up (its first, second, third, fourth
player). A slot is the same all match day, the player in it may change from one round to the
next (a reserve comes in), so the plan of every round is drawn at once and a substitute takes
over the seats of the slot.
"""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

from tournaments.models import Tournament

# A slot's key: its team's id times SLOTS plus its place in the line-up (1, 2, ...).
SLOTS = 100


@dataclass(frozen=True)
class TeamField:
    """A match day's field as the draw needs it.

    ``groups``: per group of teams (each seated at its own tables), team id to the keys of its
    line-up's slots. ``players``: per round number, slot key to the entry who plays it (a slot
    without a player: the line-up is not complete). ``teams``: team id to every entry who
    plays for it on the match day (for the seating's quality). ``names``: team id to its name.
    """

    groups: tuple[Mapping[int, tuple[int, ...]], ...]
    players: Mapping[int, Mapping[int, int]]
    teams: Mapping[int, tuple[int, ...]]
    names: Mapping[int, str]


class LineUps(Protocol):
    """The question tournaments asks of the teams app."""

    def team_field(self, *, tournament: Tournament) -> TeamField | None:
        """The field of the match day the tournament is; None if it is none."""


_lineups: LineUps | None = None


def register(lineups: LineUps) -> None:
    """The teams app's answers (registered once, at start-up)."""
    global _lineups
    _lineups = lineups


def team_field(*, tournament: Tournament) -> TeamField | None:
    """The tournament's team field if it is a team match day, else None (asking nothing of an
    individual tournament)."""
    if not tournament.is_match_day or _lineups is None:
        return None
    return _lineups.team_field(tournament=tournament)


def slot_players(field: TeamField, round_numbers: Sequence[int]) -> dict[int, dict[int, int]]:
    """Per round number, entry id to slot key (the reverse of ``TeamField.players``)."""
    return {
        number: {entry: slot for slot, entry in field.players.get(number, {}).items()}
        for number in round_numbers
    }
