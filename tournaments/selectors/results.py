"""Reads of results and standings: a round's results table by table, a player's rounds,
and the standings as last rebuilt (from this process's memory, the cache or the database)."""

from collections.abc import Collection
from dataclasses import dataclass
from typing import TypedDict

from django.db.models import Q, QuerySet

from doko import club_ranking, standings
from tournaments import caching, play
from tournaments.models import (
    Entry,
    Round,
    Seat,
    SeatResult,
    StandingsSnapshot,
    Table,
    Tournament,
)
from tournaments.selectors.rounds import round_tables


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
    springer: bool = False  # at two tables in this round (TSR 10): one line for each


def entry_rounds(*, entry: Entry, staff: bool = False) -> list[PlayerRound]:
    """Every round of a player with their table, seat, the others at the table and their
    result: published rounds only, unless for staff. Three queries."""
    played = (
        entry.seats.select_related("round", "table")
        .annotate(sheet_status=play.recorded().sheet_status(table="table"))
        .order_by("round__number")
    )
    if not staff:
        played = played.exclude(round__published_at=None)
    seats = list(played.order_by("round__number", "second"))
    at_table: dict[int, list[Seat]] = {}
    for other in (
        Seat.objects.filter(table__in=[seat.table_id for seat in seats])
        .select_related("entry")
        .order_by("position")
    ):
        at_table.setdefault(other.table_id, []).append(other)
    # By table: a Springer (TSR 10) has two seats and two results in a round, one at each.
    results = {result.table_id: result for result in entry.results.all()} if seats else {}
    springer = {seat.round_id for seat in seats if seat.second}
    rounds = []
    for seat in seats:
        table = at_table.get(seat.table_id, [])
        rounds.append(
            PlayerRound(
                round=seat.round,
                table=seat.table.number,
                position=seat.position,
                table_size=len(table),
                others=[Opponent(o.position, o.entry) for o in table if o.entry_id != entry.pk],
                sheet_status=seat.sheet_status,
                result=results.get(seat.table_id),
                moved=seat.moved_at is not None,
                springer=seat.round_id in springer,
            )
        )
    return rounds


def standings_row(*, table: standings.Standings | None, entry_id: int) -> standings.Row | None:
    """The player's line of the standings."""
    if table is None:
        return None
    return next((row for row in table.rows if row.entrant.entry_id == entry_id), None)


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
            "first_name",
            "last_name",
            "club",
            "status",
        )
    ]


def ddv_numbers(*, tournament: Tournament) -> dict[int, str]:
    """The DDV numbers of the tournament's players by entry, for the exports a ranking list
    reads (one query; a player without one is left out)."""
    return dict(
        tournament.entries.exclude(player__ddv_number="").values_list("pk", "player__ddv_number")
    )


def standings_results(*, tournament: Tournament) -> list[standings.RoundResult]:
    """Every handed-in result of the tournament, in one query, in no particular order (the
    standings do not depend on it; sorting 20,000 rows would double the query's time). With
    a Springer (TSR 10), his two results of a round are one (a second query)."""
    return _results_of(
        SeatResult.objects.filter(round__tournament=tournament), springer=tournament.springer
    )


def _results_of(
    results: QuerySet[SeatResult], *, springer: bool = False
) -> list[standings.RoundResult]:
    # The columns in the order of RoundResult's fields, so that each row is one.
    columns = {"round": "round__number", "table": "table__number"}
    fields = [columns.get(field, field) for field in standings.RESULT_FIELDS]
    if not springer:
        return list(map(standings.RoundResult._make, results.order_by().values_list(*fields)))
    # A Springer's second seats: the settings keep ``springer`` on once one is seated.
    return standings.springers_merged(
        map(
            standings.RoundResult._make,
            results.filter(second=False).order_by().values_list(*fields),
        ),
        map(
            standings.RoundResult._make, results.filter(second=True).order_by().values_list(*fields)
        ),
    )


def _standings_key(tournament_id: int, version: int) -> str:
    return f"standings:{tournament_id}:{version}"


def standings_cache_put(
    *,
    tournament_id: int,
    version: int,
    packed: bytes,
    value: standings.Standings,
    written: caching.Written | None = None,
) -> None:
    """The rebuilt standings: packed for the shared cache, decoded for this process (with
    their rows' JSON, ``written``, for the next rebuild here)."""
    caching.cache_put(_standings_key(tournament_id, version), packed)
    caching.decoded_put(tournament_id, version, value, written)


def standings_previous(
    *, tournament: Tournament
) -> tuple[standings.Standings, caching.Written | None] | None:
    """The standings of the tournament's current version as this process keeps them decoded,
    with their rows' JSON if it packed them: what a rebuild may start from. None if this
    process has not got them (they are not unpacked for it: reading the results is as quick)."""
    version = tournament.standings_version
    found = caching.decoded_get(tournament.pk, version) if version else None
    if found is None:
        return None
    return found, caching.decoded_written(tournament.pk, version)


def standings_changed_results(
    *, tournament: Tournament, previous: standings.Standings, table_ids: Collection[int]
) -> tuple[set[int], list[standings.RoundResult]] | None:
    """The players whose results may have changed since ``previous`` when only these
    tables' results did (those seated there in ``previous``, and those with a result there
    now), and every result of theirs (two queries). None if a table is no longer the
    tournament's: then anything may have changed."""
    tables = set(
        Table.objects.filter(pk__in=table_ids, round__tournament=tournament)
        .order_by()
        .values_list("round__number", "number")
    )
    if len(tables) != len(set(table_ids)) or tournament.springer:
        # A Springer's merged result names one of his two tables: read everything.
        return None
    changed: set[int] = set()
    column = {number: index for index, number in enumerate(previous.rounds)}
    for round_number, table_number in tables:
        if (index := column.get(round_number)) is None:
            continue
        for row in previous.rows:
            cell = row.results[index]
            if cell is not None and cell.table == table_number:
                changed.add(row.entrant.entry_id)
    seated_now = SeatResult.objects.filter(table_id__in=table_ids).values("entry_id")
    results = _results_of(
        SeatResult.objects.filter(round__tournament=tournament).filter(
            Q(entry_id__in=changed) | Q(entry_id__in=seated_now)
        )
    )
    changed.update(r.entry_id for r in results if (r.round, r.table) in tables)
    return changed, results


def standings_results_count(*, tournament: Tournament) -> int:
    """How many cells the standings have: results, a Springer's two of a round as one."""
    results = SeatResult.objects.filter(round__tournament=tournament).order_by()
    if tournament.springer:
        results = results.filter(second=False)
    return results.count()


def standings_read(*, tournament: Tournament) -> standings.Standings | None:
    """The standings as last rebuilt: from this process's memory, the cache, else the
    database (one query). Never computed here; None before the first rebuild."""
    if not tournament.standings_version:
        return None
    version = tournament.standings_version
    if (found := caching.decoded_get(tournament.pk, version)) is not None:
        return found
    packed = caching.cache_get(_standings_key(tournament.pk, version))
    if packed is None:
        row = (
            StandingsSnapshot.objects.filter(tournament=tournament)
            .values_list("packed", "version")
            .first()
        )
        if row is None:
            return None
        packed, version = bytes(row[0]), row[1]
        caching.cache_put(_standings_key(tournament.pk, version), packed)
    value = standings.Standings.unpack(packed)
    caching.decoded_put(tournament.pk, version, value)
    return value


@dataclass(frozen=True)
class ClubLine:
    """A club's line of the club ranking, with the names of the players counted."""

    rank: int | None  # None: fewer players than counted, not ranked
    club: str
    points: int
    players: tuple[tuple[str, int], ...]  # the counted players' names and points, best first
    members: int  # the club's players in the standings

    @property
    def complete(self) -> bool:
        return self.rank is not None


def club_ranking_of(
    *, tournament: Tournament, table: standings.Standings | None
) -> list[ClubLine] | None:
    """The club ranking beside the standings ``table`` (``doko.club_ranking``): each club's best
    ``club_ranking_players`` players summed; None while the tournament has none. Counted are
    the ranked players (those with a confirmed round; not the disqualified), as the standings
    rank them."""
    players = tournament.club_ranking_players
    if not players:
        return None
    rows = [row for row in (table.rows if table else ()) if row.rank is not None]
    by_entry = {row.entrant.entry_id: row for row in rows}
    return [
        ClubLine(
            rank=line.rank,
            club=line.club,
            points=line.points,
            players=tuple(
                (by_entry[entry].entrant.name, by_entry[entry].points) for entry in line.counted
            ),
            members=line.members,
        )
        for line in club_ranking.club_ranking(
            (
                club_ranking.ClubPlayer(row.entrant.entry_id, row.entrant.club, row.points)
                for row in rows
            ),
            players=players,
        )
    ]


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


class _SeatPlayer(TypedDict):
    """The fields of a ``ResultSeat`` that do not depend on whether the sheet is handed in."""

    position: int
    start_number: int
    name: str
    club: str


@dataclass(frozen=True)
class ResultTable:
    number: int
    sheet_status: str | None  # a ``play.SheetStatus``; None: the table has no sheet
    hand_count: int
    seats: list[ResultSeat]  # in seat order

    @property
    def confirmed(self) -> bool:
        return self.sheet_status == play.SheetStatus.CONFIRMED

    @property
    def provisional(self) -> bool:
        """Handed in, not yet confirmed: shown, not counted (TSR 8.5.2)."""
        return self.sheet_status == play.SheetStatus.SUBMITTED


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
        deducted = {seat.position: play.deducted_of(seat) for seat in table.seats.all()}
        seats = []
        for seat in row.seats:
            result = stored.get((table.pk, seat.position))
            common: _SeatPlayer = {
                "position": seat.position,
                "start_number": seat.entry.start_number,
                "name": seat.entry.name,
                "club": seat.entry.club,
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
                        penalty=play.penalty_of(table, seat.position),
                        deducted=deducted[seat.position],
                        placing=None,
                    )
                )
        tables.append(
            ResultTable(
                number=table.number,
                sheet_status=row.sheet_status,
                hand_count=row.hand_count,
                seats=seats,
            )
        )
    return tables
