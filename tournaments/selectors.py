"""Reads for tournaments, rounds and tables; every page and API view asks here.

Each selector runs a fixed number of queries, whatever the number of players or rounds.
"""

import datetime
import itertools
import logging
import threading
import unicodedata
from collections import OrderedDict
from dataclasses import dataclass

from django.conf import settings
from django.contrib.auth.models import AnonymousUser, User
from django.core.cache import cache, caches
from django.db.models import Count, Max, OuterRef, Prefetch, Q, QuerySet, Subquery, Sum
from django.db.models.functions import Coalesce
from django.http import Http404
from django.shortcuts import get_object_or_404
from django.utils import timezone

from adjudication.models import Decision, Sanction
from doko import seating, standings
from scoring.models import Scoresheet, sheet_keeper
from tournaments.models import (
    Entry,
    ExtraTime,
    Job,
    Player,
    RankingList,
    Round,
    Seat,
    SeatResult,
    StandingsSnapshot,
    Table,
    Tournament,
    TournamentRole,
)

AnyUser = User | AnonymousUser
logger = logging.getLogger(__name__)


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


HEAD_CACHE_SECONDS = 60


def _head_key(slug: str) -> str:
    return f"tournament-head:{slug}"


def tournament_head(*, slug: str, user: AnyUser) -> Tournament:
    """The tournament's own fields for the pages that phones refresh: for an anonymous reader
    from the cache (no query at all), kept for a minute and forgotten whenever the tournament
    is saved or its standings rebuilt (``tournament_head_forget``); else ``tournament_get``.

    With a shared cache (Redis), each process also keeps them in its own memory for
    ``TOURNAMENT_HEAD_LOCAL_SECONDS``: a phone's refresh then costs no round trip at all, and
    other processes show a change at most that much later (this process at once)."""
    if user.is_authenticated:
        return tournament_get(slug=slug, user=user, counts=False)
    key = _head_key(slug)
    local = _local_cache() if settings.TOURNAMENT_HEAD_LOCAL_SECONDS > 0 else None
    row = local.get(key) if local is not None else None
    if row is None:
        row = cache_get(key)
        if row is None:
            row = Tournament.objects.filter(slug=slug, is_public=True).values().first()
            if row is None:
                raise Http404
            cache_put(key, row, HEAD_CACHE_SECONDS)
        if local is not None:
            local.set(key, row, settings.TOURNAMENT_HEAD_LOCAL_SECONDS)
    return Tournament(**row)


def tournament_head_forget(*, slug: str) -> None:
    if (local := _local_cache()) is not None:
        local.delete(_head_key(slug))
    try:
        cache.delete(_head_key(slug))
    except Exception:  # an outage: the entry expires within HEAD_CACHE_SECONDS anyway
        logger.warning("Cache unreachable forgetting %s.", slug, exc_info=True)


def tournament_get(*, slug: str, user: AnyUser, counts: bool = True) -> Tournament:
    """One tournament the user may see (404 otherwise); without ``counts`` in a plain query
    of one row, for the pages that phones refresh."""
    tournaments = tournament_list(user=user) if counts else tournaments_visible(user=user)
    return get_object_or_404(tournaments, slug=slug)


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
    moved: bool = False  # moved by a withdrawal or late entry after the seating was published


@dataclass(frozen=True)
class TableRow:
    table: Table
    sheet: Scoresheet | None
    seats: list[SeatRow]
    hand_count: int


def seat_sums(tables: QuerySet[Table]) -> QuerySet[Table]:
    """The tables with what each one's sheet gives each seat so far: ``points_<seat>`` (game
    points), ``penalty_<seat>`` (the initialled penalty points, TSR 8.2.2) and ``hand_count``
    (lines on the sheet). The penalties are summed apart, so nothing is counted twice."""
    decisions = Decision.objects.filter(
        scoresheet=OuterRef("scoresheet__pk"), status=Decision.Status.INITIALLED
    )
    return tables.annotate(
        hand_count=Count("scoresheet__hands"),
        **{f"points_{seat}": Sum(f"scoresheet__hands__points_{seat}") for seat in range(1, 6)},
        **{
            f"penalty_{seat}": correlated_sum(decisions, f"penalty_{seat}", by="scoresheet")
            for seat in range(1, 6)
        },
    )


def seats_with_deductions() -> QuerySet[Seat]:
    """Seats with ``deducted``: the points taken from their player in that round for
    unsporting conduct (TSR 9.6.2 b)."""
    deductions = Sanction.objects.filter(
        entry=OuterRef("entry_id"),
        round=OuterRef("round_id"),
        kind=Sanction.Kind.DEDUCTION,
        status=Sanction.Status.IN_FORCE,  # not changed or annulled on appeal (TSR 8.2.1)
    )
    return Seat.objects.annotate(deducted=correlated_sum(deductions, "points", by="entry"))


def _tables(round_: Round) -> QuerySet[Table]:
    """The round's tables with their seats, and each seat's points on the sheet so far: game
    points, initialled penalty points (TSR 8.2.2), less deductions (TSR 9.6.2 b)."""
    seats = Prefetch(
        "seats",
        queryset=seats_with_deductions().select_related("entry__player").order_by("position"),
    )
    return (
        seat_sums(round_.tables.select_related("scoresheet"))
        .prefetch_related(seats)
        .order_by("number")
    )


def _seat_points(table: Table, seat: Seat) -> int | None:
    if not table.hand_count:
        return None
    position = seat.position
    return (
        (getattr(table, f"points_{position}") or 0)
        + getattr(table, f"penalty_{position}")
        - seat.deducted
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
                points=_seat_points(table, seat),
                moved=seat.moved_at is not None,
            )
            for seat in table.seats.all()
        ],
    )


def round_tables(*, round: Round) -> list[TableRow]:
    """Every table of a round with its players in seat order and their points so far."""
    return [_table_row(table) for table in _tables(round)]


def table_get(*, round: Round, number: int) -> TableRow:
    return _table_row(get_object_or_404(_tables(round), number=number))


def seat_tokens(*, table: Table) -> dict[int, str]:
    """The private key of each seat of a table, by position, in seat order. Secret: for the
    organiser's eyes only."""
    return dict(table.seats.order_by("position").values_list("position", "token"))


def _plans(*, tournament: Tournament, before: int) -> dict[int, seating.SeatingPlan]:
    """The seating of each round numbered below ``before``, by round number, in one query."""
    tables: dict[tuple[int, int], list[int]] = {}
    for round_number, table_number, entry_id in (
        Seat.objects.filter(round__tournament=tournament, round__number__lt=before)
        .order_by("round__number", "table__number", "position")
        .values_list("round__number", "table__number", "entry_id")
    ):
        tables.setdefault((round_number, table_number), []).append(entry_id)
    plans: dict[int, list[tuple[int, ...]]] = {}
    for (round_number, _table), players in tables.items():
        plans.setdefault(round_number, []).append(tuple(players))
    return {number: seating.SeatingPlan(tables=tuple(plan)) for number, plan in plans.items()}


def seating_history(*, tournament: Tournament, before: int) -> list[seating.SeatingPlan]:
    """The seating of the tournament's rounds numbered below ``before``, in order."""
    plans = _plans(tournament=tournament, before=before)
    return [plans[number] for number in sorted(plans)]


def seating_other_rounds(*, round: Round) -> list[seating.SeatingPlan]:
    """The seating of every other round of the tournament, earlier and drawn in advance."""
    plans = _plans(tournament=round.tournament, before=2**15)
    plans.pop(round.number, None)
    return [plans[number] for number in sorted(plans)]


def seating_quality(*, round: Round) -> seating.Quality | None:
    """The quality report of the seating up to this round: repeat meetings against the best
    possible, seat positions, tables of five (None before the round is drawn)."""
    plans = _plans(tournament=round.tournament, before=round.number + 1)
    this = plans.pop(round.number, None)
    if this is None:
        return None
    return seating.quality([this], history=[plans[number] for number in sorted(plans)])


def correlated_sum(queryset: QuerySet, field: str, *, by: str) -> Coalesce:
    """A correlated SUM subquery of ``field`` over ``queryset`` (one group, ``by``): no join, so
    summing two relations multiplies nothing."""
    summed = queryset.order_by().values(by).annotate(total=Sum(field)).values("total")
    return Coalesce(Subquery(summed), 0)


def entry_points(*, tournament: Tournament, before: int | None = None) -> dict[int, int]:
    """Each entry's points on the confirmed scoresheets (of rounds before ``before``): game
    points, initialled penalty points (TSR 8.2.2), less deductions (TSR 9.6.2 b). One query."""
    results = SeatResult.objects.filter(round__tournament=tournament, confirmed=True)
    if before is not None:
        results = results.filter(round__number__lt=before)
    return dict(
        results.values("entry_id").annotate(total=Sum("points")).values_list("entry_id", "total")
    )


def entry_ranking(*, tournament: Tournament, before: int | None = None) -> list[int]:
    """Active entries best first by points on confirmed sheets, then by start number."""
    points = entry_points(tournament=tournament, before=before)
    active = tournament.entries.filter(status=Entry.Status.ACTIVE).values_list("pk", "start_number")
    return [pk for pk, number in sorted(active, key=lambda e: (-points.get(e[0], 0), e[1]))]


def seating_shortfall(*, tournament: Tournament) -> seating.SeatingError | None:
    """Why the tournament's active players cannot be seated as it stands (tables of four only,
    TSR 8.3.1, or with tables of five, TSR 10.1), with how many more or fewer would do; None
    when they can. Counted by ``tournament_get`` already, else in one query."""
    players = getattr(tournament, "entry_count", None)
    if players is None:
        players = tournament.entries.filter(status=Entry.Status.ACTIVE).count()
    try:
        seating.table_sizes(players, tables_of_five=tournament.allow_tables_of_five)
    except seating.SeatingError as error:
        return error
    return None


def playing_time_end(
    *, round: Round, five: bool, extra_minutes: int = 0
) -> datetime.datetime | None:
    """When a table's playing time ends (TSR 8.5.1, 10.1.5); None before the round starts.

    Until the adjudicator announces the end (``Round.ended_at``), the time the clock counts to:
    the tournament's minutes from the start (100, at a table of five 125). Once he announced it,
    his announcement ends the 100 minutes of the tables of four; a table of five plays 125
    (TSR 10.1.5), so it plays on for the difference after the announcement. A table's extra
    time (Nachspielzeit) comes on top of either (TSR 8.5.1).
    """
    if round.started_at is None:
        return None
    tournament = round.tournament
    if round.ended_at is None:
        minutes = tournament.match_minutes_five if five else tournament.match_minutes
        end = round.started_at + datetime.timedelta(minutes=minutes)
    else:
        longer = max(tournament.match_minutes_five - tournament.match_minutes, 0)
        end = round.ended_at + datetime.timedelta(minutes=longer if five else 0)
    return end + datetime.timedelta(minutes=extra_minutes)


@dataclass(frozen=True)
class TablePlayingTime:
    """When one table's playing time ends (TSR 8.5.1, 10.1.5)."""

    number: int
    five: bool  # a table of five (TSR 10.1.5)
    extra_minutes: int  # extra time granted to the table (TSR 8.5.1)
    ends_at: datetime.datetime | None  # None before the round starts
    announced: bool  # the adjudicator announced the end of the round

    def over(self, now: datetime.datetime) -> bool:
        """Is the playing time over? Only once the adjudicator announced the end of the round
        (TSR 8.5.1), and then at a table of five or with extra time only later."""
        return self.announced and self.ends_at is not None and now >= self.ends_at


def table_playing_time(*, table: Table, size: int | None = None) -> TablePlayingTime:
    """One table's playing time (``playing_time_end``), in one query for its extra time and one
    for its size unless ``size`` is given."""
    round_ = table.round
    if size is None:
        size = table.seats.count()
    extra = table.extra_times.aggregate(minutes=Sum("minutes"))["minutes"] or 0
    return TablePlayingTime(
        number=table.number,
        five=size == 5,
        extra_minutes=extra,
        ends_at=playing_time_end(round=round_, five=size == 5, extra_minutes=extra),
        announced=round_.ended_at is not None,
    )


@dataclass(frozen=True)
class TableTime:
    """A table whose playing time differs from the round's (TSR 8.5.1)."""

    number: int
    extra_minutes: int
    reasons: list[str]
    ends_at: datetime.datetime | None


@dataclass(frozen=True)
class Clock:
    """The round clock (TSR 8.5.1): one start for all tables; the end of the playing time for
    tables of four and of five; the tables given extra time."""

    round: Round
    ends_at: datetime.datetime | None  # tables of four; None before the start
    ends_at_five: datetime.datetime | None  # tables of five, if the round has any
    tables: list[TableTime]
    now: datetime.datetime  # when the clock was read

    def _left(self, ends_at: datetime.datetime | None) -> int | None:
        if ends_at is None:
            return None
        return max(int((ends_at - self.now).total_seconds()), 0)

    @property
    def seconds_left(self) -> int | None:
        return self._left(self.ends_at)

    @property
    def seconds_left_five(self) -> int | None:
        return self._left(self.ends_at_five)


def round_clock(*, round: Round) -> Clock:
    """The clock of a round, in three queries: each table's end as ``playing_time_end`` has it.
    Before the adjudicator announces the end, it counts to the tournament's minutes; after it,
    the tables of four are over, and the tables of five play on for their longer match
    (TSR 10.1.5); extra time comes on top."""
    fives = set(
        round.tables.annotate(size=Count("seats")).filter(size=5).values_list("number", flat=True)
    )
    extra: dict[int, list[ExtraTime]] = {}
    for grant in ExtraTime.objects.filter(table__round=round).select_related("table"):
        extra.setdefault(grant.table.number, []).append(grant)
    tables = []
    for number, grants in sorted(extra.items()):
        minutes = sum(grant.minutes for grant in grants)
        tables.append(
            TableTime(
                number=number,
                extra_minutes=minutes,
                reasons=[grant.reason for grant in grants],
                ends_at=playing_time_end(round=round, five=number in fives, extra_minutes=minutes),
            )
        )
    return Clock(
        round=round,
        ends_at=playing_time_end(round=round, five=False),
        ends_at_five=playing_time_end(round=round, five=True) if fives else None,
        tables=tables,
        now=timezone.now(),
    )


def current_round(*, tournament: Tournament, published_only: bool = True) -> Round | None:
    """The round being played, or else the next one drawn, or else the last one."""
    rounds = tournament.rounds.order_by("number")
    if published_only:
        rounds = rounds.exclude(published_at=None)
    rounds = list(rounds)
    for wanted in (Round.Status.RUNNING, Round.Status.FINISHED, Round.Status.SEATED):
        for round_ in rounds:
            if round_.status == wanted:
                return round_
    return rounds[-1] if rounds else None


@dataclass(frozen=True)
class FoundSeat:
    round_number: int
    round_status: str
    table: int
    position: int
    table_size: int
    moved: bool  # moved after the seating was published
    keeper: int | None = None  # the seat that keeps the table's sheet (TSR 3.1.1, 8.4.1)


@dataclass(frozen=True)
class FoundPlayer:
    entry: Entry
    seats: list[FoundSeat]

    @property
    def current(self) -> int | None:
        """The round to go to now: the one being played, else the next one drawn."""
        for status in (Round.Status.RUNNING, Round.Status.SEATED):
            for seat in self.seats:
                if seat.round_status == status:
                    return seat.round_number
        return None


FIND_LIMIT = 20


def seat_find(*, tournament: Tournament, query: str, staff: bool = False) -> list[FoundPlayer]:
    """Players found by start number or by (parts of) their name, each with their table and
    seat in every published round (every drawn round for staff). Three queries."""
    query = query.strip()
    if not query:
        return []
    entries = tournament.entries.select_related("player")
    if query.isdigit():
        entries = entries.filter(start_number=int(query))
    else:
        for word in query.replace(",", " ").split():
            entries = entries.filter(
                Q(player__first_name__icontains=word) | Q(player__last_name__icontains=word)
            )
    entries = list(entries.order_by("player__last_name", "player__first_name")[:FIND_LIMIT])
    seats = Seat.objects.filter(entry__in=entries).select_related("round", "table")
    if not staff:
        seats = seats.exclude(round__published_at=None)
    seats = list(seats.order_by("round__number"))
    tables = {
        pk: (size, keeper_seat)
        for pk, size, keeper_seat in Table.objects.filter(pk__in={seat.table_id for seat in seats})
        .annotate(size=Count("seats"))
        .values_list("pk", "size", "scoresheet__keeper_seat")
    }
    found: dict[int, list[FoundSeat]] = {entry.pk: [] for entry in entries}
    for seat in seats:
        size, keeper_seat = tables.get(seat.table_id, (4, None))
        found[seat.entry_id].append(
            FoundSeat(
                round_number=seat.round.number,
                round_status=seat.round.status,
                table=seat.table.number,
                position=seat.position,
                table_size=size,
                moved=seat.moved_at is not None,
                keeper=sheet_keeper(keeper_seat=keeper_seat, table_size=size)
                if size in (4, 5)
                else None,
            )
        )
    return [FoundPlayer(entry=entry, seats=found[entry.pk]) for entry in entries]


def moves_since(*, tournament: Tournament, since: datetime.datetime) -> dict[int, int]:
    """How many players of each round were moved after publishing, since ``since``."""
    return dict(
        Seat.objects.filter(round__tournament=tournament, moved_at__gte=since)
        .values("round__number")
        .annotate(n=Count("pk"))
        .order_by("round__number")
        .values_list("round__number", "n")
    )


def round_jobs(*, round: Round, limit: int = 6) -> list[Job]:
    """The latest printouts of a round."""
    return list(round.jobs.order_by("-created_at")[:limit])


@dataclass(frozen=True)
class NamedSeat:
    name: str  # "Last, First"
    start_number: int
    table: int
    position: int
    moved: bool


def round_seats_by_name(*, round: Round) -> list[NamedSeat]:
    """Every seat of a round, alphabetically by the player's last name, in one query."""
    seats = [
        NamedSeat(
            name=f"{last}, {first}",
            start_number=number,
            table=table,
            position=position,
            moved=moved_at is not None,
        )
        for last, first, number, table, position, moved_at in round.seats.values_list(
            "entry__player__last_name",
            "entry__player__first_name",
            "entry__start_number",
            "table__number",
            "position",
            "moved_at",
        )
    ]
    return sorted(seats, key=lambda seat: (name_key(seat.name), seat.start_number))


def name_key(name: str) -> str:
    """Sort key for names as German lists sort them: umlauts with their vowel, ß as ss."""
    decomposed = unicodedata.normalize("NFKD", name.casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


# Standings and ranking lists ----------------------------------------------------------------


def entry_get(*, tournament: Tournament, start_number: int) -> Entry:
    return get_object_or_404(tournament.entries.select_related("player"), start_number=start_number)


@dataclass(frozen=True)
class Opponent:
    position: int
    entry: Entry


@dataclass(frozen=True)
class PlayerRound:
    """A round as one player played it: where they sat, against whom, what they scored."""

    round: Round
    table: int
    position: int
    table_size: int
    others: list[Opponent]  # the rest of the table, in seat order
    sheet_status: str | None  # None before play begins
    result: SeatResult | None  # once the sheet is handed in
    moved: bool


def entry_rounds(*, entry: Entry, staff: bool = False) -> list[PlayerRound]:
    """Every round of a player with their table, seat, the others at the table and their
    result: published rounds only, unless for staff. Three queries."""
    seats = entry.seats.select_related("round", "table__scoresheet").order_by("round__number")
    if not staff:
        seats = seats.exclude(round__published_at=None)
    seats = list(seats)
    at_table: dict[int, list[Seat]] = {}
    for other in (
        Seat.objects.filter(table__in=[seat.table_id for seat in seats])
        .select_related("entry__player")
        .order_by("position")
    ):
        at_table.setdefault(other.table_id, []).append(other)
    results = {result.round_id: result for result in entry.results.all()} if seats else {}
    rounds = []
    for seat in seats:
        table = at_table.get(seat.table_id, [])
        sheet = getattr(seat.table, "scoresheet", None)
        rounds.append(
            PlayerRound(
                round=seat.round,
                table=seat.table.number,
                position=seat.position,
                table_size=len(table),
                others=[Opponent(o.position, o.entry) for o in table if o.entry_id != entry.pk],
                sheet_status=sheet.status if sheet else None,
                result=results.get(seat.round_id),
                moved=seat.moved_at is not None,
            )
        )
    return rounds


def standings_row(*, table: standings.Standings | None, entry_id: int) -> standings.Row | None:
    """The player's line of the standings."""
    if table is None:
        return None
    return next((row for row in table.rows if row.entrant.entry_id == entry_id), None)


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
    """One tournament in a player's history."""

    tournament: Tournament
    start_number: int
    status: str
    rounds: int
    points: int
    best_round: int | None
    solos_played: int
    solos_won: int

    @property
    def average(self) -> float | None:
        return self.points / self.rounds if self.rounds else None


@dataclass(frozen=True)
class RankingPlace:
    ranking_list: RankingList
    line: RankingLine


def player_history(*, player: Player, user: AnyUser) -> list[TournamentLine]:
    """The player's tournaments, newest first, with their confirmed rounds, points, best round
    and solos; of tournaments whose standings are hidden only the entry. Two queries."""
    visible = tournaments_visible(user=user)
    entries = list(
        Entry.objects.filter(player=player, tournament__in=visible)
        .select_related("tournament")
        .order_by("-tournament__starts_on", "tournament__name")
    )
    shown = [
        entry.pk for entry in entries if entry.tournament.standings_public or user.is_superuser
    ]
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
        row = sums.get(entry.pk, {})
        lines.append(
            TournamentLine(
                tournament=entry.tournament,
                start_number=entry.start_number,
                status=entry.status,
                rounds=row.get("rounds", 0),
                points=row.get("total", 0),
                best_round=row.get("best"),
                solos_played=row.get("solos", 0),
                solos_won=row.get("won", 0),
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


logger = logging.getLogger(__name__)


def tiebreaks_of(tournament: Tournament) -> tuple[standings.Tiebreak, ...]:
    return tuple(standings.Tiebreak(step) for step in tournament.tiebreaks.split(","))


def standings_entrants(*, tournament: Tournament) -> list[standings.Entrant]:
    return [
        standings.Entrant(
            entry_id=pk,
            start_number=number,
            name=f"{first} {last}",
            club=club,
            status=standings.Status(status),
        )
        for pk, number, first, last, club, status in tournament.entries.order_by(
            "start_number"
        ).values_list(
            "pk",
            "start_number",
            "player__first_name",
            "player__last_name",
            "player__club",
            "status",
        )
    ]


def standings_results(*, tournament: Tournament) -> list[standings.RoundResult]:
    """Every handed-in result of the tournament, in one query."""
    # The columns in the order of RoundResult's fields, so that each row is its arguments.
    columns = {"round": "round__number", "table": "table__number"}
    rows = SeatResult.objects.filter(round__tournament=tournament).values_list(
        *(columns.get(field, field) for field in standings.RESULT_FIELDS)
    )
    return list(itertools.starmap(standings.RoundResult, rows))


def _standings_key(tournament_id: int, version: int) -> str:
    return f"standings:{tournament_id}:{version}"


def cache_get(key: str):
    """The cached value, or None also when the cache cannot be reached: readers then fall back
    to the database instead of failing."""
    try:
        return cache.get(key)
    except Exception:  # any outage of the cache server
        logger.warning("Cache unreachable reading %s; using the database.", key, exc_info=True)
        return None


def cache_put(key: str, value, timeout: int | None = None) -> None:
    try:
        cache.set(key, value, timeout if timeout is not None else settings.STANDINGS_CACHE_SECONDS)
    except Exception:  # the next reader falls back to the database
        logger.warning("Cache unreachable writing %s.", key, exc_info=True)


# Values whose key names their version (the standings, and the pages and API answers rendered
# from them) never go stale: a change makes a new version and so a new key. With a shared cache
# (Redis), each process keeps them in its own memory too (CACHES["local"]), so that a phone's
# request costs at most one round trip to Redis, for the tournament's head, and not another
# for a 64 KB page.


def _local_cache():
    return caches["local"] if "local" in settings.CACHES else None


def versioned_get(key: str):
    """A value cached under a versioned key: from this process's memory, else from the shared
    cache (and then kept in memory); None if neither has it or the cache is down."""
    local = _local_cache()
    if local is not None and (found := local.get(key)) is not None:
        return found
    found = cache_get(key)
    if found is not None and local is not None:
        local.set(key, found, settings.STANDINGS_CACHE_SECONDS)
    return found


def versioned_put(key: str, value) -> None:
    """Cache a value under a versioned key, in this process's memory and the shared cache."""
    local = _local_cache()
    if local is not None:
        local.set(key, value, settings.STANDINGS_CACHE_SECONDS)
    cache_put(key, value)


# The standings themselves are cached packed (Standings.pack, 240 KB for 2,000 players) and
# decoded in each process once per version: the last few tournaments' are kept decoded here.
_DECODED_TOURNAMENTS = 4
_decoded: OrderedDict[int, tuple[int, standings.Standings]] = OrderedDict()
_decoded_lock = threading.Lock()


def _decoded_get(tournament_id: int, version: int) -> standings.Standings | None:
    with _decoded_lock:
        found = _decoded.get(tournament_id)
        if found is None or found[0] != version:
            return None
        _decoded.move_to_end(tournament_id)
        return found[1]


def _decoded_put(tournament_id: int, version: int, value: standings.Standings) -> None:
    with _decoded_lock:
        if tournament_id in _decoded and _decoded[tournament_id][0] > version:
            return  # a newer version is here already
        _decoded[tournament_id] = (version, value)
        _decoded.move_to_end(tournament_id)
        while len(_decoded) > _DECODED_TOURNAMENTS:
            _decoded.popitem(last=False)


def memory_clear() -> None:
    """Forget what this process keeps in memory (the tests, between tests)."""
    with _decoded_lock:
        _decoded.clear()
    if (local := _local_cache()) is not None:
        local.clear()


def standings_cache_put(
    *, tournament_id: int, version: int, packed: bytes, value: standings.Standings
) -> None:
    """The rebuilt standings: packed for the shared cache, decoded for this process."""
    cache_put(_standings_key(tournament_id, version), packed)
    _decoded_put(tournament_id, version, value)


def standings_read(*, tournament: Tournament) -> standings.Standings | None:
    """The standings as last rebuilt: from this process's memory, the cache, else the
    database (one query). Never computed here; None before the first rebuild."""
    if not tournament.standings_version:
        return None
    version = tournament.standings_version
    if (found := _decoded_get(tournament.pk, version)) is not None:
        return found
    packed = cache_get(_standings_key(tournament.pk, version))
    if packed is None:
        row = StandingsSnapshot.objects.filter(tournament=tournament).values_list(
            "packed", "version"
        )
        row = row.first()
        if row is None:
            return None
        packed, version = bytes(row[0]), row[1]
        cache_put(_standings_key(tournament.pk, version), packed)
    value = standings.Standings.unpack(packed)
    _decoded_put(tournament.pk, version, value)
    return value


def ranking_rounds(*, since: datetime.date, until: datetime.date) -> list[standings.PlayedRound]:
    """The confirmed rounds of the finished tournaments that count for ranking lists and
    ended after ``since`` and by ``until``, in one query."""
    return [
        standings.PlayedRound(player_id=player_id, played_on=ends_on, points=points)
        for player_id, ends_on, points in SeatResult.objects.filter(
            confirmed=True,
            round__tournament__status=Tournament.Status.FINISHED,
            round__tournament__counts_for_ranking=True,
            round__tournament__ends_on__gt=since,
            round__tournament__ends_on__lte=until,
        ).values_list("entry__player_id", "round__tournament__ends_on", "points")
    ]


# The results of a round, table by table -----------------------------------------------------


@dataclass(frozen=True)
class ResultSeat:
    """One seat's result in a round: as counted once the table's sheet is handed in, else as
    the sheet stands so far."""

    position: int
    start_number: int
    name: str  # "First Last"
    club: str
    points: int | None  # game points + penalty points - deducted; None before the first hand
    penalty: int  # initialled penalty points (TSR 8.2.2), in ``points`` already
    deducted: int  # deducted for unsporting conduct (TSR 9.6.2 b), off ``points`` already
    placing: int | None  # 1st to 4th (5th) at the table; None until the sheet is handed in


@dataclass(frozen=True)
class ResultTable:
    number: int
    sheet_status: str | None  # a ``Scoresheet.Status``; None: the table has no sheet
    hand_count: int
    seats: list[ResultSeat]  # in seat order

    @property
    def confirmed(self) -> bool:
        return self.sheet_status == Scoresheet.Status.CONFIRMED

    @property
    def provisional(self) -> bool:
        """Handed in, not yet confirmed: shown, not counted (TSR 8.5.2)."""
        return self.sheet_status == Scoresheet.Status.SUBMITTED


def round_results(*, round: Round) -> list[ResultTable]:
    """Every table of a round in table order with its players in seat order and their points,
    penalty points, deductions and placing: three queries, whatever the number of tables.

    A handed-in sheet's seats are read from their stored results (what the standings count);
    a sheet still being written shows its points so far and no placing yet.
    """
    stored = {
        (result.table_id, result.position): result
        for result in SeatResult.objects.filter(round=round).only(
            "table_id", "position", "points", "penalty", "deducted", "placing"
        )
    }
    tables = []
    for row in round_tables(round=round):
        table = row.table
        # The seats prefetched by ``round_tables``, with their deductions: no further query.
        deducted = {seat.position: seat.deducted for seat in table.seats.all()}
        seats = []
        for seat in row.seats:
            result = stored.get((table.pk, seat.position))
            player = seat.entry.player
            common = {
                "position": seat.position,
                "start_number": seat.entry.start_number,
                "name": player.name,
                "club": player.club,
            }
            if result is not None:
                seats.append(
                    ResultSeat(
                        **common,
                        points=result.points,
                        penalty=result.penalty,
                        deducted=result.deducted,
                        placing=result.placing,
                    )
                )
            else:
                seats.append(
                    ResultSeat(
                        **common,
                        points=seat.points,
                        penalty=getattr(table, f"penalty_{seat.position}"),
                        deducted=deducted[seat.position],
                        placing=None,
                    )
                )
        tables.append(
            ResultTable(
                number=table.number,
                sheet_status=row.sheet.status if row.sheet is not None else None,
                hand_count=row.hand_count,
                seats=seats,
            )
        )
    return tables
