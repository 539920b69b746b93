"""Double entry: one paper sheet typed twice, and the two entries compared and settled.

The desk types a sheet the players signed (TSR 7.3.4); where the tournament asks for it, a
second member of the desk types it again without seeing the first entry. Where the two agree,
the sheet stands as typed. Where they differ, hand by hand in the order played (and in the noted
end of the playing time, TSR 8.5.1), the desk takes the paper and says for each difference which
entry has it as the paper does; the sheet is then the first entry with those hands taken from
the second. A hand one entry has and the other lacks is a difference too: taken from the entry
that lacks it, the hand is left out.
"""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from doko.rules.sheet import HandLine

Take = Literal["first", "second"]
TAKE: tuple[Take, Take] = ("first", "second")
# The key of the end of the playing time among the differences (hands count from 1).
TIME_OVER = None


@dataclass(frozen=True)
class Entry:
    """One typing of a sheet: its hands in the order played, and after which hand the playing
    time ended (None while it ran)."""

    hands: Sequence[HandLine]
    time_over_after_hand: int | None = None


class Unsettled(ValueError):
    """A settlement that does not answer every difference (``open``), or answers one that is
    none (``unknown``)."""

    def __init__(self, *, open: list[int | None], unknown: list[int | None]):
        super().__init__(f"open: {open}, unknown: {unknown}")
        self.open = open
        self.unknown = unknown


def differences(first: Entry, second: Entry) -> list[int | None]:
    """Where two entries of a sheet differ: ``TIME_OVER`` first if the end of the playing time
    differs, then the numbers of the hands that differ, in order."""
    found: list[int | None] = []
    if first.time_over_after_hand != second.time_over_after_hand:
        found.append(TIME_OVER)
    for number in range(1, max(len(first.hands), len(second.hands)) + 1):
        if _hand(first, number) != _hand(second, number):
            found.append(number)
    return found


def settled(first: Entry, second: Entry, choices: Mapping[int | None, Take]) -> Entry:
    """The sheet as the paper has it: every differing hand (and the end of the playing time)
    as the entry ``choices`` names for it has it, every other hand as both have it. Raises
    ``Unsettled`` unless ``choices`` answers exactly the differences."""
    found = differences(first, second)
    open_ = [key for key in found if key not in choices]
    unknown = [key for key in choices if key not in found]
    if open_ or unknown:
        raise Unsettled(open=open_, unknown=unknown)
    hands = []
    for number in range(1, max(len(first.hands), len(second.hands)) + 1):
        source = second if choices.get(number) == "second" else first
        hand = _hand(source, number)
        if hand is not None:
            hands.append(hand)
    time_over = second if choices.get(TIME_OVER) == "second" else first
    return Entry(hands=tuple(hands), time_over_after_hand=time_over.time_over_after_hand)


def _hand(entry: Entry, number: int) -> HandLine | None:
    return entry.hands[number - 1] if number <= len(entry.hands) else None
