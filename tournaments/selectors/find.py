"""Finding players by start number or name, and a player's table and seat.

Every name search asks ``name_filter``: it looks in the ``search_key`` of a player, or of an
entry within a tournament (the name the tournament registered, ``doko.names``), so
"öztürk", "OEZTUERK" and "ozturk" find Öztürk, "Muller" and "Mueller" find Müller, and
"strasse" finds Straße, on SQLite as on PostgreSQL.
"""

import unicodedata
from dataclasses import dataclass
from typing import TypeVar

from django.db.models import Count, Q, QuerySet

from doko.names import search_words
from doko.rules.deal import TABLE_SIZES, sheet_keeper
from tournaments import play
from tournaments.models import (
    Entry,
    Player,
    Round,
    Seat,
    Table,
    Tournament,
)

Found = TypeVar("Found", Player, Entry)

# Longer than any start number can be (a PositiveIntegerField has nine digits to spare).
_START_NUMBER_DIGITS = 9
_DDV_NUMBER_DIGITS = 20


def _typed(query: str) -> str:
    # Control characters and lone surrogates are no part of a name, and PostgreSQL refuses a
    # NUL in a query: they separate words like spaces.
    return "".join(" " if unicodedata.category(c) in ("Cc", "Cs") else c for c in query).strip()


def name_filter(queryset: QuerySet[Found], *, query: str) -> QuerySet[Found]:
    """The players (or entries) whose name holds every typed word, in any case, with or
    without accents and umlauts, spelt out or not ("Mueller", "Muller", "MÜLLER" find Müller).

    Both spellings of a word are already lower case, as the stored key is, so ``contains`` (a
    LIKE, case-sensitive on PostgreSQL, ASCII-case-insensitive on SQLite) finds the same rows on
    both. A query without a word finds nobody."""
    words = search_words(_typed(query))
    if not words:
        return queryset.none()
    for spelt, collapsed in words:
        queryset = queryset.filter(
            Q(search_key__contains=spelt) | Q(search_key__contains=collapsed)
        )
    return queryset


def entry_filter(entries: QuerySet[Entry], *, query: str) -> QuerySet[Entry]:
    """The entries with the typed start number, or else whose player's name matches
    (``name_filter``)."""
    query = _typed(query)
    if query.isdigit():
        # Digits are a start number; "²" or "٣" (digits to Python) and one longer than any
        # start number can be are no start number anyone has, and never reach the database.
        if not query.isascii() or len(query) > _START_NUMBER_DIGITS:
            return entries.none()
        return entries.filter(start_number=int(query))
    return name_filter(entries, query=query)


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
    if not _typed(query):
        return []
    matching = entry_filter(tournament.entries.all(), query=query)
    entries = list(matching.order_by("last_name", "first_name")[:FIND_LIMIT])
    if not entries:
        return []
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
                if size in TABLE_SIZES
                else None,
            )
        )
    return [FoundPlayer(entry=entry, seats=found[entry.pk]) for entry in entries]


def persons_find(*, query: str, limit: int = FIND_LIMIT) -> list[Player]:
    """The persons with the typed DDV number, or else whose name matches (``name_filter``):
    how an organiser finds a known person to name for a team. One query."""
    query = _typed(query)
    if not query:
        return []
    found: QuerySet[Player]
    if query.isdigit():
        # A DDV number has at most 20 ASCII digits (``Player.ddv_number``).
        if not query.isascii() or len(query) > _DDV_NUMBER_DIGITS:
            return []
        found = Player.objects.filter(ddv_number=query)
    else:
        found = name_filter(Player.objects.all(), query=query)
    return list(found.order_by("last_name", "first_name", "pk")[:limit])


def name_key(name: str) -> str:
    """Sort key for names as German lists sort them: umlauts with their vowel, ß as ss."""
    decomposed = unicodedata.normalize("NFKD", name.casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c))
