"""What each seat of a table scored, as its results store it (``tournaments.models.SeatResult``):
game points and solos from the hands (TSR 4.2, 4.3), the initialled penalty points (TSR 8.2.2)
and the deductions (TSR 9.6.2 b), the placing at the table from the points. One computation,
fed by the results' own queries (``scoring.play``) or by what a sheet's write read under its
lock (``sheet_results``)."""

from collections.abc import Iterable, Sequence
from typing import Any

from doko import standings
from doko.rules.contracts import Contract
from doko.rules.deal import SEAT_NUMBERS
from scoring.models import Hand, Scoresheet
from scoring.rulings import SheetAdjudication
from scoring.selectors.record import first_entry_blind
from tournaments.models import Seat, SeatResult
from tournaments.play import HANDED_IN, SheetStatus

SOLO_CONTRACTS = [contract.value for contract in Contract if contract.is_solo]
SEATS = SEAT_NUMBERS
POINTS = [f"points_{seat}" for seat in SEATS]
# A hand as the results read it: contract, not played, soloist, the points of seats 1 to 5.
HAND_FIELDS = ("contract", "not_played", "soloist", *POINTS)


def seat_results(
    seats: Iterable[dict[str, Any]], played: dict[int, list[tuple]]
) -> list[SeatResult]:
    """The results of ``seats`` (each: its table, round, entry, position, whether it is a
    Springer's second seat, sheet and its status,
    points deducted and each seat's penalty points on the sheet), with the hands of their
    sheets in ``played`` (by sheet, as ``HAND_FIELDS``)."""
    by_table: dict[int, list[SeatResult]] = {}
    for seat in seats:
        position = seat["position"]
        lines = played.get(seat["sheet_id"], [])
        points = [line[2 + position] for line in lines]
        game = sum(p for p in points if p is not None)
        solos = [
            p
            for (contract, not_played, soloist, *_), p in zip(lines, points, strict=True)
            if contract in SOLO_CONTRACTS and not not_played and soloist == position
        ]
        penalty_points = seat[f"penalty_{position}"]
        deducted = seat["deducted"]
        by_table.setdefault(seat["table_id"], []).append(
            SeatResult(
                table_id=seat["table_id"],
                round_id=seat["round_id"],
                entry_id=seat["entry_id"],
                position=position,
                game_points=game,
                penalty=penalty_points,
                deducted=deducted,
                points=game + penalty_points - deducted,
                placing=1,
                confirmed=seat["sheet_status"] == SheetStatus.CONFIRMED,
                hands=len(lines),
                solos_played=len(solos),
                solos_won=sum(1 for p in solos if p is not None and p > 0),
                second=seat.get("second", False),
            )
        )
    results = []
    for at_table in by_table.values():
        placings = standings.table_placings({r.position: r.points for r in at_table})
        for result in at_table:
            result.placing = placings[result.position]
            results.append(result)
    return results


def sheet_counts(sheet: Scoresheet) -> bool:
    """Whether a sheet's points count in the results: handed in, and not a first entry checked
    blind at the desk before it is confirmed (``blind_tables``, as the results' query asks)."""
    if sheet.status not in HANDED_IN:
        return False
    return not (sheet.submitted_by_seat_id is None and first_entry_blind(sheet))


def sheet_results(
    sheet: Scoresheet,
    *,
    seats: Sequence[Seat],
    hands: Sequence[Hand],
    adjudication: SheetAdjudication,
) -> list[SeatResult]:
    """The results of one sheet's table from what its write read under the sheet's lock (its
    seats, hands and adjudication): what ``ScoresheetPlay.results`` reads for that table, with
    no query."""
    if not sheet_counts(sheet):
        return []
    penalties: dict[int, int] = {}
    for points in adjudication.penalties.values():
        for seat, value in points.items():
            penalties[seat] = penalties.get(seat, 0) + value
    played = {sheet.pk: [tuple(getattr(hand, name) for name in HAND_FIELDS) for hand in hands]}
    return seat_results(
        (
            {
                "table_id": seat.table_id,
                "round_id": seat.round_id,
                "entry_id": seat.entry_id,
                "position": seat.position,
                "second": seat.second,
                "deducted": -adjudication.deductions.get(seat.position, 0),
                **{f"penalty_{s}": penalties.get(s, 0) for s in SEATS},
                "sheet_id": sheet.pk,
                "sheet_status": sheet.status,
            }
            for seat in seats
        ),
        played,
    )
