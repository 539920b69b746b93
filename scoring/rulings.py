"""What counts on a scoresheet besides its hands: the adjudicator's initialled decisions and
the deductions for unsporting conduct, as the sheet's check, totals and printout need them.

Scoring sits below adjudication: adjudication's models point at scoresheets and its services
call scoring's, so scoring may not import it. Yet a sheet's check counts the decisions
(penalty points, hands stopped, TSR 8.2.2, 9.4). So the data is described here, and the
adjudication app plugs in the function that reads it when Django starts
(``AdjudicationConfig.ready`` calls ``reader_register``); without it a sheet has no rulings.
"""

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any


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

    def of_hand(self, number: int) -> list[Any]:
        return [d for d in self.decisions if d.hand_number == number]


NONE = SheetAdjudication()

_reader: Callable[..., SheetAdjudication] = lambda *, sheet: NONE  # noqa: E731


def reader_register(reader: Callable[..., SheetAdjudication]) -> None:
    """The adjudication app's reader of a sheet's rulings, called as ``reader(sheet=...)``
    (registered once, at start-up)."""
    global _reader
    _reader = reader


def sheet_adjudication(*, sheet: Any) -> SheetAdjudication:
    """The decisions on a sheet and the deductions of its players in its round."""
    return _reader(sheet=sheet)
