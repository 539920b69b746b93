"""What people did with a scoresheet, read from its history for the four-eyes rules
(``doko.four_eyes``): who typed its hands, handed it in, opened its first entry while it was
blind, typed its second entry, and who plays at its table; and which accounts are which of its
players (their *plays as*, ever: ``tournaments.roles_history``).

Also when the first entry is blind: a sheet typed at the desk in a tournament that checks its
paper sheets by a second entry, from its first hand typed there until it is confirmed. Only
who typed it sees its hands then (``scoring.policies.first_entry_hidden``).
"""

import functools
from collections.abc import Collection, Sequence
from dataclasses import dataclass

from django.db.models import (
    CharField,
    Exists,
    F,
    Field,
    IntegerField,
    OuterRef,
    Q,
    QuerySet,
    Value,
)
from django.db.models.expressions import Combinable

from doko.four_eyes import Account, Deed, Done, Identity, Player
from scoring.models import Scoresheet, ScoresheetChange, SecondEntry, SheetRead
from tournaments.models import Seat
from tournaments.prepared import Prepared, Step
from tournaments.roles_history import plays_as_rows

HANDS = ScoresheetChange.Action.HANDS
SUBMIT = ScoresheetChange.Action.SUBMIT
DRAFT, SUBMITTED, CONFIRMED = (
    Scoresheet.Status.DRAFT,
    Scoresheet.Status.SUBMITTED,
    Scoresheet.Status.CONFIRMED,
)


@dataclass(frozen=True)
class SheetRecord:
    """A sheet's deeds (``Done``), the links between accounts and the table's players
    (``same``), and the table's players by their seats."""

    done: tuple[Done, ...]
    same: frozenset[tuple[Identity, Identity]]
    seats: dict[Player, int]

    def did(self, identities: set[Identity], *deeds: Deed) -> bool:
        """Whether any of ``identities`` (a whole person: ``doko.four_eyes.person``) did one
        of ``deeds``."""
        return any(done.deed in deeds and done.by in identities for done in self.done)


def _identity(user_id: int | None, entry_id: int | None) -> Identity | None:
    if user_id is not None:
        return Account(user_id)
    return Player(entry_id) if entry_id is not None else None


def sheet_record(
    sheet: Scoresheet,
    *,
    seats: Sequence[Seat] | None = None,
    second_by: Sequence[int] | None = None,
    deeds: list | None = None,
) -> SheetRecord:
    """The sheet's record, read once per sheet as loaded (``record_forget`` after a write that
    adds to it in the same request). Two queries; one where the caller has read the table's
    ``seats`` (``second_by``: who typed its second entry, his account or none, if the caller
    read that too); none where it has also read its ``deeds`` (``sheet_deeds_read``, with the
    seats and under the same lock)."""
    kept = sheet.__dict__.get("_four_eyes_record")
    if kept is not None:
        return kept
    if seats is None:
        seats = sheet.__dict__.get("_record_seats") or _SEATS(sheet.table_id)
    players = {Player(seat.entry_id): seat.position for seat in seats}
    done: list[Done] = [Done(Deed.PLAYED, player) for player in players]
    same: set[tuple[Identity, Identity]] = set()
    if deeds is None and second_by is None:
        deeds = sheet.__dict__.get("_record_deeds")
    if deeds is None:
        deeds = _deeds(sheet, players, second_by=second_by)
    for kind, action, user_id, entry_id in deeds:
        if kind == _CHANGE:
            if (who := _identity(user_id, entry_id)) is not None:
                done.append(Done(Deed.TYPED if action == HANDS else Deed.HANDED_IN, who))
        elif user_id is None:
            continue  # never: the other rows name an account
        elif kind == _SAME and entry_id is not None:
            same.add((Account(user_id), Player(entry_id)))
        elif kind == _READ:
            done.append(Done(Deed.READ, Account(user_id)))
        elif kind == _SECOND:
            done.append(Done(Deed.TYPED_SECOND, Account(user_id)))
    # The one who handed it in now, also where its history was written without him (a
    # sheet restored from a backup).
    if (who := _identity(sheet.submitted_by_id, _seat_entry(sheet, seats))) is not None:
        done.append(Done(Deed.HANDED_IN, who))
    if second_by is not None:
        done += [Done(Deed.TYPED_SECOND, Account(user_id)) for user_id in second_by]
    record = SheetRecord(done=tuple(dict.fromkeys(done)), same=frozenset(same), seats=players)
    sheet.__dict__["_four_eyes_record"] = record
    return record


# The table's players where the caller has not read them (a page's policies ask the record after
# a write forgot it): compiled once.
_SEATS = Prepared(lambda table_id: Seat.objects.filter(table_id=table_id).only("entry", "position"))
_CHANGE, _READ, _SECOND, _SAME = "change", "read", "second", "same"


def _deeds(
    sheet: Scoresheet, players: Collection[Player], *, second_by: Sequence[int] | None
) -> list[tuple[str, str | None, int | None, int | None]]:
    """In one query, rows of (kind, action, account, player): the sheet's changes that typed
    or handed it in (``_CHANGE``: the action, and the account or the seat's player who made
    it), who opened its first entry while it was blind (``_READ``), who typed its second entry
    (``_SECOND``, unless the caller read him: ``second_by``), and which accounts play, or ever
    played, as the table's players (``_SAME``: ``plays_as``). Compiled once per shape
    (``tournaments.prepared``): asked on every write, it cost more to compile than to run."""
    read = _DEEDS[second_by is None]
    return read(sheet.pk, [player.id for player in players])


def sheet_deeds_read(sheet: Scoresheet) -> Step:
    """The rows of the sheet's record (``_deeds``, with who typed its second entry), the table's
    players found in the same query: for a write to send with its lock and the seats
    (``prepared.run``), and to give ``sheet_record`` as its ``deeds``."""
    return _DEEDS_AT_TABLE.bound(sheet.pk, sheet.table_id)


def _deeds_query(sheet_id: int, entry_ids: list[int] | QuerySet, *, second: bool) -> QuerySet:
    def rows(queryset: QuerySet, kind: str, **columns: str | None) -> QuerySet:
        values = {
            name: F(column) if column is not None else Value(None, output_field=_NULLS[name])
            for name, column in columns.items()
        }
        return queryset.annotate(k=Value(kind), **values).values_list("k", *columns).order_by()

    changes = ScoresheetChange.objects.filter(
        scoresheet_id=sheet_id, action__in=[HANDS, SUBMIT]
    ).distinct()
    parts = [
        rows(changes, _CHANGE, a="action", u="by_id", e="by_seat__entry_id"),
        rows(SheetRead.objects.filter(scoresheet_id=sheet_id), _READ, a=None, u="by_id", e=None),
    ]
    if second:
        second_entry = SecondEntry.objects.filter(scoresheet_id=sheet_id)
        parts.append(rows(second_entry, _SECOND, a=None, u="by_id", e=None))
    if isinstance(entry_ids, QuerySet) or entry_ids:
        now, ever = plays_as_rows(entry_ids=entry_ids)
        parts += [rows(found, _SAME, a=None, u="user_id", e="entry_id") for found in (now, ever)]
    first, *others = parts
    return first.union(*others, all=True)


_NULLS: dict[str, Field] = {"a": CharField(), "u": IntegerField(), "e": IntegerField()}
# With and without the second entry's typist (``_deeds``).
_DEEDS = {
    second: Prepared(functools.partial(_deeds_query, second=second)) for second in (True, False)
}
_DEEDS_AT_TABLE = Prepared(
    lambda sheet_id, table_id: _deeds_query(
        sheet_id, Seat.objects.filter(table_id=table_id).values("entry_id"), second=True
    )
)


def _seat_entry(sheet: Scoresheet, seats: Sequence[Seat]) -> int | None:
    """Whose seat's link handed the sheet in: one of the table's seats, or (a seat moved since)
    read."""
    if sheet.submitted_by_seat_id is None:
        return None
    for seat in seats:
        if seat.pk == sheet.submitted_by_seat_id:
            return seat.entry_id
    return (
        Seat.objects.filter(pk=sheet.submitted_by_seat_id)
        .values_list("entry_id", flat=True)
        .first()
    )


def record_known(sheet: Scoresheet, *, seats: Sequence[Seat], deeds: list | None = None) -> None:
    """The table's seats, and the rows of the record (``sheet_deeds_read``) where it has them,
    as a write just read them under its lock: the sheet's record, next read, takes them (one
    query instead of two, or none: the page after a hand-in asks who may confirm). For the
    write's answer only: what a service returns keeps none of it."""
    sheet.__dict__["_record_seats"] = seats
    if deeds is not None:
        sheet.__dict__["_record_deeds"] = deeds


def record_forget(sheet: Scoresheet) -> None:
    """Read the record afresh next time (something was added to it)."""
    sheet.__dict__.pop("_four_eyes_record", None)
    sheet.__dict__.pop("_record_deeds", None)


# Blind ------------------------------------------------------------------------------------------


def _typed_at_the_desk(sheet_pk) -> Exists:
    return Exists(
        ScoresheetChange.objects.filter(scoresheet_id=sheet_pk, action=HANDS, by__isnull=False)
    )


def first_entry_blind(sheet: Scoresheet) -> bool:
    """Whether the sheet's first entry is blind: the tournament checks its paper sheets by a
    second entry, and this sheet is typed at the desk (handed in through an account, or a
    draft with a hand typed through one) and not yet confirmed. One query for a draft, none
    otherwise."""
    tournament = sheet.table.round.tournament
    if not tournament.double_entry or sheet.status == CONFIRMED:
        return False
    if sheet.status == SUBMITTED:
        return sheet.submitted_by_id is not None
    if "_typed_at_the_desk" not in sheet.__dict__:
        sheet.__dict__["_typed_at_the_desk"] = bool(_TYPED_AT_THE_DESK(sheet.pk))
    return sheet.__dict__["_typed_at_the_desk"]


# Asked of every draft of a tournament with double entry, on every write (``first_entry_blind``).
_TYPED_AT_THE_DESK = Prepared(
    lambda sheet_id: (
        ScoresheetChange.objects.filter(scoresheet_id=sheet_id, action=HANDS, by__isnull=False)
        .order_by()
        .values_list("id")[:1]
    )
)


def blind_tables() -> Combinable:
    """``first_entry_blind`` of a table's sheet, for a query of tables: their points are
    shown nowhere, nor counted, until the sheet is confirmed."""
    return (
        Q(round__tournament__double_entry=True, scoresheet__submitted_by_seat__isnull=True)
        & ~Q(scoresheet__status=CONFIRMED)
        & (
            Q(scoresheet__status=SUBMITTED, scoresheet__submitted_by__isnull=False)
            | Q(scoresheet__status=DRAFT) & _typed_at_the_desk(OuterRef("scoresheet__pk"))
        )
    )
