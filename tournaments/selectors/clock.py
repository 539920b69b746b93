"""The round clock: when each table's playing time ends (TSR 8.5.1)."""

import datetime
import hashlib
from dataclasses import dataclass

from django.db.models import Count, Sum
from django.utils import timezone, translation

from doko.rules.deal import LARGE_TABLES, TABLE_OF_FIVE
from doko.rules.playing_time import playing_time_end as core_playing_time_end
from tournaments import caching
from tournaments.models import (
    ExtraTime,
    Round,
    Table,
)


def playing_time_end(
    *, round: Round, five: bool, extra_minutes: int = 0, size: int | None = None
) -> datetime.datetime | None:
    """When a table's playing time ends (TSR 8.5.1, 10.1.5); None before the round starts.

    Until the adjudicator announces the end (``Round.ended_at``), the time the clock counts to:
    the tournament's minutes from the start (100, at a table of five 125). Once he announced it,
    his announcement ends the tables of four; a table of five plays its 125 minutes of net
    playing time from the start, or until the announcement if that is later (TSR 10.1.5). A
    table's extra time (Nachspielzeit) comes on top of either (TSR 8.5.1). The reading is the
    core's (``doko.rules.playing_time``). A table of six or seven (``size``, TSR 10) plays its
    own net time as a table of five does (``Tournament.minutes_at``: 150, 175 minutes).
    """
    tournament = round.tournament
    large = size in LARGE_TABLES
    return core_playing_time_end(
        started_at=round.started_at,
        announced_at=round.ended_at,
        minutes=tournament.minutes_at(size)
        if large and size is not None
        else tournament.match_minutes_five
        if five
        else tournament.match_minutes,
        five=five or large,
        extra_minutes=extra_minutes,
    )


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
        five=size == TABLE_OF_FIVE,
        extra_minutes=extra,
        ends_at=playing_time_end(
            round=round_, five=size == TABLE_OF_FIVE, extra_minutes=extra, size=size
        ),
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


# How long a process keeps a round's table sizes and extra time under the round's version.
CLOCK_TABLES_SECONDS = 300


@dataclass(frozen=True)
class _ClockTables:
    """What the clock shows of a round's tables: the size of each larger table (five and
    more), and each table's extra time as (minutes, reason), at one version of the round."""

    sizes: dict[int, int]
    extra: dict[int, list[tuple[int, str]]]


def _clock_tables(round: Round) -> _ClockTables:
    """The round's larger tables and extra time, in two queries; kept in this process's memory
    under the round's table pages' version (``caching.tables_version``), which the services
    that change them raise (the seating, extra time, a substitution: ``caching.round_changed``),
    so that the clock every phone refreshes reads only the round's row. The version is read
    first: a change committed while the tables are read raises it past what is kept."""
    version = caching.tables_version(round.pk)
    key = f"clock-tables:{round.pk}:{version}"
    if version is not None and (kept := caching.memory.get(key)) is not None:
        return kept
    sizes = dict(
        round.tables.annotate(size=Count("seats"))
        .filter(size__gte=TABLE_OF_FIVE)
        .values_list("number", "size")
    )
    extra: dict[int, list[tuple[int, str]]] = {}
    for number, minutes, reason in ExtraTime.objects.filter(table__round=round).values_list(
        "table__number", "minutes", "reason"
    ):
        extra.setdefault(number, []).append((minutes, reason))
    tables = _ClockTables(sizes=sizes, extra=extra)
    if version is not None:
        caching.memory.put(key, tables, seconds=CLOCK_TABLES_SECONDS)
    return tables


def round_clock(*, round: Round) -> Clock:
    """The clock of a round: each table's end as ``playing_time_end`` has it, from the round's
    row and its tables (``_clock_tables``, no query while this process keeps them). Before the
    adjudicator announces the end, it counts to the tournament's minutes; after it, the tables
    of four are over, and the tables of five play on until their net playing time from the
    start is over (TSR 10.1.5); extra time comes on top."""
    kept = _clock_tables(round)
    sizes = kept.sizes
    fives = {number for number, size in sizes.items() if size == TABLE_OF_FIVE}
    extra = {number: list(grants) for number, grants in kept.extra.items()}
    # A table of six or seven plays its own longer time (TSR 10): listed like a table with
    # extra time, with or without any.
    for number, size in sizes.items():
        if size in LARGE_TABLES:
            extra.setdefault(number, [])
    tables = []
    for number, grants in sorted(extra.items()):
        minutes = sum(minutes for minutes, _reason in grants)
        tables.append(
            TableTime(
                number=number,
                extra_minutes=minutes,
                reasons=[reason for _minutes, reason in grants],
                ends_at=playing_time_end(
                    round=round,
                    five=number in fives,
                    extra_minutes=minutes,
                    size=sizes.get(number),
                ),
            )
        )
    return Clock(
        round=round,
        ends_at=playing_time_end(round=round, five=False),
        ends_at_five=playing_time_end(round=round, five=True) if fives else None,
        tables=tables,
        now=timezone.now(),
    )


def clock_etag(*, clock: Clock, staff: bool) -> str:
    """The clock's ETag for the pages that refresh it: what the clock shows apart from the
    seconds left, which the browser counts down itself (static/js/clock.js). It changes with
    the round's state and start, the end for tables of four and five, each table's extra time
    (and its reasons, for staff), the language and the time zone; not with the time. Weak: the
    seconds the answer was rendered with differ, and are not what it says."""
    round_ = clock.round
    shown = (
        round_.pk,
        round_.status,
        round_.started_at,
        round_.ended_at,
        clock.ends_at,
        clock.ends_at_five,
        [
            (table.number, table.extra_minutes, table.ends_at, table.reasons if staff else None)
            for table in clock.tables
        ],
        staff,
        translation.get_language(),
        timezone.get_current_timezone_name(),
    )
    digest = hashlib.blake2b(repr(shown).encode(), digest_size=12).hexdigest()
    return f'W/"clock-{round_.pk}-{digest}"'
