"""Reads for persons (``Player``): the log of changes to one, the other record of the same
person that a merge names, and a person's tournaments (``player_history``)."""

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.db.models import Count, Max, Sum

from tournaments import policies
from tournaments.models import Entry, PersonChange, Player, SeatResult, Tournament
from tournaments.selectors.rounds import springer_corrections
from tournaments.selectors.tournaments import (
    AnyUser,
    tournaments_visible,
    user_roles_by_tournament,
)


def person_changes(*, player: Player) -> list[PersonChange]:
    """The changes to the person, newest first, with who made them: one query."""
    return list(PersonChange.objects.filter(player=player).select_related("by"))


def person_other(*, ddv_number: str = "", pk: int | None = None) -> Player | None:
    """The record a merge names, by DDV number or record number, with how many tournaments it
    plays in: one query."""
    records = Player.objects.annotate(tournaments=Count("entries"))
    if ddv_number:
        return records.filter(ddv_number=ddv_number).first()
    if pk is not None:
        return records.filter(pk=pk).first()
    return None


@dataclass(frozen=True)
class TournamentLine:
    """One tournament in a player's history; of a tournament whose standings the reader may
    not see (``policies.may_read_standings``) only the entry, every number None."""

    tournament: Tournament
    start_number: int
    status: str
    rounds: int | None
    points: int | None
    best_round: int | None
    solos_played: int | None
    solos_won: int | None

    @property
    def standings_hidden(self) -> bool:
        return self.rounds is None

    @property
    def average(self) -> float | None:
        return self.points / self.rounds if self.rounds and self.points is not None else None


def player_history(*, player: Player, user: AnyUser) -> list[TournamentLine]:
    """The player's tournaments, newest first, with their confirmed rounds, points, best round
    and solos; of tournaments whose standings the user may not read only the entry. Two
    queries, three for a user signed in (his roles)."""
    visible = tournaments_visible(user=user)
    entries = list(
        Entry.objects.filter(player=player, tournament__in=visible)
        .select_related("tournament")
        .order_by("-tournament__starts_on", "tournament__name")
    )
    roles = user_roles_by_tournament(
        user=user, tournament_ids={entry.tournament_id for entry in entries}
    )
    shown = {
        entry.pk
        for entry in entries
        if policies.may_read_standings(
            tournament=entry.tournament, roles=roles.get(entry.tournament_id, set())
        )
        is None
    }
    # A Springer's round (TSR 10) counts once, as the mean of his two tables.
    counted = SeatResult.objects.filter(entry_id__in=shown, confirmed=True)
    corrections = (
        springer_corrections(counted) if any(entry.tournament.springer for entry in entries) else {}
    )
    sums = {
        row["entry_id"]: row
        for row in counted.filter(second=False)
        .values("entry_id")
        .annotate(
            rounds=Count("pk"),
            total=Sum("points"),
            best=Max("points"),
            solos=Sum("solos_played"),
            won=Sum("solos_won"),
        )
        .order_by()
    }
    lines = []
    for entry in entries:
        numbers: dict[str, Any] = dict.fromkeys(  # hidden: every number None
            ("rounds", "points", "best_round", "solos_played", "solos_won")
        )
        if entry.pk in shown:
            row: Mapping[str, Any] = sums.get(entry.pk, {})  # {}: no round counted
            numbers = {
                "rounds": row.get("rounds", 0),
                "points": row.get("total", 0) + corrections.get(entry.pk, 0),
                "best_round": row.get("best"),
                "solos_played": row.get("solos", 0),
                "solos_won": row.get("won", 0),
            }
        lines.append(
            TournamentLine(
                tournament=entry.tournament,
                start_number=entry.start_number,
                status=entry.status,
                **numbers,
            )
        )
    return lines
