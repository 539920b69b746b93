"""Scoresheet lines for tests of the rules core. Plain Python, no Django."""

from doko.rules.contracts import Contract, SoloType
from doko.rules.deal import HANDS_PER_MATCH
from doko.rules.sheet import HandLine


def normal(dealer: int, winners: tuple[int, int], value: int, *, size: int = 4) -> HandLine:
    """A normal game: the two ``winners`` receive ``value``, the others lose it."""
    sitting_out = dealer if size == 5 else None
    points = {
        seat: 0 if seat == sitting_out else value if seat in winners else -value
        for seat in range(1, size + 1)
    }
    return HandLine(contract=Contract.NORMAL, dealer=dealer, points=points, game_value=value)


def solo(
    dealer: int, soloist: int, value: int, *, contract=Contract.COMPULSORY_SOLO, size: int = 4
) -> HandLine:
    """A solo won (positive ``value``) or lost (negative) by ``soloist``."""
    sitting_out = dealer if size == 5 else None
    points = {
        seat: 0 if seat == sitting_out else 3 * value if seat == soloist else -value
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


def full_match(*, size: int = 4, hands_per_match: int | None = None) -> list[HandLine]:
    """A complete, correct match of ``hands_per_match`` lines, compulsory solos included (24 at
    four, 30 at five, TSR 8.5.1, 10.1.5): the main section's normal games, with a compulsory
    solo before every second one until each seat has played one. The dealer of a compulsory
    solo deals again (TSR 4.2.5)."""
    hands_per_match = hands_per_match or HANDS_PER_MATCH[size]
    lines, dealer, owing = [], 1, list(range(1, size + 1))
    for main in range(hands_per_match - size):
        playing_owing = [seat for seat in owing if size == 4 or seat != dealer]
        if playing_owing and main % 2 == 1:
            owing.remove(playing_owing[0])
            lines.append(solo(dealer, playing_owing[0], 2, size=size))
        lines.append(normal(dealer, _two_playing(dealer, size), 1 + main % 3, size=size))
        dealer = dealer % size + 1
    assert not owing
    assert len(lines) == hands_per_match
    return lines


def _two_playing(dealer: int, size: int) -> tuple[int, int]:
    playing = [seat for seat in range(1, size + 1) if size == 4 or seat != dealer]
    return playing[0], playing[2]
