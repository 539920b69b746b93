"""Reads for the tournament desk (Turnierleitung, TSR 7.3.4): every table's sheet of a round at
a glance, in the order the desk attends to them. Two queries, whatever the size of the round.
"""

import datetime
from collections import Counter
from dataclasses import dataclass

from django.db.models import (
    Count,
    Expression,
    Func,
    IntegerField,
    OuterRef,
    QuerySet,
    Subquery,
    Sum,
    TextChoices,
)
from django.db.models.functions import Coalesce
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from doko.rules.deal import TABLE_OF_FIVE, TABLE_OF_FOUR, TABLE_SIZES
from scoring.models import Hand, Scoresheet, ScoresheetChange
from scoring.rulings import given as rulings
from tournaments.models import ExtraTime, Round, Seat, Table
from tournaments.selectors import TablePlayingTime, playing_time_end


class DeskState(TextChoices):
    """Where a table's sheet stands for the desk, in the order the desk attends to them: where
    several hold, the first one is the table's state (``desk_state``)."""

    # Both entries of a paper sheet are typed and differ: the desk settles each differing hand
    # from the paper sheet (double entry).
    SETTLE = "settle", _("differences to settle")
    # A complaint waits for the adjudicator's ruling or initials (TSR 8.2.2): whatever else
    # holds, the sheet's points are not final.
    COMPLAINT = "complaint", _("complaint open")
    # Handed in (TSR 7.3.4): a player of the table or the desk confirms it (TSR 7.3.2, 8.5.2).
    HANDED_IN = "handed_in", _("handed in")
    # Typed at the desk and handed in, where the tournament checks paper sheets by a second,
    # blind entry: another member of the desk types it again.
    SECOND_ENTRY = "second_entry", _("waiting for the second entry")
    TYPING = "typing", _("being typed")
    EMPTY = "empty", _("no hand yet")
    CONFIRMED = "confirmed", _("confirmed")


ORDER = {state: index for index, state in enumerate(DeskState)}


class ConfirmedHow(TextChoices):
    """How a confirmed sheet was confirmed (TSR 7.3.2, 8.5.2)."""

    TABLE = "table", _("by the table")
    STAFF = "staff", _("by staff")
    SIGNED_SHEET = Scoresheet.Confirmation.SIGNED_SHEET.value, _("from the signed sheet")
    DOUBLE_ENTRY = Scoresheet.Confirmation.DOUBLE_ENTRY.value, _("by double entry")


def desk_state(
    *,
    status: str | None,
    hands: int,
    complaints: int,
    double_entry: bool,
    differences: bool,
) -> DeskState:
    """A sheet's state at the desk (``DeskState``, the first that holds). ``status``: the
    sheet's (None: the table has none); ``double_entry``: whether the handed-in sheet is
    confirmed by a second, blind entry (``policies.double_entry_applies``); ``differences``:
    whether the second entry, compared with this handing in, differs from it."""
    if status == Scoresheet.Status.SUBMITTED and double_entry and differences:
        return DeskState.SETTLE
    if complaints:
        return DeskState.COMPLAINT
    if status == Scoresheet.Status.SUBMITTED:
        return DeskState.SECOND_ENTRY if double_entry else DeskState.HANDED_IN
    if status == Scoresheet.Status.CONFIRMED:
        return DeskState.CONFIRMED
    return DeskState.TYPING if hands else DeskState.EMPTY


@dataclass(frozen=True)
class SecondEntryProgress:
    """How far the blind second entry of a handed-in paper sheet is."""

    hands: int
    by: str
    at: datetime.datetime


@dataclass(frozen=True)
class LastChange:
    """The sheet's last change: what (a ``ScoresheetChange.Action``), by whom, when."""

    action: str
    by: str
    at: datetime.datetime


@dataclass(frozen=True)
class DeskRow:
    """One table as the desk sees it."""

    number: int
    players: tuple[str, ...]  # last names, in seat order
    state: DeskState
    status: str | None  # the sheet's (``Scoresheet.Status``); None: the table has none
    hands: int
    hands_per_match: int  # 24, at a table of five 30 (TSR 8.5.1, 10.1.5)
    confirmed_how: ConfirmedHow | None  # only when confirmed
    sent_back: str  # why the sheet was sent back to its scorekeeper, while it waits for him
    second_entry: SecondEntryProgress | None  # while the sheet waits for it
    differences: tuple[int, ...]  # the hands to settle (0: the end of the playing time)
    complaints: int  # waiting for the adjudicator
    last: LastChange | None  # None: nothing written yet
    time: TablePlayingTime
    time_over: bool  # when read (``Desk.now``)


@dataclass(frozen=True)
class Desk:
    """A round's tables at the desk: ``rows`` sorted by what needs the desk next, then by
    table; ``counts`` by state. ``now``: when it was read; ``valid_until``: the next moment a
    table's playing time ends, after which the rows no longer say so (None: none ends)."""

    round: Round
    rows: list[DeskRow]
    counts: dict[DeskState, int]
    now: datetime.datetime
    valid_until: datetime.datetime | None

    @property
    def total(self) -> int:
        return len(self.rows)

    def of(self, state: DeskState | None) -> list[DeskRow]:
        """The rows in ``state``; every row for None."""
        return self.rows if state is None else [r for r in self.rows if r.state == state]


class JSONArrayLength(Func):
    """The length of a JSON array (SQLite's ``json_array_length``, PostgreSQL's
    ``jsonb_array_length``); NULL for NULL."""

    function = "JSON_ARRAY_LENGTH"
    output_field = IntegerField()

    def as_postgresql(self, compiler, connection, **extra_context):
        return super().as_sql(compiler, connection, function="JSONB_ARRAY_LENGTH", **extra_context)


def _counted(queryset: QuerySet, by: str) -> Expression:
    return Coalesce(Subquery(queryset.order_by().values(by).annotate(n=Count("pk")).values("n")), 0)


def _last(field: str) -> Subquery:
    changes = ScoresheetChange.objects.filter(scoresheet=OuterRef("scoresheet__pk"))
    return Subquery(changes.order_by("-version").values(field)[:1])


def _tables(round_: Round) -> QuerySet:
    """One row per table, with its sheet and what counts for the desk."""
    extra = ExtraTime.objects.filter(table=OuterRef("pk")).order_by().values("table")
    return (
        Table.objects.filter(round=round_)
        .annotate(
            hand_count=_counted(
                Hand.objects.filter(scoresheet=OuterRef("scoresheet__pk")), "scoresheet"
            ),
            complaints=rulings().open_count(sheet="scoresheet__pk"),
            extra_minutes=Coalesce(Subquery(extra.annotate(m=Sum("minutes")).values("m")), 0),
            last_action=_last("action"),
            last_by=_last("by_name"),
            last_at=_last("at"),
            second_hands=JSONArrayLength("scoresheet__second_entry__hands"),
        )
        .values(
            "pk",
            "number",
            "hand_count",
            "complaints",
            "extra_minutes",
            "last_action",
            "last_by",
            "last_at",
            "second_hands",
            "scoresheet__status",
            "scoresheet__submitted_at",
            "scoresheet__submitted_by_id",
            "scoresheet__confirmed_by_seat_id",
            "scoresheet__confirmation",
            "scoresheet__sent_back_reason",
            "scoresheet__second_entry__differences",
            "scoresheet__second_entry__compared_at",
            "scoresheet__second_entry__updated_at",
            "scoresheet__second_entry__by__first_name",
            "scoresheet__second_entry__by__last_name",
            "scoresheet__second_entry__by__username",
        )
        .order_by("number")
    )


def _confirmed_how(row: dict) -> ConfirmedHow | None:
    if row["scoresheet__status"] != Scoresheet.Status.CONFIRMED:
        return None
    if row["scoresheet__confirmed_by_seat_id"] is not None:
        return ConfirmedHow.TABLE
    return ConfirmedHow(row["scoresheet__confirmation"] or ConfirmedHow.STAFF)


def _second_entry(row: dict) -> SecondEntryProgress | None:
    if row["scoresheet__second_entry__updated_at"] is None:
        return None
    name = " ".join(
        part
        for part in (
            row["scoresheet__second_entry__by__first_name"],
            row["scoresheet__second_entry__by__last_name"],
        )
        if part
    )
    return SecondEntryProgress(
        hands=row["second_hands"] or 0,
        by=name or row["scoresheet__second_entry__by__username"],
        at=row["scoresheet__second_entry__updated_at"],
    )


def _differences(row: dict) -> tuple[int, ...]:
    """The differences of the last comparison, if it compared this handing in (a sheet sent
    back and handed in again has not been compared yet)."""
    compared = row["scoresheet__second_entry__compared_at"]
    submitted = row["scoresheet__submitted_at"]
    if compared is None or submitted is None or compared < submitted:
        return ()
    return tuple(row["scoresheet__second_entry__differences"] or ())


def desk_read(*, round: Round) -> Desk:
    """Every table of the round with its sheet's state at the desk (``desk_state``), sorted by
    what needs the desk next, then by table number; in two queries. ``round`` with its
    tournament."""
    tournament = round.tournament
    names: dict[int, list[str]] = {}
    for table_id, last_name in (
        Seat.objects.filter(round=round)
        .order_by("table_id", "position")
        .values_list("table_id", "entry__last_name")
    ):
        names.setdefault(table_id, []).append(last_name)
    now = timezone.now()
    announced = round.ended_at is not None
    rows = []
    for row in _tables(round):
        players = tuple(names.get(row["pk"], ()))
        size = len(players)
        status = row["scoresheet__status"]
        # As ``policies.double_entry_applies``: the tournament checks paper sheets by double
        # entry, and this one was typed in at the desk.
        double_entry = tournament.double_entry and row["scoresheet__submitted_by_id"] is not None
        differences = _differences(row)
        state = desk_state(
            status=status,
            hands=row["hand_count"],
            complaints=row["complaints"],
            double_entry=double_entry,
            differences=bool(differences),
        )
        last = (
            LastChange(action=row["last_action"], by=row["last_by"], at=row["last_at"])
            if row["last_action"]
            else None
        )
        time = TablePlayingTime(
            number=row["number"],
            five=size == TABLE_OF_FIVE,
            extra_minutes=row["extra_minutes"],
            ends_at=playing_time_end(
                round=round,
                five=size == TABLE_OF_FIVE,
                extra_minutes=row["extra_minutes"],
                size=size,
            ),
            announced=announced,
        )
        rows.append(
            DeskRow(
                number=row["number"],
                players=players,
                state=state,
                status=status,
                hands=row["hand_count"],
                hands_per_match=tournament.hands_at(size if size in TABLE_SIZES else TABLE_OF_FOUR),
                confirmed_how=_confirmed_how(row),
                sent_back=(row["scoresheet__sent_back_reason"] or "")
                if status == Scoresheet.Status.DRAFT
                else "",
                second_entry=_second_entry(row) if state == DeskState.SECOND_ENTRY else None,
                differences=differences if state == DeskState.SETTLE else (),
                complaints=row["complaints"],
                last=last,
                time=time,
                time_over=time.over(now),
            )
        )
    rows.sort(key=lambda r: (ORDER[r.state], r.number))
    counted = Counter(r.state for r in rows)
    ends = [r.time.ends_at for r in rows if announced and r.time.ends_at and not r.time_over]
    return Desk(
        round=round,
        rows=rows,
        counts={state: counted[state] for state in DeskState},
        now=now,
        valid_until=min(ends, default=None),
    )
