"""Double entry: a paper sheet typed a second time at the desk, by another member who does not
see the first entry, and compared with it (``Tournament.double_entry``).

The first entry is the sheet itself, typed and handed in as any sheet is (TSR 7.3.4). The
second is kept apart (``SecondEntry``) and changes nothing on the sheet. Compared with the
handed-in first entry: where both agree, the sheet is confirmed, the first typist named as
who handed it in and the second as who confirmed it (TSR 8.5.2); where they differ, nothing is
overwritten, and the desk settles each differing hand from the paper sheet, all at once: the
sheet then holds the settled hands and is confirmed. Nobody types both entries of one sheet.
"""

from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, replace

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from doko.four_eyes import Account, settle_pair
from doko.rules import double_entry
from doko.rules.sheet import HandLine, SheetCheck, with_game_values
from scoring import policies, selectors
from scoring.models import Scoresheet, ScoresheetChange, SecondEntry, SheetRead
from scoring.policies import Actor
from scoring.rulings import SheetAdjudication, sheet_adjudication
from scoring.selectors import (
    Difference,
    entry_differences,
    hand_lines,
    hand_snapshot,
    scoresheet_check,
    second_entry_lines,
    sheet_snapshot,
)
from scoring.selectors.record import record_forget, sheet_record
from scoring.selectors.sheets import seats_at, sheet_hands, table_seats_read
from scoring.services.sheets import (
    SheetRefused,
    _adjudication,
    _hands_store,
    _incomplete,
    _record,
    _require_time_over,
    _require_time_over_within,
    _roles,
    lines_struck,
    scoresheet_locked,
    scoresheet_locked_reading,
)
from tournaments import prepared
from tournaments.caching import table_changed
from tournaments.policies import enforce
from tournaments.prepared import Prepared, Step

Take = double_entry.Take
TAKE = double_entry.TAKE


class StaleEntryError(ValidationError):
    """The second entry changed since the caller read it (another tab, a queued hand)."""

    def __init__(self, *, current: SecondEntry | None):
        super().__init__(
            _(
                "The second entry of this scoresheet was changed in the meantime (now version "
                "%(version)d). Reload it and enter your change again."
            )
            % {"version": current.version if current is not None else 0},
            code="stale",
        )
        self.current = current


@dataclass(frozen=True)
class Comparison:
    """A second entry compared with the first: the sheet as it is now (confirmed when they
    agreed), the second entry, and the hands in which they differ."""

    sheet: Scoresheet
    entry: SecondEntry
    differences: tuple[Difference, ...]

    @property
    def confirmed(self) -> bool:
        return not self.differences


def _locked(scoresheet: Scoresheet, *reads: Step) -> tuple[Scoresheet, SecondEntry | None, list]:
    """The sheet locked (``scoresheet_locked``), and then its second entry locked, in a
    statement of its own sent with the sheet's lock (one round trip, ``prepared.run``), which
    runs once the sheet's lock is held and sees what a write before it committed. Joined to the
    sheet's lock it would be read as it was when the lock was asked for
    (``tests/test_concurrency.py``). ``reads`` run after both, under them; their results come
    third."""
    sheet, (found, *read) = scoresheet_locked_reading(
        scoresheet, _ENTRY_LOCKED.bound(scoresheet.pk), *reads
    )
    return sheet, (found[0] if found else None), read  # a sheet's second entry is one to one


# Every save of a second entry locks it: the query compiled once.
_ENTRY_LOCKED = Prepared(
    lambda sheet_id: (
        SecondEntry.objects.select_for_update(of=("self",))
        .select_related("by")
        .filter(scoresheet_id=sheet_id)
    )
)


def _with_decision_lines(
    lines: list[HandLine], *, first: list[HandLine], adjudication: SheetAdjudication
) -> list[HandLine]:
    """The lines the adjudicators' decisions put on the sheet (a hand stopped, TSR 9.4.3, or a
    solo counted as played without game points, 9.4.4) are theirs, not the desk's to type:
    where the second entry has reached one, it is taken over from the sheet as it stands."""
    decided = adjudication.stopped | adjudication.without_game_points
    lines = list(lines)
    while (number := len(lines) + 1) in decided and number <= len(first):
        lines.append(first[number - 1])
    return lines


def _checked_lines(
    sheet: Scoresheet,
    hands: Sequence[HandLine],
    *,
    time_over_after_hand: int | None,
    adjudication: SheetAdjudication | None = None,
    table_size: int | None = None,
) -> tuple[list[HandLine], SheetCheck]:
    """The second entry's hands as they would be stored, checked against the TSR as the
    first entry's are (TSR 7.3.3, 8.5.1), and their check; ``adjudication`` and
    ``table_size`` if read."""
    if adjudication is None:
        adjudication = sheet_adjudication(sheet=sheet)
    lines = [replace(hand, penalty=None) for hand in with_game_values(hands)]
    if adjudication.stopped or adjudication.without_game_points:
        # The first entry's hands are read only where a decision put a line on them.
        first = hand_lines(sheet_hands(sheet))
        lines = _with_decision_lines(lines, first=first, adjudication=adjudication)
    _require_time_over_within(lines, after=time_over_after_hand)
    size = table_size if table_size is not None else sheet.table_size()
    _require_time_over(sheet, after=time_over_after_hand, table_size=size)
    check = scoresheet_check(
        scoresheet=sheet,
        hands=lines,
        table_size=size,
        time_over_after_hand=time_over_after_hand,
        adjudication=adjudication,
    )
    if not check.ok:
        raise SheetRefused(check.problems)
    return lines, check


def _store(
    sheet: Scoresheet,
    entry: SecondEntry | None,
    *,
    lines: list[HandLine],
    time_over_after_hand: int | None,
    by: User,
) -> SecondEntry:
    if entry is None:
        entry = SecondEntry(scoresheet=sheet, by=by, version=0)
    entry.hands = [hand_snapshot(line) for line in lines]
    entry.time_over_after_hand = time_over_after_hand
    entry.version += 1
    # What it was compared with before no longer holds, nor a settlement proposed for it.
    entry.differences = []
    entry.compared_at = None
    entry.proposed_choices = entry.proposed_by = entry.proposed_at = None
    prepared.save(entry)
    table_changed(
        round_id=sheet.table.round_id, number=sheet.table.number
    )  # the desk shows how far the second entry is
    return entry


@transaction.atomic
def second_entry_hands_replace(
    *,
    scoresheet: Scoresheet,
    hands: Sequence[HandLine],
    by: User,
    version: int,
    time_over_after_hand: int | None = None,
) -> SecondEntry:
    """Replace the hands of a paper sheet's second entry, checked against the TSR as the first
    entry's are (TSR 7.3.3), for the page that saves it hand by hand. ``version``: the second
    entry's, 0 before it exists; a stale one is refused (``StaleEntryError``). Nothing of the
    first entry is read out, and the sheet does not change."""
    entry, _state = second_entry_hands_edit(
        scoresheet=scoresheet,
        edit=lambda _read: hands,
        by=by,
        version=version,
        time_over_after_hand=time_over_after_hand,
    )
    return entry


@transaction.atomic
def second_entry_hands_edit(
    *,
    scoresheet: Scoresheet,
    edit: Callable[[selectors.SheetState], Sequence[HandLine]],
    by: User,
    version: int,
    time_over_after_hand: int | None = None,
    roles: Collection[str] | None = None,
) -> tuple[SecondEntry, selectors.SheetState]:
    """``second_entry_hands_replace`` for a change made to the second entry as it stands,
    returning the entry as written and its state (``second_entry_state``, its ``sheet`` the one
    locked) from what the write read, so that the caller reads none of it again: the
    sheet and the entry are locked first and read once under the lock (``second_entry_state``:
    the seats, the entry's hands, the adjudicators' decisions and its check), who may type is
    asked, the ``version`` compared, then ``edit`` makes the new hands from it, and they are
    checked against the TSR as the first entry's are (TSR 7.3.3, 8.5.1) and stored. ``edit``
    may raise (the row typed is refused): nothing is written then, and its exception carries
    on."""
    sheet, entry, (seats,) = _locked(scoresheet, table_seats_read(scoresheet.table_id))
    seats = seats_at(sheet.table, seats)
    # The record the policy asks, from the seats read and the second entry locked.
    sheet_record(sheet, seats=seats, second_by=[entry.by_id] if entry is not None else [])
    actor = Actor(user=by)
    if roles is None:
        roles = _roles(sheet, actor)
    enforce(policies.may_enter_second(sheet=sheet, actor=actor, roles=roles, entry=entry))
    if (entry.version if entry is not None else 0) != version:
        raise StaleEntryError(current=entry)
    read = selectors.second_entry_state(
        sheet=sheet, entry=entry, seats=seats, adjudication=_adjudication(sheet)
    )
    adjudication = read.adjudication
    lines, check = _checked_lines(
        sheet,
        edit(read),
        time_over_after_hand=time_over_after_hand,
        adjudication=adjudication,
        table_size=len(seats),
    )
    begun = entry is None
    entry = _store(sheet, entry, lines=lines, time_over_after_hand=time_over_after_hand, by=by)
    if begun:
        record_forget(sheet)  # who types the second entry is in the sheet's record now
    state = selectors.second_entry_state(
        sheet=sheet, entry=entry, seats=seats, adjudication=adjudication, check=check, read=read
    )
    return entry, state


def second_entry_hand_strike(
    *, scoresheet: Scoresheet, number: int, by: User, version: int
) -> SecondEntry:
    """Strike out hand ``number`` of a second entry, as ``scoresheet_hand_strike`` does on the
    sheet: the later hands move up and are dealt again as the TSR says (TSR 9.7.3)."""
    entry = selectors.second_entry_get(sheet=scoresheet)
    actor = Actor(user=by)
    enforce(
        policies.may_enter_second(
            sheet=scoresheet, actor=actor, roles=_roles(scoresheet, actor), entry=entry
        )
    )
    state = selectors.second_entry_state(sheet=scoresheet, entry=entry)
    time_over = entry.time_over_after_hand if entry is not None else None
    hands, time_over = lines_struck(state, number=number, time_over=time_over)
    return second_entry_hands_replace(
        scoresheet=scoresheet,
        hands=hands,
        by=by,
        version=version,
        time_over_after_hand=time_over,
    )


def _require_complete(sheet: Scoresheet, entry: SecondEntry | None) -> list[HandLine]:
    """A second entry is compared once it is complete, as a sheet is handed in (TSR 8.5.1,
    8.5.3); returns its lines."""
    if entry is None:
        raise ValidationError(
            {"hands": _("Nobody has typed the second entry of this scoresheet yet.")}
        )
    lines = second_entry_lines(entry)
    size = sheet.table_size()
    check = scoresheet_check(
        scoresheet=sheet,
        hands=lines,
        table_size=size,
        time_over_after_hand=entry.time_over_after_hand,
    )
    if not check.ok:
        raise SheetRefused(check.problems)
    if not check.complete:
        # Said as for handing the first entry in; the end of the time is the entry's own.
        noted = entry.time_over_after_hand is not None
        raise SheetRefused([_incomplete(sheet, check, table_size=size, time_noted=noted)])
    return lines


def _confirm_by_double_entry(sheet: Scoresheet, entry: SecondEntry) -> Scoresheet:
    """Both entries agree: the sheet is confirmed, by the second typist (TSR 8.5.2)."""
    before = sheet_snapshot(sheet=sheet, hands=hand_lines(sheet_hands(sheet)))
    sheet.status = Scoresheet.Status.CONFIRMED
    sheet.confirmed_at = timezone.now()
    sheet.confirmed_by = entry.by
    sheet.confirmed_by_seat = None
    sheet.confirmation = Scoresheet.Confirmation.DOUBLE_ENTRY
    return _record(
        sheet,
        action=ScoresheetChange.Action.CONFIRM_DOUBLE,
        by=Actor(user=entry.by),
        before=before,
    )


def _compared(sheet: Scoresheet, entry: SecondEntry | None, *, by: User) -> Comparison:
    actor = Actor(user=by)
    enforce(policies.may_compare_entries(sheet=sheet, actor=actor, roles=_roles(sheet, actor)))
    lines = _require_complete(sheet, entry)
    assert entry is not None  # a complete entry exists (_require_complete)
    differences = entry_differences(
        first=hand_lines(sheet_hands(sheet)),
        first_time_over=sheet.time_over_after_hand,
        second=lines,
        second_time_over=entry.time_over_after_hand,
    )
    if not differences:
        return Comparison(sheet=_confirm_by_double_entry(sheet, entry), entry=entry, differences=())
    entry.differences = [difference.hand or 0 for difference in differences]
    entry.compared_at = timezone.now()
    entry.save(update_fields=["differences", "compared_at", "updated_at"])
    table_changed(
        round_id=sheet.table.round_id, number=sheet.table.number
    )  # the desk has differences to settle
    return Comparison(sheet=sheet, entry=entry, differences=tuple(differences))


@transaction.atomic
def second_entry_compare(*, scoresheet: Scoresheet, by: User) -> Comparison:
    """Compare a complete second entry with the handed-in first: the sheet is confirmed when
    they agree, else the differing hands are noted for the desk to settle, and nothing else
    changes. Any member of the desk may ask."""
    sheet, entry, _read = _locked(scoresheet)
    return _compared(sheet, entry, by=by)


@transaction.atomic
def second_entry_submit(
    *,
    scoresheet: Scoresheet,
    hands: Sequence[HandLine],
    by: User,
    time_over_after_hand: int | None = None,
) -> Comparison:
    """The whole second entry at once (the API): stored and compared with the handed-in first
    entry in one step. The first entry must be handed in and the second complete; else
    nothing is saved. Differences leave the second entry stored, the sheet unchanged."""
    sheet, entry, _read = _locked(scoresheet)
    actor = Actor(user=by)
    enforce(
        policies.may_enter_second(sheet=sheet, actor=actor, roles=_roles(sheet, actor), entry=entry)
    )
    enforce(policies.may_compare_entries(sheet=sheet, actor=actor, roles=_roles(sheet, actor)))
    lines, _check = _checked_lines(sheet, hands, time_over_after_hand=time_over_after_hand)
    entry = _store(sheet, entry, lines=lines, time_over_after_hand=time_over_after_hand, by=by)
    return _compared(sheet, entry, by=by)


@transaction.atomic
def second_entry_discard(*, scoresheet: Scoresheet, by: User) -> None:
    """Throw the second entry away, so that it can be typed again (its typist stopped, or
    someone else should type it)."""
    sheet = scoresheet_locked(scoresheet)
    actor = Actor(user=by)
    enforce(policies.may_discard_second_entry(sheet=sheet, actor=actor, roles=_roles(sheet, actor)))
    SecondEntry.objects.filter(scoresheet_id=sheet.pk).delete()
    table_changed(round_id=sheet.table.round_id, number=sheet.table.number)


def _settled(
    choices: Mapping[int | None, Take],
    *,
    first: list[HandLine],
    second: list[HandLine],
    first_time_over: int | None,
    second_time_over: int | None,
) -> tuple[list[HandLine], int | None]:
    """The sheet as the paper says it (``doko.rules.double_entry.settled``); refused on
    ``choices`` unless they settle exactly the differences."""
    try:
        entry = double_entry.settled(
            double_entry.Entry(hands=first, time_over_after_hand=first_time_over),
            double_entry.Entry(hands=second, time_over_after_hand=second_time_over),
            choices,
        )
    except double_entry.Unsettled as error:
        names = ", ".join(
            _("the end of the playing time") if hand is None else str(hand)
            for hand in error.open or error.unknown
        )
        raise ValidationError(
            {
                "choices": (
                    _("Settle every difference from the paper sheet; still open: %(hands)s.")
                    if error.open
                    else _("These hands do not differ between the two entries: %(hands)s.")
                )
                % {"hands": names}
            }
        ) from error
    return list(entry.hands), entry.time_over_after_hand


@dataclass(frozen=True)
class Settlement:
    """What a settlement came to: the sheet, confirmed; or (``proposed``) one typist's
    proposal, kept for the other typist to agree to."""

    sheet: Scoresheet
    proposed: bool = False


def _choices_stored(choices: Mapping[int | None, Take]) -> dict[str, str]:
    """``choices`` as a proposal keeps them: by the hand's number, "0" for the end of the
    playing time."""
    return {str(hand or 0): take for hand, take in sorted(choices.items(), key=lambda c: c[0] or 0)}


def settlement_proposed(entry: SecondEntry | None) -> dict[int | None, Take] | None:
    """The settlement one typist proposed and the other has yet to agree to, if any."""
    if entry is None or entry.proposed_choices is None:
        return None
    return {
        (int(hand) or None): take for hand, take in entry.proposed_choices.items() if take in TAKE
    }


@transaction.atomic
def second_entry_settle(
    *, scoresheet: Scoresheet, choices: Mapping[int | None, Take], by: User
) -> Settlement:
    """Settle the hands in which a sheet's two entries differ, each from the paper sheet:
    ``choices`` says, for every differing hand (None: the end of the playing time), which
    entry has it as the paper does. The settled sheet is checked against the TSR as a sheet
    handed in is; the sheet then holds it (the change in its history, ``SETTLE``), and is
    confirmed by double entry. Refused whole, nothing saved, if a difference is left open or
    the settled sheet breaks a rule.

    Who settles is a second person to both entries (``doko.four_eyes``): a member of the desk
    who typed neither settles alone; a typist of either only proposes (kept, and in the
    history), and the sheet is settled when the other typist chooses the same (he agrees)."""
    sheet, entry, _read = _locked(scoresheet)
    actor = Actor(user=by)
    roles = _roles(sheet, actor)
    enforce(policies.may_compare_entries(sheet=sheet, actor=actor, roles=roles))
    second = _require_complete(sheet, entry)
    assert entry is not None  # a complete entry exists (_require_complete)
    first = hand_lines(sheet_hands(sheet))
    differences = entry_differences(
        first=first,
        first_time_over=sheet.time_over_after_hand,
        second=second,
        second_time_over=entry.time_over_after_hand,
    )
    if not differences:
        return Settlement(_confirm_by_double_entry(sheet, entry))
    alone = policies.may_settle_differences(sheet=sheet, actor=actor, roles=roles)
    if alone is not None:
        enforce(policies.may_propose_settlement(sheet=sheet, actor=actor, roles=roles))
    lines, time_over = _settled(
        choices,
        first=first,
        second=second,
        first_time_over=sheet.time_over_after_hand,
        second_time_over=entry.time_over_after_hand,
    )
    size = sheet.table_size()
    check = scoresheet_check(
        scoresheet=sheet, hands=lines, table_size=size, time_over_after_hand=time_over
    )
    if not check.ok:
        raise SheetRefused(check.problems)
    if not check.complete:
        noted = time_over is not None
        raise SheetRefused([_incomplete(sheet, check, table_size=size, time_noted=noted)])
    before = sheet_snapshot(sheet=sheet, hands=first)
    reason = _settle_reason(differences, choices)
    if alone is not None:
        proposer = entry.proposed_by
        record = sheet_record(sheet)
        agreed = (
            proposer is not None
            and proposer.pk != by.pk
            and settlement_proposed(entry) == dict(choices)
            and settle_pair(
                proposer={Account(proposer.pk)},
                agreeing={Account(by.pk)},
                record=record.done,
                same=record.same,
            )
        )
        if not agreed:
            return Settlement(_propose(sheet, entry, choices, by=actor, before=before), True)
        assert proposer is not None  # agreed to his proposal
        reason = _("%(reason)s Proposed by %(proposer)s, agreed by %(agreeing)s.") % {
            "reason": reason,
            "proposer": Actor(user=proposer).name,
            "agreeing": actor.name,
        }
    if lines != first:
        _hands_store(sheet, lines)
    sheet.time_over_after_hand = time_over
    sheet = _record(
        sheet, action=ScoresheetChange.Action.SETTLE, by=actor, before=before, reason=reason
    )
    entry = _store(sheet, entry, lines=lines, time_over_after_hand=time_over, by=entry.by)
    return Settlement(_confirm_by_double_entry(sheet, entry))


def _propose(
    sheet: Scoresheet,
    entry: SecondEntry,
    choices: Mapping[int | None, Take],
    *,
    by: Actor,
    before: dict,
) -> Scoresheet:
    """Keep one typist's settlement for the other to agree to, replacing an earlier proposal;
    the history names the step and who took it."""
    assert by.user is not None  # the desk acts through its accounts
    entry.proposed_choices = _choices_stored(choices)
    entry.proposed_by = by.user
    entry.proposed_at = timezone.now()
    entry.save(update_fields=["proposed_choices", "proposed_by", "proposed_at", "updated_at"])
    reason = _("Proposed, for the other typist to agree: %(choices)s") % {
        "choices": _settle_reason(
            [Difference(hand=hand, first=None, second=None) for hand in choices], choices
        )
    }
    return _record(
        sheet,
        action=ScoresheetChange.Action.SETTLE_PROPOSED,
        by=by,
        before=before,
        reason=reason,
    )


@transaction.atomic
def sheet_first_entry_open(*, scoresheet: Scoresheet, by: User, where: str) -> bool:
    """Open the hands of a blind first entry (``policies.first_entry_hidden``) all the same, as
    a member of staff (``policies.may_open_first_entry``): recorded (``SheetRead``, ``where``
    it was opened), and he no longer types the sheet's second entry. Returns whether it was
    recorded now (False: he sees it anyway, or opened it before)."""
    sheet = scoresheet_locked(scoresheet)
    actor = Actor(user=by)
    if policies.first_entry_hidden(sheet=sheet, actor=actor) is None:
        return False
    enforce(policies.may_open_first_entry(sheet=sheet, actor=actor, roles=_roles(sheet, actor)))
    _read, made = SheetRead.objects.get_or_create(
        scoresheet=sheet, by=by, defaults={"where": where[:40]}
    )
    record_forget(scoresheet)
    record_forget(sheet)
    return made


def _settle_reason(differences: Sequence[Difference], choices: Mapping[int | None, Take]) -> str:
    """What the history says of a settlement: each differing hand and the entry the paper
    sheet agreed with."""
    parts = []
    for difference in differences:
        what = (
            _("end of the playing time")
            if difference.hand is None
            else _("hand %(hand)d") % {"hand": difference.hand}
        )
        parts.append(
            (
                _("%(what)s as in the first entry")
                if choices[difference.hand] == "first"
                else _("%(what)s as in the second entry")
            )
            % {"what": what}
        )
    return _("From the paper sheet: %(parts)s.") % {"parts": "; ".join(parts)}
