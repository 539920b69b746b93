"""Drawing the seating of rounds (TSR 3.2, 8.3, 8.4, 10.1). Plain Python, no Django.

Players are opaque integers (the caller's ids). A plan lists its tables, each table its players
in seat order 1..4 (or 1..5): seat 1 deals first, seat 4 keeps the scoresheet (seat 5 at a
table of five, TSR 10.1.4).

``draw`` seats one or more rounds by one of three methods and keeps, in this order of weight:
named pairs apart, repeat meetings as few as it can (two players at one table again), tables of
five spread over the players, and seat positions balanced. A field at tables of four drawn in
advance starts from a perfect plan where one is known (``doko.designs``: the solved social golfer
instances, nobody meeting anybody twice); the fields with tables of five of issue 36 (26 x 8,
30 x 8, 39 x 12) drawn so take the plan stored for them (``doko.five_search``), as it is.
Otherwise it searches locally: a random (or, for
``standings``, ranked) start, then swaps of two players of one round that lower the cost, with a
tabu search over all drawn rounds where the field is small enough for it to matter. Rounds drawn
in advance get their seat positions last, over all of them at once (``balanced_positions``:
nobody in one position more than ``ceil(rounds / 4)`` times). Everything random comes from one
``random.Random(seed)``: the same input gives the same plan.

``reseat`` mends a round already drawn but not yet started after withdrawals and late entries,
moving as few players as it can.
"""

import functools
import itertools
import math
import random
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import cast

from doko import designs
from doko.positions import balanced_positions
from doko.rules.deal import LARGE_TABLES, TABLE_OF_FIVE, TABLE_OF_FOUR, TABLE_OF_SEVEN
from doko.tabu import tabu_search


@dataclass(frozen=True)
class SeatingError(ValueError):
    """The players cannot be seated at legal tables.

    ``missing``: how many more players would make it work; ``extra``: how many fewer.
    """

    players: int
    missing: int
    extra: int | None
    tables_of_five: bool
    large_tables: bool = False

    def __str__(self) -> str:
        fives = "tables of four and five" if self.tables_of_five else "tables of four"
        if self.large_tables:
            fives += ", six and seven"
        fewer = f" or {self.extra} fewer" if self.extra else ""
        return f"{self.players} players cannot sit at {fives}: {self.missing} more{fewer} needed"


@dataclass(frozen=True)
class SeatingPlan:
    tables: tuple[tuple[int, ...], ...]

    @property
    def players(self) -> list[int]:
        return [player for table in self.tables for player in table]


def table_sizes(players: int, *, tables_of_five: bool, large_tables: bool = False) -> list[int]:
    """The table sizes for ``players``: as many tables of four as possible, then fives.

    Tables of four are the rule (TSR 8.3.1); tables of five are the variation of TSR 10.1 and
    are used only as far as needed: ``players mod 4`` of them. Tables of six and seven (TSR 10,
    ``large_tables``) only where fours and fives cannot seat the field (6, 7, 11 players; 9 at
    fours and sixes only cannot sit), as few of them as can be, with the fewest players at
    them: 11 sit at a four and a seven. They come last, after the fives.
    """
    sizes = _sizes(players, tables_of_five=tables_of_five, large_tables=large_tables)
    if sizes is None:

        def fits(count: int) -> bool:
            return (
                _sizes(count, tables_of_five=tables_of_five, large_tables=large_tables) is not None
            )

        raise SeatingError(
            players=players,
            missing=next(more for more in range(1, 5) if fits(players + more)),
            extra=next((fewer for fewer in range(1, players - 3) if fits(players - fewer)), None),
            tables_of_five=tables_of_five,
            large_tables=large_tables,
        )
    return sizes


def _sizes(players: int, *, tables_of_five: bool, large_tables: bool = False) -> list[int] | None:
    fives = players % TABLE_OF_FOUR if tables_of_five else 0
    fours, rest = divmod(players - TABLE_OF_FIVE * fives, TABLE_OF_FOUR)
    if players >= TABLE_OF_FOUR and fours >= 0 and not rest:
        return [TABLE_OF_FOUR] * fours + [TABLE_OF_FIVE] * fives
    if not large_tables:
        return None
    best: tuple[tuple[int, int], list[int]] | None = None
    for sevens in range(players // 7 + 1):
        for sixes in range((players - 7 * sevens) // 6 + 1):
            for fives in range(4 if tables_of_five else 1):
                left = players - 7 * sevens - 6 * sixes - 5 * fives
                if left < 0 or left % TABLE_OF_FOUR:
                    continue
                cost = (sevens + sixes + fives, 7 * sevens + 6 * sixes + 5 * fives)
                if best is None or cost < best[0]:
                    sizes = [4] * (left // 4) + [5] * fives + [6] * sixes + [7] * sevens
                    best = (cost, sizes)
    return best[1] if best else None


class Method(StrEnum):
    DDV = "ddv"  # every planned round drawn in advance, at random, as DDV events publish it
    RANDOM = "random"  # one round at a time, at random
    STANDINGS = "standings"  # one round at a time by current rank: 1-4 at table 1, and so on


@dataclass(frozen=True)
class Quality:
    """How good a plan is, over the earlier rounds and the drawn ones together."""

    rounds: int
    repeat_meetings: int  # over all pairs: meetings beyond the first
    best_possible: int  # a lower bound for repeat_meetings (0 when a perfect plan may exist)
    most_meetings: int  # the most rounds any two players shared a table
    most_in_one_position: int  # the most times any player sat in the same seat position
    position_limit: int  # the least that can be promised: rounds / positions, rounded up
    fives_most: int  # the most rounds any player sat at a table of five
    fives_least: int
    apart_broken: int  # named pairs seated together where they were to be kept apart

    def as_dict(self) -> dict[str, int]:
        return dict(self.__dict__)


@dataclass(frozen=True)
class Draw:
    rounds: tuple[SeatingPlan, ...]
    quality: Quality


@dataclass(frozen=True)
class Reseat:
    """A round seated anew: ``moved`` are the players (newcomers included), sorted, whose table
    number or seat position is not what the old plan gave them."""

    plan: SeatingPlan
    moved: tuple[int, ...]


def draw_random(
    players: Sequence[int],
    *,
    tables_of_five: bool,
    seed: int,
    large_tables: bool = False,
    springer: bool = False,
) -> SeatingPlan:
    """One round drawn at random, keeping nothing apart (TSR 3.2.1: players draw seats)."""
    return draw(
        players,
        method=Method.RANDOM,
        tables_of_five=tables_of_five,
        large_tables=large_tables,
        springer=springer,
        seed=seed,
    ).rounds[0]


def springers(plan: SeatingPlan) -> set[int]:
    """The players of ``plan`` who sit at two tables (TSR 10: a „Springer")."""
    seen: set[int] = set()
    twice: set[int] = set()
    for p in plan.players:
        (twice if p in seen else seen).add(p)
    return twice


def _springer_split(
    plans: Sequence[SeatingPlan],
    history: Sequence[SeatingPlan],
    *,
    prefer: Collection[int] = (),
) -> tuple[SeatingPlan, ...]:
    """Each table of seven of ``plans`` as two tables of four that share one player, the
    Springer (TSR 10: „Statt des Spieles an einem Siebener-Tisch kann ein Spieler („Springer")
    auch an zwei Tischen gleichzeitig spielen"). He is the one of the seven who was Springer
    least often (in ``history`` and the rounds before), the first in the drawn seat order among
    equals (``reseat``: a Springer of the round mended, ``prefer``, first); he takes seat 1 at both tables, the others keep their order: (s, a, b, c) and
    (s, d, e, f). Seat 1 keeps no sheet (seat 4 does, TSR 8.4.1) and deals first at both."""
    jumps: dict[int, int] = {}
    for plan in history:
        for p in springers(plan):
            jumps[p] = jumps.get(p, 0) + 1
    split = []
    for plan in plans:
        tables: list[tuple[int, ...]] = []
        for table in plan.tables:
            if len(table) != TABLE_OF_SEVEN:
                tables.append(table)
                continue
            jumper = min(table, key=lambda p: (p not in prefer, jumps.get(p, 0), table.index(p)))
            jumps[jumper] = jumps.get(jumper, 0) + 1
            rest = [p for p in table if p != jumper]
            tables += [(jumper, *rest[:3]), (jumper, *rest[3:])]
        split.append(SeatingPlan(tables=tuple(tables)))
    return tuple(split)


def _springer_merged(plan: SeatingPlan) -> SeatingPlan:
    """``plan`` with each Springer's two tables joined again into the table of seven they
    stand for (he first), for ``reseat`` to mend."""
    jumpers = springers(plan)
    if not jumpers:
        return plan
    tables: list[tuple[int, ...]] = []
    first: dict[int, int] = {}
    for table in plan.tables:
        jumper = next((p for p in table if p in jumpers), None)
        if jumper is None:
            tables.append(table)
        elif jumper in first:
            index = first[jumper]
            tables[index] = (
                jumper,
                *(p for p in tables[index] if p != jumper),
                *(p for p in table if p != jumper),
            )
        else:
            first[jumper] = len(tables)
            tables.append(table)
    return SeatingPlan(tables=tuple(tables))


def draw(
    players: Sequence[int],
    *,
    method: Method,
    seed: int,
    tables_of_five: bool,
    rounds: int = 1,
    history: Sequence[SeatingPlan] = (),
    ranking: Sequence[int] = (),
    apart: Collection[tuple[int, int]] = (),
    apart_first_round: Collection[tuple[int, int]] = (),
    large_tables: bool = False,
    springer: bool = False,
) -> Draw:
    """Seat ``players`` for the next ``rounds`` rounds.

    ``history``: the tournament's earlier rounds, whose meetings, positions and tables of five
    count (players in it who are gone are ignored). ``ranking``: players best first, for
    ``standings`` (players missing from it rank last, by id). ``apart``: pairs never to share a
    table; ``apart_first_round``: pairs kept apart only in the tournament's first round (e.g.
    members of one club). Tables of five, if needed, get the highest table numbers.
    ``large_tables``: tables of six and seven (TSR 10) where fours and fives cannot seat the
    field; such a field (a club evening of 6, 7 or 11) is drawn by ``_draw_large``.
    ``springer``: a table of seven is two tables of four sharing one player instead, the
    Springer of TSR 10 (``_springer_split``); he is the only player at two tables.
    """
    if len(set(players)) != len(players):
        raise ValueError("every player can be seated only once")
    if rounds < 1:
        raise ValueError("draw at least one round")
    sizes = table_sizes(len(players), tables_of_five=tables_of_five, large_tables=large_tables)
    if set(sizes) & set(LARGE_TABLES):
        # A Springer's two tables count as the table of seven they stand for.
        jumped, history = history, [_springer_merged(plan) for plan in history]
        plans = _draw_large(
            players,
            sizes=sizes,
            method=method,
            rng=random.Random(seed),
            rounds=rounds,
            history=history,
            ranking=ranking,
            apart={
                *map(frozenset, apart),
                *map(frozenset, apart_first_round if not history else ()),
            },
        )
        if springer:
            plans = _springer_split(plans, jumped)
        return Draw(rounds=plans, quality=quality(plans, history=history, apart=apart))
    planner = _Planner(
        players=players,
        sizes=sizes,
        history=history,
        apart=apart,
        apart_first_round=apart_first_round if not history else (),
        rng=random.Random(seed),
    )
    # Rounds drawn in advance from scratch get their seat positions at the end, balanced over
    # all of them at once; a field at tables of four starts from a perfect plan where one is
    # known (doko.designs: nobody meets anybody twice), as many rounds as it has; a field with
    # tables of five takes the stored plan found for it offline (doko.five_search), if there is
    # one for exactly these rounds.
    advance = method is Method.DDV and rounds > 1 and not history
    drawn, stored = [], False
    if advance and set(sizes) == {TABLE_OF_FOUR}:
        drawn = planner.perfect_rounds(rounds)
    elif advance:
        drawn = planner.stored_rounds(rounds)
        stored = bool(drawn)
    # Small fields drawn in advance get the tabu search, which moves players freely; a round
    # drawn alone fixes each player's seat position first and swaps only within a position.
    use_tabu = method is Method.DDV and rounds > 1 and len(players) <= _TABU_FIELD
    by_position = method is not Method.STANDINGS and not use_tabu and not advance
    for number in range(len(drawn), rounds):
        drawn.append(
            _draw_round(
                planner,
                method,
                number=number,
                played=len(history),
                ranking=ranking,
                by_position=by_position,
                round_tabu=not use_tabu
                and method is not Method.STANDINGS
                and len(players) <= _ROUND_TABU_FIELD,
            )
        )
    if use_tabu or (drawn and planner.apart_broken(drawn)):
        planner.tabu(drawn)
    # A stored plan's tables of five stay as they are: spreading them would trade repeat
    # meetings for it (39 x 12: 68 repeats would become 88), which the plan was built to avoid.
    if (use_tabu or advance) and not stored:
        for _ in range(2):  # spread the tables of five again, now over all drawn rounds
            for number, tables in enumerate(drawn):
                planner.polish(tables, number)
    if advance:
        plans = tuple(planner.as_plan(tables) for tables in balanced_positions(drawn, planner.rng))
    else:
        plans = tuple(
            planner.as_plan(tables)
            if by_position
            else planner.seat(
                tables,
                number=number,
                round_overall=len(history) + number + 1,
                repair=method is not Method.STANDINGS,
            )
            for number, tables in enumerate(drawn)
        )
    return Draw(rounds=plans, quality=quality(plans, history=history, apart=apart))


def _draw_round(
    planner: "_Planner",
    method: Method,
    *,
    number: int,
    played: int,
    ranking: Sequence[int],
    by_position: bool,
    round_tabu: bool,
) -> list[list[int]]:
    """Draw round ``number`` (after ``played`` rounds of history) and add it to ``planner``:
    by standings, by seat position first, or at random, then mended by swaps."""
    limit = math.ceil((played + number + 1) / 4)
    if method is Method.STANDINGS:
        tables = planner.ranked_round(ranking)
        planner.improve(tables, number, max_distance=1)
    elif by_position:
        tables = planner.positioned_round(limit)
        planner.position_limit = limit
        planner.improve(tables, number, same_position=True)
        planner.improve(tables, number)  # what swaps within positions could not mend
    else:
        tables = planner.random_round()
        planner.improve(tables, number)
    planner.add_round(tables)
    if round_tabu:
        planner.tabu([tables], first_number=number)
    planner.polish(tables, number)
    planner.position_limit = 0
    if by_position:
        planner.take_positions(tables)
    return tables


def quality(
    plans: Sequence[SeatingPlan],
    *,
    history: Sequence[SeatingPlan] = (),
    apart: Collection[tuple[int, int]] = (),
) -> Quality:
    """Measure ``history`` and ``plans`` together (players of ``plans`` only)."""
    everyone = {player for plan in plans for player in plan.players}
    meetings: dict[tuple[int, int], int] = {}
    positions: dict[int, list[int]] = {player: [0] * 7 for player in everyone}  # seats 1-7 (TSR 10)
    fives = dict.fromkeys(everyone, 0)
    faced = dict.fromkeys(everyone, 0)
    apart_pairs = {frozenset(pair) for pair in apart}
    apart_broken = 0
    all_rounds = [*history, *plans]
    for plan in all_rounds:
        for table in plan.tables:
            present = [player for player in table if player in everyone]
            for position, player in enumerate(table):
                if player in everyone:
                    positions[player][position] += 1
                    fives[player] += len(table) == TABLE_OF_FIVE
                    faced[player] += len(table) - 1
            for a, b in itertools.combinations(sorted(present), 2):
                meetings[a, b] = meetings.get((a, b), 0) + 1
    for plan in plans:
        for table in plan.tables:
            apart_broken += sum(
                frozenset(pair) in apart_pairs for pair in itertools.combinations(table, 2)
            )
    others = len(everyone) - 1
    # Each player faces ``faced`` opponents; beyond the ``others`` there are, every meeting is a
    # repeat, and each repeat is shared by two players.
    best = math.ceil(sum(max(count - others, 0) for count in faced.values()) / 2)
    rounds = len(all_rounds)
    return Quality(
        rounds=rounds,
        repeat_meetings=sum(count - 1 for count in meetings.values()),
        best_possible=best,
        most_meetings=max(meetings.values(), default=0),
        most_in_one_position=max((max(counts) for counts in positions.values()), default=0),
        position_limit=math.ceil(rounds / 4),
        fives_most=max(fives.values(), default=0),
        fives_least=min(fives.values(), default=0),
        apart_broken=apart_broken,
    )


def reseat(
    plan: SeatingPlan,
    players: Sequence[int],
    *,
    seed: int,
    tables_of_five: bool,
    history: Sequence[SeatingPlan] = (),
    apart: Collection[tuple[int, int]] = (),
    large_tables: bool = False,
    springer: bool = False,
) -> Reseat:
    """Mend ``plan``, a round drawn but not yet started, for the active ``players`` after
    withdrawals (players of ``plan`` missing from ``players``) and late entries (players of
    ``players`` missing from ``plan``), moving as few players as possible.

    The tables keep the legal sizes of ``table_sizes``: tables of four (TSR 8.3) and, if
    allowed and needed, ``players mod 4`` tables of five (TSR 10.1); ``SeatingError`` if there
    are none. Table k stays table k. Every player keeps his table and seat where that is
    possible, which is where his table still exists and still has his seat; the others (the
    displaced) and the newcomers fill the empty seats. So:

    - if there are fewer tables, the highest-numbered go: dissolving any other table would
      renumber one of those in its place and move all its players as well;
    - if there are more, new tables are appended;
    - a table that must lose its fifth seat moves only the player in it, and seat numbers stay
      1..size at every table;
    - tables of five go first to tables whose fifth seat is still taken, then to tables that
      were tables of five, then to the highest numbers. Minimal change thus wins over
      ``draw``'s rule that tables of five have the highest numbers.

    Who fills which empty seat is weighed as in ``draw``: pairs in ``apart`` never together,
    then as few repeat meetings as possible, tables of five spread, seat positions balanced,
    and, as a last tie-break, displaced players at their old table. Only to keep a pair apart
    is a player who could stay moved. ``history``: the rounds whose meetings, positions and
    tables of five count (for a plan drawn in advance, the rounds played and the other rounds
    of the plan). Pairs to keep apart only in the first round belong in ``apart`` when the first
    round is reseated. If the players are those of ``plan``, ``plan`` is returned as it is.
    ``springer``: as in ``draw``; a Springer who stays keeps his two tables where he can.
    """
    if len(set(players)) != len(players):
        raise ValueError("every player can be seated only once")
    sizes = table_sizes(len(players), tables_of_five=tables_of_five, large_tables=large_tables)
    active = set(players)
    if active == set(plan.players):
        return Reseat(plan=plan, moved=())
    given, jumped = plan, history
    jumpers = springers(plan)
    plan = _springer_merged(plan)
    history = [_springer_merged(each) for each in history]
    if set(sizes) & set(LARGE_TABLES) or set(map(len, plan.tables)) & set(LARGE_TABLES):
        # A small field at a table of six or seven: drawn again (``_draw_large``), keeping
        # everyone who can at his table and seat.
        (new_plan,) = _draw_large(
            players,
            sizes=sizes,
            method=Method.RANDOM,
            rng=random.Random(seed),
            rounds=1,
            history=history,
            ranking=(),
            apart={frozenset(pair) for pair in apart},
            keep=plan,
        )
        if springer:
            (new_plan,) = _springer_split([new_plan], jumped, prefer=jumpers)
        old = {(p, n, k) for n, table in enumerate(given.tables) for k, p in enumerate(table)}
        moved = tuple(
            sorted(
                {
                    p
                    for n, table in enumerate(new_plan.tables)
                    for k, p in enumerate(table)
                    if (p, n, k) not in old
                }
            )
        )
        return Reseat(plan=new_plan, moved=moved)
    home = {
        player: (number, seat)
        for number, table in enumerate(plan.tables)
        for seat, player in enumerate(table)
        if player in active
    }
    new_sizes = _kept_sizes(plan, home, sizes)
    planner = _Planner(
        players=players,
        sizes=new_sizes,
        history=history,
        apart=apart,
        apart_first_round=(),
        rng=random.Random(seed),
    )
    planner.position_limit = math.ceil((len(history) + 1) / 4)
    tables, movers = _keep_seats(planner, home, new_sizes)
    movers += [planner.index[player] for player in sorted(active - home.keys())]
    planner.refill(
        tables,
        movers,
        home={planner.index[player]: place for player, place in home.items()},
        number=len(history),
    )
    new_plan = planner.as_plan(cast("list[list[int]]", tables))  # refilled: no hole is left
    moved = tuple(
        sorted(
            player
            for number, table in enumerate(new_plan.tables)
            for seat, player in enumerate(table)
            if home.get(player) != (number, seat)
        )
    )
    return Reseat(plan=new_plan, moved=moved)


# How ``_draw_large`` weighs a round: a named pair together, a repeat meeting, one more round
# at a table of six or seven for a player who sat at more than others, a seat position again.
_LARGE_APART, _LARGE_REPEAT, _LARGE_SPREAD, _LARGE_POSITION = 1000, 10, 3, 1


def _draw_large(
    players: Sequence[int],
    *,
    sizes: Sequence[int],
    method: Method,
    rng: random.Random,
    rounds: int,
    history: Sequence[SeatingPlan],
    ranking: Sequence[int],
    apart: Collection[frozenset[int]],
    keep: SeatingPlan | None = None,
) -> tuple[SeatingPlan, ...]:
    """Seat a field that needs a table of six or seven (TSR 10): small fields, a club evening
    of 6, 7 or 11 players. By ``standings`` in rank order, table by table; otherwise a random
    start mended by swaps of two players that lower the cost: named pairs apart, then as few
    repeat meetings as can be, the tables of six and seven spread over the players, and
    within each table the seat positions balanced. ``keep``: a round to mend (``reseat``),
    whose players keep their table and seat where they still can."""
    field = list(players)
    meetings: dict[frozenset[int], int] = {}
    large = dict.fromkeys(field, 0)
    positions = {player: [0] * 7 for player in field}

    def count(tables: Sequence[Sequence[int]]) -> None:
        for table in tables:
            for position, player in enumerate(table):
                if player in large:
                    large[player] += len(table) in LARGE_TABLES
                    positions[player][position] += 1
            for pair in itertools.combinations([p for p in table if p in large], 2):
                meetings[frozenset(pair)] = meetings.get(frozenset(pair), 0) + 1

    for plan in history:
        count(plan.tables)

    def cost(table: Sequence[int], size: int) -> int:
        pairs = [frozenset(pair) for pair in itertools.combinations(table, 2)]
        return (
            _LARGE_APART * sum(pair in apart for pair in pairs)
            + _LARGE_REPEAT * sum(meetings.get(pair, 0) for pair in pairs)
            + (_LARGE_SPREAD * sum(large[p] for p in table) if size in LARGE_TABLES else 0)
        )

    drawn = []
    for number in range(rounds):
        if method is Method.STANDINGS:
            rank = {player: place for place, player in enumerate(ranking)}
            order = sorted(field, key=lambda p: (rank.get(p, len(rank)), p))
        else:
            order = field[:]
            rng.shuffle(order)
        if keep is not None and number == 0:
            kept = [p for table in keep.tables for p in table if p in large]
            order = kept + [p for p in order if p not in set(kept)]
        tables, start = [], 0
        for size in sizes:
            tables.append(order[start : start + size])
            start += size
        if method is not Method.STANDINGS and keep is None:
            improved = True
            while improved:
                improved = False
                for a, b in itertools.combinations(range(len(tables)), 2):
                    for i in range(len(tables[a])):
                        for j in range(len(tables[b])):
                            before = cost(tables[a], sizes[a]) + cost(tables[b], sizes[b])
                            tables[a][i], tables[b][j] = tables[b][j], tables[a][i]
                            after = cost(tables[a], sizes[a]) + cost(tables[b], sizes[b])
                            if after < before:
                                improved = True
                            else:
                                tables[a][i], tables[b][j] = tables[b][j], tables[a][i]
        if keep is None or number:
            # Seat positions: each player the position he sat in least, in turn.
            for table in tables:
                free = list(range(len(table)))
                seated: list[int | None] = [None] * len(table)
                for player in sorted(table, key=lambda p: -max(positions[p])):
                    spot = min(free, key=lambda k: (positions[player][k], rng.random()))
                    free.remove(spot)
                    seated[spot] = player
                table[:] = cast("list[int]", seated)
        count(tables)
        drawn.append(SeatingPlan(tables=tuple(tuple(table) for table in tables)))
    return tuple(drawn)


def _keep_seats(
    planner: "_Planner", home: dict[int, tuple[int, int]], sizes: Sequence[int]
) -> tuple[list[list[int | None]], list[int]]:
    """The tables of a reseated round with every player who can keep his seat in it, holes
    (``None``) elsewhere, and the players (as the planner's indices) who must move."""
    tables: list[list[int | None]] = [[None] * size for size in sizes]
    movers = []
    for player, (number, seat) in sorted(home.items()):
        if number < len(sizes) and seat < sizes[number]:
            tables[number][seat] = planner.index[player]
        else:
            movers.append(planner.index[player])
    return tables, movers


def _kept_sizes(
    plan: SeatingPlan, home: dict[int, tuple[int, int]], sizes: Sequence[int]
) -> list[int]:
    """The size of each table by number when reseating: the tables of five go first to tables
    whose fifth seat is still taken, then to tables that were tables of five, then to the
    highest numbers; one more seat kept means one fewer player moved."""
    count, fives = len(sizes), sizes.count(TABLE_OF_FIVE)
    # Seats count from 0 here, so the fifth seat is the one numbered like a table of four.
    fifth_kept = {
        number for number, seat in home.values() if seat == TABLE_OF_FOUR and number < count
    }
    was_five = {number for number, table in enumerate(plan.tables) if len(table) == TABLE_OF_FIVE}
    five_tables = sorted(
        range(count), key=lambda number: (number not in fifth_kept, number not in was_five, -number)
    )[:fives]
    return [TABLE_OF_FIVE if number in five_tables else TABLE_OF_FOUR for number in range(count)]


def _place(tables: Sequence[Sequence[int]], where: Sequence[int], player: int) -> tuple[int, int]:
    """The table and seat of ``player`` in a round whose tables ``where`` maps players to."""
    return where[player], tables[where[player]].index(player)


def _placed_cost(home: dict[int, tuple[int, int]], p: int, table: int, seat: int) -> int:
    """What reseating costs for seating ``p`` at ``table`` and ``seat``: moving a player who
    had a seat (``_MOVE``), and more if he leaves his old table (``_OTHER_TABLE``)."""
    cost = 0
    if home.get(p, (table, seat)) != (table, seat):
        cost += _MOVE
    if home.get(p, (table,))[0] != table:
        cost += _OTHER_TABLE
    return cost


# Weights of the search: a pair kept apart outweighs any number of repeats, a repeat outweighs
# a player's extra table of five.
_APART = 10_000
_REPEAT = 8
_FIVE = 3
_SAMPLE = 48  # partners tried per conflicted player in a large field
_TABU_FIELD = 24  # fields up to this size get the tabu search over all drawn rounds
_OVER = 1_000  # a player in one seat position more often than the limit
_POSITION = 3  # the same, while drawing: less than a repeat meeting
_TABU_STEPS = 2_000
_TABU_STALE = 400  # steps without a better plan after which the tabu search gives up
_TABU_TRIES = 10  # conflicted players whose swaps are weighed in one step
_ROUND_TABU_FIELD = 200  # a round drawn alone that still has repeats gets a tabu search too
_MOVE = 1_000  # reseating: a player who could keep his seat is moved (only to keep pairs apart)
_OTHER_TABLE = 1  # reseating: a displaced player leaves his old table (a tie-break)
_EXACT = 7  # reseating: this few players who change seats are seated in the best order found


class _Planner:
    """The search. Players are indices 0..n-1 internally; ``met[p]`` counts, for every other
    player, the rounds (earlier and drawn) they shared a table."""

    def __init__(
        self,
        *,
        players: Collection[int],
        sizes: Sequence[int],
        history: Sequence[SeatingPlan],
        apart: Collection[tuple[int, int]],
        apart_first_round: Collection[tuple[int, int]],
        rng: random.Random,
    ) -> None:
        self.ids = sorted(players)
        self.index = {player: i for i, player in enumerate(self.ids)}
        self.sizes = sizes
        self.rng = rng
        n = len(self.ids)
        self.met: list[dict[int, int]] = [{} for _ in range(n)]
        self.positions = [[0] * 5 for _ in range(n)]
        self.fives = [0] * n
        self.position_limit = 0  # set while a round's table order is its seat order
        self.apart: list[set[int]] = [set() for _ in range(n)]
        self.apart_first: list[set[int]] = [set() for _ in range(n)]
        for pairs, target in ((apart, self.apart), (apart_first_round, self.apart_first)):
            for a, b in pairs:
                if a in self.index and b in self.index and a != b:
                    target[self.index[a]].add(self.index[b])
                    target[self.index[b]].add(self.index[a])
        for plan in history:
            for table in plan.tables:
                seated = [self.index[p] for p in table if p in self.index]
                self._meet(seated, +1)
                for position, player in enumerate(table):
                    if player in self.index:
                        self.positions[self.index[player]][position] += 1
                        self.fives[self.index[player]] += len(table) == TABLE_OF_FIVE

    # Starting points -----------------------------------------------------------------------

    def random_round(self) -> list[list[int]]:
        """Tables of a random order; tables of five go to the players who sat at fewest."""
        order = list(range(len(self.ids)))
        self.rng.shuffle(order)
        fives = sum(size == TABLE_OF_FIVE for size in self.sizes)
        if fives:
            order.sort(key=lambda player: -self.fives[player])  # stable: random among equals
        return self._cut(order)

    def positioned_round(self, limit: int) -> list[list[int]]:
        """A random round in which every player gets a seat position he has had fewer than
        ``limit`` times, least used first: each position is a class of players, and table i
        takes the i-th player of every class. Tables of five go to the players who sat at
        fewest (their fifth seat, the scorekeeper's, first of all)."""
        fours = sum(size == TABLE_OF_FOUR for size in self.sizes)
        fives = len(self.sizes) - fours
        capacity = [fours + fives] * 4 + [fives]
        order = list(range(len(self.ids)))
        self.rng.shuffle(order)
        noise = {p: self.rng.random() for p in order}

        def allowed(p: int) -> list[int]:
            counts = self.positions[p]
            choices = [k for k in range(5) if capacity[k] and counts[k] < limit] or [
                k for k in range(5) if capacity[k]
            ]
            return sorted(choices, key=lambda k: counts[k] + (self.fives[p] if k == 4 else 0))

        options = {p: allowed(p) for p in order}
        assigned: list[list[int]] = [[] for _ in range(5)]
        place: dict[int, int] = {}

        def seat_player(p: int, visited: set[int]) -> bool:
            # Kuhn's augmenting path, positions having ``capacity`` places each.
            for k in options[p]:
                if k in visited:
                    continue
                visited.add(k)
                if len(assigned[k]) < capacity[k]:
                    assigned[k].append(p)
                    place[p] = k
                    return True
                for q in list(assigned[k]):
                    if seat_player(q, visited):
                        assigned[k].remove(q)
                        assigned[k].append(p)
                        place[p] = k
                        return True
            return False

        for p in sorted(order, key=lambda p: (len(options[p]), noise[p])):
            if not seat_player(p, set()):
                # No free place among his positions: the fullest ones take him anyway, and
                # the least-placed position gives way (a late entry's history can do this).
                k = min(range(5), key=lambda k: len(assigned[k]) - capacity[k])
                assigned[k].append(p)
                place[p] = k
        for k in range(4):
            self.rng.shuffle(assigned[k])
            assigned[k].sort(key=lambda p: -self.fives[p])  # fewest fives last: tables of five
        tables = [[assigned[k][i] for k in range(4)] for i in range(fours)]
        tables += [
            [assigned[k][fours + j] for k in range(4)] + [assigned[4][j]] for j in range(fives)
        ]
        return tables

    def perfect_rounds(self, rounds: int) -> list[list[list[int]]]:
        """Up to ``rounds`` rounds of a stored design (doko.designs: nobody meets anybody
        twice), added, with the players placed so that the pairs to keep apart meet nowhere
        (in the first round, for those kept apart there only) where swapping two players in
        every round at once can do that; none where no design is stored for the field."""
        n = len(self.ids)
        return self._placed(
            designs.perfect_plan(n, min(rounds, designs.perfect_rounds(n)), self.rng)
        )

    def stored_rounds(self, rounds: int) -> list[list[list[int]]]:
        """The ``rounds`` rounds of the plan at tables of four and five stored for the field
        (doko.designs.five_plan, found offline by doko.five_search), added, placed as
        ``perfect_rounds`` places them; none where no plan of exactly ``rounds`` is stored."""
        return self._placed(designs.five_plan(len(self.ids), rounds, self.rng))

    def _placed(self, plan: Sequence[Sequence[Sequence[int]]] | None) -> list[list[list[int]]]:
        """``plan``'s rounds, added, with the players placed so that the pairs to keep apart
        meet as little as swapping two players in every round at once can make them."""
        if plan is None:
            return []
        n = len(self.ids)
        drawn = [[list(table) for table in round_] for round_ in plan]
        # Where each player sits in each round: a swap of two players in every round moves
        # no pair together or apart except their own, so the plan stays perfect.
        wheres = [self._where(tables) for tables in drawn]
        label = list(range(n))  # the player at each place of the design
        place = list(range(n))  # and the place of each player

        def broken(p: int) -> int:
            """Meetings of place p's player with players he is to be kept apart from."""
            me = label[p]
            count = 0
            for other in self.apart[me]:
                count += sum(where[p] == where[place[other]] for where in wheres)
            for other in self.apart_first[me] - self.apart[me]:
                count += wheres[0][p] == wheres[0][place[other]]
            return count

        def swap(p: int, q: int) -> None:
            label[p], label[q] = label[q], label[p]
            place[label[p]], place[label[q]] = p, q

        for _ in range(20):
            conflicted = [p for p in range(n) if broken(p)]
            if not conflicted:
                break
            self.rng.shuffle(conflicted)
            for p in conflicted:
                for q in self.rng.sample(range(n), n):
                    if not broken(p):
                        break
                    before = broken(p) + broken(q)
                    swap(p, q)
                    if broken(p) + broken(q) >= before:
                        swap(p, q)
        drawn = [[[label[p] for p in table] for table in tables] for tables in drawn]
        for tables in drawn:
            self.add_round(tables)
        return drawn

    def apart_broken(self, drawn: Sequence[Sequence[Sequence[int]]]) -> bool:
        return any(
            q in sets[p]
            for number, tables in enumerate(drawn)
            for sets in self._apart_sets(number)
            for table in tables
            for p in table
            for q in table
        )

    def take_positions(self, tables: list[list[int]]) -> None:
        for table in tables:
            for position, p in enumerate(table):
                self.positions[p][position] += 1

    def as_plan(self, tables: list[list[int]]) -> SeatingPlan:
        return SeatingPlan(tables=tuple(tuple(self.ids[p] for p in table) for table in tables))

    def ranked_round(self, ranking: Sequence[int]) -> list[list[int]]:
        ranked = [self.index[player] for player in ranking if player in self.index]
        seen = set(ranked)
        ranked += [i for i in range(len(self.ids)) if i not in seen]
        return self._cut(ranked)

    def _cut(self, order: list[int]) -> list[list[int]]:
        tables, start = [], 0
        for size in self.sizes:
            tables.append(order[start : start + size])
            start += size
        return tables

    # Costs ---------------------------------------------------------------------------------

    def _meet(self, table: Sequence[int], step: int) -> None:
        met = self.met
        for a in table:
            row = met[a]
            for b in table:
                if a != b:
                    count = row.get(b, 0) + step
                    if count:
                        row[b] = count
                    else:
                        del row[b]

    def _apart_sets(self, number: int) -> tuple[list[set[int]], ...]:
        return (self.apart, self.apart_first) if number == 0 else (self.apart,)

    def _pair_cost(self, a: int, b: int, number: int, together: bool) -> int:
        """What a and b sharing a table in this round costs: their meetings in other rounds
        (``together``: a and b are at one table now, and ``met`` counts it)."""
        cost = _REPEAT * (self.met[a].get(b, 0) - together)
        if b in self.apart[a] or (number == 0 and b in self.apart_first[a]):
            cost += _APART
        return cost

    def conflict(self, player: int, table: Sequence[int], number: int) -> int:
        return sum(
            self._pair_cost(player, other, number, True) for other in table if other != player
        )

    def swap_delta(
        self, a: int, table_a: Sequence[int], b: int, table_b: Sequence[int], number: int
    ) -> int:
        """The change in cost when a and b (at two tables of one round) change places."""
        delta = 0
        for x in table_a:
            if x != a:
                delta += self._pair_cost(b, x, number, False) - self._pair_cost(a, x, number, True)
        for y in table_b:
            if y != b:
                delta += self._pair_cost(a, y, number, False) - self._pair_cost(b, y, number, True)
        if len(table_a) != len(table_b):
            # The one moving to the table of five sits at one more; the other at one fewer.
            to_five, to_four = (b, a) if len(table_a) == TABLE_OF_FIVE else (a, b)
            delta += _FIVE * (self.fives[to_five] - (self.fives[to_four] - 1))
        if self.position_limit:
            # Where a table's order is the seat order, moving changes the position too.
            i, j = table_a.index(a), table_b.index(b)
            if i != j:
                delta += _POSITION * (
                    self._over(a, j) + self._over(b, i) - self._over(a, i) - self._over(b, j)
                )
        return delta

    def _over(self, player: int, position: int) -> int:
        return self.positions[player][position] + 1 > self.position_limit

    def _swap(self, tables: list[list[int]], where: list[int], a: int, b: int) -> None:
        """Let a and b change places, keeping meetings and tables of five counted."""
        table_a, table_b = tables[where[a]], tables[where[b]]
        self._meet(table_a, -1)
        self._meet(table_b, -1)
        if len(table_a) != len(table_b):
            five_leaver = a if len(table_a) == TABLE_OF_FIVE else b
            self.fives[five_leaver] -= 1
            self.fives[b if five_leaver == a else a] += 1
        table_a[table_a.index(a)] = b
        table_b[table_b.index(b)] = a
        where[a], where[b] = where[b], where[a]
        self._meet(table_a, +1)
        self._meet(table_b, +1)

    def _best_swap(
        self,
        tables: list[list[int]],
        where: list[int],
        a: int,
        candidates: Iterable[int],
        number: int,
    ) -> bool:
        """Swap a with the candidate that lowers the cost most; False if none lowers it."""
        best, best_delta = None, 0
        for b in candidates:
            if where[b] == where[a]:
                continue
            delta = self.swap_delta(a, tables[where[a]], b, tables[where[b]], number)
            if delta < best_delta:
                best, best_delta = b, delta
        if best is None:
            return False
        self._swap(tables, where, a, best)
        return True

    # Search --------------------------------------------------------------------------------

    def improve(
        self,
        tables: list[list[int]],
        number: int,
        *,
        max_distance: int | None = None,
        same_position: bool = False,
    ) -> None:
        """Greedy repair of one round not yet added: swap conflicted players with whoever
        lowers the cost most, until no swap helps. ``max_distance`` keeps swaps between
        tables that close to each other (standings: players stay near their rank);
        ``same_position`` swaps only players in the same seat position."""
        self._meet_all(tables, +1)
        self._fives_count(tables, +1)
        where = self._where(tables)
        players = list(range(len(self.ids)))
        classes = [[table[k] for table in tables if len(table) > k] for k in range(5)]
        home = list(where)
        for _ in range(20):
            conflicted = [
                p for table in tables for p in table if self.conflict(p, table, number) > 0
            ]
            if not conflicted:
                break
            self.rng.shuffle(conflicted)
            improved = False
            for a in conflicted:
                table_a = tables[where[a]]
                if self.conflict(a, table_a, number) <= 0:
                    continue
                if max_distance is not None:
                    # Both stay within ``max_distance`` tables of where their rank put them.
                    candidates = [
                        b
                        for b in players
                        if abs(home[b] - where[a]) <= max_distance
                        and abs(home[a] - where[b]) <= max_distance
                    ]
                else:
                    pool = classes[table_a.index(a)] if same_position else players
                    candidates = self.rng.sample(pool, _SAMPLE) if len(pool) > 2 * _SAMPLE else pool
                if self._best_swap(tables, where, a, candidates, number):
                    improved = True
            if not improved:
                break
        self._meet_all(tables, -1)
        self._fives_count(tables, -1)

    def tabu(self, drawn: list[list[list[int]]], first_number: int = 0) -> None:
        """Tabu search over all drawn rounds (already added): swap a conflicted player with
        the partner of his round that costs least, even uphill, never undoing a recent move,
        and keep the best plan seen. For small fields, where a perfect plan may exist that a
        round-by-round draw misses (16 players in 5 rounds: every pair meets exactly once)."""
        tabu_search(
            drawn,
            _Moves(self, first_number),
            self.rng,
            steps=_TABU_STEPS,
            stale=_TABU_STALE,
            tries=_TABU_TRIES,
            tenure=(4, 12),
        )

    def polish(self, tables: list[list[int]], number: int) -> None:
        """Spread the tables of five of an added round: swap players between a table of five
        and a table of four wherever that costs nothing else."""
        if all(len(table) == TABLE_OF_FOUR for table in tables):
            return
        where = self._where(tables)
        for _ in range(3):
            changed = False
            for five in [table for table in tables if len(table) == TABLE_OF_FIVE]:
                for a in list(five):
                    candidates = [
                        b for table in tables if len(table) == TABLE_OF_FOUR for b in table
                    ]
                    if len(candidates) > 4 * _SAMPLE:
                        candidates = self.rng.sample(candidates, 4 * _SAMPLE)
                    if self._best_swap(tables, where, a, candidates, number):
                        changed = True
            if not changed:
                break

    def add_round(self, tables: list[list[int]]) -> None:
        self._meet_all(tables, +1)
        self._fives_count(tables, +1)

    def _meet_all(self, tables: Iterable[Sequence[int]], step: int) -> None:
        for table in tables:
            self._meet(table, step)

    def _fives_count(self, tables: Iterable[Sequence[int]], step: int) -> None:
        for table in tables:
            if len(table) == TABLE_OF_FIVE:
                for p in table:
                    self.fives[p] += step

    @staticmethod
    def _where(tables: Sequence[Sequence[int]]) -> list[int]:
        where = [0] * sum(len(table) for table in tables)
        for number, table in enumerate(tables):
            for p in table:
                where[p] = number
        return where

    # Reseating -----------------------------------------------------------------------------

    def refill(
        self,
        partial: list[list[int | None]],
        movers: list[int],
        *,
        home: dict[int, tuple[int, int]],
        number: int,
    ) -> None:
        """Seat ``movers`` in the empty seats (``None``) of ``tables``, a round not yet added:
        each, most met first, where he costs least, then swaps of the movers among themselves
        (or, for a pair kept apart, with anybody) while they lower the cost. ``home``: the
        table and seat each player had, whom moving costs ``_MOVE``. Adds the round."""
        placed_cost = functools.partial(_placed_cost, home)
        tables = self._fill_holes(partial, movers, placed_cost, number)
        self.add_round(tables)
        where = self._where(tables)
        for _ in range(50):
            if not self._swap_loose(tables, where, home, placed_cost, number):
                break
        loose = [p for p in range(len(self.ids)) if home.get(p) != _place(tables, where, p)]
        if 1 < len(loose) <= _EXACT:
            self._assign_exactly(tables, loose, placed_cost, number)

    def _fill_holes(
        self,
        partial: list[list[int | None]],
        movers: list[int],
        placed_cost: Callable[[int, int, int], int],
        number: int,
    ) -> list[list[int]]:
        """Seat each mover, most met first, in the empty seat where he costs least."""
        holes = [
            (table, seat)
            for table, players in enumerate(partial)
            for seat, p in enumerate(players)
            if p is None
        ]
        self.rng.shuffle(movers)
        movers.sort(key=lambda p: -sum(self.met[p].values()) - len(self.apart[p]))
        for p in movers:

            def cost(hole: tuple[int, int], p: int = p) -> int:
                table, seat = hole
                others = [q for q in partial[table] if q is not None]
                return (
                    sum(self._pair_cost(p, q, number, False) for q in others)
                    + (_FIVE * self.fives[p] if len(partial[table]) == TABLE_OF_FIVE else 0)
                    + _POSITION * self._over(p, seat)
                    + placed_cost(p, table, seat)
                )

            hole = min(holes, key=cost)
            holes.remove(hole)
            partial[hole[0]][hole[1]] = p
        return cast("list[list[int]]", partial)  # every hole is filled now

    def _swap_loose(
        self,
        tables: list[list[int]],
        where: list[int],
        home: dict[int, tuple[int, int]],
        placed_cost: Callable[[int, int, int], int],
        number: int,
    ) -> bool:
        """One pass of swaps that lower the cost: each player away from home swaps with the
        best of the others away from home, or, for a pair kept apart, with anybody. Whether
        any swap was made."""
        everyone = range(len(self.ids))
        loose = [p for p in everyone if home.get(p) != _place(tables, where, p)]
        self.rng.shuffle(loose)
        # The players who could stay are swapped only for a pair kept apart that the
        # loose players have not mended (one already together in ``plan``).
        at_home = sorted(set(everyone).difference(loose))
        improved = False
        for a in loose + at_home:
            broken = any(
                q in sets[a] for sets in self._apart_sets(number) for q in tables[where[a]]
            )
            if not broken and home.get(a) == _place(tables, where, a):
                continue
            pool = list(everyone) if broken else loose
            if len(pool) > 4 * _SAMPLE:
                pool = self.rng.sample(pool, 4 * _SAMPLE)
            best, best_delta = None, 0
            for b in pool:
                if (
                    b != a
                    and (change := self._refill_delta(tables, where, a, b, placed_cost, number))
                    < best_delta
                ):
                    best, best_delta = b, change
            if best is None:
                continue
            if where[a] != where[best]:
                self._swap(tables, where, a, best)
            else:
                table = tables[where[a]]
                i, j = table.index(a), table.index(best)
                table[i], table[j] = best, a
            improved = True
        return improved

    def _refill_delta(
        self,
        tables: list[list[int]],
        where: list[int],
        a: int,
        b: int,
        placed_cost: Callable[[int, int, int], int],
        number: int,
    ) -> int:
        """What swapping players ``a`` and ``b`` changes in the cost, moves included."""
        table_a, table_b = where[a], where[b]
        i, j = tables[table_a].index(a), tables[table_b].index(b)
        if table_a != table_b:
            change = self.swap_delta(a, tables[table_a], b, tables[table_b], number)
        else:
            change = _POSITION * (
                self._over(a, j) + self._over(b, i) - self._over(a, i) - self._over(b, j)
            )
        return (
            change
            + placed_cost(a, table_b, j)
            + placed_cost(b, table_a, i)
            - placed_cost(a, table_a, i)
            - placed_cost(b, table_b, j)
        )

    def _assign_exactly(
        self,
        tables: list[list[int]],
        loose: list[int],
        placed_cost: Callable[[int, int, int], int],
        number: int,
    ) -> None:
        """Give the seats of the few ``loose`` players of an added round to them in the order
        that costs least (branch and bound over all orders)."""
        self._meet_all(tables, -1)
        self._fives_count(tables, -1)
        moving = frozenset(loose)
        places = [
            (table, seat)
            for table, players in enumerate(tables)
            for seat, p in enumerate(players)
            if p in moving
        ]
        # What a loose player costs in a place, apart from the other loose players there.
        alone = {
            (p, place): sum(
                self._pair_cost(p, q, number, False) for q in tables[place[0]] if q not in moving
            )
            + (_FIVE * self.fives[p] if len(tables[place[0]]) == TABLE_OF_FIVE else 0)
            + _POSITION * self._over(p, place[1])
            + placed_cost(p, *place)
            for p in loose
            for place in places
        }
        chosen: list[int] = []
        free = set(loose)

        def cost_of(order: Sequence[int]) -> int:
            return sum(alone[p, place] for p, place in zip(order, places, strict=True)) + sum(
                self._pair_cost(p, q, number, False)
                for (p, here), (q, there) in itertools.combinations(
                    zip(order, places, strict=True), 2
                )
                if here[0] == there[0]
            )

        current = [tables[table][seat] for table, seat in places]
        best, best_cost = list(current), cost_of(current)

        def search(partial: int) -> None:
            nonlocal best, best_cost
            k = len(chosen)
            if k == len(places):
                if partial < best_cost:
                    best, best_cost = list(chosen), partial
                return
            place = places[k]
            for p in sorted(free):
                cost = partial + alone[p, place]
                for q, there in zip(chosen, places[:k], strict=True):
                    if there[0] == place[0]:
                        cost += self._pair_cost(p, q, number, False)
                if cost < best_cost:
                    free.remove(p)
                    chosen.append(p)
                    search(cost)
                    chosen.pop()
                    free.add(p)

        search(0)
        for p, (table, seat) in zip(best, places, strict=True):
            tables[table][seat] = p
        self.add_round(tables)

    # Seat positions ------------------------------------------------------------------------

    def seat(
        self, tables: list[list[int]], *, number: int, round_overall: int, repair: bool
    ) -> SeatingPlan:
        """Order each table so that nobody keeps the same position (seat 1 deals first, the
        last seat keeps the sheet). After ``round_overall`` rounds no player should have sat in
        one position more than ``round_overall / 4`` times, rounded up: each position once in
        rounds 1-4, twice by round 8. Where a table's players cannot all be given such a
        position, players are first swapped with other tables where that costs no meetings.
        Then each table takes the order that adds least to everybody's count of his position,
        squared, so a third time in one position weighs more than a second."""
        limit = math.ceil(round_overall / 4)
        where = self._where(tables)
        for here in range(len(tables) if repair else 0):
            if self._order(tables[here], limit)[1] < _OVER:
                continue
            players: Sequence[int] = range(len(self.ids))
            if len(self.ids) > 4 * _SAMPLE:
                players = self.rng.sample(range(len(self.ids)), 4 * _SAMPLE)
            for a in list(tables[here]):
                if a not in tables[here]:
                    continue
                before = self._order(tables[here], limit)[1]
                if before < _OVER:
                    break
                for b in players:
                    there = where[b]
                    if (
                        there == here
                        or self.swap_delta(a, tables[here], b, tables[there], number) > 0
                    ):
                        continue
                    mine = [b if p == a else p for p in tables[here]]
                    theirs = [a if p == b else p for p in tables[there]]
                    now = self._order(tables[there], limit)[1]
                    after = self._order(mine, limit)[1] + self._order(theirs, limit)[1]
                    if after < before + now:
                        self._swap(tables, where, a, b)
                        break
        seated = []
        for table in tables:
            order = self._order(table, limit)[0]
            for position, p in enumerate(order):
                self.positions[p][position] += 1
            seated.append(tuple(self.ids[p] for p in order))
        return SeatingPlan(tables=tuple(seated))

    def _order(self, table: Sequence[int], limit: int) -> tuple[tuple[int, ...], int]:
        """The best order of one table and its cost (``_OVER`` for each position over limit)."""
        best, best_cost = None, None
        orders = list(itertools.permutations(table))
        self.rng.shuffle(orders)
        for order in orders:
            cost = 0
            for position, p in enumerate(order):
                count = self.positions[p][position] + 1
                cost += count * count + (_OVER if count > limit else 0)
            if best_cost is None or cost < best_cost:
                best, best_cost = order, cost
        # A table has at least one order.
        assert best is not None
        assert best_cost is not None
        return best, best_cost


class _Moves:
    """The individual draw as ``doko.tabu`` sees it: a player is conflicted while he meets
    somebody again (or somebody to be kept apart); any two players of a round may swap."""

    def __init__(self, planner: _Planner, first_number: int) -> None:
        self.planner = planner
        self.first_number = first_number
        self.players = range(len(planner.ids))
        self.swap = planner._swap

    def conflicted(self, drawn: Sequence[Sequence[Sequence[int]]]) -> list[tuple[int, int]]:
        conflict, first = self.planner.conflict, self.first_number
        return [
            (index, p)
            for index, tables in enumerate(drawn)
            for table in tables
            for p in table
            if conflict(p, table, first + index) > 0
        ]

    def partners(self, number: int, a: int) -> range:
        return self.players

    def delta(self, number: int, a: int, here: list[int], b: int, there: list[int]) -> int:
        return self.planner.swap_delta(a, here, b, there, self.first_number + number)

    def remove(self, tables: Sequence[Sequence[int]]) -> None:
        self.planner._meet_all(tables, -1)
        self.planner._fives_count(tables, -1)

    def add(self, tables: Sequence[Sequence[int]]) -> None:
        self.planner._meet_all(tables, +1)
        self.planner._fives_count(tables, +1)
