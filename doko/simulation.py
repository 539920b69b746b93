"""Plausible scoresheets for demonstrations and tests. Plain Python, no Django.

A simulated match follows the rules a real one must: the deal passes from seat 1 to the left,
a compulsory solo is dealt again by the same dealer, every player plays one compulsory solo and
those who have not are forced at the end, the round has 24 lines at a table of four and 30 at a
table of five with the compulsory solos included (TSR 3.3.1, 4.2, 8.5.1, 10.1.5), and the
points follow from the game value (TSR 7.2.2, 7.2.4). The game values come from a distribution
like a club evening's, not from played cards.
"""

import random
from collections.abc import Collection, Sequence

from doko.rules.contracts import Contract, SoloType
from doko.rules.deal import MatchProgress, playing_seats
from doko.rules.settlement import seat_points
from doko.rules.sheet import HandLine

NORMAL_VALUES = (1, 2, 3, 4, 5, 6, 7, 8, 9)
NORMAL_WEIGHTS = (8, 20, 22, 18, 13, 9, 5, 3, 2)
SOLO_VALUES = (1, 2, 3, 4, 5, 6, 7, 8)
SOLO_WEIGHTS = (10, 18, 22, 18, 12, 10, 6, 4)
SOLO_TYPES = tuple(SoloType)
SOLO_TYPE_WEIGHTS = (20, 8, 8, 8, 30, 15, 11)  # diamonds, hearts, spades, clubs, Q, J, aces

COMPULSORY_SOLO_CHANCE = 0.06  # per hand and per player who still owes one
VOLUNTARY_SOLO_CHANCE = 0.03
WEDDING_CHANCE = 0.04
WEDDING_ALONE_CHANCE = 0.15  # the holder takes the first three tricks (TSR 4.4.3 b)
SILENT_WEDDING_CHANCE = 0.015


def simulate_match(
    *,
    rng: random.Random,
    table_size: int,
    hands_per_match: int,
    hands_to_play: int | None = None,
    time_over_after: int | None = None,
) -> list[HandLine]:
    """The hands of one match in the order played: ``hands_per_match`` lines, compulsory and
    forced solos included. ``hands_to_play`` stops a match early (a sheet still being kept);
    ``time_over_after``: the playing time ended after that many hands, so only the forced solos
    still owed follow (TSR 8.5.3, 8.6.1)."""
    seats = range(1, table_size + 1)
    lines: list[HandLine] = []
    progress = MatchProgress(table_size=table_size, hands_per_match=hands_per_match)
    while hands_to_play is None or len(lines) < hands_to_play:
        time_over = time_over_after is not None and len(lines) >= time_over_after
        if progress.full or (time_over and not progress.lacking):
            break
        dealer, forced = progress.next_deal(time_over=time_over)
        players = playing_seats(dealer=dealer, table_size=table_size)
        if forced is not None:
            line = _solo(rng, Contract.FORCED_SOLO, dealer, players, forced, seats, win=0.45)
        else:
            line = _hand(rng, dealer, players, seats, progress.lacking, progress.compulsory_played)
        lines.append(line)
        progress.record(dealer=line.dealer, contract=line.contract, soloist=line.soloist)
    return lines


def _hand(
    rng: random.Random,
    dealer: int,
    players: Sequence[int],
    seats: Sequence[int],
    lacking: Collection[int],
    solo_done: Collection[int],
) -> HandLine:
    owing = [seat for seat in players if seat in lacking]
    if owing and rng.random() < COMPULSORY_SOLO_CHANCE * len(owing):
        soloist = rng.choice(owing)
        return _solo(rng, Contract.COMPULSORY_SOLO, dealer, players, soloist, seats, win=0.5)
    free = [seat for seat in players if seat in solo_done]
    if free and rng.random() < VOLUNTARY_SOLO_CHANCE:
        soloist = rng.choice(free)
        return _solo(rng, Contract.VOLUNTARY_SOLO, dealer, players, soloist, seats, win=0.6)
    roll = rng.random()
    if roll < SILENT_WEDDING_CHANCE:
        holder = rng.choice(players)
        return _solo(rng, Contract.SILENT_WEDDING, dealer, players, holder, seats, win=0.7)
    if roll < SILENT_WEDDING_CHANCE + WEDDING_CHANCE:
        holder = rng.choice(players)
        if rng.random() < WEDDING_ALONE_CHANCE:
            return _solo(rng, Contract.WEDDING, dealer, players, holder, seats, win=0.5)
        partner = rng.choice([seat for seat in players if seat != holder])
        return _normal(rng, Contract.WEDDING, dealer, players, (holder, partner), seats)
    return _normal(rng, Contract.NORMAL, dealer, players, tuple(rng.sample(players, 2)), seats)


def _normal(
    rng: random.Random,
    contract: Contract,
    dealer: int,
    players: Sequence[int],
    re_team: tuple[int, ...],
    seats: Sequence[int],
) -> HandLine:
    value = rng.choices(NORMAL_VALUES, NORMAL_WEIGHTS)[0]
    sign = 1 if rng.random() < 0.55 else -1
    points = seat_points(
        seats=players, re_seats=re_team, re_value=sign * value, settled_as_solo=False
    )
    return HandLine(
        contract=contract,
        dealer=dealer,
        points={seat: points.get(seat, 0) for seat in seats},
        game_value=value,
    )


def _solo(
    rng: random.Random,
    contract: Contract,
    dealer: int,
    players: Sequence[int],
    soloist: int,
    seats: Sequence[int],
    *,
    win: float,
) -> HandLine:
    value = rng.choices(SOLO_VALUES, SOLO_WEIGHTS)[0]
    sign = 1 if rng.random() < win else -1
    if contract in (Contract.WEDDING, Contract.SILENT_WEDDING):
        solo_type = SoloType.DIAMONDS  # TSR 4.4.3 b, 4.4.5
    else:
        solo_type = rng.choices(SOLO_TYPES, SOLO_TYPE_WEIGHTS)[0]
    points = seat_points(
        seats=players, re_seats=(soloist,), re_value=sign * value, settled_as_solo=True
    )
    return HandLine(
        contract=contract,
        dealer=dealer,
        points={seat: points.get(seat, 0) for seat in seats},
        soloist=soloist,
        solo_type=solo_type,
        game_value=value,
    )
