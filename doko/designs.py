"""Perfect seating plans: rounds at tables of four in which no two players meet twice.

This is the social golfer problem with groups of four: ``4g`` players at ``g`` tables, for as
many rounds as possible without a repeat meeting. Each round a player meets three others, so
``(players - 1) // 3`` rounds is an upper bound; with fewer than four tables, two players of a
table always meet again in the next round, so the bound is one round there. For the fields of a
Doppelkopf tournament up to 48 players, the literature knows the optimum (``KNOWN_BEST``):

- 16 players: 5 rounds, the affine plane of order 4 (every pair meets exactly once);
- 20: 5 (the bound of 6 would need a resolvable 4-GDD of type 2^10, which does not exist);
- 24, 36, 48: 7, 11 and 15 rounds, from resolvable 4-GDDs of type 3^u, which exist for every
  ``u`` divisible by 4 except 4 (each player misses the two others of his "group");
- 28 and 40: 9 and 13 rounds, the resolvable (v, 4, 1) designs (every pair meets once);
- 32: 10 rounds, constructed by Aguado (2004) after years as the open case of the problem;
- 44: 14 rounds, a resolvable 4-GDD of type 2^22.

Our plans are our own, computed by the classical cyclic construction of design theory: the
players are the points of ``G x {0..c-1}`` for a small abelian group ``G`` (``Scheme.group``)
plus ``f`` fixed points, and a *base round* (a partition of the points into tables of four) is
*developed*: round ``g`` adds ``g`` to every point's group coordinate and leaves the fixed points
alone. Every pair of players belongs to an orbit, named by its columns and the difference of
its coordinates, and the developed rounds have no repeat meeting exactly when no orbit occurs
twice among the base rounds (and none that meets itself: two fixed points, or a difference that
is its own negative).

A base round may also be kept by a subgroup ``H`` of ``G`` (``Scheme.stabilisers``): adding an
element of ``H`` only permutes its tables, so it is developed over one shift per coset of ``H``
into ``|G| / |H|`` rounds. The counting is the same with one change: a pair may sit at a table of
such a round when every shift that maps the pair onto itself is in ``H`` (``Scheme.may_meet``),
and the pairs ``H`` maps onto each other count once. That is how 32 players reach 10 rounds
where the cyclic forms with fixed points we tried stop at 9: ``Z_8 x Z_2`` on two columns, with
base rounds kept by subgroups of order 4, 4 and 8 (4 + 4 + 2 rounds; each player misses exactly
one other, a resolvable 4-GDD of type 2^16; ``doko.design_search`` tells how it was chosen).
44 players reach their 14 rounds as ``Z_14`` on three columns plus two fixed points, every pair
orbit used exactly once but the two that meet themselves (the fixed points, and the pairs 7
apart in a column): each player misses exactly one other; 48 players their 15 as ``Z_15`` on
three columns plus three fixed points, the form of 24 and 36 players (each misses the two
others of his group: the three fixed points, or the three points of a column 5 apart).
``doko.design_search`` finds base rounds with a SAT solver;
``python -m doko.design_search`` does it again and rewrites ``doko/designs_found.py``, and
``tests/doko/test_designs.py`` develops every stored entry and checks it. Plain Python, no
Django; this module needs no solver.
"""

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass

from doko import five_plans_found
from doko.designs_found import FOUND

Table = tuple[int, ...]
Round = tuple[Table, ...]

# The most rounds without a repeat meeting known for 4g players (sources in the docstring);
# fewer than 16 players have one round (four tables are needed to separate a table's players).
KNOWN_BEST = {16: 5, 20: 5, 24: 7, 28: 9, 32: 10, 36: 11, 40: 13, 44: 14, 48: 15}


def known_best(players: int) -> int | None:
    """The most rounds at tables of four without a repeat meeting that the literature knows
    to exist for ``players``, or None where it is not recorded here (not a multiple of four,
    or more than 48 players)."""
    if players % 4 or players < 4:
        return None
    if players < 16:
        return 1
    return KNOWN_BEST.get(players)


@dataclass(frozen=True)
class Scheme:
    """Where the construction looks: the group ``Z_g1 x Z_g2 x ...`` (``group``: the g's) of
    order m, ``columns`` c, ``fixed`` f points and ``bases`` base rounds. Point (x, column) is
    number ``column * m + x``; fixed point j is ``m * c + j``; group elements are numbered
    0..m-1 in mixed radix. ``stabilisers`` names, for each base round, generators of the
    subgroup H of G that maps it onto itself (permuting its tables): the base round is developed
    over one shift per coset of H, m / |H| rounds. Empty: no base round is kept by any shift but
    0, and the ``m * c + f`` players have ``bases * m`` rounds."""

    group: tuple[int, ...]
    columns: int
    fixed: int
    bases: int = 1
    stabilisers: tuple[tuple[int, ...], ...] = ()

    def __post_init__(self) -> None:
        if self.stabilisers and len(self.stabilisers) != self.bases:
            raise ValueError("one stabiliser per base round")

    @property
    def order(self) -> int:
        return math.prod(self.group)

    @property
    def players(self) -> int:
        return self.order * self.columns + self.fixed

    @property
    def rounds(self) -> int:
        return sum(len(self.shifts(base)) for base in range(self.bases))

    def add(self, x: int, y: int) -> int:
        total, place = 0, 1
        for g in self.group:
            total += (x % g + y % g) % g * place
            x, y, place = x // g, y // g, place * g
        return total

    def negative(self, x: int) -> int:
        total, place = 0, 1
        for g in self.group:
            total += -(x % g) % g * place
            x, place = x // g, place * g
        return total

    def subgroup(self, base: int) -> frozenset[int]:
        """The shifts that map base round ``base`` onto itself: the subgroup its stabiliser's
        generators generate."""
        generators = self.stabilisers[base] if self.stabilisers else ()
        elements, frontier = {0}, [0]
        while frontier:
            x = frontier.pop()
            for generator in generators:
                y = self.add(x, generator)
                if y not in elements:
                    elements.add(y)
                    frontier.append(y)
        return frozenset(elements)

    def shifts(self, base: int) -> list[int]:
        """The shifts base round ``base`` is developed over: the least of each coset of its
        stabiliser."""
        subgroup, seen, shifts = self.subgroup(base), set[int](), []
        for shift in range(self.order):
            if shift not in seen:
                shifts.append(shift)
                seen.update(self.add(shift, h) for h in subgroup)
        return shifts

    def shifted(self, p: int, shift: int) -> int:
        """Point ``p`` moved by the group element ``shift`` (fixed points stay)."""
        m = self.order
        if p >= m * self.columns:
            return p
        column, x = divmod(p, m)
        return column * m + self.add(x, shift)

    def orbit(self, p: int, q: int) -> tuple[int, ...]:
        """The name of the orbit of the pair (p, q) under the shifts."""
        m, c = self.order, self.columns
        if p >= m * c and q >= m * c:
            return (3, min(p, q), max(p, q))
        if p >= m * c or q >= m * c:
            fixed, other = (p, q) if p >= m * c else (q, p)
            return (0, fixed, other // m)
        (cp, xp), (cq, xq) = divmod(p, m), divmod(q, m)
        if cp == cq:
            d = self.add(xq, self.negative(xp))
            return (1, cp, min(d, self.negative(d)))
        (c1, x1), (c2, x2) = sorted(((cp, xp), (cq, xq)))
        return (2, c1, c2, self.add(x2, self.negative(x1)))

    def keeping(self, p: int, q: int) -> frozenset[int]:
        """The shifts that map the pair (p, q) onto itself: all for two fixed points, 0 and d
        for two points of a column d apart with d its own negative, else just 0."""
        m, c = self.order, self.columns
        if p >= m * c and q >= m * c:
            return frozenset(range(m))
        if p >= m * c or q >= m * c or p // m != q // m:
            return frozenset({0})
        d = self.add(q % m, self.negative(p % m))
        return frozenset({0, d}) if d == self.negative(d) else frozenset({0})

    def may_meet(self, base: int, p: int, q: int) -> bool:
        """Whether p and q may share a table of base round ``base``: only if every shift that
        keeps the pair keeps the round, else they would meet again in the developed rounds."""
        return self.keeping(p, q) <= self.subgroup(base)


@dataclass(frozen=True)
class Design:
    scheme: Scheme
    base: tuple[Round, ...]  # the base rounds: tables of point numbers

    def rounds(self) -> list[Round]:
        """The developed plan: ``scheme.rounds`` rounds of the players 0..n-1."""
        return [
            tuple(tuple(self.scheme.shifted(p, shift) for p in table) for table in base)
            for index, base in enumerate(self.base)
            for shift in self.scheme.shifts(index)
        ]


def stored(players: int) -> Design | None:
    """The stored design for ``players`` (``doko/designs_found.py``), if there is one."""
    entry = FOUND.get(players)
    if entry is None:
        return None
    (group, columns, fixed, bases, stabilisers), base = entry
    scheme = Scheme(group=group, columns=columns, fixed=fixed, bases=bases, stabilisers=stabilisers)
    return Design(scheme=scheme, base=base)


def perfect_rounds(players: int) -> int:
    """How many rounds without a repeat meeting we can seat ``players`` in at tables of
    four: a stored design's rounds, one round for any other multiple of four, else 0."""
    design = stored(players)
    if design is not None:
        return design.scheme.rounds
    return 1 if players % 4 == 0 and players >= 4 else 0


def perfect_plan(players: int, rounds: int, rng: random.Random) -> list[Round] | None:
    """``rounds`` rounds of the players 0..n-1 at tables of four in which nobody meets anybody
    twice, drawn at random from the stored design (any of its rounds, in any order, the
    players relabelled), or None if there is no such design for ``players``."""
    design = stored(players)
    if design is None or rounds > design.scheme.rounds:
        return None
    plan = rng.sample(design.rounds(), rounds)
    label = list(range(players))
    rng.shuffle(label)
    drawn = []
    for round_ in plan:
        tables = [tuple(label[p] for p in table) for table in round_]
        rng.shuffle(tables)
        drawn.append(tuple(tables))
    return drawn


def five_plan(players: int, rounds: int, rng: random.Random) -> list[Round] | None:
    """The stored plan at tables of four and five for ``players`` (``doko/five_plans_found.py``,
    found by ``doko.five_search``), drawn at random as ``perfect_plan`` draws (its rounds in any
    order, the players relabelled, the tables shuffled within their size), or None unless one is
    stored for exactly ``rounds`` rounds: its repeat meetings are counted over all of them, and a
    part of it need not beat what the draw finds for fewer rounds."""
    plan = five_plans_found.FOUND.get(players)
    if plan is None or len(plan) != rounds:
        return None
    label = list(range(players))
    rng.shuffle(label)
    drawn = []
    for round_ in rng.sample(plan, rounds):
        tables = [tuple(label[p] for p in table) for table in round_]
        rng.shuffle(tables)
        tables.sort(key=len)  # tables of five keep the highest numbers (doko.seating.draw)
        drawn.append(tuple(tables))
    return drawn


def repeat_meetings(plan: Sequence[Sequence[Sequence[int]]]) -> int:
    """How many meetings of ``plan`` are beyond a pair's first."""
    seen: set[tuple[int, int]] = set()
    repeats = 0
    for round_ in plan:
        for table in round_:
            for i, a in enumerate(table):
                for b in table[i + 1 :]:
                    pair = (a, b) if a < b else (b, a)
                    repeats += pair in seen
                    seen.add(pair)
    return repeats
