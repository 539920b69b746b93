"""What counts on a scoresheet besides its hands: the adjudicator's initialled decisions and
the deductions for unsporting conduct, as the sheet's check, totals, printout and results need
them.

Scoring sits below adjudication: adjudication's models point at scoresheets and its services
call scoring's, so scoring may not import it. Yet a sheet's check counts the decisions
(penalty points, hands stopped, TSR 8.2.2, 9.4), and a seat's points count the penalty points
and deductions. So what scoring asks is said here (``Rulings``), and the adjudication app
registers its answers when Django starts (``AdjudicationConfig.ready`` calls ``register``);
without it a sheet has no rulings.
"""

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from django.db.models import Expression, Value

from tournaments import prepared


@dataclass(frozen=True)
class SheetAdjudication:
    """What counts on one scoresheet besides the hands: the penalty points of initialled
    decisions by hand and seat (TSR 8.2.2), the hands stopped and counted as not played
    (TSR 9.4.3) or as played without game points (TSR 9.4.4), and the points deducted from
    seats for unsporting conduct (TSR 9.6.2 b)."""

    decisions: Sequence[Any] = ()  # every one (adjudication's Decision rows), for the record
    deductions: Mapping[int, int] = field(default_factory=dict)  # by seat, negative

    @property
    def counting(self) -> list[Any]:
        """The decisions that count: initialled, neither superseded nor annulled."""
        return [d for d in self.decisions if d.counts]

    @property
    def penalties(self) -> dict[int, dict[int, int]]:
        """The initialled penalty points by hand number and seat, several decisions summed."""
        by_hand: dict[int, dict[int, int]] = {}
        for decision in self.counting:
            points = by_hand.setdefault(decision.hand_number, {})
            for seat, value in decision.penalty.items():
                points[seat] = points.get(seat, 0) + value
        return by_hand

    @property
    def decisions_by_hand(self) -> dict[int, tuple[dict[int, int], ...]]:
        """The initialled penalty points by hand number, decision by decision, for the exact
        odd-even check (TSR 7.3.3.2, ``doko.rules.sheet.penalty_parity_explained``)."""
        by_hand: dict[int, tuple[dict[int, int], ...]] = {}
        for decision in self.counting:
            by_hand[decision.hand_number] = (
                *by_hand.get(decision.hand_number, ()),
                dict(decision.penalty),
            )
        return by_hand

    @property
    def stopped(self) -> set[int]:
        """The lines of hands stopped and counted as not played (TSR 9.4.3)."""
        return {d.hand_number for d in self.counting if d.hand_not_played}

    @property
    def without_game_points(self) -> set[int]:
        """The lines of solos counted as played without game points (TSR 9.4.4)."""
        return {d.hand_number for d in self.counting if d.played_without_game_points}

    @property
    def ended(self) -> dict[int, Any]:
        """The hands a major breach ended, with the initialled decision that did (TSR 9.4.2,
        9.5.1): whether counted as not played (9.4.3) or as played (9.4.4, 9.5.1), nothing
        more in them is penalised (TSR 9.7.6)."""
        return {d.hand_number: d for d in self.counting if d.severity == "major"}


NONE = SheetAdjudication()


@dataclass(frozen=True)
class Reading:
    """The reads of a sheet's adjudication, to be sent with others (``prepared.run``), and
    what makes it of their results (``made(sheet, results)``)."""

    steps: tuple[prepared.Step, ...]
    made: Callable[[Any, list], SheetAdjudication]


NO_READING = Reading(steps=(), made=lambda sheet, results: NONE)


def initials(user: Any) -> str:
    """A user's initials, as an adjudicator signs a scoresheet: of the first and last name,
    else the user name."""
    name = f"{user.first_name[:1]}{user.last_name[:1]}".upper()
    return name or user.get_username()


class Rulings(Protocol):
    """The questions scoring asks about the adjudication of its sheets."""

    def of_sheet(self, *, sheet: Any) -> SheetAdjudication:
        """The decisions on a sheet and the deductions of its players in its round."""

    def of_table(self, *, round_id: int, number: int) -> Reading:
        """``of_sheet`` for the sheet of table ``number`` of the round, its reads found by the
        table, to be sent with the table's own: its page is built before its sheet is read."""

    def penalty_sum(self, seat: int, *, sheet: str) -> Expression:
        """The initialled penalty points of ``seat`` (TSR 8.2.2) on the sheet whose key the
        query's rows name by the path ``sheet``, summed (0 without any)."""

    def deducted_sum(self, *, entry: str, round: str) -> Expression:
        """The points deducted for unsporting conduct (TSR 9.6.2 b) from the player named by
        the path ``entry`` in the round named by ``round``, summed (0 without any)."""

    def anything_ruled(self) -> Expression:
        """For a query of scoresheets: whether anything is ruled that ``of_sheet`` would read,
        a decision on the sheet or a deduction from a player of its table in its round
        (False where there is none: the sheet's adjudication is then ``NONE``)."""

    def open_count(self, *, sheet: str) -> Expression:
        """How many complaints on the sheet whose key the query's rows name by the path
        ``sheet`` wait for the adjudicator: not ruled yet, or ruled and not initialled (TSR
        8.2.2); 0 without any."""


class _NoRulings:
    """Without the adjudication app: no decisions, no deductions."""

    def of_sheet(self, *, sheet: Any) -> SheetAdjudication:
        return NONE

    def of_table(self, *, round_id: int, number: int) -> Reading:
        return NO_READING

    def penalty_sum(self, seat: int, *, sheet: str) -> Expression:
        return Value(0)

    def deducted_sum(self, *, entry: str, round: str) -> Expression:
        return Value(0)

    def anything_ruled(self) -> Expression:
        return Value(False)

    def open_count(self, *, sheet: str) -> Expression:
        return Value(0)


_rulings: Rulings = _NoRulings()


def register(rulings: Rulings) -> None:
    """The adjudication app's answers (registered once, at start-up)."""
    global _rulings
    _rulings = rulings


def given() -> Rulings:
    """The rulings, as the app that makes them answers."""
    return _rulings


def sheet_adjudication(*, sheet: Any) -> SheetAdjudication:
    """The decisions on a sheet and the deductions of its players in its round."""
    return _rulings.of_sheet(sheet=sheet)


def table_adjudication_reading(*, round_id: int, number: int) -> Reading:
    """``sheet_adjudication`` of the sheet of table ``number`` of the round, as reads to send
    with others (``Reading``)."""
    return _rulings.of_table(round_id=round_id, number=number)
