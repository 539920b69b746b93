"""Finding a player's table and seat by start number or name."""

import unicodedata
from dataclasses import dataclass

from django.db.models import Count, Q

from doko.rules.deal import sheet_keeper
from tournaments import play
from tournaments.models import (
    Entry,
    Round,
    Seat,
    Table,
    Tournament,
)


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
    matching = tournament.entries.select_related("player")
    if query.isascii() and query.isdigit():
        # A start number ("²" is a digit to Python, but no number anyone types); one longer
        # than any start number can be finds nobody, and never reaches the database as such.
        if len(query) > 9:
            return []
        matching = matching.filter(start_number=int(query))
    else:
        for word in query.replace(",", " ").split():
            matching = matching.filter(
                Q(player__first_name__icontains=word) | Q(player__last_name__icontains=word)
            )
    entries = list(matching.order_by("player__last_name", "player__first_name")[:FIND_LIMIT])
    theirs = Seat.objects.filter(entry__in=entries).select_related("round", "table")
    if not staff:
        theirs = theirs.exclude(round__published_at=None)
    seats = list(theirs.order_by("round__number"))
    tables = {
        pk: (size, keeper_seat)
        for pk, size, keeper_seat in Table.objects.filter(pk__in={seat.table_id for seat in seats})
        .annotate(size=Count("seats"), keeper_seat=play.recorded().keeper_seat(table=""))
        .values_list("pk", "size", "keeper_seat")
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


def name_key(name: str) -> str:
    """Sort key for names as German lists sort them: umlauts with their vowel, ß as ss."""
    decomposed = unicodedata.normalize("NFKD", name.casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c))
