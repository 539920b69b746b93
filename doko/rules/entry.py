"""From what a scorekeeper types to the points of a hand (TSR 7.2.2, 7.2.4, 7.3.3.3).

Two ways besides typing the points themselves:

- ``points_from_plus_seats``: the game value and the seats that scored plus, as the scoresheet
  notes them (TSR 7.3.3.3); the points follow.
- ``points_from_result``: what the table knows after the last trick (card points, tricks,
  announcements, bonus points); the rules core works out the value (TSR 7.1, 7.2) and the
  points follow.

Both raise ``InvalidInput`` naming the field and the rule; no Django here.
"""

from collections.abc import Collection, Mapping
from dataclasses import dataclass

from doko.rules.contracts import Contract
from doko.rules.deal import check_table_size, playing_seats
from doko.rules.problems import FieldError, InvalidInput, gettext_noop
from doko.rules.settlement import seat_points
from doko.rules.value import (
    CARD_POINTS,
    TRICKS,
    Game,
    HandResult,
    HandValue,
    card_points_bounds,
    hand_value,
)


@dataclass(frozen=True)
class Entered:
    """Points per seat worked out from an entry, with the soloist they imply (or None)."""

    points: Mapping[int, int]
    soloist: int | None
    game_value: int
    value: HandValue | None = None  # the calculator's breakdown


def _playing(table_size: int, dealer: int) -> tuple[int, ...]:
    check_table_size(table_size)
    return playing_seats(dealer=dealer, table_size=table_size)


def _all_seats(table_size: int, points: Mapping[int, int]) -> dict[int, int]:
    return {seat: points.get(seat, 0) for seat in range(1, table_size + 1)}


def _not_playing(field: str, seats: Collection[int], players: Collection[int]) -> FieldError:
    return FieldError(
        field,
        "TSR 7.3.3.3, 10.1.2",
        gettext_noop("Seats {seats} do not play this hand; the players are seats {players}."),
        {
            "seats": ", ".join(map(str, sorted(seats))),
            "players": ", ".join(map(str, players)),
        },
    )


def points_from_plus_seats(
    *,
    table_size: int,
    dealer: int,
    contract: Contract,
    game_value: int,
    plus_seats: Collection[int],
    soloist: int | None = None,
) -> Entered:
    """The points of a hand from its game value and the seats that scored plus.

    In a solo (and a silent wedding, or a wedding settled as a solo) either the soloist alone
    scores plus, three times the value, or the three opponents do (TSR 7.2.4); the soloist
    follows from the plus seats. In a normal game two seats score plus (TSR 7.2.2). With a value
    of 0 nobody scores.
    """
    players = _playing(table_size, dealer)
    plus = set(plus_seats)
    if not plus <= set(players):
        raise InvalidInput([_not_playing("plus_seats", plus - set(players), players)])
    _check_game_value(game_value, plus)
    if game_value == 0:
        return Entered(_all_seats(table_size, {}), soloist, 0)
    settled_as_solo = contract.names_soloist or (
        contract is Contract.WEDDING and len(plus) in (1, 3)
    )
    if not settled_as_solo:
        return _normal_game_points(table_size, players, game_value, plus)
    return _solo_points(table_size, players, game_value, plus, soloist)


def _check_game_value(game_value: int, plus: set[int]) -> None:
    """Refuse a game value below zero, and plus seats with a game value of 0 (TSR 7.1.4, 7.2)."""
    if game_value < 0:
        raise InvalidInput(
            [
                FieldError(
                    "game_value",
                    "TSR 7.2",
                    gettext_noop(
                        "The game value is never below zero; who won shows in the plus seats."
                    ),
                )
            ]
        )
    if game_value == 0 and plus:
        raise InvalidInput(
            [
                FieldError(
                    "plus_seats",
                    "TSR 7.1.4, 7.2",
                    gettext_noop("With a game value of 0 nobody scores plus."),
                )
            ]
        )


def _normal_game_points(
    table_size: int, players: tuple[int, ...], game_value: int, plus: set[int]
) -> Entered:
    """A normal game: the two winners score plus the value, the two losers minus (TSR 7.2.2,
    7.3.3.3)."""
    if len(plus) != 2:
        raise InvalidInput(
            [
                FieldError(
                    "plus_seats",
                    "TSR 7.2.2, 7.3.3.3",
                    gettext_noop(
                        "In a normal game the two winners score plus: name two seats, not {count}."
                    ),
                    {"count": len(plus)},
                )
            ]
        )
    points = {seat: game_value if seat in plus else -game_value for seat in players}
    return Entered(_all_seats(table_size, points), None, game_value)


def _solo_points(
    table_size: int,
    players: tuple[int, ...],
    game_value: int,
    plus: set[int],
    soloist: int | None,
) -> Entered:
    """A hand settled as a solo: the soloist alone scores plus, or his three opponents do; the
    plus seats name the soloist (TSR 7.2.4, 7.3.3.3)."""
    if len(plus) == 1:
        implied, re_value = next(iter(plus)), game_value
    elif len(plus) == 3:
        (implied,) = set(players) - plus
        re_value = -game_value
    else:
        raise InvalidInput(
            [
                FieldError(
                    "plus_seats",
                    "TSR 7.2.4, 7.3.3.3",
                    gettext_noop(
                        "In a solo either the soloist alone scores plus or his three opponents "
                        "do: name one seat or three, not {count}."
                    ),
                    {"count": len(plus)},
                )
            ]
        )
    if soloist is not None and soloist != implied:
        raise InvalidInput(
            [
                FieldError(
                    "soloist",
                    "TSR 7.2.4",
                    gettext_noop(
                        "The plus seats make seat {implied} the soloist, not seat {soloist}."
                    ),
                    {"implied": implied, "soloist": soloist},
                )
            ]
        )
    points = seat_points(seats=players, re_seats=[implied], re_value=re_value, settled_as_solo=True)
    return Entered(_all_seats(table_size, points), implied, game_value)


_GAMES = {
    Contract.NORMAL: Game.NORMAL,
    Contract.WEDDING: Game.WEDDING,
    Contract.SILENT_WEDDING: Game.SILENT_WEDDING,
    Contract.VOLUNTARY_SOLO: Game.SOLO,
    Contract.COMPULSORY_SOLO: Game.SOLO,
    Contract.FORCED_SOLO: Game.SOLO,
}


def game_of(contract: Contract) -> Game:
    return _GAMES[contract]


def points_from_result(
    *, table_size: int, dealer: int, re_seats: Collection[int], result: HandResult
) -> Entered:
    """The points of a hand from the end of play: the rules core works out the winner and the
    game value (TSR 7.1, 7.2), and the points follow for the Re seats and the others (TSR 7.2.2,
    7.2.4). ``re_seats``: the two Re players, or the soloist alone."""
    players = _playing(table_size, dealer)
    re = set(re_seats)
    if not re <= set(players):
        raise InvalidInput([_not_playing("re_seats", re - set(players), players)])
    wanted = 1 if result.settled_as_solo else 2
    if len(re) != wanted:
        raise InvalidInput(
            [
                FieldError(
                    "re_seats",
                    "TSR 2.4.4, 2.4.7",
                    gettext_noop("Name the soloist alone.")
                    if wanted == 1
                    else gettext_noop("Name the two players of the Re team (the Queens of Clubs)."),
                )
            ]
        )
    value = hand_value(result)
    points = seat_points(
        seats=players,
        re_seats=re,
        re_value=value.re_value,
        settled_as_solo=result.settled_as_solo,
    )
    soloist = next(iter(re)) if result.settled_as_solo else None
    return Entered(_all_seats(table_size, points), soloist, abs(value.re_value), value)


def tricks_matter(re_card_points: int) -> bool:
    """Whether Re's trick count changes a hand whose card points are known: only when one team
    took no card points, which it may have done without a trick (schwarz) or with one (four
    nines hold none), and schwarz is worth a point and decides a "schwarz" announced (TSR
    7.1.2, 7.1.3, 7.2.2 a). Otherwise each team took a trick, and the card points decide the
    rest."""
    return re_card_points <= 0 or re_card_points >= CARD_POINTS


def re_tricks_for(*, re_card_points: int, re_tricks: int | None) -> int:
    """Re's tricks as typed or, left out where they do not matter (``tricks_matter``), a count
    that holds Re's card points (TSR 2.2.2): the hand is worth the same with any such count.
    Raises ``InvalidInput`` for ``re_tricks`` when they matter and are left out."""
    if re_tricks is not None:
        return re_tricks
    if tricks_matter(re_card_points):
        message = (
            gettext_noop(
                "Re took no card points: give Re's tricks too, for a team that took no trick "
                "is schwarz."
            )
            if re_card_points <= 0
            else gettext_noop(
                "Contra took no card points: give Re's tricks too, for a team that took no "
                "trick is schwarz."
            )
        )
        raise InvalidInput([FieldError("re_tricks", "TSR 7.2.2 (a)", message)])
    for tricks in range(1, TRICKS):
        least, most = card_points_bounds(tricks)
        if least <= re_card_points <= most:
            return tricks
    raise ValueError(f"no trick count holds {re_card_points} card points")  # pragma: no cover
