"""A table's scoresheet (Spielliste). Each service is one transaction, checks the version the
caller's change was based on (optimistic locking) and records the change: who, when, before and
after.

Who may write: staff through their account (organisers, adjudicators, scorekeeper accounts), and
the players of the table through their seat's private link. The scorekeeper's link (seat 4, at a
table of five seat 5, TSR 8.4.1, 10.1.4, or the seat the sheet was handed over to, TSR 3.1.1)
enters and hands in the sheet; any other player of the table confirms it with their own link
(TSR 7.3.2, 8.5.2).
"""

import functools
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

from django.contrib.auth.models import AnonymousUser, User
from django.core.exceptions import ValidationError
from django.core.validators import ProhibitNullCharactersValidator
from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone
from django.utils.formats import time_format
from django.utils.translation import gettext as _

from doko.rules import sheet_changes
from doko.rules.contracts import Contract, SoloType
from doko.rules.deal import scorekeeper
from doko.rules.sheet import (
    HandLine,
    Problem,
    Replay,
    SheetCheck,
    dealt_out_of_turn,
    with_game_values,
)
from scoring import policies, rulings
from scoring.models import (
    RETURN_REASON_LENGTH,
    Hand,
    Scoresheet,
    ScoresheetChange,
)
from scoring.policies import Actor
from scoring.results import sheet_results
from scoring.rulings import NONE, SheetAdjudication, sheet_adjudication
from scoring.selectors import (
    SheetState,
    hand_lines,
    scoresheet_check,
    sheet_snapshot,
    sheet_state,
    sheet_state_written,
)
from scoring.selectors.record import sheet_deeds_read, sheet_record
from scoring.selectors.sheets import (
    hands_of,
    seats_at,
    sheet_hands,
    sheet_hands_read,
    sheet_read,
    table_seats,
    table_seats_read,
)
from tournaments import prepared
from tournaments.after_response import after_response
from tournaments.caching import table_changed
from tournaments.messages import problem_message, require_valid
from tournaments.models import Round, Seat, SheetKeeping, TournamentRole
from tournaments.policies import enforce
from tournaments.prepared import Prepared
from tournaments.selectors import table_playing_time, user_roles
from tournaments.services import results_refresh, results_writing, round_close_when_confirmed

Role = TournamentRole.Role
# Staff who may type in and confirm sheets; only an organiser reopens a confirmed one.


class SheetRefused(ValidationError):
    """A write refused by the check against the TSR: the messages under ``hands``, as every
    refusal, and the problems themselves (hand, code, rule) for a client that shows them line by
    line. Nothing was saved."""

    def __init__(self, problems: Sequence[Problem]):
        super().__init__({"hands": [problem_message(problem) for problem in problems]})
        self.problems = tuple(problems)


class StaleVersionError(ValidationError):
    """The sheet changed since the caller read it; the caller must reload and try again."""

    def __init__(self, *, current: Scoresheet):
        super().__init__(
            _(
                "This scoresheet was changed by someone else in the meantime (now version "
                "%(version)d). Reload it and enter your change again."
            )
            % {"version": current.version},
            code="stale",
        )
        self.current = current


def _lock(scoresheet: Scoresheet, *, version: int) -> Scoresheet:
    locked = _locked(scoresheet, scan=True)
    _require_version(locked, version=version)
    return locked


def _require_version(locked: Scoresheet, *, version: int) -> None:
    if locked.version != version:
        raise StaleVersionError(current=locked)


def _lock_read(scoresheet: Scoresheet, *, version: int, deeds: bool = False) -> "_Read":
    """``_lock``, with the table's seats and the sheet's hands read under the lock in the same
    round trip (``prepared.run``): what a hand's save, a hand-in and a confirmation read; with
    ``deeds`` the rows of its four-eyes record too (``sheet_deeds_read``). The adjudication is
    read when asked (``_Read.adjudication``)."""
    reads = [table_seats_read(scoresheet.table_id), sheet_hands_read(scoresheet.pk)]
    if deeds:
        reads.append(sheet_deeds_read(scoresheet))
    locked, (seats, hands, *record) = _locked_reading(scoresheet, *reads, scan=True)
    _require_version(locked, version=version)
    return _Read(
        locked,
        hands=hands_of(locked, hands),
        seats=seats_at(locked.table, seats),
        deeds=record[0] if deeds else None,
    )


def _locked(scoresheet: Scoresheet, *, scan: bool = False) -> Scoresheet:
    return _locked_reading(scoresheet, scan=scan)[0]


def _locked_reading(
    scoresheet: Scoresheet, *reads: prepared.Step, scan: bool = False
) -> tuple[Scoresheet, list]:
    """The sheet's row read again and locked until the transaction ends, with whether anything
    is ruled on it (``_adjudication``), and with its table, round and tournament (and with
    ``scan`` its scan, which the API's answers show): those the caller read with the sheet are
    taken over, not read again (none of them is locked either way), else joined. ``reads`` run
    under the lock, sent with it (``prepared.run``); their results come second."""
    cached = scoresheet._state.fields_cache
    kept = ["table", "scan"] if scan else ["table"]
    known = all(name in cached for name in kept) and "round" in cached["table"]._state.fields_cache
    if known:
        known = "tournament" in cached["table"].round._state.fields_cache
    lock = _LOCKED if known else _LOCKED_JOINED[scan]
    found, *read = prepared.run(lock.bound(scoresheet.pk), *reads)
    locked = _one(found)
    if known:
        locked._state.fields_cache.update({name: cached[name] for name in kept})
        # The table's sheet is this one now.
        cached["table"]._state.fields_cache["scoresheet"] = locked
    return locked, read


def _lock_query(pk: int, *, related: tuple[str, ...] = ()) -> QuerySet[Scoresheet]:
    return (
        Scoresheet.objects.select_for_update(of=("self",))
        .select_related(*related)
        .annotate(anything_ruled=rulings.given().anything_ruled())
        .filter(pk=pk)
    )


# Every write locks its sheet (``_locked``): the query compiled once, alone or with the table,
# round and tournament (and the scan) where the caller has not read them.
_LOCKED = Prepared(_lock_query)
_LOCKED_JOINED = {
    scan: Prepared(
        functools.partial(
            _lock_query,
            related=("table__round__tournament", "scan") if scan else ("table__round__tournament",),
        )
    )
    for scan in (True, False)
}


def _one(found: list[Scoresheet]) -> Scoresheet:
    if not found:
        raise Scoresheet.DoesNotExist("The scoresheet is gone.")
    return found[0]


def _adjudication(sheet: Scoresheet) -> SheetAdjudication:
    """The adjudication of a sheet just locked (``_lock``, ``scoresheet_locked``), read only
    where the lock's own query found anything ruled on it: most sheets have nothing, and are
    written without the two queries. Asked right after the lock, before the step writes."""
    if sheet.__dict__.get("anything_ruled") is False:
        return NONE
    return sheet_adjudication(sheet=sheet)


def _roles(sheet: Scoresheet, by: Actor) -> set[str]:
    if by.user is None:
        return set()  # a seat's link holds no role
    return user_roles(user=by.user, tournament=sheet.table.round.tournament)


def _require_time_over_within(lines: Sequence[HandLine], *, after: int | None) -> None:
    """The playing time ended after a hand the entry has, or before the first (TSR 8.5.1;
    ``doko.rules.sheet_changes.time_over_problem``)."""
    require_valid([sheet_changes.time_over_problem(hands=len(lines), after=after)])


def _require_time_over(sheet: Scoresheet, *, after: int | None, table_size: int) -> None:
    """The end of the playing time is noted on a sheet only once it has come for its table
    (TSR 8.5.1, 10.1.5; ``doko.rules.sheet_changes.time_over_note_problem``). Clearing the
    note, or keeping it as it is, reads no clock."""
    if after is None or after == sheet.time_over_after_hand:
        return
    time = table_playing_time(table=sheet.table, size=table_size)
    ends_at = "" if time.ends_at is None else time_format(timezone.localtime(time.ends_at))
    clock = sheet_changes.TableTime(
        table=time.number,
        over=time.over(timezone.now()),
        announced=time.announced,
        five=time.five,
        ends_at=ends_at,
    )
    require_valid(
        [
            sheet_changes.time_over_note_problem(
                after=after, noted=sheet.time_over_after_hand, time=clock
            )
        ]
    )


# The changes that take a handed-in sheet back to a draft, which counts nowhere.
# Taking back an early end may do so too (``scoresheet_end_undo``).
BACK_TO_DRAFT = {
    ScoresheetChange.Action.REOPEN,
    ScoresheetChange.Action.RETURN,
    ScoresheetChange.Action.UNDO_END,
}


def _record(
    sheet: Scoresheet,
    *,
    action: str,
    by: Actor,
    before: dict,
    reason: str = "",
    after: Sequence[HandLine] | None = None,
    read: "_Read | None" = None,
    also: Sequence[prepared.Step] = (),
) -> Scoresheet:
    """A new version of the sheet, recorded with who and what before and after (``after``: its
    hands now, if the caller has them, else read). ``read``: the sheet's hands, seats and
    adjudication as the caller read them under the lock, unchanged by it: the results are
    made from them, with no query, and written with the rest. ``also``: the step's own writes
    (its hands), sent first with the sheet's new version and its record, in one round trip
    (``prepared.run``): the step's last statements, which a step that is a ``prepared.atomic``
    block sends with its COMMIT (``prepared.run_last``)."""
    if after is None:
        after = hand_lines(sheet_hands(sheet))
    sheet.version += 1
    change = ScoresheetChange(
        scoresheet=sheet,
        version=sheet.version,
        action=action,
        by=by.user,
        by_seat=by.seat,
        by_name=by.name,
        reason=reason,
        before=before,
        after=sheet_snapshot(sheet=sheet, hands=list(after)),
    )
    writes = [*also, prepared.saving(sheet), prepared.inserting([change])]
    # What a handed-in sheet gives its players counts in the standings (provisionally until
    # it is confirmed); a draft counts nowhere, so its hands change nothing there.
    counts = sheet.status != Scoresheet.Status.DRAFT or action in BACK_TO_DRAFT
    if counts and read is not None:
        made = sheet_results(
            sheet, seats=read.seats, hands=read.hands, adjudication=read.adjudication
        )
        writes += results_writing(tables=[sheet.table], results=made)
    if counts and read is None:
        prepared.run(*writes)
        results_refresh(tables=[sheet.table])
    else:
        # The step's last statements: with its COMMIT where it commits (``prepared.atomic``).
        prepared.run_last(*writes)
    # The desk's list of the round's sheets is drawn afresh once this commits.
    table_changed(round_id=sheet.table.round_id, number=sheet.table.number)
    if sheet.status == Scoresheet.Status.CONFIRMED:
        # The round's last confirmation closes it and stops its clock (TSR 8.5.2). Asked once
        # this commits, with no sheet locked: of two last sheets confirmed at once, the later
        # sees both, and a round locked meanwhile (its end announced) waits for no sheet. In a
        # request, once its answer has gone (``after_response``): the confirmation's answer
        # shows the sheet, which the question does not change, and waits for neither it nor,
        # for the last sheet, the closing.
        round_id = sheet.table.round_id
        transaction.on_commit(
            lambda: after_response(lambda: round_close_when_confirmed(round_id=round_id))
        )
    return sheet


def _hands_store(sheet: Scoresheet, hands: Sequence[HandLine]) -> None:
    """The sheet's hands replaced by ``hands`` at once, every row written anew
    (``_hands_storing``), for a step that reads them back for its record."""
    _rows, insert = _hands_storing(sheet, hands)
    prepared.run(insert)


def _hands_storing(
    sheet: Scoresheet,
    hands: Sequence[HandLine],
    *,
    stored: list[Hand] | None = None,
    stored_lines: Sequence[HandLine] | None = None,
) -> tuple[list[Hand], prepared.Step]:
    """The sheet's hands replaced by ``hands``: the rows as they will be stored, and the insert
    of the new ones, for the caller to run (``_record``'s ``also``; it gives them their keys).
    ``stored``: the rows as they stand under the caller's lock, in order (``stored_lines``: them
    as the rules core reads them, if the caller has them): the leading ones whose hand stays as
    it is are kept, and only the rows from the first that changes are deleted (here) and
    written (a hand added writes one row)."""
    if stored is None:
        sheet.hands.all().delete()
        rows = _hand_rows(sheet, hands, kept=0)
        return rows, prepared.inserting(rows)
    if stored_lines is None:
        stored_lines = hand_lines(stored)
    kept = 0
    for old, new in zip(stored_lines, hands, strict=False):
        if old != new:
            break
        kept += 1
    if kept < len(stored):
        Hand.objects.filter(scoresheet=sheet, number__gt=kept).delete()
    added = _hand_rows(sheet, hands, kept=kept)
    return [*stored[:kept], *added], prepared.inserting(added)


def _hand_rows(sheet: Scoresheet, hands: Sequence[HandLine], *, kept: int) -> list[Hand]:
    """The rows of ``hands`` after the first ``kept``."""
    return [
        Hand.from_line(scoresheet=sheet, number=number, line=hand)
        for number, hand in enumerate(hands[kept:], start=kept + 1)
    ]


def _require_decisions_kept(
    adjudication: SheetAdjudication, *, old: list[HandLine], new: list[HandLine]
) -> None:
    """The scorekeeper corrects hands, but does not move what the adjudicators decided (TSR
    8.2.2, 9.1.3, 9.4.3, 9.4.4; ``doko.rules.sheet_changes.decisions_kept_problems``)."""
    require_valid(
        sheet_changes.decisions_kept_problems(
            old=old,
            new=new,
            stopped=adjudication.stopped,
            without_game_points=adjudication.without_game_points,
            decided=[decision.hand_number for decision in adjudication.decisions],
        )
    )


def _replace_checked(
    sheet: Scoresheet,
    *,
    hands: Sequence[HandLine],
    by: Actor,
    time_over_after_hand: int | None,
    read: "_Read | None" = None,
) -> tuple[list[HandLine], SheetState]:
    """What ``scoresheet_hands_replace`` checks before it stores anything: who writes, the end
    of the playing time, the adjudicators' decisions kept, the TSR. Returns the hands as they
    would be stored, and the sheet as it stands (its hands, seats and adjudication: ``read``
    under the caller's lock, else read here)."""
    if read is None:
        read = _Read.of(sheet)
    _require_may_edit(sheet, by=by, seats=read.seats)
    return _hands_checked(
        sheet,
        hands=hands,
        seats=read.seats,
        stored=read.hands,
        stored_lines=read.lines,
        adjudication=read.adjudication,
        time_over_after_hand=time_over_after_hand,
    )


def _require_may_edit(sheet: Scoresheet, *, by: Actor, seats: list[Seat]) -> None:
    enforce(
        policies.may_edit_sheet(
            sheet=sheet, actor=by, roles=_roles(sheet, by), table_size=len(seats)
        )
    )


def _hands_checked(
    sheet: Scoresheet,
    *,
    hands: Sequence[HandLine],
    seats: list[Seat],
    stored: list[Hand],
    stored_lines: list[HandLine],
    adjudication: SheetAdjudication,
    time_over_after_hand: int | None,
) -> tuple[list[HandLine], SheetState]:
    """``hands`` checked against the sheet as it stands under the lock (its ``stored`` hands,
    as the rules core reads them ``stored_lines``, ``seats`` and ``adjudication``): the end of
    the playing time, the adjudicators' decisions kept, the TSR. Returns them as they would be
    stored, and the sheet as it stands."""
    # Penalty points are the adjudicators' (their decisions), never the scorekeeper's.
    lines = [
        hand if hand.penalty is None else replace(hand, penalty=None)
        for hand in with_game_values(hands)
    ]
    _require_time_over_within(lines, after=time_over_after_hand)
    size = len(seats)
    _require_time_over(sheet, after=time_over_after_hand, table_size=size)
    _require_decisions_kept(adjudication, old=stored_lines, new=lines)
    check = scoresheet_check(
        scoresheet=sheet,
        hands=lines,
        table_size=size,
        time_over_after_hand=time_over_after_hand,
        adjudication=adjudication,
    )
    if not check.ok:
        raise SheetRefused(check.problems)
    now = SheetState(
        sheet=sheet,
        seats=seats,
        hands=stored,
        lines=stored_lines,
        check=check,
        adjudication=adjudication,
    )
    return lines, now


@transaction.atomic
def scoresheet_hands_replace(
    *,
    scoresheet: Scoresheet,
    hands: Sequence[HandLine],
    version: int,
    by: Actor,
    time_over_after_hand: int | None = None,
) -> Scoresheet:
    """Replace all hands of a draft sheet after checking them against the TSR (TSR 7.3.3).

    ``time_over_after_hand``: how many hands had been played when the playing time ended
    (TSR 8.5.1), or None while it runs; after them only forced solos may follow (TSR 8.5.3).
    A hand without a game value takes the one its points show.
    """
    return scoresheet_hands_write(
        scoresheet=scoresheet,
        hands=hands,
        version=version,
        by=by,
        time_over_after_hand=time_over_after_hand,
    ).sheet


@transaction.atomic
def scoresheet_hands_write(
    *,
    scoresheet: Scoresheet,
    hands: Sequence[HandLine],
    version: int,
    by: Actor,
    time_over_after_hand: int | None = None,
) -> SheetState:
    """``scoresheet_hands_replace``, returning the sheet as written with its hands, seats,
    adjudication and check, so that the caller's answer reads none of them again."""
    sheet = _lock(scoresheet, version=version)
    lines, now = _replace_checked(
        sheet, hands=hands, by=by, time_over_after_hand=time_over_after_hand
    )
    return _hands_written(
        sheet, lines=lines, now=now, by=by, time_over_after_hand=time_over_after_hand
    )


@prepared.atomic
def scoresheet_hands_edit(
    *,
    scoresheet: Scoresheet,
    edit: Callable[[SheetState], Sequence[HandLine]],
    version: int,
    by: Actor,
    time_over_after_hand: int | None = None,
) -> SheetState:
    """``scoresheet_hands_write`` for a change made to the hands as they stand: the sheet is
    locked at ``version`` first and read once under the lock (``sheet_state``: its seats, hands,
    the adjudicators' decisions and its check), ``edit`` makes the new hands from it (a hand
    added or corrected), and they are checked and stored as ``scoresheet_hands_replace`` checks
    and stores them. Who may edit is asked before ``edit`` sees anything. ``edit`` may raise
    (the row typed is refused): nothing is written then, and its exception carries on."""
    locked = _lock_read(scoresheet, version=version)
    sheet, seats = locked.sheet, locked.seats
    _require_may_edit(sheet, by=by, seats=seats)
    read = sheet_state(
        sheet=sheet, seats=seats, hands=locked.hands, adjudication=locked.adjudication
    )
    lines, now = _hands_checked(
        sheet,
        hands=edit(read),
        seats=seats,
        stored=read.hands,
        stored_lines=read.lines,
        adjudication=read.adjudication,
        time_over_after_hand=time_over_after_hand,
    )
    return _hands_written(
        sheet, lines=lines, now=now, by=by, time_over_after_hand=time_over_after_hand
    )


def _hands_written(
    sheet: Scoresheet,
    *,
    lines: list[HandLine],
    now: SheetState,
    by: Actor,
    time_over_after_hand: int | None,
) -> SheetState:
    """Store ``lines`` (checked) on the locked sheet standing as ``now`` says, with its record
    and new version; the sheet as written, from what was read."""
    if lines == now.lines and time_over_after_hand == sheet.time_over_after_hand:
        # Nothing changed: no new version, no record.
        return sheet_state_written(
            sheet=sheet, hands=now.hands, seats=now.seats, adjudication=now.adjudication
        )
    before = sheet_snapshot(sheet=sheet, hands=now.lines)
    stored, insert = _hands_storing(sheet, lines, stored=now.hands, stored_lines=now.lines)
    action = (
        ScoresheetChange.Action.HANDS if lines != now.lines else ScoresheetChange.Action.TIME_OVER
    )
    sheet.time_over_after_hand = time_over_after_hand
    sheet = _record(sheet, action=action, by=by, before=before, after=lines, also=[insert])
    return sheet_state_written(
        sheet=sheet,
        hands=stored,
        seats=now.seats,
        adjudication=now.adjudication,
        check=now.check,
    )


@transaction.atomic
def scoresheets_time_over_mark(*, round: Round, by: User) -> list[Scoresheet]:
    """Note the end of the playing time on the sheets of the round's tables whose time is over
    now (TSR 8.5.1, 8.5.3), after the hands written so far; returns the sheets it marked.

    Called when the adjudicator announces the end (``tournaments.play.TablePlay.time_ended``),
    so that no sheet keeps counting the hands of the 24 (30) still to play. Only a draft without
    a mark is touched: a sheet handed in, confirmed or ended early, or one whose mark is already
    noted, stays as it is. A table whose own time runs later (a table of five's 125 minutes, TSR 10.1.5, or
    extra time, TSR 8.5.1) is not marked now: its sheet shows when its time ends, and its
    scorekeeper or an adjudicator notes the end then, as before. The mark is the hands written
    when the end was announced; a hand begun before the end is played to its end (TSR 8.5.1),
    so the scorekeeper or an adjudicator corrects the mark where the paper says otherwise
    (``scoresheet_hands_replace``).

    A paper sheet is typed at the desk after the round, with the mark the paper shows: where
    the tournament keeps its sheets on paper nothing is marked, and where it keeps them on
    phones or on paper, only sheets with a hand written on them (kept on a phone)."""
    keeping = round.tournament.sheet_keeping
    if keeping == SheetKeeping.PAPER:
        return []
    actor = Actor(user=by)
    now = timezone.now()
    marked = []
    sheets = (
        Scoresheet.objects.select_for_update(of=("self",))
        .select_related("table__round__tournament")
        .filter(
            table__round=round,
            status=Scoresheet.Status.DRAFT,
            time_over_after_hand__isnull=True,
            ended_early_at__isnull=True,  # nothing is left to play there
        )
        .order_by("table__number")
    )
    for sheet in sheets:
        if not table_playing_time(table=sheet.table, size=sheet.table_size()).over(now):
            continue
        hands = hand_lines(sheet_hands(sheet))
        if not hands and keeping != SheetKeeping.PHONES:
            continue  # maybe a paper sheet, still to be typed in
        before = sheet_snapshot(sheet=sheet, hands=hands)
        sheet.time_over_after_hand = len(hands)
        marked.append(
            _record(sheet, action=ScoresheetChange.Action.TIME_OVER, by=actor, before=before)
        )
    return marked


def _struck(sheet: Scoresheet, *, number: int, by: Actor) -> tuple[list[HandLine], int | None]:
    """The sheet's hands with hand ``number`` struck out, and where the time-over mark goes."""
    enforce(policies.may_edit_sheet(sheet=sheet, actor=by, roles=_roles(sheet, by)))
    return lines_struck(
        sheet_state(sheet=sheet), number=number, time_over=sheet.time_over_after_hand
    )


def lines_struck(
    state: SheetState, *, number: int, time_over: int | None
) -> tuple[list[HandLine], int | None]:
    """An entry's hands (``state``) with hand ``number`` struck out, the later ones dealt again
    as the TSR says but for those dealt out of turn (TSR 9.7.3), and where the time-over mark
    goes (TSR 8.5.1; ``doko.rules.sheet_changes.lines_struck``)."""
    require_valid([sheet_changes.strike_problem(hands=len(state.lines), number=number)])
    struck = sheet_changes.lines_struck(
        state.lines,
        number=number,
        table_size=state.table_size,
        hands_per_match=state.hands_per_match,
        time_over=time_over,
        out_of_turn=dealt_out_of_turn(state.check),
    )
    return struck.lines, struck.time_over


def scoresheet_hand_strike(
    *, scoresheet: Scoresheet, number: int, version: int, by: Actor
) -> Scoresheet:
    """Strike out hand ``number`` of a draft sheet (TSR 7.3.3): the later hands move up one and
    are dealt again as the TSR says, but for those that stood as dealt out of turn (TSR
    9.7.3); a time-over mark past the last hand moves back to it (TSR 8.5.1). Every hand is
    checked again, as on entry: a sheet the TSR would refuse without the hand (a compulsory
    solo now out of place, say) is refused with its problems, and nothing changes. Returns the
    sheet as saved."""
    hands, time_over = _struck(scoresheet, number=number, by=by)
    return scoresheet_hands_replace(
        scoresheet=scoresheet,
        hands=hands,
        version=version,
        by=by,
        time_over_after_hand=time_over,
    )


def scoresheet_hand_strike_check(*, scoresheet: Scoresheet, number: int, by: Actor) -> None:
    """Refuse as ``scoresheet_hand_strike`` would, saving nothing: for the page that asks
    "Strike out hand 7?" only when it can be done, and otherwise says why."""
    hands, time_over = _struck(scoresheet, number=number, by=by)
    _replace_checked(scoresheet, hands=hands, by=by, time_over_after_hand=time_over)


def scoresheet_locked(scoresheet: Scoresheet) -> Scoresheet:
    """The sheet, locked until the transaction ends, whatever its version: for the
    adjudicators' changes, which do not depend on what a caller read of the hands."""
    return _locked(scoresheet)


def scoresheet_locked_reading(
    scoresheet: Scoresheet, *reads: prepared.Step
) -> tuple[Scoresheet, list]:
    """``scoresheet_locked``, with ``reads`` run under the lock, sent with it in one round trip
    (``prepared.run``); their results come second."""
    return _locked_reading(scoresheet, *reads)


def _stopped_lines(sheet: Scoresheet, doing: str) -> list[HandLine]:
    enforce(
        policies.round_under_way(sheet) or policies.sheet_is(sheet, Scoresheet.Status.DRAFT, doing)
    )
    return hand_lines(sheet_hands(sheet))


def _zero_line(sheet: Scoresheet, lines: list[HandLine], number: int, **fields: Any) -> HandLine:
    """Line ``number`` with no game points, dealt by its dealer: the one on the sheet, or for
    the hand being played the next dealer by the TSR (TSR 3.1, 4.2.5; ``doko.rules.
    sheet_changes.zero_line``)."""
    require_valid([sheet_changes.zero_line_problem(hands=len(lines), number=number)])
    size = sheet.table_size()
    if number <= len(lines):
        dealer = lines[number - 1].dealer
    else:
        dealer = scoresheet_check(scoresheet=sheet, hands=lines, table_size=size).next.dealer
    return sheet_changes.zero_line(dealer=dealer, table_size=size, **fields)


@transaction.atomic
def scoresheet_hand_stop(
    *,
    scoresheet: Scoresheet,
    number: int,
    contract: Contract,
    soloist: int | None,
    solo_type: SoloType | None,
    by: User,
    replace_written: bool = False,
) -> HandLine | None:
    """Put a hand stopped by a major breach on the sheet as line ``number``, counted as not
    played (TSR 9.4.3): no game points, and the same dealer deals it again, so the lines from
    ``number`` on move down one and keep their dealers. ``replace_written``: line ``number`` is
    written and is the stopped game itself, so the stopped game's line takes its place and
    the replay follows. For the adjudication services, when the decision is initialled; a new
    version, recorded like every change. Returns the line replaced, if any."""
    sheet = scoresheet_locked(scoresheet)
    lines = _stopped_lines(
        sheet, _("a hand is stopped only on a draft; the organiser reopens the sheet first")
    )
    stopped = _zero_line(
        sheet,
        lines,
        number,
        contract=contract,
        soloist=soloist,
        solo_type=solo_type,
        not_played=True,
    )
    replaced = lines[number - 1] if replace_written and number <= len(lines) else None
    before = sheet_snapshot(sheet=sheet, hands=lines)
    after = lines[number:] if replaced else lines[number - 1 :]
    _hands_store(sheet, [*lines[: number - 1], stopped, *after])
    _record(sheet, action=ScoresheetChange.Action.HANDS, by=Actor(user=by), before=before)
    return replaced


@transaction.atomic
def scoresheet_hand_unstop(
    *, scoresheet: Scoresheet, number: int, by: User, line: HandLine | None = None
) -> Scoresheet:
    """Take a stopped hand off the sheet again, when the arbitration panel changes or annuls
    the decision that stopped it: the lines after it move up one, or, where the stopped
    game's line replaced the one written (``line``), that line comes back in its place."""
    sheet = scoresheet_locked(scoresheet)
    lines = _stopped_lines(
        sheet, _("a stopped hand is taken off only a draft; the organiser reopens the sheet first")
    )
    if not (1 <= number <= len(lines) and lines[number - 1].not_played):
        raise ValidationError(
            {"hand_number": _("Hand %(hand)d is not a stopped hand.") % {"hand": number}}
        )
    before = sheet_snapshot(sheet=sheet, hands=lines)
    restored = [] if line is None else [line]
    _hands_store(sheet, [*lines[: number - 1], *restored, *lines[number:]])
    return _record(sheet, action=ScoresheetChange.Action.HANDS, by=Actor(user=by), before=before)


def _incomplete(
    sheet: Scoresheet, check: SheetCheck, *, table_size: int, time_noted: bool | None = None
) -> Problem:
    """Why a sheet without problems cannot be handed in yet (TSR 8.5.1, 8.5.3, 8.6.1;
    ``doko.rules.sheet_changes.incomplete_problem``). ``time_noted``: whether the entry
    checked notes the end of the time, if not the sheet as stored. The clock is read only
    where the end is not noted."""
    if time_noted is None:
        time_noted = sheet.time_over_after_hand is not None
    over = time_noted or table_playing_time(table=sheet.table, size=table_size).over(timezone.now())
    return sheet_changes.incomplete_problem(
        time_noted=time_noted,
        time_over=over,
        table_size=table_size,
        remaining=check.next.hands_remaining,
        hands_per_match=sheet.table.round.tournament.hands_at(table_size),
        forced_soloist=check.next.forced_soloist,
    )


@transaction.atomic
def scoresheet_hand_void(
    *,
    scoresheet: Scoresheet,
    number: int,
    contract: Contract,
    soloist: int,
    solo_type: SoloType | None,
    by: User,
    insert: bool = False,
) -> HandLine | None:
    """Count a solo stopped by an opponent's major breach as played, without game points
    (TSR 9.4.4): line ``number`` becomes the solo with a game value of 0 and no points, put on
    the sheet if it is the hand being played, or replacing the points the scorekeeper had
    entered; ``insert``: line ``number`` is written and is the game dealt after the solo, so
    the solo's line goes in before it (the lines from it on move down one). It is a hand played, not one "not played": the deal passes on as after any hand
    (the dealer of a compulsory solo deals again, TSR 4.2.5) and a compulsory solo is the
    soloist's. For the adjudication services, when the decision is initialled; returns the
    line it replaced (None if it put a new one on the sheet)."""
    sheet = scoresheet_locked(scoresheet)
    lines = _stopped_lines(
        sheet,
        _(
            "a solo is counted as played without game points only on a draft; the organiser "
            "reopens the sheet first"
        ),
    )
    line = _zero_line(sheet, lines, number, contract=contract, soloist=soloist, solo_type=solo_type)
    if insert and number <= len(lines):
        # Dealt before the written line: by the dealer before it, as the deal went round.
        size = sheet.table_size()
        check = scoresheet_check(scoresheet=sheet, hands=lines[: number - 1], table_size=size)
        line = replace(line, dealer=check.next.dealer)
    replaced = lines[number - 1] if number <= len(lines) and not insert else None
    before = sheet_snapshot(sheet=sheet, hands=lines)
    after = lines[number - 1 :] if insert else lines[number:]
    _hands_store(sheet, [*lines[: number - 1], line, *after])
    _record(sheet, action=ScoresheetChange.Action.HANDS, by=Actor(user=by), before=before)
    return replaced


@transaction.atomic
def scoresheet_hand_unvoid(
    *, scoresheet: Scoresheet, number: int, line: HandLine | None, by: User, remove: bool = False
) -> bool:
    """Undo ``scoresheet_hand_void`` when the arbitration panel changes or annuls the decision:
    line ``number`` gets back the points the scorekeeper had entered (``line``). A line the
    decision itself put on the sheet (``line`` None) comes off again if it is the last, the
    game having stood still until the panel decided (TSR 9.7.7); with hands after it, it
    stays with no points for the scorekeeper to correct. ``remove``: the decision put the line
    in before a written one (TSR 9.4.4, the written line the game dealt after the solo), so it
    comes off wherever it is. Returns whether the line came off."""
    sheet = scoresheet_locked(scoresheet)
    lines = _stopped_lines(
        sheet,
        _("a solo's points are given back only on a draft; the organiser reopens the sheet first"),
    )
    if not 1 <= number <= len(lines) or lines[number - 1].not_played:
        raise ValidationError(
            {"hand_number": _("Hand %(hand)d is not a solo on the sheet.") % {"hand": number}}
        )
    if line is None and number < len(lines) and not remove:
        return False
    before = sheet_snapshot(sheet=sheet, hands=lines)
    restored = [] if line is None else [line]
    _hands_store(sheet, [*lines[: number - 1], *restored, *lines[number:]])
    _record(sheet, action=ScoresheetChange.Action.HANDS, by=Actor(user=by), before=before)
    return line is None


def _submit_checked(sheet: Scoresheet, *, by: Actor, read: "_Read | None" = None) -> "_Read":
    """What ``scoresheet_submit`` checks before it changes anything; returns what it read (the
    hands, seats and adjudication: ``read`` under the caller's lock, else read here), which the
    hand-in leaves as they are."""
    if read is None:
        read = _Read.of(sheet)
    size = len(read.seats)
    enforce(
        policies.may_submit_sheet(sheet=sheet, actor=by, roles=_roles(sheet, by), table_size=size)
    )
    hands = read.lines
    check = scoresheet_check(
        scoresheet=sheet, hands=hands, table_size=size, adjudication=read.adjudication
    )
    if not check.ok:
        raise SheetRefused(check.problems)
    if not check.complete:
        raise SheetRefused([_incomplete(sheet, check, table_size=size)])
    read.check = check  # handing in changes nothing it reads: the answer shows it as checked
    return read


class _Read:
    """A sheet's hands, seats and adjudication as a workflow step read them under its lock;
    what it did not need is read when the answer asks (``state``)."""

    def __init__(
        self,
        sheet: Scoresheet,
        *,
        hands: list[Hand],
        seats: list[Seat] | None = None,
        adjudication: SheetAdjudication | None = None,
        deeds: list | None = None,
    ) -> None:
        self.sheet, self.hands, self._seats, self._adjudication = sheet, hands, seats, adjudication
        self.deeds = deeds  # the rows of its four-eyes record, where read (``sheet_record``)
        self.lines = hand_lines(hands)
        # The hands' check, where the step made it and left what it reads (the hands, the end
        # of the playing time, an early end) as it was.
        self.check: SheetCheck | None = None

    @classmethod
    def of(cls, sheet: Scoresheet) -> "_Read":
        """The sheet's seats and hands in one round trip, and its adjudication with them
        unless its lock found nothing ruled on it (``_adjudication``)."""
        if sheet.__dict__.get("anything_ruled") is False:
            seats, hands = prepared.run(
                table_seats_read(sheet.table_id), sheet_hands_read(sheet.pk)
            )
            return cls(
                sheet,
                hands=hands_of(sheet, hands),
                seats=seats_at(sheet.table, seats),
                adjudication=NONE,
            )
        seats, hands, adjudication = sheet_read(sheet)
        return cls(sheet, hands=hands, seats=seats, adjudication=adjudication)

    @property
    def seats(self) -> list[Seat]:
        if self._seats is None:
            self._seats = table_seats(self.sheet.table)
        return self._seats

    @property
    def adjudication(self) -> SheetAdjudication:
        if self._adjudication is None:
            self._adjudication = _adjudication(self.sheet)
        return self._adjudication

    def state(self, sheet: Scoresheet, *, deeds: list | None = None) -> SheetState:
        """The sheet as the step left it, its hands unchanged: for the answer, read no more
        (``deeds``: its record's rows, where the step added none the sheet does not say)."""
        return sheet_state_written(
            sheet=sheet,
            hands=self.hands,
            seats=self.seats,
            adjudication=self.adjudication,
            check=self.check,
            deeds=deeds,
        )


def scoresheet_submit(*, scoresheet: Scoresheet, version: int, by: Actor) -> Scoresheet:
    """Hand in a draft sheet (TSR 7.3.4). It must be complete, unless the playing time ended
    (TSR 8.5.1): then it must say after which hand, and the forced solos must follow."""
    return scoresheet_submit_write(
        scoresheet=scoresheet, version=version, by=by, record=False
    ).sheet


@prepared.atomic
def scoresheet_submit_write(
    *, scoresheet: Scoresheet, version: int, by: Actor, record: bool = True
) -> SheetState:
    """``scoresheet_submit``, returning the sheet as it left it with what it read under the
    lock (its hands, seats and adjudication), for the answer to show it without reading it
    again; with ``record`` the rows of its four-eyes record too, for an answer that shows who
    may confirm it now (the page; the API's answer shows no record)."""
    read = _lock_read(scoresheet, version=version, deeds=record)
    sheet = read.sheet
    read = _submit_checked(sheet, by=by, read=read)
    sheet = _submitted(sheet, hands=read.lines, by=by, read=read)
    # The record takes the hand-in from the sheet (who handed it in), the rest from the deeds
    # read under the lock.
    return read.state(sheet, deeds=read.deeds)


def _submitted(
    sheet: Scoresheet, *, hands: list[HandLine], by: Actor, read: "_Read | None" = None
) -> Scoresheet:
    before = sheet_snapshot(sheet=sheet, hands=hands)
    sheet.status = Scoresheet.Status.SUBMITTED
    sheet.submitted_at = timezone.now()
    sheet.submitted_by = by.user
    sheet.submitted_by_seat = by.seat
    sheet.sent_back_reason = sheet.sent_back_by = ""
    return _record(
        sheet, action=ScoresheetChange.Action.SUBMIT, by=by, before=before, after=hands, read=read
    )


def scoresheet_submit_check(*, scoresheet: Scoresheet, by: Actor) -> SheetState:
    """Refuse as ``scoresheet_submit`` would, saving nothing: for the page that shows the totals
    and asks once before handing in, and otherwise says why not. Returns the sheet as the check
    read it (its hands, seats, adjudication and check), for that page to show without reading
    it again."""
    return _submit_checked(scoresheet, by=by).state(scoresheet)


@transaction.atomic
def scoresheet_keeper_move(
    *, scoresheet: Scoresheet, seat: int, version: int, by: Actor
) -> Scoresheet:
    """Hand the sheet over to another player of the table, by agreement at the table (TSR
    3.1.1, 8.4.1): the seating order stays, and from now on that seat's link enters and hands
    in the sheet while the former scorekeeper's only follows and confirms. The organiser or an
    adjudicator notes it, while the sheet is a draft and the round is under way. Moving it to
    the seat that keeps it already changes nothing."""
    sheet = _lock(scoresheet, version=version)
    roles = user_roles(user=by.user, tournament=sheet.table.round.tournament) if by.user else set()
    enforce(policies.may_hand_over_sheet(roles=roles))
    enforce(
        policies.round_under_way(sheet)
        or policies.sheet_is(
            sheet, Scoresheet.Status.DRAFT, _("only a draft's scorekeeper can be changed")
        )
    )
    size = sheet.table_size()
    if not 1 <= seat <= size:
        raise ValidationError(
            {
                "seat": _(
                    "Table %(table)d has seats 1 to %(size)d; seat %(seat)d is not at it "
                    "(TSR 3.1.1)."
                )
                % {"table": sheet.table.number, "size": size, "seat": seat}
            }
        )
    if seat == sheet.keeper(size):
        return sheet  # nothing changed: no new version, no record
    before = sheet_snapshot(sheet=sheet, hands=hand_lines(sheet_hands(sheet)))
    # The rule's own seat is kept as empty, so that "who keeps it" has one answer.
    sheet.keeper_seat = None if seat == scorekeeper(size) else seat
    return _record(sheet, action=ScoresheetChange.Action.KEEPER, by=by, before=before)


def scoresheet_confirm(
    *, scoresheet: Scoresheet, version: int, by: Actor, from_signed_sheet: bool = False
) -> Scoresheet:
    """Confirm a submitted sheet: its points now count in the standings (TSR 8.5.2).

    Someone other than the submitter confirms: another player of the table or staff, who does
    not play at the seat that handed it in (``policies.may_confirm_sheet``).

    ``from_signed_sheet``: a member of the desk confirms a paper sheet from the players'
    signatures on it, which are the second person, so that he may have typed it himself
    (TSR 7.3.4, 8.5.2; ``policies.may_confirm_from_signed_sheet``). A complete draft is then
    handed in and confirmed at once, each step in the history."""
    return scoresheet_confirm_write(
        scoresheet=scoresheet, version=version, by=by, from_signed_sheet=from_signed_sheet
    ).sheet


@prepared.atomic
def scoresheet_confirm_write(
    *, scoresheet: Scoresheet, version: int, by: Actor, from_signed_sheet: bool = False
) -> SheetState:
    """``scoresheet_confirm``, returning the sheet as it left it with what it read under the
    lock, for the answer to show it without reading it again."""
    read = _lock_read(scoresheet, version=version, deeds=not from_signed_sheet)
    sheet = read.sheet
    read = _confirm_checked(sheet, by=by, from_signed_sheet=from_signed_sheet, read=read)
    hands = read.lines
    if sheet.status == Scoresheet.Status.DRAFT:
        sheet = _submitted(sheet, hands=hands, by=by, read=read)
    before = sheet_snapshot(sheet=sheet, hands=hands)
    sheet.status = Scoresheet.Status.CONFIRMED
    sheet.confirmed_at = timezone.now()
    sheet.confirmed_by = by.user
    sheet.confirmed_by_seat = by.seat
    action = ScoresheetChange.Action.CONFIRM
    if from_signed_sheet:
        sheet.confirmation = Scoresheet.Confirmation.SIGNED_SHEET
        action = ScoresheetChange.Action.CONFIRM_SIGNED
    sheet = _record(sheet, action=action, by=by, before=before, after=hands, read=read)
    return read.state(sheet, deeds=read.deeds)  # a confirmation is no deed of the record


def _confirm_checked(
    sheet: Scoresheet, *, by: Actor, from_signed_sheet: bool, read: _Read | None = None
) -> _Read:
    """What ``scoresheet_confirm`` checks before it changes anything; returns what it read
    (``read``: the hands and seats under the caller's lock, else read here)."""
    roles = _roles(sheet, by)
    if read is None:
        read = _Read.of(sheet)
    if not from_signed_sheet:
        # The seats once: for the four-eyes record the policy asks, and for the results; the
        # record's rows read with them under the caller's lock, where it read them.
        sheet_record(sheet, seats=read.seats, deeds=read.deeds)
        enforce(policies.may_confirm_sheet(sheet=sheet, actor=by, roles=roles))
        return read
    enforce(policies.may_confirm_from_signed_sheet(sheet=sheet, actor=by, roles=roles))
    if sheet.status == Scoresheet.Status.DRAFT:
        return _submit_checked(sheet, by=by, read=read)
    return read


def scoresheet_confirm_check(
    *, scoresheet: Scoresheet, by: Actor, from_signed_sheet: bool = False
) -> SheetState:
    """Refuse as ``scoresheet_confirm`` would, saving nothing (the page asks once first).
    Returns the sheet as the check read it, as ``scoresheet_submit_check`` does."""
    read = _confirm_checked(scoresheet, by=by, from_signed_sheet=from_signed_sheet)
    return read.state(scoresheet)


@transaction.atomic
def scoresheet_reopen(
    *, scoresheet: Scoresheet, version: int, by: Actor, reason: str
) -> Scoresheet:
    """Return a submitted or confirmed sheet to draft so that it can be corrected. Only an
    organiser does this, with a reason that stays on the record."""
    sheet = _lock(scoresheet, version=version)
    refusal = policies.may_reopen_sheet(sheet=sheet, actor=by, roles=_roles(sheet, by))
    if refusal is not None and refusal.field is None:
        enforce(refusal)  # not his to do: said before anything about the reason
    reason = reason.strip()
    if not reason:
        raise ValidationError({"reason": _("Say why the scoresheet is reopened.")})
    enforce(refusal)
    return _back_to_draft(sheet, action=ScoresheetChange.Action.REOPEN, by=by, reason=reason)


def _back_to_draft(sheet: Scoresheet, *, action: str, by: Actor, reason: str) -> Scoresheet:
    before = sheet_snapshot(sheet=sheet, hands=hand_lines(sheet_hands(sheet)))
    sheet.status = Scoresheet.Status.DRAFT
    sheet.submitted_at = sheet.confirmed_at = None
    sheet.submitted_by = sheet.confirmed_by = None
    sheet.submitted_by_seat = sheet.confirmed_by_seat = None
    sheet.confirmation = ""
    if action == ScoresheetChange.Action.RETURN:
        sheet.sent_back_reason, sheet.sent_back_by = reason, by.name
    else:
        sheet.sent_back_reason = sheet.sent_back_by = ""
    return _record(sheet, action=action, by=by, before=before, reason=reason)


@transaction.atomic
def scoresheet_return(
    *, scoresheet: Scoresheet, version: int, by: Actor, reason: str
) -> Scoresheet:
    """Send a handed-in sheet back to its scorekeeper before it is confirmed (TSR 7.3.2): any
    player of the table through their link, or sheet staff, says what is wrong; the sheet is a
    draft again, the reason is shown to the scorekeeper on the sheet and kept in its history.
    What it gave provisionally in the standings is taken out until it is handed in again."""
    sheet = _lock(scoresheet, version=version)
    refusal = policies.may_return_sheet(sheet=sheet, actor=by, roles=_roles(sheet, by))
    if refusal is not None and refusal.field is None:
        enforce(refusal)  # not his to do: said before anything about the reason
    reason = reason.strip()
    if not reason:
        raise ValidationError(
            {"reason": _("Say what is wrong, so that the scorekeeper can correct it.")}
        )
    try:
        ProhibitNullCharactersValidator()(reason)
    except ValidationError as error:
        raise ValidationError({"reason": error.messages}) from error
    if len(reason) > RETURN_REASON_LENGTH:
        raise ValidationError(
            {
                "reason": _("Say it in at most %(limit)d characters.")
                % {"limit": RETURN_REASON_LENGTH}
            }
        )
    enforce(refusal)
    return _back_to_draft(sheet, action=ScoresheetChange.Action.RETURN, by=by, reason=reason)


def _account(by: Actor) -> User | AnonymousUser:
    """The account acting, for a policy that asks who plays where; a seat's link has none."""
    return by.user if by.user is not None else AnonymousUser()


def _clean_reason(field: str, reason: str, *, empty: str) -> str:
    """A reason for the record: not empty, no NUL, at most ``RETURN_REASON_LENGTH``."""
    reason = reason.strip()
    if not reason:
        raise ValidationError({field: empty})
    try:
        ProhibitNullCharactersValidator()(reason)
    except ValidationError as error:
        raise ValidationError({field: error.messages}) from error
    if len(reason) > RETURN_REASON_LENGTH:
        raise ValidationError(
            {field: _("Say it in at most %(limit)d characters.") % {"limit": RETURN_REASON_LENGTH}}
        )
    return reason


@transaction.atomic
def scoresheet_end_early(
    *, scoresheet: Scoresheet, version: int, reason: str, by: Actor
) -> Scoresheet:
    """End the sheet of a table that cannot finish, a player having left or been disqualified
    mid-round: a recorded decision with its reason, the hands still to play (derived here, as
    the check counts them) and the compulsory solos still owed waived; the sheet is then
    complete as it stands, to be handed in, confirmed and the round closed. The TSR is silent
    (docs/rules.md, "A table that cannot finish"); who may: ``policies.may_end_sheet_early``. The
    player's later rounds are the withdrawal's or the substitute's (``entry_withdraw``,
    ``entry_replace``, ``entry_disqualify``)."""
    sheet = _lock(scoresheet, version=version)
    roles = _roles(sheet, by)
    refusal = policies.may_end_sheet_early(sheet=sheet, user=_account(by), roles=roles)
    if refusal is not None and refusal.field is None:
        enforce(refusal)  # not his to do: said before anything about the reason
    reason = _clean_reason(
        "reason",
        reason,
        empty=_("Say why the table cannot finish: who left or was disqualified, and when."),
    )
    enforce(refusal)
    hands = hand_lines(sheet_hands(sheet))
    check = scoresheet_check(scoresheet=sheet, hands=hands, table_size=sheet.table_size())
    if not check.ok:
        raise SheetRefused(check.problems)  # what was played is still checked
    before = sheet_snapshot(sheet=sheet, hands=hands)
    sheet.ended_early_reason = reason
    sheet.ended_early_at = timezone.now()
    sheet.ended_early_by = by.name
    sheet.ended_early_hands_not_played = check.next.hands_remaining
    return _record(
        sheet,
        action=ScoresheetChange.Action.END_EARLY,
        by=by,
        before=before,
        reason=reason,
    )


@transaction.atomic
def scoresheet_end_undo(*, scoresheet: Scoresheet, version: int, by: Actor) -> Scoresheet:
    """Take back a mistaken early end (``scoresheet_end_early``) while the sheet is not
    confirmed: the table plays on; a handed-in sheet is a draft again, counting nowhere."""
    sheet = _lock(scoresheet, version=version)
    enforce(policies.may_undo_end_early(sheet=sheet, user=_account(by), roles=_roles(sheet, by)))
    hands = hand_lines(sheet_hands(sheet))
    before = sheet_snapshot(sheet=sheet, hands=hands)
    reason = sheet.ended_early_reason
    sheet.ended_early_reason = sheet.ended_early_by = ""
    sheet.ended_early_at = sheet.ended_early_hands_not_played = None
    action = ScoresheetChange.Action.UNDO_END
    if sheet.status != Scoresheet.Status.DRAFT:
        sheet.status = Scoresheet.Status.DRAFT
        sheet.submitted_at = None
        sheet.submitted_by = None
        sheet.submitted_by_seat = None
    return _record(sheet, action=action, by=by, before=before, reason=reason)


@transaction.atomic
def scoresheet_hand_replay(
    *, scoresheet: Scoresheet, version: int, replay: Replay, note: str = "", by: Actor
) -> Scoresheet:
    """Put the game being played on the sheet as broken off and dealt again (TSR 9.1.3): by the
    consent of the four with the adjudicator's (9.1.3 (2)), or by his ruling in an exceptional
    case, whose facts are recorded (9.1.3 (1): "der Sachverhalt ... zu protokollieren"). Like a
    stopped hand (``scoresheet_hand_stop``) the line has no game points, is not one of the
    round's lines and the same dealer deals again; unlike it, no penalty points. Who may:
    ``policies.may_record_replay``. The ``note`` is kept in the sheet's history."""
    sheet = _lock(scoresheet, version=version)
    roles = _roles(sheet, by)
    refusal = policies.may_record_replay(sheet=sheet, user=_account(by), roles=roles)
    if refusal is not None and refusal.field is None:
        enforce(refusal)
    if replay not in {choice.value for choice in Replay}:
        raise ValidationError(
            {"replay": _("Say why the game is dealt again: by consent or by ruling (TSR 9.1.3).")}
        )
    replay = Replay(replay)
    note = note.strip()
    if replay is Replay.RULING:
        note = _clean_reason(
            "note",
            note,
            empty=_(
                "Record the facts that led to the replay: a replay by ruling is reported to "
                "the DDV's rules commission (TSR 9.1.3)."
            ),
        )
    elif note:
        note = _clean_reason("note", note, empty="")
    enforce(refusal)
    lines = hand_lines(sheet_hands(sheet))
    size = sheet.table_size()
    check = scoresheet_check(scoresheet=sheet, hands=lines, table_size=size)
    if check.complete:
        raise ValidationError(
            {
                "hands": _(
                    "The scoresheet is complete: no game is being played that could be "
                    "dealt again (TSR 9.1.3)."
                )
            }
        )
    # The game broken off scores nothing, whatever was played: written as a normal game.
    line = _zero_line(
        sheet, lines, len(lines) + 1, contract=Contract.NORMAL, not_played=True, replay=replay
    )
    before = sheet_snapshot(sheet=sheet, hands=lines)
    _hands_store(sheet, [*lines, line])
    return _record(
        sheet,
        action=ScoresheetChange.Action.HANDS,
        by=by,
        before=before,
        reason=note,
    )
