"""Seat positions balanced over many rounds at once (TSR 8.4: seat 1 deals first; TSR 3.1.1
and 10.1.4: the last seat keeps the sheet). Plain Python, no Django.

``balanced_positions`` orders the tables of rounds drawn together so that nobody sits in any
position more than ``ceil(rounds / 4)`` times, the least that can be promised: an equitable edge
colouring of the bipartite graph of players and tables, by Euler splits.
"""

import math
import random
from collections.abc import Sequence

from doko.rules.deal import TABLE_OF_FIVE


def balanced_positions(
    drawn: Sequence[Sequence[Sequence[int]]], rng: random.Random
) -> list[list[list[int]]]:
    """Seat orders for rounds at tables of four and five such that no player has any position
    more than ``ceil(rounds / 4)`` times, the best that can be promised (TSR 8.4: seat 1 deals
    first; TSR 10.1.4: the last seat keeps the sheet).

    The fifth seats go first: each table of five gives its fifth seat to one of its players,
    nobody more than the limit (a matching, by augmenting paths). The other seats are a
    bipartite graph, players on one side and the tables of all rounds on the other, an edge
    for each seat, four at each table. Its Euler circuits (through a dummy vertex joined to
    every player of odd degree) colour the edges alternately red and blue, so each table gets
    two of each and each player a number within one of half his seats; splitting red and blue
    the same way again gives the four positions, each table one of each, each player each at
    most ``ceil(ceil(rounds / 2) / 2) = ceil(rounds / 4)`` times (an equitable edge colouring).
    """
    limit = math.ceil(len(drawn) / 4)
    fifth = _fifth_seats(drawn, limit, rng)
    seats = [
        (p, (number, table))
        for number, tables in enumerate(drawn)
        for table, players in enumerate(tables)
        for p in players
        if fifth.get((number, table)) != p
    ]
    positions: dict[tuple[int, tuple[int, int]], int] = {
        (p, place): 4 for place, p in fifth.items()
    }
    for half, edges in enumerate(_halves(seats, rng)):
        for quarter, part in enumerate(_halves(edges, rng)):
            for edge in part:
                positions[edge] = 2 * half + quarter
    ordered = []
    for number, tables in enumerate(drawn):
        round_ = []
        for table, players in enumerate(tables):
            order = [0] * len(players)
            for p in players:
                order[positions[p, (number, table)]] = p
            round_.append(order)
        ordered.append(round_)
    return ordered


def _fifth_seats(
    drawn: Sequence[Sequence[Sequence[int]]], limit: int, rng: random.Random
) -> dict[tuple[int, int], int]:
    """Who sits in the fifth seat of each table of five (keyed by round and table): nobody
    more than ``limit`` times where that is possible, else as evenly as it goes."""
    fives = [
        (number, table)
        for number, tables in enumerate(drawn)
        for table, players in enumerate(tables)
        if len(players) == TABLE_OF_FIVE
    ]
    rng.shuffle(fives)
    given: dict[tuple[int, int], int] = {}
    held: dict[int, list[tuple[int, int]]] = {}

    def give(place: tuple[int, int], visited: set[int]) -> bool:
        players = sorted(drawn[place[0]][place[1]], key=lambda p: len(held.get(p, ())))
        for p in players:
            if p in visited:
                continue
            visited.add(p)
            mine = held.setdefault(p, [])
            if len(mine) < limit:
                mine.append(place)
                given[place] = p
                return True
            for other in list(mine):
                if give(other, visited):
                    mine.remove(other)
                    mine.append(place)
                    given[place] = p
                    return True
        return False

    for place in fives:
        if not give(place, set()):
            p = min(drawn[place[0]][place[1]], key=lambda p: len(held.get(p, ())))
            held.setdefault(p, []).append(place)
            given[place] = p
    return given


_Edge = tuple[int, tuple[int, int]]


def _halves(edges: Sequence[_Edge], rng: random.Random) -> tuple[list[_Edge], list[_Edge]]:
    """Two halves of a bipartite graph's edges with every vertex of even degree on the right
    side split exactly in two, every vertex on the left within one (see balanced_positions)."""
    dummy = (-1, -1)
    links: list[tuple[object, object, _Edge | None]] = [
        (("p", p), ("t", t), (p, t)) for p, t in edges
    ]
    degree: dict[int, int] = {}
    for p, _ in edges:
        degree[p] = degree.get(p, 0) + 1
    links += [(("p", p), ("t", dummy), None) for p, d in degree.items() if d % 2]
    rng.shuffle(links)
    around: dict[object, list[int]] = {}
    for index, (a, b, _) in enumerate(links):
        around.setdefault(a, []).append(index)
        around.setdefault(b, []).append(index)
    used = [False] * len(links)
    halves: tuple[list[_Edge], list[_Edge]] = ([], [])
    for start in list(around):
        # Hierholzer: the circuit through ``start``, its edges in the order walked.
        stack: list[tuple[object, int | None]] = [(start, None)]
        circuit: list[int] = []
        while stack:
            vertex, via = stack[-1]
            pending = around[vertex]
            while pending and used[pending[-1]]:
                pending.pop()
            if pending:
                index = pending.pop()
                used[index] = True
                a, b, _ = links[index]
                stack.append((b if a == vertex else a, index))
            else:
                stack.pop()
                if via is not None:
                    circuit.append(via)
        flip = rng.random() < 0.5
        for step, index in enumerate(circuit):
            edge = links[index][2]
            if edge is not None:
                halves[(step % 2) ^ flip].append(edge)
    return halves
