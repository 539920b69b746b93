"""Seating draws (issue 4): the figures the issue asks for, each against the baseline of a plain
shuffle-and-cut of the same players and rounds (a draw that avoids nothing)."""

import random
import time

from bench.figures import Figure
from tournaments.seating import Method, SeatingPlan, draw, quality, table_sizes

CASES = [
    ("German championship", 148, 8, True),
    ("ranking tournament", 32, 3, False),
    ("finite geometry", 16, 5, False),
    ("hard small case", 24, 7, False),
    ("large field", 2000, 10, True),
]


def shuffled(players: int, rounds: int, fives: bool, seed: int) -> list[SeatingPlan]:
    rng, everyone = random.Random(seed), list(range(1, players + 1))
    plans = []
    for _ in range(rounds):
        rng.shuffle(everyone)
        tables, start = [], 0
        for size in table_sizes(players, tables_of_five=fives):
            tables.append(tuple(everyone[start : start + size]))
            start += size
        plans.append(SeatingPlan(tables=tuple(tables)))
    return plans


def seconds(function) -> tuple[float, object]:
    start = time.perf_counter()
    result = function()
    return time.perf_counter() - start, result


def figures() -> list[Figure]:
    results = []
    for name, players, rounds, fives in CASES:
        elapsed, result = seconds(
            lambda p=players, r=rounds, f=fives: draw(
                range(1, p + 1), method=Method.DDV, seed=1, tables_of_five=f, rounds=r
            )
        )
        base_elapsed, base = seconds(lambda p=players, r=rounds, f=fives: shuffled(p, r, f, seed=1))
        q, base_q = result.quality, quality(base)
        label = f"{name}: {players} x {rounds}"
        results.append(
            Figure(f"{label}, time", elapsed * 1000, "shuffle", base_elapsed * 1000, "ms")
        )
        results.append(
            Figure(
                f"{label}, repeats (best possible {q.best_possible})",
                q.repeat_meetings,
                "shuffle",
                max(base_q.repeat_meetings, 1),
                "",
            )
        )
        results.append(
            Figure(
                f"{label}, most in one position (limit {q.position_limit})",
                q.most_in_one_position,
                "shuffle",
                base_q.most_in_one_position,
                "",
            )
        )
    return results
