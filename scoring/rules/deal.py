"""Who deals, who plays and who must play a forced solo (TSR 3.3.1, 4.2, 10.1).

Seats are numbered clockwise from 1; the deal passes to the left, from seat n to seat n + 1
(TSR 3.3.1, 3.3.2). At a table of five the dealer sits out the hand (TSR 10.1.1).
"""

from collections.abc import Iterable

from scoring.rules.contracts import Contract

TABLE_SIZES = (4, 5)


def check_table_size(table_size: int) -> None:
    if table_size not in TABLE_SIZES:
        raise ValueError(f"a table seats 4 or 5 players (TSR 8.3, 10.1), not {table_size}")


def scorekeeper(table_size: int) -> int:
    """The seat that keeps the scoresheet: seat 4, at a table of five seat 5 (TSR 8.4.1,
    10.1.4)."""
    check_table_size(table_size)
    return table_size


def seat_after(seat: int, table_size: int) -> int:
    """The seat to the left of ``seat``, that is the next one clockwise."""
    return seat % table_size + 1


def seats_clockwise_from(seat: int, table_size: int) -> list[int]:
    """All seats of the table clockwise, starting with ``seat``."""
    return [(seat - 1 + step) % table_size + 1 for step in range(table_size)]


def playing_seats(*, dealer: int, table_size: int) -> tuple[int, ...]:
    """The four seats that play a hand: at a table of five the dealer sits out (TSR 10.1.1)."""
    check_table_size(table_size)
    return tuple(seat for seat in range(1, table_size + 1) if table_size == 4 or seat != dealer)


def next_dealer(*, dealer: int, contract: Contract, table_size: int) -> int:
    """The dealer of the following hand (TSR 3.3.1, 4.2.5).

    After a compulsory solo the same dealer deals again; after a forced solo, as after every
    other hand, the deal passes to the left.
    """
    check_table_size(table_size)
    if contract is Contract.COMPULSORY_SOLO:
        return dealer
    return seat_after(dealer, table_size)


def forced_solo_due(*, hands_remaining: int, solos_outstanding: int) -> bool:
    """TSR 4.2.3: as many compulsory solos outstanding as hands remaining forces the next one."""
    return solos_outstanding > 0 and solos_outstanding >= hands_remaining


def forced_soloist(*, dealer: int, table_size: int, lacking: Iterable[int]) -> int | None:
    """The player who must play the forced solo (TSR 4.2.3).

    The first player clockwise from the dealer's left who has not yet played a compulsory solo;
    at a table of four that may be the dealer himself. At a table of five the dealer sits out
    (TSR 10.1.1), so only the four playing seats are asked.
    """
    lacking = set(lacking)
    players = set(playing_seats(dealer=dealer, table_size=table_size))
    for seat in seats_clockwise_from(seat_after(dealer, table_size), table_size):
        if seat in lacking and seat in players:
            return seat
    return None
