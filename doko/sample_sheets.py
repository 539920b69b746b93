"""Scoresheet lines that are the same every time: a normal game, a solo, and a complete, correct
match. Plain Python, no Django; for the tests and the benchmarks (doko/simulation.py plays
plausible matches by chance instead)."""

from doko.rules.contracts import Contract, SoloType
from doko.rules.deal import HANDS_PER_MATCH, TABLE_OF_FOUR, playing_seats, seat_after
from doko.rules.sheet import HandLine


def normal(
    dealer: int, winners: tuple[int, int], value: int, *, size: int = TABLE_OF_FOUR
) -> HandLine:
    """A normal game: the two ``winners`` receive ``value``, the others lose it; at a table of
    five the dealer sits out (TSR 10.1.1)."""
    players = playing_seats(dealer=dealer, table_size=size)
    points = {
        seat: 0 if seat not in players else value if seat in winners else -value
        for seat in range(1, size + 1)
    }
    return HandLine(contract=Contract.NORMAL, dealer=dealer, points=points, game_value=value)


def solo(
    dealer: int,
    soloist: int,
    value: int,
    *,
    contract: Contract = Contract.COMPULSORY_SOLO,
    size: int = TABLE_OF_FOUR,
) -> HandLine:
    """A solo won (positive ``value``) or lost (negative) by ``soloist``."""
    players = playing_seats(dealer=dealer, table_size=size)
    points = {
        seat: 0 if seat not in players else 3 * value if seat == soloist else -value
        for seat in range(1, size + 1)
    }
    return HandLine(
        contract=contract,
        dealer=dealer,
        points=points,
        soloist=soloist,
        solo_type=SoloType.QUEENS,
        game_value=abs(value),
    )


def full_match(*, size: int = TABLE_OF_FOUR, hands_per_match: int | None = None) -> list[HandLine]:
    """A complete, correct match of ``hands_per_match`` lines, compulsory solos included (24 at
    four, 30 at five, TSR 8.5.1, 10.1.5): the main section's normal games, with a compulsory
    solo before every second one until each seat has played one. The dealer of a compulsory
    solo deals again (TSR 4.2.5)."""
    hands_per_match = hands_per_match or HANDS_PER_MATCH[size]
    lines: list[HandLine] = []
    dealer, owing = 1, list(range(1, size + 1))
    for main in range(hands_per_match - size):
        players = playing_seats(dealer=dealer, table_size=size)
        playing_owing = [seat for seat in owing if seat in players]
        if playing_owing and main % 2 == 1:
            owing.remove(playing_owing[0])
            lines.append(solo(dealer, playing_owing[0], 2, size=size))
        lines.append(normal(dealer, (players[0], players[2]), 1 + main % 3, size=size))
        dealer = seat_after(dealer, size)
    assert not owing
    assert len(lines) == hands_per_match
    return lines
