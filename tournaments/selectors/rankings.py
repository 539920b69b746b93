"""Reads of the ranking lists across tournaments and of a player's history."""

import datetime
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.db.models import Count, Max, QuerySet, Sum
from django.shortcuts import get_object_or_404

from doko import standings
from tournaments import policies
from tournaments.models import (
    Entry,
    Player,
    RankingList,
    SeatResult,
    Tournament,
)
from tournaments.selectors.tournaments import (
    AnyUser,
    tournaments_visible,
    user_roles_by_tournament,
)


def tournaments_ranked() -> QuerySet[Tournament]:
    """The tournaments that count for the ranking lists: finished, counting by the organiser's
    choice, and public with public standings. A list shows nothing that the tournament hides:
    hidden later, it drops out at the next rebuild (``services.RANKING_SETTINGS``)."""
    return Tournament.objects.filter(
        status=Tournament.Status.FINISHED,
        counts_for_ranking=True,
        is_public=True,
        standings_public=True,
    )


def ranking_lists(*, user: AnyUser) -> QuerySet[RankingList]:
    lists = RankingList.objects.all()
    return lists if user.is_superuser else lists.filter(is_public=True)


def ranking_get(*, slug: str, user: AnyUser) -> RankingList:
    return get_object_or_404(ranking_lists(user=user), slug=slug)


@dataclass(frozen=True)
class RankingLine:
    rank: int | None  # None: fewer rounds than the list asks for
    player: Player
    rounds: int
    points: int

    @property
    def average(self) -> float:
        return self.points / self.rounds


def ranking_lines(*, ranking_list: RankingList) -> list[RankingLine]:
    """The list as last rebuilt, with the players' names: one query."""
    players = Player.objects.in_bulk([player_id for _r, player_id, *_ in ranking_list.data])
    return [
        RankingLine(rank=rank, player=players[player_id], rounds=rounds, points=points)
        for rank, player_id, rounds, points in ranking_list.data
        if player_id in players
    ]


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


@dataclass(frozen=True)
class RankingPlace:
    ranking_list: RankingList
    line: RankingLine


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
    sums = {
        row["entry_id"]: row
        for row in SeatResult.objects.filter(entry_id__in=shown, confirmed=True)
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
                "points": row.get("total", 0),
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


def player_ranking_places(*, player: Player, user: AnyUser) -> list[RankingPlace]:
    """Where the player stands in each ranking list: one query."""
    places = []
    for ranking_list in ranking_lists(user=user):
        for rank, player_id, rounds, points in ranking_list.data:
            if player_id == player.pk:
                line = RankingLine(rank=rank, player=player, rounds=rounds, points=points)
                places.append(RankingPlace(ranking_list=ranking_list, line=line))
                break
    return places


def ranking_rounds(*, since: datetime.date, until: datetime.date) -> list[standings.PlayedRound]:
    """The confirmed rounds of the tournaments that count for ranking lists
    (``tournaments_ranked``) and ended after ``since`` and by ``until``, in one query."""
    return [
        standings.PlayedRound(player_id=player_id, played_on=ends_on, points=points)
        for player_id, ends_on, points in SeatResult.objects.filter(
            confirmed=True,
            round__tournament__in=tournaments_ranked(),
            round__tournament__ends_on__gt=since,
            round__tournament__ends_on__lte=until,
        ).values_list("entry__player_id", "round__tournament__ends_on", "points")
    ]
