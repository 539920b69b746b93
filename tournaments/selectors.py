"""Reads for tournaments, rounds and tables; every page and API view asks here.

Each selector runs a fixed number of queries, whatever the number of players or rounds.
"""

from dataclasses import dataclass

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import Count, OuterRef, Prefetch, Q, QuerySet, Subquery, Sum
from django.db.models.functions import Coalesce
from django.shortcuts import get_object_or_404

from scoring.models import Scoresheet
from tournaments.models import Entry, Round, Seat, Table, Tournament, TournamentRole

AnyUser = User | AnonymousUser


def tournaments_visible(*, user: AnyUser) -> QuerySet[Tournament]:
    """Public tournaments, and the others to their staff and to superusers."""
    tournaments = Tournament.objects.all()
    if user.is_superuser:
        return tournaments
    if user.is_authenticated:
        staff = TournamentRole.objects.filter(user=user).values("tournament_id")
        return tournaments.filter(Q(is_public=True) | Q(pk__in=staff))
    return tournaments.filter(is_public=True)


def _count(queryset: QuerySet) -> Coalesce:
    """A correlated COUNT(*) subquery: no join, so counting two relations multiplies nothing."""
    counted = queryset.order_by().values("tournament").annotate(n=Count("pk")).values("n")
    return Coalesce(Subquery(counted), 0)


def tournament_list(*, user: AnyUser) -> QuerySet[Tournament]:
    """Tournaments for the home page and the API, newest first, with their sizes."""
    return (
        tournaments_visible(user=user)
        .annotate(
            entry_count=_count(
                Entry.objects.filter(tournament=OuterRef("pk"), status=Entry.Status.ACTIVE)
            ),
            round_count=_count(Round.objects.filter(tournament=OuterRef("pk"))),
        )
        .order_by("-starts_on", "name")
    )


def tournament_get(*, slug: str, user: AnyUser) -> Tournament:
    """One tournament the user may see (404 otherwise)."""
    return get_object_or_404(tournament_list(user=user), slug=slug)


def user_roles(*, user: AnyUser, tournament: Tournament) -> set[str]:
    """The user's roles in the tournament; a superuser holds them all."""
    if not user.is_authenticated:
        return set()
    if user.is_superuser:
        return set(TournamentRole.Role.values)
    return set(
        TournamentRole.objects.filter(user=user, tournament=tournament).values_list(
            "role", flat=True
        )
    )


def tournament_rounds(*, tournament: Tournament) -> QuerySet[Round]:
    """The rounds with how many tables they have and how many sheets are confirmed."""
    return tournament.rounds.annotate(
        table_count=Count("tables", distinct=True),
        confirmed_count=Count(
            "tables__scoresheet",
            filter=Q(tables__scoresheet__status=Scoresheet.Status.CONFIRMED),
            distinct=True,
        ),
    ).order_by("number")


def round_get(*, tournament: Tournament, number: int) -> Round:
    """One round, with the counts of ``tournament_rounds`` (404 if there is none)."""
    return get_object_or_404(tournament_rounds(tournament=tournament), number=number)


def entry_list(*, tournament: Tournament) -> QuerySet[Entry]:
    return tournament.entries.select_related("player").order_by("start_number")


@dataclass(frozen=True)
class SeatRow:
    position: int
    entry: Entry
    points: int | None  # the player's points on this table's sheet so far; None without hands


@dataclass(frozen=True)
class TableRow:
    table: Table
    sheet: Scoresheet | None
    seats: list[SeatRow]
    hand_count: int


def _seat_prefetch() -> Prefetch:
    return Prefetch(
        "seats", queryset=Seat.objects.select_related("entry__player").order_by("position")
    )


def _tables(round_: Round) -> QuerySet[Table]:
    return (
        round_.tables.select_related("scoresheet")
        .prefetch_related(_seat_prefetch())
        .annotate(
            hand_count=Count("scoresheet__hands"),
            **{f"points_{seat}": Sum(f"scoresheet__hands__points_{seat}") for seat in range(1, 6)},
        )
        .order_by("number")
    )


def _table_row(table: Table) -> TableRow:
    sheet = getattr(table, "scoresheet", None)
    return TableRow(
        table=table,
        sheet=sheet,
        hand_count=table.hand_count,
        seats=[
            SeatRow(
                position=seat.position,
                entry=seat.entry,
                points=getattr(table, f"points_{seat.position}") if table.hand_count else None,
            )
            for seat in table.seats.all()
        ],
    )


def round_tables(*, round: Round) -> list[TableRow]:
    """Every table of a round with its players in seat order and their points so far."""
    return [_table_row(table) for table in _tables(round)]


def table_get(*, round: Round, number: int) -> TableRow:
    return _table_row(get_object_or_404(_tables(round), number=number))
