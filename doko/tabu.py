"""The tabu search shared by the draws: the individual draw (``doko.seating``), the team draw
(``doko.team_seating``) and the season plan (``doko.season_plan``).

A plan is a list of rounds, each a list of tables (groups), each a list of players numbered
0..n-1, every player seated once per round. A move lets two players of one round, at different
tables, change places. Each step weighs the moves of a few *conflicted* players (those the
problem names) against all their partners, takes one of the moves that costs least, even
uphill, never undoing a recent move (a player moved stays put for a few steps, unless moving
him again gives a plan better than the best seen), and keeps the best plan seen. The search
stops after ``steps`` steps, after ``stale`` steps without a better plan, at the lower bound
``least`` or when the problem names nobody conflicted.

What a plan costs, and which moves are allowed, is the problem's (``Moves``).
"""

import itertools
import random
from collections.abc import Iterable, Sequence
from typing import Protocol


class Moves(Protocol):
    """The problem the search works on. It keeps its own counts (who met whom) in step with
    the plan: ``swap`` changes both, ``remove`` and ``add`` take a round out of the counts and
    put one in."""

    def conflicted(self, drawn: Sequence[Sequence[Sequence[int]]]) -> list[tuple[int, int]]:
        """The (round, player) pairs whose moves are weighed this step; the search samples
        ``tries`` of them if there are more. None named: the plan cannot get better, stop."""
        ...

    def partners(self, number: int, a: int) -> Iterable[int]:
        """The players a may change places with in round ``number`` (those at a's own table
        are skipped)."""
        ...

    def delta(self, number: int, a: int, here: list[int], b: int, there: list[int]) -> int | None:
        """The change in cost if a (at ``here``) and b (at ``there``) change places in round
        ``number``; None if they may not."""
        ...

    def swap(self, tables: list[list[int]], where: list[int], a: int, b: int) -> None:
        """Let a and b change places (``where[p]``: p's table), keeping the counts."""
        ...

    def remove(self, tables: Sequence[Sequence[int]]) -> None: ...

    def add(self, tables: Sequence[Sequence[int]]) -> None: ...


def tabu_search(
    drawn: list[list[list[int]]],
    moves: Moves,
    rng: random.Random,
    *,
    steps: int,
    stale: int,
    tries: int,
    tenure: tuple[int, int],
    cost: int = 0,
    least: int | None = None,
) -> list[list[list[int]]]:
    """Improve ``drawn`` in place, its counts in ``moves`` too, and return the best plan seen
    (the first of its cost). ``drawn`` is left a plan of the best cost: that one, or the
    current plan if it costs as much (no recount then). ``cost``: the plan's cost now (any number: only the changes count, unless ``least``, a
    lower bound the search stops at, is given). ``tenure``: the range a moved player's rest is
    drawn from, in steps."""
    wheres = [_where(tables) for tables in drawn]
    best_cost = cost
    best = _copy(drawn)
    tabu: dict[tuple[int, int], int] = {}
    since_better = 0
    for step in range(steps):
        since_better += 1
        if since_better > stale or (least is not None and best_cost <= least):
            break
        conflicted = moves.conflicted(drawn)
        if not conflicted:
            break
        if len(conflicted) > tries:
            conflicted = rng.sample(conflicted, tries)
        chosen: list[tuple[int, int, int]] = []
        chosen_delta = 0
        for number, a in conflicted:
            tables, where = drawn[number], wheres[number]
            here = tables[where[a]]
            for b in moves.partners(number, a):
                if where[b] == where[a]:
                    continue
                delta = moves.delta(number, a, here, b, tables[where[b]])
                if delta is None:
                    continue
                if (tabu.get((number, a), -1) > step or tabu.get((number, b), -1) > step) and (
                    cost + delta >= best_cost
                ):
                    continue
                if not chosen or delta < chosen_delta:
                    chosen, chosen_delta = [(number, a, b)], delta
                elif delta == chosen_delta:
                    chosen.append((number, a, b))
        if not chosen:
            tabu.clear()
            continue
        number, a, b = rng.choice(chosen)
        moves.swap(drawn[number], wheres[number], a, b)
        tabu[number, a] = tabu[number, b] = step + rng.randint(*tenure)
        cost += chosen_delta
        if cost < best_cost:
            best_cost, best = cost, _copy(drawn)
            since_better = 0
    if cost != best_cost:
        for tables in drawn:
            moves.remove(tables)
        for number, tables in enumerate(best):
            drawn[number][:] = tables
            moves.add(tables)
    return best


class Meetings:
    """The counts of a problem whose cost is in who meets whom: ``met[p][q]``, the rounds p
    and q share a table, kept by ``swap``, ``add`` and ``remove`` as ``Moves`` asks."""

    def __init__(self, n: int) -> None:
        self.met = [[0] * n for _ in range(n)]

    def swap(self, tables: list[list[int]], where: list[int], a: int, b: int) -> None:
        met = self.met
        here, there = tables[where[a]], tables[where[b]]
        for q in here:
            if q != a:
                met[a][q] -= 1
                met[q][a] -= 1
                met[b][q] += 1
                met[q][b] += 1
        for q in there:
            if q != b:
                met[b][q] -= 1
                met[q][b] -= 1
                met[a][q] += 1
                met[q][a] += 1
        here[here.index(a)] = b
        there[there.index(b)] = a
        where[a], where[b] = where[b], where[a]

    def add(self, tables: Sequence[Sequence[int]], step: int = +1) -> None:
        met = self.met
        for table in tables:
            for a, b in itertools.combinations(table, 2):
                met[a][b] += step
                met[b][a] += step

    def remove(self, tables: Sequence[Sequence[int]]) -> None:
        self.add(tables, -1)


def _where(tables: Sequence[Sequence[int]]) -> list[int]:
    where = [0] * sum(len(table) for table in tables)
    for number, table in enumerate(tables):
        for p in table:
            where[p] = number
    return where


def _copy(drawn: Sequence[Sequence[Sequence[int]]]) -> list[list[list[int]]]:
    return [[list(table) for table in tables] for tables in drawn]
