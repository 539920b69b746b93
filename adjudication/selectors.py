"""Reads for adjudication: what the adjudicators decided about a sheet, a table or a
tournament."""

from dataclasses import dataclass, field

from adjudication.models import Decision, Sanction
from scoring.models import Scoresheet


@dataclass(frozen=True)
class SheetAdjudication:
    """What counts on one scoresheet besides the hands: the penalty points of initialled
    decisions by hand and seat (TSR 8.2.2), the hands stopped and counted as not played
    (TSR 9.4.3), and the points deducted from seats for unsporting conduct (TSR 9.7.2 b)."""

    decisions: list[Decision] = field(default_factory=list)  # every one, for the record
    deductions: dict[int, int] = field(default_factory=dict)  # by seat, negative

    @property
    def counting(self) -> list[Decision]:
        return [d for d in self.decisions if d.status == Decision.Status.INITIALLED]

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
        return {d.hand_number for d in self.counting if d.hand_not_played}

    def of_hand(self, number: int) -> list[Decision]:
        return [d for d in self.decisions if d.hand_number == number]


NONE = SheetAdjudication()


def sheet_adjudication(*, sheet: Scoresheet) -> SheetAdjudication:
    """The decisions on a sheet and the deductions of its players in its round, in two
    queries."""
    decisions = list(
        Decision.objects.filter(scoresheet=sheet)
        .select_related("initialled_by", "offence")
        .order_by("hand_number", "recorded_at", "pk")
    )
    deductions: dict[int, int] = {}
    for position, points in Sanction.objects.filter(
        round_id=sheet.table.round_id,
        kind=Sanction.Kind.DEDUCTION,
        entry__seats__table_id=sheet.table_id,
    ).values_list("entry__seats__position", "points"):
        deductions[position] = deductions.get(position, 0) - points
    return SheetAdjudication(decisions=decisions, deductions=deductions)
