"""Turning a hand's game value into points per seat (TSR 7.2.2, 7.2.4, 10.1.2)."""

from collections.abc import Iterable


def seat_points(
    *,
    seats: Iterable[int],
    re_seats: Iterable[int],
    re_value: int,
    settled_as_solo: bool,
) -> dict[int, int]:
    """Points for each of the four playing ``seats`` from the value each Re player wins (signed).

    Normal game: each Re player receives ``re_value``, each Contra player ``-re_value``
    (TSR 7.2.2). A hand settled as a solo: the soloist receives three times the value and each
    of the three opponents the value with the sign reversed (TSR 7.2.4). The dealer at a table
    of five is not among ``seats`` and scores nothing (TSR 10.1.2).
    """
    seats = list(seats)
    re = set(re_seats)
    if not re <= set(seats):
        raise ValueError("every Re seat must be a seat of the table")
    if settled_as_solo and len(re) != 1:
        raise ValueError("a solo has exactly one soloist (TSR 2.4.7)")
    if not settled_as_solo and len(re) != 2:
        raise ValueError("the Re team of a normal game has two players (TSR 2.4.4)")
    re_multiplier = 3 if settled_as_solo else 1
    if len(seats) != 4 or len(set(seats)) != 4:
        raise ValueError("four players play each hand (TSR 2.1.1, 10.1.1)")
    return {seat: re_value * re_multiplier if seat in re else -re_value for seat in seats}
