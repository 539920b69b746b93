"""The standings of a tournament and the ranking list across tournaments: plain Python.

Results in (one per player and round, as the scoresheets and the adjudication have them),
ranked rows out. No Django here: ``tournaments/services/standings.py`` feeds it from the database
and stores what it returns.

- Only confirmed scoresheets count (TSR 8.5.2). A submitted sheet not yet confirmed is shown
  beside the total as provisional, never added to it.
- A player's points in a round are the game points of the hands, the initialled penalty points
  (TSR 8.2.2) and less the points deducted for unsporting conduct (TSR 9.6.2 b).
- Ties on points are broken by the tournament's chain of tie-breaks, in order.
- Disqualified players (TSR 9.6.2 c) are listed with their results but not ranked.
- Players who have played no round yet (no result in a confirmed sheet: a substitute, a late
  entry) are not ranked either: their 0 points would put them above everyone with fewer. They
  follow the ranked players, by start number, until their first round is confirmed.
"""

from __future__ import annotations

import dataclasses
import datetime
import json
import operator
import zlib
from collections.abc import Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, NamedTuple


class Tiebreak(StrEnum):
    PLACINGS = "placings"  # the sum of the table placings, lower is better
    BEST_ROUND = "best_round"  # the best single round, higher is better
    START_NUMBER = "start_number"  # the start number, lower is better


class Status(StrEnum):
    ACTIVE = "active"
    WITHDRAWN = "withdrawn"
    DISQUALIFIED = "disqualified"


@dataclass(frozen=True)
class Entrant:
    """A player in the tournament."""

    entry_id: int
    start_number: int
    name: str
    club: str = ""
    status: Status = Status.ACTIVE


class RoundResult(NamedTuple):
    """A player's result in one round: their seat and what their table's sheet gives them.

    A named tuple, unlike the other records here: a rebuild of 2,000 players over ten rounds
    makes 20,000 of them, which a tuple builds several times faster than a frozen dataclass,
    and ``pack`` writes it to JSON as the list it is, field by field."""

    entry_id: int
    round: int
    table: int
    position: int
    points: int  # game points + penalty points - deducted
    penalty: int = 0  # initialled penalty points, in ``points`` already
    deducted: int = 0  # points deducted for unsporting conduct, taken off ``points`` already
    placing: int = 1  # 1st to 4th (5th) at the table, by points; ties share the better place
    confirmed: bool = True  # False: submitted, not yet confirmed (provisional)
    solos_played: int = 0
    solos_won: int = 0


@dataclass(frozen=True)
class Row:
    rank: int | None  # None: not ranked (disqualified, or not played yet)
    entrant: Entrant
    points: int  # over the confirmed rounds
    provisional: int | None  # the points of the rounds submitted but not yet confirmed
    placings: int  # the sum of the table placings of the confirmed rounds
    best_round: int | None  # the most points in one confirmed round
    rounds_played: int  # confirmed rounds
    solos_played: int
    solos_won: int
    results: tuple[RoundResult | None, ...]  # one per round of ``Standings.rounds``

    @property
    def counted(self) -> _RowFields:
        """What the results give the row, in the order of its fields after the entrant."""
        return (
            self.points,
            self.provisional,
            self.placings,
            self.best_round,
            self.rounds_played,
            self.solos_played,
            self.solos_won,
            self.results,
        )

    @property
    def average(self) -> float | None:
        """Points per confirmed round."""
        return self.points / self.rounds_played if self.rounds_played else None

    @property
    def played(self) -> bool:
        """Whether the player has a result in a confirmed sheet: until then he is not ranked."""
        return self.rounds_played > 0

    @property
    def not_played(self) -> bool:
        """Unranked for want of a confirmed round (a disqualified player is unranked anyway,
        and listed apart as such)."""
        return not self.played and self.entrant.status != Status.DISQUALIFIED


@dataclass(frozen=True)
class Standings:
    rounds: tuple[int, ...]  # the numbers of the rounds with any result, in order
    tiebreaks: tuple[Tiebreak, ...]
    rows: tuple[Row, ...]
    provisional_rounds: tuple[int, ...] = ()  # rounds with sheets submitted, not yet confirmed
    built_at: datetime.datetime | None = None  # when they were computed

    def to_dict(self, *, rows: bool = True) -> dict[str, Any]:
        """Plain JSON data, for storing; ``from_dict`` reads it back. Results are written as
        lists in the order of ``RESULT_FIELDS`` (each ``RoundResult`` is one): the standings
        of 2,000 players over ten rounds stay small and quick to write. ``rows=False``: all
        but the rows (``pack`` writes them one by one)."""
        data: dict[str, Any] = {
            "rounds": list(self.rounds),
            "tiebreaks": [t.value for t in self.tiebreaks],
            "provisional_rounds": list(self.provisional_rounds),
            "built_at": self.built_at.isoformat() if self.built_at else None,
        }
        if rows:
            data["rows"] = [_row_data(row) for row in self.rows]
        return data

    def pack(self, written: dict[int, tuple[Row, str]] | None = None) -> bytes:
        """``to_dict`` as compact JSON, compressed: what is stored and cached. For 2,000
        players over ten rounds about 240 KB (a database's JSON column would parse the 830 KB
        of JSON on every rebuild).

        Writing the JSON of 20,000 results is most of the time (60 ms of a rebuild on the
        shared bench machine), and after a confirm all but a few rows are what they were.
        ``written`` keeps each row's JSON but its rank, by entry, from one call to the next
        (``updated`` keeps a row as it was where its player's results did not change): a row
        found there is not written again. The bytes are the same either way."""
        head = json.dumps(self.to_dict(rows=False), separators=(",", ":"), ensure_ascii=False)
        if written is None:
            written = {}
        rows = []
        for row in self.rows:
            found = written.get(row.entrant.entry_id)
            if found is None or not _same_but_rank(found[0], row):
                found = (row, _encode(_row_data(row)[1:]))
                written[row.entrant.entry_id] = found
            rows.append(f"[{_encode(row.rank)},{found[1][1:]}")
        if len(written) > len(rows):  # players no longer entered
            for entry_id in written.keys() - {row.entrant.entry_id for row in self.rows}:
                del written[entry_id]
        text = f'{head[:-1]},"rows":[{",".join(rows)}]}}'
        return zlib.compress(text.encode(), 1)

    @classmethod
    def unpack(cls, packed: bytes) -> Standings:
        """The standings ``pack`` wrote."""
        return cls.from_dict(json.loads(zlib.decompress(packed)))

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Standings:
        rows = []
        for rank, entrant, points, provisional, placings, best, played, solos, won, results in data[
            "rows"
        ]:
            entry_id, start_number, name, club, status = entrant
            rows.append(
                Row(
                    rank=rank,
                    entrant=Entrant(entry_id, start_number, name, club, Status(status)),
                    points=points,
                    provisional=provisional,
                    placings=placings,
                    best_round=best,
                    rounds_played=played,
                    solos_played=solos,
                    solos_won=won,
                    results=tuple(None if r is None else _result(r) for r in results),
                )
            )
        return cls(
            rounds=tuple(data["rounds"]),
            tiebreaks=tuple(Tiebreak(t) for t in data["tiebreaks"]),
            rows=tuple(rows),
            provisional_rounds=tuple(data["provisional_rounds"]),
            built_at=datetime.datetime.fromisoformat(data["built_at"])
            if data["built_at"]
            else None,
        )


RESULT_FIELDS = list(RoundResult._fields)
_result = RoundResult._make
# Each row's JSON on its own: no check for circles (the rows are trees of tuples).
_encode = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False, check_circular=False).encode


def _row_data(row: Row) -> list[Any]:
    """A row as ``to_dict`` writes it: a list in the order of ``Row``'s fields."""
    entrant = row.entrant
    return [
        row.rank,
        [entrant.entry_id, entrant.start_number, entrant.name, entrant.club, entrant.status.value],
        *row.counted,
    ]


def _same_but_rank(one: Row, other: Row) -> bool:
    """Whether two rows are written alike but for their ranks: their results the very same
    tuple (``updated`` keeps it as it was), so the 20,000 results are not compared."""
    return one is other or (
        one.results is other.results
        and (one.entrant is other.entrant or one.entrant == other.entrant)
        and one.points == other.points
        and one.provisional == other.provisional
        and one.placings == other.placings
        and one.best_round == other.best_round
        and one.rounds_played == other.rounds_played
        and one.solos_played == other.solos_played
        and one.solos_won == other.solos_won
    )


DEFAULT_TIEBREAKS = (Tiebreak.PLACINGS, Tiebreak.BEST_ROUND, Tiebreak.START_NUMBER)


def table_placings(points: dict[int, int]) -> dict[int, int]:
    """The placing of each seat at its table by points: 1 for the most; players with equal
    points share the better place (1, 2, 2, 4)."""
    return {
        seat: 1 + sum(1 for other in points.values() if other > mine)
        for seat, mine in points.items()
    }


def springer_result(first: RoundResult, second: RoundResult) -> RoundResult:
    """A Springer's one result of a round from his two tables (TSR 10: „Statt des Spieles an
    einem Siebener-Tisch kann ein Spieler („Springer") auch an zwei Tischen gleichzeitig
    spielen"). The TSR sets no count; our reading (the manual's rules page): the mean of the
    two, a half against him (points rounded down, the placing up), so that his two rounds
    stand on the scale of the others' one; penalty points and solos as at both tables
    together, the table and seat of the first. Provisional while either is. A deduction for
    unsporting conduct (TSR 9.6.2 b) is the round's, not a table's: it stands in both results
    and so, in full, in their mean; it is shown once."""
    if (first.entry_id, first.round) != (second.entry_id, second.round):
        raise ValueError("a Springer's two results are one player's in one round")
    return first._replace(
        points=(first.points + second.points) // 2,
        penalty=first.penalty + second.penalty,
        deducted=max(first.deducted, second.deducted),
        placing=-(-(first.placing + second.placing) // 2),
        confirmed=first.confirmed and second.confirmed,
        solos_played=first.solos_played + second.solos_played,
        solos_won=first.solos_won + second.solos_won,
    )


def springers_merged(
    results: Iterable[RoundResult], seconds: Iterable[RoundResult]
) -> list[RoundResult]:
    """``results`` with each Springer's result of his second seat (``seconds``) merged into
    his result of the round (``springer_result``); a second result without a first stands
    alone until the first table's sheet is handed in."""
    merged = list(results)
    index = {(r.entry_id, r.round): i for i, r in enumerate(merged)}
    for second in seconds:
        if (i := index.get((second.entry_id, second.round))) is None:
            merged.append(second)
        else:
            merged[i] = springer_result(merged[i], second)
    return merged


def _sort_key(
    tiebreaks: Sequence[Tiebreak], *, points: int, placings: int, best: int | None, start: int
) -> tuple[int, ...]:
    key: list[int] = [-points]
    for tiebreak in tiebreaks:
        if tiebreak is Tiebreak.PLACINGS:
            key.append(placings)
        elif tiebreak is Tiebreak.BEST_ROUND:
            key.append(-best if best is not None else 0)
        else:
            key.append(start)
    return tuple(key)


# A row's fields after its rank and entrant, in order: points, provisional, placings,
# best_round, rounds_played, solos_played, solos_won, results.
_RowFields = tuple[int, int | None, int, int | None, int, int, int, tuple[RoundResult | None, ...]]


def standings(
    *,
    entrants: Iterable[Entrant],
    results: Iterable[RoundResult],
    tiebreaks: Sequence[Tiebreak] = DEFAULT_TIEBREAKS,
    built_at: datetime.datetime | None = None,
) -> Standings:
    """Rank the players: by points over the confirmed rounds, then by ``tiebreaks`` in order.

    Players equal on every key share a rank (1, 2, 2, 4); with the start number in the chain
    no two are equal. Players without a confirmed round follow, unranked, by start number;
    disqualified players come last, unranked, by start number. A player withdrawn without a
    result in any round (a no-show) is left out.
    """
    # One pass over the results and one over each player's: a confirm rebuilds the standings
    # of 2,000 players × 10 rounds (tests/doko/test_standings.py checks this against the
    # plain reading of the rules).
    by_entry: dict[int, list[RoundResult]] = {}
    played: set[int] = set()
    pending_rounds: set[int] = set()
    for result in results:
        by_entry.setdefault(result.entry_id, []).append(result)
        played.add(result.round)
        if not result.confirmed:
            pending_rounds.add(result.round)
    rounds = tuple(sorted(played))
    column = {number: index for index, number in enumerate(rounds)}
    return _ranked(
        (
            (entrant, _row_fields(by_entry.get(entrant.entry_id, ()), column), None)
            for entrant in entrants
        ),
        rounds=rounds,
        provisional_rounds=tuple(sorted(pending_rounds)),
        tiebreaks=tiebreaks,
        built_at=built_at,
    )


def updated(
    previous: Standings,
    *,
    entrants: Iterable[Entrant],
    changed: Collection[int],
    results: Iterable[RoundResult],
    tiebreaks: Sequence[Tiebreak] = DEFAULT_TIEBREAKS,
    built_at: datetime.datetime | None = None,
) -> Standings:
    """The standings after a change to some players' results: what ``standings`` gives for
    ``entrants`` and the results of ``previous`` but that the players ``changed`` (entry ids)
    now have ``results`` (all of theirs, in every round; of no one else).

    After a confirm, four or five players' results changed: their rows are computed again,
    everyone else's kept as they were (the very same results, which ``Standings.pack`` then
    need not write again), and all are ranked anew. Where a round's column comes or goes,
    the standings are computed from all the results, the previous ones and these."""
    changed = set(changed)
    entrants = list(entrants)
    results = list(results)
    kept: dict[int, Row] = {}
    for row in previous.rows:
        if row.entrant.entry_id not in changed:
            kept[row.entrant.entry_id] = row
    entered = {entrant.entry_id for entrant in entrants}
    rows = [row for entry_id, row in kept.items() if entry_id in entered]
    # The rounds with a result: those of the new results, and each previous column that some
    # kept row still has a result in (a player entered anew has none: he would be changed).
    present = {result.round for result in results}
    present.update(
        number
        for index, number in enumerate(previous.rounds)
        if any(row.results[index] is not None for row in rows)
    )
    if present != set(previous.rounds):
        return standings(
            entrants=entrants,
            results=[
                *(cell for row in rows for cell in row.results if cell is not None),
                *results,
            ],
            tiebreaks=tiebreaks,
            built_at=built_at,
        )
    column = {number: index for index, number in enumerate(previous.rounds)}
    by_entry: dict[int, list[RoundResult]] = {}
    pending_rounds: set[int] = set()
    for result in results:
        by_entry.setdefault(result.entry_id, []).append(result)
        if not result.confirmed:
            pending_rounds.add(result.round)
    for row in rows:
        if row.provisional is not None:  # a result not yet confirmed
            pending_rounds.update(
                cell.round for cell in row.results if cell is not None and not cell.confirmed
            )

    def lines() -> Iterator[tuple[Entrant, _RowFields, Row | None]]:
        for entrant in entrants:
            row = kept.get(entrant.entry_id)
            if row is None:
                yield entrant, _row_fields(by_entry.get(entrant.entry_id, ()), column), None
                continue
            if row.entrant == entrant:
                entrant = row.entrant
            yield entrant, row.counted, row

    return _ranked(
        lines(),
        rounds=previous.rounds,
        provisional_rounds=tuple(sorted(pending_rounds)),
        tiebreaks=tiebreaks,
        built_at=built_at,
    )


def _ranked(
    lines: Iterable[tuple[Entrant, _RowFields, Row | None]],
    *,
    rounds: tuple[int, ...],
    provisional_rounds: tuple[int, ...],
    tiebreaks: Sequence[Tiebreak],
    built_at: datetime.datetime | None,
) -> Standings:
    """The standings of these players, each with his row's fields but the rank, in the
    entrants' order; a previous row with the same entrant, fields and rank is kept as it is."""
    tiebreaks = tuple(tiebreaks)
    # The ranked players by sort key, with their rows' fields but the rank (known once sorted).
    ranked: list[tuple[tuple[int, ...], Entrant, _RowFields, Row | None]] = []
    not_played: list[Row] = []
    unranked: list[Row] = []
    for entrant, fields, previous in lines:
        points, provisional, placings, best, rounds_played, *_, cells = fields
        if (
            entrant.status == Status.WITHDRAWN
            and provisional is None
            and all(cell is None for cell in cells)
        ):
            # Withdrawn before playing a round (a no-show): he never was in the tournament's
            # play, so the standings do not list him; the players' list keeps him.
            continue
        if entrant.status == Status.DISQUALIFIED:
            unranked.append(_row(None, entrant, fields, previous))
        elif not rounds_played:
            not_played.append(_row(None, entrant, fields, previous))
        else:
            key = _sort_key(
                tiebreaks,
                points=points,
                placings=placings,
                best=best,
                start=entrant.start_number,
            )
            ranked.append((key, entrant, fields, previous))
    not_played.sort(key=lambda row: row.entrant.start_number)
    unranked.sort(key=lambda row: row.entrant.start_number)
    return Standings(
        rounds=rounds,
        tiebreaks=tiebreaks,
        rows=(*_ranked_rows(ranked), *not_played, *unranked),
        provisional_rounds=provisional_rounds,
        built_at=built_at,
    )


def _row(rank: int | None, entrant: Entrant, fields: _RowFields, previous: Row | None) -> Row:
    """The row; ``previous`` itself where it has the same rank, entrant and fields (as
    ``updated`` passes them: the same objects)."""
    if previous is not None and previous.rank == rank and previous.entrant is entrant:
        return previous
    return Row(rank, entrant, *fields)


def _row_fields(results: Iterable[RoundResult], column: Mapping[int, int]) -> _RowFields:
    """One player's row but the rank: totals over his confirmed rounds, the points of his
    provisional ones, and his result in each round's column."""
    cells: list[RoundResult | None] = [None] * len(column)
    points = placings = rounds_played = solos_played = solos_won = 0
    best: int | None = None
    provisional: int | None = None
    for result in results:
        cells[column[result.round]] = result
        if result.confirmed:
            points += result.points
            placings += result.placing
            rounds_played += 1
            solos_played += result.solos_played
            solos_won += result.solos_won
            if best is None or result.points > best:
                best = result.points
        else:
            provisional = result.points + (provisional or 0)
    return (
        points,
        provisional,
        placings,
        best,
        rounds_played,
        solos_played,
        solos_won,
        tuple(cells),
    )


def _ranked_rows(
    ranked: list[tuple[tuple[int, ...], Entrant, _RowFields, Row | None]],
) -> list[Row]:
    """The ranked players' rows in order of their sort keys; equal keys share a rank."""
    ranked.sort(key=operator.itemgetter(0))  # stable: equal keys keep the entrants' order
    rows = []
    previous_key = None
    rank = 0
    for index, (key, entrant, fields, previous) in enumerate(ranked, start=1):
        if key != previous_key:
            rank, previous_key = index, key
        rows.append(_row(rank, entrant, fields, previous))
    return rows


@dataclass(frozen=True)
class Holder:
    """Who holds a mark: the player, and for a round's points the round."""

    entrant: Entrant
    round: int | None = None


@dataclass(frozen=True)
class Highlight:
    """A best mark (points in one round, or solos won) and everyone who holds it: ties are
    common (fourteen players with one solo won), and naming one of them would be arbitrary."""

    value: int
    holders: tuple[Holder, ...]  # by start number, then round

    @property
    def players(self) -> int:
        """How many players hold it (one may hold a round's mark in two rounds)."""
        return len({holder.entrant.entry_id for holder in self.holders})


@dataclass(frozen=True)
class Statistics:
    """A tournament's figures over the confirmed rounds."""

    results: int  # player-rounds confirmed
    solos_played: int
    solos_won: int
    highest_round: Highlight | None
    lowest_round: Highlight | None
    most_solos_won: Highlight | None


def _highlight(value: int, holders: Iterable[Holder]) -> Highlight:
    return Highlight(
        value,
        tuple(sorted(holders, key=lambda h: (h.entrant.start_number, h.round or 0))),
    )


def statistics(table: Standings) -> Statistics:
    """Solos played and won, and the highest and lowest single round, over the confirmed
    rounds of every player (disqualified ones too: their rounds were played); each mark with
    every player who holds it."""
    confirmed = [
        (row.entrant, result)
        for row in table.rows
        for result in row.results
        if result is not None and result.confirmed
    ]
    highest_round = lowest_round = most_solos_won = None
    if confirmed:
        high = max(result.points for _entrant, result in confirmed)
        low = min(result.points for _entrant, result in confirmed)
        highest_round = _highlight(
            high, (Holder(e, r.round) for e, r in confirmed if r.points == high)
        )
        lowest_round = _highlight(
            low, (Holder(e, r.round) for e, r in confirmed if r.points == low)
        )
    most = max((row.solos_won for row in table.rows), default=0)
    if most:
        most_solos_won = _highlight(
            most, (Holder(row.entrant) for row in table.rows if row.solos_won == most)
        )
    return Statistics(
        results=len(confirmed),
        solos_played=sum(row.solos_played for row in table.rows),
        solos_won=sum(row.solos_won for row in table.rows),
        highest_round=highest_round,
        lowest_round=lowest_round,
        most_solos_won=most_solos_won,
    )


# The ranking list across tournaments ------------------------------------------------------


@dataclass(frozen=True)
class PlayedRound:
    """One confirmed round a player played, for the ranking list."""

    player_id: int
    played_on: datetime.date
    points: int


@dataclass(frozen=True)
class RankingRow:
    rank: int | None  # None: fewer rounds than the minimum
    player_id: int
    rounds: int
    points: int

    @property
    def average(self) -> float:
        return self.points / self.rounds


def ranking(
    *,
    played: Iterable[PlayedRound],
    today: datetime.date,
    months: int = 24,
    min_rounds: int = 36,
) -> list[RankingRow]:
    """The ranking list: each player's average points per round over the rounds played in
    the last ``months`` months (up to ``today``). Players with at least ``min_rounds`` rounds
    are ranked by their average, best first; equal averages share a rank. The others follow,
    unranked, by their number of rounds and their average."""
    since = months_before(today, months)
    rounds: dict[int, int] = {}
    points: dict[int, int] = {}
    for item in played:
        if since < item.played_on <= today:
            rounds[item.player_id] = rounds.get(item.player_id, 0) + 1
            points[item.player_id] = points.get(item.player_id, 0) + item.points
    rows = [
        RankingRow(rank=None, player_id=player, rounds=count, points=points[player])
        for player, count in rounds.items()
    ]
    # Compare averages exactly, as fractions, so that equal averages really tie.
    qualified = sorted(
        (row for row in rows if row.rounds >= min_rounds),
        key=lambda row: (-row.points / row.rounds, row.player_id),
    )
    out: list[RankingRow] = []
    for index, row in enumerate(qualified, start=1):
        previous = out[-1] if out else None
        tied = previous is not None and previous.points * row.rounds == row.points * previous.rounds
        rank = previous.rank if previous is not None and tied else index
        out.append(dataclasses.replace(row, rank=rank))
    out.extend(
        sorted(
            (row for row in rows if row.rounds < min_rounds),
            key=lambda row: (-row.rounds, -row.points / row.rounds, row.player_id),
        )
    )
    return out


def months_before(day: datetime.date, months: int) -> datetime.date:
    """The same day ``months`` months earlier (the month's last day where it is shorter)."""
    total = day.year * 12 + day.month - 1 - months
    year, month = divmod(total, 12)
    month += 1
    for last in (31, 30, 29, 28):
        try:
            return datetime.date(year, month, min(day.day, last))
        except ValueError:
            continue
    raise AssertionError("unreachable")
