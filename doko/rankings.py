"""What a ranking list asks of a tournament before its maintainers admit it, and what has changed
in a tournament's counted results since they did: plain Python.

Facts in (a tournament as counted, a list's criteria, the results stored at admission and now),
problems and changes out. No Django here: ``rankings/services/admissions.py`` reads the facts
from the database, refuses an admission that leaves a criterion unmet, and stores the results it
admitted.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum

from doko.standings import months_before


class Criterion(StrEnum):
    """What a list asks; the value is the name of the list's field that states it, so that a
    refusal names the criterion the way the list's page and the API name it."""

    FINISHED = "finished"  # the tournament has finished: its last round is closed
    PUBLIC = "is_public"  # the public sees it …
    STANDINGS_PUBLIC = "standings_public"  # … and its standings: a list shows nothing hidden
    RECENT = "months"  # it ended within the list's months, or nothing of it would count
    PLAYERS = "tournament_min_players"  # at least so many active players
    ROUNDS = "tournament_min_rounds"  # at least so many rounds played (closed)
    TABLES_OF_FOUR = "tournament_tables_of_four_only"  # no table of five in any round (TSR 8.3.1)
    OFFICIAL = "tournament_official_only"  # an official tournament, played by the TSR (8.1.1)


@dataclass(frozen=True)
class Criteria:
    """A list's criteria: ``months`` (its rounds count that long), and what it asks of each
    tournament it admits."""

    months: int
    min_players: int
    min_rounds: int
    tables_of_four_only: bool
    official_only: bool = False


@dataclass(frozen=True)
class Facts:
    """A tournament as the criteria see it: ``players``, its active entries; ``rounds``, its
    closed rounds; ``largest_table``, the most seats at one table in any round (0: none);
    ``official``, whether it is marked official (its round then is the TSR's, TSR 8.1.1)."""

    finished: bool
    public: bool
    standings_public: bool
    ends_on: datetime.date
    players: int
    rounds: int
    largest_table: int
    official: bool = False


@dataclass(frozen=True)
class Unmet:
    """A criterion the tournament does not meet: what the list asks (``needed``) and what the
    tournament has (``actual``), for the message."""

    criterion: Criterion
    needed: int | str | None = None
    actual: int | str | None = None


def unmet(*, criteria: Criteria, facts: Facts, today: datetime.date) -> list[Unmet]:
    """Every criterion of the list the tournament does not meet, in the order the list states
    them; empty: it may be admitted."""
    problems = []
    if not facts.finished:
        problems.append(Unmet(Criterion.FINISHED))
    if not facts.public:
        problems.append(Unmet(Criterion.PUBLIC))
    if not facts.standings_public:
        problems.append(Unmet(Criterion.STANDINGS_PUBLIC))
    since = months_before(today, criteria.months)
    if facts.ends_on <= since:
        problems.append(Unmet(Criterion.RECENT, criteria.months, since.isoformat()))
    if facts.players < criteria.min_players:
        problems.append(Unmet(Criterion.PLAYERS, criteria.min_players, facts.players))
    if facts.rounds < criteria.min_rounds:
        problems.append(Unmet(Criterion.ROUNDS, criteria.min_rounds, facts.rounds))
    if criteria.tables_of_four_only and facts.largest_table > 4:
        problems.append(Unmet(Criterion.TABLES_OF_FOUR, 4, facts.largest_table))
    if criteria.official_only and not facts.official:
        problems.append(Unmet(Criterion.OFFICIAL))
    return problems


@dataclass(frozen=True)
class Counted:
    """A player's counted results in one tournament: confirmed rounds, their points, and the
    entry's status (a withdrawal or disqualification is a change too)."""

    player_id: int
    rounds: int
    points: int
    status: str = "active"


def snapshot(counted: Iterable[Counted]) -> list[list[int | str]]:
    """The results as stored at admission: compact JSON, one ``[player, rounds, points,
    status]`` per player, by player."""
    return [
        [line.player_id, line.rounds, line.points, line.status]
        for line in sorted(counted, key=lambda line: line.player_id)
    ]


def from_snapshot(stored: Sequence[Sequence[int | str]]) -> dict[int, Counted]:
    """The results a snapshot holds, by player (what ``snapshot`` wrote)."""
    return {
        int(player): Counted(int(player), int(rounds), int(points), str(status))
        for player, rounds, points, status in stored
    }


@dataclass(frozen=True)
class Change:
    """A player whose counted results differ from those admitted: ``then`` or ``now`` None
    where the player was not (or is no longer) in the tournament."""

    player_id: int
    then: Counted | None
    now: Counted | None


def changes(*, admitted: Sequence[Sequence[int | str]], now: Iterable[Counted]) -> list[Change]:
    """The players whose rounds, points or status differ from the snapshot taken at admission,
    by player."""
    then = from_snapshot(admitted)
    current = {line.player_id: line for line in now}
    return [
        Change(player_id, then.get(player_id), current.get(player_id))
        for player_id in sorted(then.keys() | current.keys())
        if then.get(player_id) != current.get(player_id)
    ]
