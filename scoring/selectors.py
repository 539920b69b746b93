"""Reads for scoresheets."""

from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from scoring.models import Hand, Scoresheet
from scoring.rules.contracts import Contract, SoloType
from scoring.rules.sheet import HandLine, SheetCheck, check_sheet


@dataclass(frozen=True)
class HandRow:
    hand: Hand
    points: list[int | None]  # per seat 1..table size; None for the dealer sitting out
    totals: list[int]  # running totals per seat after this hand


def hand_lines(hands: list[Hand]) -> list[HandLine]:
    """Stored hands as the rules core reads them."""
    return [
        HandLine(
            contract=Contract(hand.contract),
            dealer=hand.dealer,
            points=hand.points,
            soloist=hand.soloist,
            solo_type=SoloType(hand.solo_type) if hand.solo_type else None,
            game_value=hand.game_value,
        )
        for hand in hands
    ]


def scoresheet_rows(*, hands: list[Hand], table_size: int) -> list[HandRow]:
    """The hands in the order played, with running totals per seat (TSR 7.3.1)."""
    totals = [0] * table_size
    rows = []
    for hand in hands:
        points = hand.points
        totals = [total + points.get(seat, 0) for seat, total in enumerate(totals, start=1)]
        shown = [
            None if table_size == 5 and seat == hand.dealer else points.get(seat)
            for seat in range(1, table_size + 1)
        ]
        rows.append(HandRow(hand=hand, points=shown, totals=totals))
    return rows


def scoresheet_check(
    *,
    scoresheet: Scoresheet,
    hands: list[HandLine],
    table_size: int,
    time_over_after_hand: int | None = None,
) -> SheetCheck:
    """Check hands against the TSR for this sheet's table size and match length (TSR 7.3.3)."""
    if table_size not in (4, 5):
        raise ValidationError(
            _("Table %(table)d seats %(count)d players; a table seats 4 or 5 (TSR 8.3, 10.1).")
            % {"table": scoresheet.table.number, "count": table_size}
        )
    tournament = scoresheet.table.round.tournament
    hands_per_match = (
        tournament.hands_per_match if table_size == 4 else tournament.hands_per_match_five
    )
    for number, hand in enumerate(hands, start=1):
        if set(hand.points) != set(range(1, table_size + 1)):
            raise ValidationError(
                {
                    "hands": _("Hand %(hand)d: enter points for seats 1 to %(size)d.")
                    % {"hand": number, "size": table_size}
                }
            )
    return check_sheet(
        table_size=table_size,
        hands_per_match=hands_per_match,
        hands=hands,
        time_over_after_hand=time_over_after_hand,
    )


def hand_snapshot(line: HandLine) -> dict:
    return {
        "dealer": line.dealer,
        "contract": str(line.contract),
        "soloist": line.soloist,
        "solo_type": str(line.solo_type) if line.solo_type else None,
        "game_value": line.game_value,
        "points": [line.points[seat] for seat in sorted(line.points)],
    }


def sheet_snapshot(*, sheet: Scoresheet, hands: list[HandLine]) -> dict:
    """What a sheet holds, as kept in its change record and returned by the API."""
    return {
        "status": sheet.status,
        "time_over_after_hand": sheet.time_over_after_hand,
        "hands": [hand_snapshot(line) for line in hands],
    }
