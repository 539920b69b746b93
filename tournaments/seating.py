"""Drawing the seating of a round (TSR 3.2, 8.3, 8.4, 10.1). Plain Python, no Django.

Players are opaque integers (the caller's ids). A plan lists its tables, each table its players
in seat order 1..4 (or 1..5): seat 1 deals first, seat 4 keeps the scoresheet (seat 5 at a
table of five, TSR 10.1.4).
"""

import random
from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class SeatingError(ValueError):
    """The players cannot be seated at legal tables.

    ``missing``: how many more players would make it work; ``extra``: how many fewer.
    """

    players: int
    missing: int
    extra: int | None
    tables_of_five: bool

    def __str__(self) -> str:
        fives = "tables of four and five" if self.tables_of_five else "tables of four"
        fewer = f" or {self.extra} fewer" if self.extra else ""
        return f"{self.players} players cannot sit at {fives}: {self.missing} more{fewer} needed"


@dataclass(frozen=True)
class SeatingPlan:
    tables: tuple[tuple[int, ...], ...]

    @property
    def players(self) -> list[int]:
        return [player for table in self.tables for player in table]


def table_sizes(players: int, *, tables_of_five: bool) -> list[int]:
    """The table sizes for ``players``: as many tables of four as possible, then fives.

    Tables of four are the rule (TSR 8.3.1); tables of five are the variation of TSR 10.1 and
    are used only as far as needed: ``players mod 4`` of them.
    """
    sizes = _sizes(players, tables_of_five=tables_of_five)
    if sizes is None:
        raise SeatingError(
            players=players,
            missing=next(
                more
                for more in range(1, 5)
                if _sizes(players + more, tables_of_five=tables_of_five) is not None
            ),
            extra=next(
                (
                    fewer
                    for fewer in range(1, players - 3)
                    if _sizes(players - fewer, tables_of_five=tables_of_five) is not None
                ),
                None,
            ),
            tables_of_five=tables_of_five,
        )
    return sizes


def _sizes(players: int, *, tables_of_five: bool) -> list[int] | None:
    fives = players % 4 if tables_of_five else 0
    fours, rest = divmod(players - 5 * fives, 4)
    if players < 4 or fours < 0 or rest:
        return None
    return [4] * fours + [5] * fives


def draw_random(players: Sequence[int], *, tables_of_five: bool, seed: int) -> SeatingPlan:
    """A random draw of one round, the same for the same seed (TSR 3.2.1: players draw seats).

    Tables of five, if any, get the highest table numbers.
    """
    if len(set(players)) != len(players):
        raise ValueError("every player can be seated only once")
    sizes = table_sizes(len(players), tables_of_five=tables_of_five)
    order = sorted(players)
    random.Random(seed).shuffle(order)
    tables, start = [], 0
    for size in sizes:
        tables.append(tuple(order[start : start + size]))
        start += size
    return SeatingPlan(tables=tuple(tables))
