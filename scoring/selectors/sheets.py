"""Reads for one table's scoresheet: its rows, its check by the TSR, its history, its second
entry."""

import functools
from dataclasses import dataclass, replace
from enum import Enum
from typing import Final, Literal

from django.contrib.auth.models import PermissionsMixin, User
from django.core.exceptions import ValidationError
from django.db.models import F, FilteredRelation, Q, QuerySet
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from doko.rules import double_entry
from doko.rules.contracts import Contract, SoloType
from doko.rules.deal import TABLE_SIZES, sitting_out
from doko.rules.sheet import HandLine, Replay, SheetCheck, check_sheet
from scoring.models import Hand, Scoresheet, ScoresheetChange, ScoresheetScan, SecondEntry
from scoring.rulings import (
    NONE,
    SheetAdjudication,
    sheet_adjudication,
    table_adjudication_reading,
)
from tournaments.models import Round, Seat, Table, TournamentRole
from tournaments.prepared import Prepared, Step, run
from tournaments.selectors import AnyUser, TableRow, table_get_with


@dataclass(frozen=True)
class HandRow:
    hand: Hand
    points: list[int | None]  # per seat 1..table size; None for the dealer sitting out
    totals: list[int]  # running totals per seat after this hand, penalty points included
    penalty: list[int] | None = None  # per seat: initialled penalty points (TSR 9.3, 9.4)

    @property
    def cells(self) -> list[tuple[int | None, int]]:
        """Per seat: the points of this hand and the running total."""
        return list(zip(self.points, self.totals, strict=True))


def hand_lines(
    hands: list[Hand], *, penalties: dict[int, dict[int, int]] | None = None
) -> list[HandLine]:
    """Stored hands as the rules core reads them, with the penalty points of initialled
    decisions (``penalties`` by hand number) where given."""
    penalties = penalties or {}
    return [
        HandLine(
            contract=Contract(hand.contract),
            dealer=hand.dealer,
            points=hand.points,
            soloist=hand.soloist,
            solo_type=SoloType(hand.solo_type) if hand.solo_type else None,
            game_value=hand.game_value,
            penalty=penalties.get(hand.number),
            not_played=hand.not_played,
            dealt_by_neighbour=hand.dealt_by_neighbour,
            replay=Replay(hand.replay) if hand.replay else None,
        )
        for hand in hands
    ]


def with_penalties(
    hands: list[HandLine],
    penalties: dict[int, dict[int, int]],
    decisions: dict[int, tuple[dict[int, int], ...]] | None = None,
) -> list[HandLine]:
    """The lines with the penalty points of initialled decisions, by hand number, and where
    given the decisions one by one (``decisions``), so that the odd-even rule is checked
    exactly (TSR 7.3.3.2)."""
    decisions = decisions or {}
    lines = []
    for number, line in enumerate(hands, start=1):
        penalty, each = penalties.get(number), decisions.get(number, ())
        if line.penalty != penalty or line.penalties != each:  # most have none, as typed
            line = replace(line, penalty=penalty, penalties=each)
        lines.append(line)
    return lines


def scoresheet_rows(
    *, hands: list[Hand], table_size: int, penalties: dict[int, dict[int, int]] | None = None
) -> list[HandRow]:
    """The hands in the order played, with running totals per seat (TSR 7.3.1), penalty
    points of initialled decisions included (``penalties`` by hand number)."""
    penalties = penalties or {}
    totals = [0] * table_size
    rows = []
    for hand in hands:
        points = hand.points
        penalty = penalties.get(hand.number)
        totals = [
            total + points.get(seat, 0) + (penalty or {}).get(seat, 0)
            for seat, total in enumerate(totals, start=1)
        ]
        out = sitting_out(dealer=hand.dealer, table_size=table_size)
        shown = [None if seat in out else points.get(seat) for seat in range(1, table_size + 1)]
        rows.append(
            HandRow(
                hand=hand,
                points=shown,
                totals=totals,
                penalty=[penalty.get(seat, 0) for seat in range(1, table_size + 1)]
                if penalty
                else None,
            )
        )
    return rows


class _Noted(Enum):
    """A marker of one value: an enum, so that its type tells it from the hand numbers."""

    AS_NOTED = "as noted"


AS_NOTED: Final = _Noted.AS_NOTED  # the end of the playing time as the sheet notes it


def scoresheet_check(
    *,
    scoresheet: Scoresheet,
    hands: list[HandLine],
    table_size: int,
    time_over_after_hand: int | Literal[_Noted.AS_NOTED] | None = AS_NOTED,
    adjudication: SheetAdjudication | None = None,
) -> SheetCheck:
    """Check hands against the TSR for this sheet's table size and match length (TSR 7.3.3),
    with the penalty points of the initialled decisions on its hands and the points deducted
    for unsporting conduct (TSR 9.6.2 b); ``adjudication`` if already read, else read here.
    ``time_over_after_hand``: as the sheet notes it, unless a change to it is being checked
    (after it only forced solos are played, TSR 8.5.3)."""
    if time_over_after_hand is AS_NOTED:
        time_over_after_hand = scoresheet.time_over_after_hand
    if table_size not in TABLE_SIZES:
        raise ValidationError(
            ngettext(
                "Table %(table)d seats %(count)d player; a table seats 4 or 5 (TSR 8.3, 10.1).",
                "Table %(table)d seats %(count)d players; a table seats 4 or 5 (TSR 8.3, 10.1).",
                table_size,
            )
            % {"table": scoresheet.table.number, "count": table_size}
        )
    hands_per_match = scoresheet.table.round.tournament.hands_at(table_size)
    for number, hand in enumerate(hands, start=1):
        if set(hand.points) != set(range(1, table_size + 1)):
            raise ValidationError(
                {
                    "hands": _("Hand %(hand)d: enter points for seats 1 to %(size)d.")
                    % {"hand": number, "size": table_size}
                }
            )
    if adjudication is None:
        adjudication = sheet_adjudication(sheet=scoresheet)
    return check_sheet(
        table_size=table_size,
        hands_per_match=hands_per_match,
        hands=with_penalties(hands, adjudication.penalties, adjudication.decisions_by_hand),
        time_over_after_hand=time_over_after_hand,
        deductions=adjudication.deductions,
        ended_early=scoresheet.ended_early,
    )


def hand_snapshot(line: HandLine) -> dict:
    snapshot = {
        "dealer": line.dealer,
        "contract": str(line.contract),
        "soloist": line.soloist,
        "solo_type": str(line.solo_type) if line.solo_type else None,
        "game_value": line.game_value,
        "points": [line.points[seat] for seat in sorted(line.points)],
    }
    if line.not_played:
        snapshot["not_played"] = True
    if line.dealt_by_neighbour:
        snapshot["dealt_by_neighbour"] = True
    if line.replay is not None:
        snapshot["replay"] = line.replay.value
    return snapshot


def line_from_snapshot(snapshot: dict) -> HandLine:
    """The line a ``hand_snapshot`` was taken of."""
    return HandLine(
        contract=Contract(snapshot["contract"]),
        dealer=snapshot["dealer"],
        points=dict(enumerate(snapshot["points"], start=1)),
        soloist=snapshot["soloist"],
        solo_type=SoloType(snapshot["solo_type"]) if snapshot["solo_type"] else None,
        game_value=snapshot["game_value"],
        not_played=snapshot.get("not_played", False),
        dealt_by_neighbour=snapshot.get("dealt_by_neighbour", False),
        replay=Replay(snapshot["replay"]) if snapshot.get("replay") else None,
    )


def sheet_snapshot(*, sheet: Scoresheet, hands: list[HandLine]) -> dict:
    """What a sheet holds, as kept in its change record and returned by the API; ``keeper``
    only once the sheet was handed over to another seat (TSR 3.1.1)."""
    snapshot: dict[str, object] = {
        "status": sheet.status,
        "time_over_after_hand": sheet.time_over_after_hand,
        "hands": [hand_snapshot(line) for line in hands],
    }
    if sheet.keeper_seat is not None:
        snapshot["keeper"] = sheet.keeper_seat
    if sheet.ended_early:
        snapshot["ended_early"] = {
            "reason": sheet.ended_early_reason,
            "hands_not_played": sheet.ended_early_hands_not_played,
        }
    return snapshot


def sheet_hands(sheet: Scoresheet) -> list[Hand]:
    """The sheet's hands in order, as ``sheet.hands.all()`` gives them (their ``scoresheet``
    this one; prefetched ones taken as they are); in one query compiled once: every write reads
    them."""
    prefetched = getattr(sheet, "_prefetched_objects_cache", {}).get("hands")
    if prefetched is not None:
        return list(prefetched)
    return hands_of(sheet, _SHEET_HANDS(sheet.pk))


def hands_of(sheet: Scoresheet, hands: list[Hand]) -> list[Hand]:
    """The rows of ``sheet_hands_read`` linked to their sheet."""
    for hand in hands:
        hand._state.fields_cache["scoresheet"] = sheet
    return hands


def sheet_hands_read(sheet_id: int) -> Step:
    """``sheet_hands``' query, for ``prepared.run`` to send with others (``hands_of`` links its
    rows to the sheet)."""
    return _SHEET_HANDS.bound(sheet_id)


_SHEET_HANDS = Prepared(
    lambda sheet_id: Hand.objects.filter(scoresheet_id=sheet_id).order_by("number")
)


def table_hands_read(round_id: int, number: int) -> Step:
    """The hands of the sheet of table ``number`` of the round, in order, found by the table
    (its page sends this with the table's own read, before its sheet is known: ``hands_of``
    links them to it)."""
    return _TABLE_HANDS.bound(round_id, number)


_TABLE_HANDS = Prepared(
    lambda round_id, number: Hand.objects.filter(
        scoresheet__table__round_id=round_id, scoresheet__table__number=number
    ).order_by("number")
)


@dataclass(frozen=True)
class TableSheet:
    """A table of a round as its page shows it: its row (``tournaments.selectors.table_get``),
    and its sheet's hands and adjudication (none without a sheet)."""

    row: TableRow
    hands: list[Hand]
    adjudication: SheetAdjudication

    @property
    def sheet(self) -> Scoresheet | None:
        return getattr(self.row.table, "scoresheet", None)


def table_sheet_get(*, round: Round, number: int) -> TableSheet:
    """Table ``number`` of the round (404 if there is none) with its sheet's hands and
    adjudication, in one round trip: their reads are found by the table, as the table's own
    are, and sent with them (``table_get_with``). Every phone at a table asks for its page
    again once its sheet changed; it took four round trips."""
    reading = table_adjudication_reading(round_id=round.pk, number=number)
    row, (hands, *ruled) = table_get_with(
        round=round, number=number, also=[table_hands_read(round.pk, number), *reading.steps]
    )
    sheet = getattr(row.table, "scoresheet", None)
    if sheet is None:
        return TableSheet(row=row, hands=[], adjudication=NONE)
    return TableSheet(
        row=row, hands=hands_of(sheet, hands), adjudication=reading.made(sheet, ruled)
    )


def table_seats(table: Table) -> list[Seat]:
    """The table's seats in order, each with its player, as ``table.seats`` gives them (their
    ``table`` this one); in one query compiled once: every write reads them."""
    return seats_at(table, _TABLE_SEATS(table.pk))


def seats_at(table: Table, seats: list[Seat]) -> list[Seat]:
    """The rows of ``table_seats_read`` linked to their table."""
    for seat in seats:
        seat._state.fields_cache["table"] = table
    return seats


def table_seats_read(table_id: int) -> Step:
    """``table_seats``' query, for ``prepared.run`` to send with others (``seats_at`` links its
    rows to the table)."""
    return _TABLE_SEATS.bound(table_id)


_TABLE_SEATS = Prepared(
    lambda table_id: (
        Seat.objects.select_related("entry").filter(table_id=table_id).order_by("position")
    )
)


def seat_by_token(token: str) -> Seat | None:
    """The seat whose private scoresheet link carries ``token``, with its player and its
    table's round, tournament and scoresheet (and its scan), in one query (compiled once:
    every request of a link asks it); None for an unknown key."""
    found = _SEAT_BY_TOKEN(token)
    return found[0] if found else None


_SEAT_BY_TOKEN = Prepared(
    lambda token: (
        Seat.objects.select_related("table__round__tournament", "table__scoresheet__scan", "entry")
        .filter(token=token)
        .order_by()[:1]
    )
)


@dataclass(frozen=True)
class SheetState:
    """Everything the entry page shows of a sheet: its hands as stored and as the rules core
    reads them, rows with running totals (made when asked), and the check by the TSR."""

    sheet: Scoresheet
    seats: list[Seat]
    hands: list[Hand]
    lines: list[HandLine]
    check: SheetCheck
    adjudication: SheetAdjudication = NONE
    # Why the hands are not shown to this reader (a blind first entry, double entry:
    # ``scoring.policies.first_entry_hidden``); then the state has none.
    withheld: str | None = None
    # The rows of the sheet's four-eyes record as a write read them under its lock, where its
    # own deed is one the sheet says (``scoring.selectors.record.sheet_deeds_read``).
    deeds: list | None = None

    @functools.cached_property
    def rows(self) -> list[HandRow]:
        """The hands with running totals (``scoresheet_rows``), made when first asked: a
        write's own read of the sheet, which no page shows, makes none."""
        return scoresheet_rows(
            hands=self.hands, table_size=self.table_size, penalties=self.adjudication.penalties
        )

    @property
    def table_size(self) -> int:
        return len(self.seats)

    @property
    def keeper(self) -> int:
        """The seat that keeps the sheet (``Scoresheet.keeper``, TSR 3.1.1, 8.4.1, 10.1.4)."""
        return self.sheet.keeper(self.table_size)

    @property
    def hands_per_match(self) -> int:
        return self.sheet.table.round.tournament.hands_at(self.table_size)


def sheet_state(
    *,
    sheet: Scoresheet,
    withheld: str | None = None,
    seats: list[Seat] | None = None,
    hands: list[Hand] | None = None,
    adjudication: SheetAdjudication | None = None,
) -> SheetState:
    """A sheet with its seats, hands, the adjudicators' decisions and deductions, and its check,
    in five queries (fewer with ``seats``, ``hands`` or ``adjudication``, read already).
    ``lines`` are the hands as entered, without penalty points: what the scorekeeper changes.
    ``withheld``: why this reader sees none of its hands (a blind first entry), and then the
    state holds none."""
    if withheld is not None:
        state = _entry_state(
            sheet=sheet, hands=[], time_over_after_hand=None, seats=seats, adjudication=adjudication
        )
        return replace(state, withheld=withheld)
    if seats is None and hands is None and adjudication is None and not _prefetched(sheet):
        seats, hands, adjudication = sheet_read(sheet)
    return _entry_state(
        sheet=sheet,
        hands=sheet_hands(sheet) if hands is None else hands,
        time_over_after_hand=AS_NOTED,
        seats=seats,
        adjudication=adjudication,
    )


def _prefetched(sheet: Scoresheet) -> bool:
    return "hands" in getattr(sheet, "_prefetched_objects_cache", {})


def sheet_read(sheet: Scoresheet) -> tuple[list[Seat], list[Hand], SheetAdjudication]:
    """The sheet's seats, hands and adjudication sent together (``prepared.run``: one round
    trip on PostgreSQL, where they took four): what the entry page reads each time a phone
    opens it, and the question before a hand-in or a confirmation (issue 45)."""
    table = sheet.table
    reading = table_adjudication_reading(round_id=table.round_id, number=table.number)
    seats, hands, *ruled = run(
        table_seats_read(table.pk), sheet_hands_read(sheet.pk), *reading.steps
    )
    return seats_at(table, seats), hands_of(sheet, hands), reading.made(sheet, ruled)


def sheet_state_written(
    *,
    sheet: Scoresheet,
    hands: list[Hand],
    seats: list[Seat],
    adjudication: SheetAdjudication,
    check: SheetCheck | None = None,
    deeds: list | None = None,
) -> SheetState:
    """The state of a sheet just written with ``hands`` (the rows as stored), from what its
    write read under the sheet's lock (its seats, the adjudication, the check, the rows of its
    record): no query."""
    state = _entry_state(
        sheet=sheet,
        hands=hands,
        time_over_after_hand=AS_NOTED,
        seats=seats,
        adjudication=adjudication,
        check=check,
    )
    return replace(state, deeds=deeds) if deeds is not None else state


def _entry_state(
    *,
    sheet: Scoresheet,
    hands: list[Hand],
    time_over_after_hand: int | Literal[_Noted.AS_NOTED] | None,
    seats: list[Seat] | None = None,
    adjudication: SheetAdjudication | None = None,
    check: SheetCheck | None = None,
) -> SheetState:
    """An entry of ``sheet`` (its own hands, or a second entry's) with the sheet's seats, the
    adjudicators' decisions and deductions, and its check by the TSR; each of those read or
    made here unless the caller has it already."""
    if seats is None:
        seats = table_seats(sheet.table)
    if adjudication is None:
        adjudication = sheet_adjudication(sheet=sheet)
    lines = hand_lines(hands)
    if check is None:
        check = scoresheet_check(
            scoresheet=sheet,
            hands=lines,
            table_size=len(seats),
            time_over_after_hand=time_over_after_hand,
            adjudication=adjudication,
        )
    return SheetState(
        sheet=sheet,
        seats=seats,
        hands=hands,
        lines=lines,
        check=check,
        adjudication=adjudication,
    )


def staff_sheet_get(
    *, slug: str, number: int, table: int, user: AnyUser, second_entry: bool = False
) -> tuple[Scoresheet | None, set[str]]:
    """The sheet of table ``table`` in round ``number`` of the tournament ``slug``, with its
    table, round, tournament and scan (and with ``second_entry`` its second entry and typist),
    and the user's roles in the tournament (``user_roles``), in one query: a row per role he
    holds, or one without. (None, no roles) where there is no such sheet, or its tournament is
    not one he may see (``tournaments_visible``: public, or one he holds a role in)."""
    if not user.is_authenticated:
        return None, set()
    if isinstance(user, PermissionsMixin) and user.is_superuser:
        sheets = _staff_sheets(slug, number, table, user.pk, second_entry=second_entry)
        return sheets.first(), set(TournamentRole.Role.values)
    found = _STAFF_SHEETS[second_entry](slug, number, table, user.pk)
    if not found:
        return None, set()
    roles = {row.role for row in found if row.role}
    if not roles and not found[0].table.round.tournament.is_public:
        return None, set()
    return found[0], roles


def _staff_sheets(
    slug: str, number: int, table: int, user_id: int, *, second_entry: bool
) -> QuerySet[Scoresheet]:
    """The sheet of the table with a row per role the account holds in its tournament."""
    related = ["table__round__tournament", "scan"]
    if second_entry:
        related.append("second_entry__by")
    held = FilteredRelation(
        "table__round__tournament__roles",
        condition=Q(table__round__tournament__roles__user_id=user_id),
    )
    return (
        Scoresheet.objects.select_related(*related)
        .filter(
            table__round__tournament__slug=slug, table__round__number=number, table__number=table
        )
        .annotate(held=held, role=F("held__role"))
    )


# With and without the second entry (``staff_sheet_get``): every staff request asks one.
_STAFF_SHEETS = {
    second_entry: Prepared(functools.partial(_staff_sheets, second_entry=second_entry))
    for second_entry in (True, False)
}


def second_entry_get(*, sheet: Scoresheet) -> SecondEntry | None:
    """The sheet's second entry (double entry) with its typist, or None; one query."""
    return SecondEntry.objects.select_related("by").filter(scoresheet_id=sheet.pk).first()


def second_entry_lines(entry: SecondEntry | None) -> list[HandLine]:
    """The hands of a second entry as the rules core reads them (none without an entry)."""
    return [line_from_snapshot(hand) for hand in entry.hands] if entry is not None else []


def second_entry_state(
    *,
    sheet: Scoresheet,
    entry: SecondEntry | None,
    seats: list[Seat] | None = None,
    adjudication: SheetAdjudication | None = None,
    check: SheetCheck | None = None,
    read: SheetState | None = None,
) -> SheetState:
    """The second entry of a paper sheet as its entry page shows it: its own hands, rows with
    running totals and its check by the TSR, as ``sheet_state`` shows the first entry; but
    nothing of the first entry. Its hands are unsaved rows numbered in order. ``seats``,
    ``adjudication`` and ``check``: as its write read and checked them, if it was just
    written; ``read``: the entry as the write read it, whose rows of the hands it left as they
    were are taken over rather than made again."""
    kept = read.hands if read is not None else []
    hands = [
        kept[number - 1]
        if number <= len(kept) and read is not None and read.lines[number - 1] == line
        else Hand.from_line(scoresheet=sheet, number=number, line=line)
        for number, line in enumerate(second_entry_lines(entry), start=1)
    ]
    time_over = entry.time_over_after_hand if entry is not None else None
    return _entry_state(
        sheet=sheet,
        hands=hands,
        time_over_after_hand=time_over,
        seats=seats,
        adjudication=adjudication,
        check=check,
    )


@dataclass(frozen=True)
class Difference:
    """A hand in which the two entries of a paper sheet differ: each as typed
    (``hand_snapshot``), None where that entry has no such hand. ``hand`` None: the end of
    the playing time (TSR 8.5.1), each entry's ``{"time_over_after_hand": n}``."""

    hand: int | None
    first: dict | None
    second: dict | None


def entry_differences(
    *,
    first: list[HandLine],
    first_time_over: int | None,
    second: list[HandLine],
    second_time_over: int | None,
) -> list[Difference]:
    """Where two entries of one sheet differ (``doko.rules.double_entry``), each side as
    typed: the noted end of the playing time first, then hand by hand."""
    one = double_entry.Entry(hands=first, time_over_after_hand=first_time_over)
    two = double_entry.Entry(hands=second, time_over_after_hand=second_time_over)

    def side(entry: double_entry.Entry, number: int | None) -> dict | None:
        if number is None:
            return {"time_over_after_hand": entry.time_over_after_hand}
        return hand_snapshot(entry.hands[number - 1]) if number <= len(entry.hands) else None

    return [
        Difference(hand=number, first=side(one, number), second=side(two, number))
        for number in double_entry.differences(one, two)
    ]


def second_entry_differences(*, sheet: Scoresheet, entry: SecondEntry) -> list[Difference]:
    """Where a sheet's second entry differs from its first (the hands on the sheet)."""
    return entry_differences(
        first=hand_lines(sheet_hands(sheet)),
        first_time_over=sheet.time_over_after_hand,
        second=second_entry_lines(entry),
        second_time_over=entry.time_over_after_hand,
    )


@dataclass(frozen=True)
class HandDiff:
    number: int
    before: dict | None  # None: the hand was added
    after: dict | None  # None: the hand was removed


@dataclass(frozen=True)
class ChangeRow:
    change: ScoresheetChange
    hands: list[HandDiff]
    time_over: tuple[int | None, int | None] | None  # before and after, when it changed
    # The seat that kept the sheet before and after, when it changed (TSR 3.1.1); None: the
    # rule's seat (4, at a table of five 5).
    keeper: tuple[int | None, int | None] | None = None


def _diff(before: dict, after: dict) -> tuple[list[HandDiff], tuple | None]:
    old, new = before.get("hands", []), after.get("hands", [])
    hands = [
        HandDiff(
            number=number,
            before=old[number - 1] if number <= len(old) else None,
            after=new[number - 1] if number <= len(new) else None,
        )
        for number in range(1, max(len(old), len(new)) + 1)
        if (old[number - 1] if number <= len(old) else None)
        != (new[number - 1] if number <= len(new) else None)
    ]
    time_over = (before.get("time_over_after_hand"), after.get("time_over_after_hand"))
    return hands, time_over if time_over[0] != time_over[1] else None


def sheet_changes(*, sheet: Scoresheet, since: int = 0) -> list[ChangeRow]:
    """The sheet's changes after version ``since``, oldest first, each with what it changed."""
    rows = []
    for change in sheet.changes.filter(version__gt=since).order_by("version"):
        hands, time_over = _diff(change.before, change.after)
        keeper = (change.before.get("keeper"), change.after.get("keeper"))
        rows.append(
            ChangeRow(
                change=change,
                hands=hands,
                time_over=time_over,
                keeper=keeper if keeper[0] != keeper[1] else None,
            )
        )
    return rows


def scoresheet_scan(*, sheet: Scoresheet) -> ScoresheetScan | None:
    """The photo or scan of the signed sheet, if one is attached: no query where the sheet was
    read with it (``select_related("scan")``)."""
    try:
        return sheet.scan
    except ScoresheetScan.DoesNotExist:
        return None


def typist_name(*, typist: str) -> str:
    """The name of who typed a hand on an entry page, as the page's saves name him
    (``policies.typist_of``: ``user:<id>`` or ``seat:<id>``); "someone else" for a name that
    names nobody."""
    kind, _colon, number = typist.partition(":")
    pk = int(number) if number.isascii() and number.isdigit() and len(number) < 19 else None
    if kind == "user" and pk is not None:
        user = User.objects.filter(pk=pk).first()
        if user is not None:
            return user.get_full_name() or user.get_username()
    if kind == "seat" and pk is not None:
        seat = Seat.objects.filter(pk=pk).select_related("entry").first()
        if seat is not None:
            return _("%(name)s (seat %(seat)d)") % {"name": seat.entry.name, "seat": seat.position}
    return _("someone else")
