"""The club ranking of an individual tournament (Vereinswertung): each club's best N players'
points summed. Plain Python, no Django.

The TSR has no club ranking; this is the organiser's option (``Tournament.club_ranking_players``)
as the club's issue states it:

- a club is the club name a player entered with; names are told apart case-insensitively and
  without surrounding blanks ("SG Kreuz", "sg kreuz " are one club, shown as its best player
  wrote it); an empty name is no club, and such players count for none;
- a club's points are the sum of its best ``players`` players' points;
- clubs with fewer than ``players`` players are not ranked: they follow the ranked clubs,
  marked incomplete, with their players' points summed (a club of two cannot rank against
  clubs of four, but the hall still sees it);
- clubs with equal points share a rank (1, 2, 2, 4); the list shows them by name.
"""

from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True)
class ClubPlayer:
    """A player of the individual standings: the entry, the club as entered, the points."""

    entry_id: int
    club: str
    points: int


@dataclass(frozen=True)
class ClubRow:
    """A club's line. ``rank``: None for a club with fewer than the counted players
    (``complete`` False), listed after the ranked ones."""

    rank: int | None
    club: str  # as its best player wrote it
    points: int  # the counted players' points summed
    counted: tuple[int, ...]  # the entries counted, best first
    members: int  # the club's players in the standings

    @property
    def complete(self) -> bool:
        return self.rank is not None


def club_key(club: str) -> str:
    """What tells clubs apart: the name without surrounding blanks, case-insensitively."""
    return club.strip().casefold()


def club_ranking(rows: Iterable[ClubPlayer], *, players: int) -> tuple[ClubRow, ...]:
    """Each club's best ``players`` players' points summed, the clubs ranked by them; clubs
    with fewer players follow unranked (see the module's docstring)."""
    if players < 1:
        raise ValueError(f"players must be at least 1, not {players}")
    clubs: dict[str, list[ClubPlayer]] = {}
    for row in rows:
        key = club_key(row.club)
        if key:
            clubs.setdefault(key, []).append(row)
    lines: list[tuple[bool, int, str, ClubRow]] = []
    for members in clubs.values():
        best = sorted(members, key=lambda member: (-member.points, member.entry_id))
        counted = best[:players]
        line = ClubRow(
            rank=None,
            club=best[0].club.strip(),
            points=sum(member.points for member in counted),
            counted=tuple(member.entry_id for member in counted),
            members=len(members),
        )
        lines.append((len(members) >= players, line.points, club_key(line.club), line))
    lines.sort(key=lambda item: (not item[0], -item[1], item[2]))
    ranked: list[ClubRow] = []
    for index, (complete, points, _key, line) in enumerate(lines):
        rank = None
        if complete:
            before = ranked[-1] if ranked else None
            rank = before.rank if before and before.points == points else index + 1
        ranked.append(
            ClubRow(
                rank=rank,
                club=line.club,
                points=line.points,
                counted=line.counted,
                members=line.members,
            )
        )
    return tuple(ranked)
