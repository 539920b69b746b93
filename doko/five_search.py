"""Finding seating plans at tables of four and five with few repeat meetings, and storing them.

``python -m doko.five_search`` searches a plan for every field in ``RECIPES`` (players, rounds:
the tables-of-five cases of issue 36) and rewrites ``doko/five_plans_found.py`` where it finds
a better plan than the stored one (one to three minutes a field); ``--players N`` searches one field,
``--seeds K`` tries K seeds (default 6). Plain Python, no Django; drawing never runs it.

The plans are built from the stored perfect plans at tables of four (``doko.designs``): a field
of ``4g + e`` players (``e`` = 2 or 3, the number of tables of five) takes ``rounds`` rounds of
the design for ``4g`` players, as many as it has, and random rounds of those players for the
rest; the ``e`` extra players sit at ``e`` different tables of every round, which makes them the
tables of five. Then a hill climb moves an extra player to another table of a round, or swaps
two players of a random round between tables, whenever that does not add a repeat meeting.

- 26 x 8 from the 24 players' 7 rounds (each player missing the two others of his group): the
  eighth round repeats at least 3 meetings at each table of four (only the groups' pairs are
  new), and the two extras meet 32 players of 24, at least 8 repeats each; 34 found (the draw:
  41; counting bound 27, issue 36's target 32).
- 30 x 8 from 8 of the 28 players' 9 rounds (every pair meets exactly once): only the extras
  repeat, each meeting 32 players of 28; 10 found, 8 at best of this form (the draw: 22;
  target 0).
- 39 x 12 from the 36 players' 11 rounds and a twelfth: 68 found (65 with other seeds) (the draw: 86; bound 51,
  target 61).

The price: the extra players sit at a table of five in every round, where the draw spreads the
tables of five; the draw weighs a repeat meeting above that (``doko.seating``), and so do these
plans. What was tried before and gave less: a conflict-directed tabu search in the manner of
Dotu and Van Hentenryck over all rounds from a random start (26 x 8: 48, 30 x 8: 23, 39 x 12:
99 in a minute or two of Python), or from these plans (no better plan); a SAT model of plans
developed cyclically from base rounds (``Z_8`` on three columns plus two fixed points for 26 x 8,
``Z_4`` on seven columns plus two fixed points with two base rounds for a perfect 30 x 8,
``Z_12`` on three columns plus three fixed points for 39 x 12, each with a budget of repeated
pair orbits that would meet the target): no answer from the solver in two to six minutes;
removing two players from Aguado's 32 players and dissolving a table into the two tables of
three (30 x 8: 49 at best).
"""

import argparse
import pprint
import random
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from doko import designs
from doko.five_plans_found import FOUND

Table = tuple[int, ...]
Round = tuple[Table, ...]
repeat_meetings = designs.repeat_meetings


@dataclass(frozen=True)
class Recipe:
    rounds: int
    design: int  # the players of the stored perfect plan the field is built from
    extras: int  # the players added at tables of five


RECIPES = {
    26: Recipe(rounds=8, design=24, extras=2),
    30: Recipe(rounds=8, design=28, extras=2),
    39: Recipe(rounds=12, design=36, extras=3),
}


def search(players: int, *, seed: int, steps: int = 20_000) -> list[Round]:
    """A plan for the field of ``RECIPES[players]``, built and climbed as the docstring says."""
    recipe = RECIPES[players]
    design = designs.stored(recipe.design)
    assert design is not None, "the recipes name stored designs"
    rng = random.Random(seed)
    known = [[list(table) for table in round_] for round_ in design.rounds()]
    plan = rng.sample(known, min(recipe.rounds, len(known)))
    free = list(range(len(plan), recipe.rounds))  # rounds of our own, which the climb changes
    tables = recipe.design // 4
    for _ in free:
        order = rng.sample(range(recipe.design), recipe.design)
        plan.append([order[4 * i : 4 * i + 4] for i in range(tables)])
    extras = range(recipe.design, recipe.design + recipe.extras)
    fives = [rng.sample(range(tables), recipe.extras) for _ in plan]

    def built() -> list[Round]:
        return [
            tuple(
                tuple(table) + tuple(e for e, five in zip(extras, at, strict=True) if five == i)
                for i, table in enumerate(round_)
            )
            for round_, at in zip(plan, fives, strict=True)
        ]

    cost = repeat_meetings(built())
    for _ in range(steps):
        number = rng.randrange(recipe.rounds)
        if number in free and rng.random() < 0.5:
            i, j = rng.sample(range(tables), 2)
            x, y = rng.randrange(4), rng.randrange(4)
            round_ = plan[number]
            round_[i][x], round_[j][y] = round_[j][y], round_[i][x]
            if (change := repeat_meetings(built())) <= cost:
                cost = change
            else:
                round_[i][x], round_[j][y] = round_[j][y], round_[i][x]
        else:
            old = fives[number]
            fives[number] = rng.sample(range(tables), recipe.extras)
            if (change := repeat_meetings(built())) <= cost:
                cost = change
            else:
                fives[number] = old
    return [
        tuple(sorted((tuple(sorted(table)) for table in round_), key=lambda t: (len(t), t)))
        for round_ in built()
    ]


HEADER = '''"""Seating plans at tables of four and five with few repeat meetings, found by
``doko.five_search`` (issue 36).

Generated by ``python -m doko.five_search``: do not edit. ``FOUND`` maps a field's players to
its rounds (each a tuple of tables, tables of four first, players 0..n-1) and ``REPEATS`` to
their repeat meetings; ``tests/doko/test_five_plans.py`` checks both.
"""

Plan = tuple[tuple[tuple[int, ...], ...], ...]

'''


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, action="append", help="search this field only")
    parser.add_argument("--seeds", type=int, default=6)
    parser.add_argument(
        "--output", type=Path, default=Path(__file__).with_name("five_plans_found.py")
    )
    args = parser.parse_args(argv)
    found: dict[int, Sequence[Round]] = dict(FOUND)
    for players, recipe in sorted(RECIPES.items()):
        if args.players and players not in args.players:
            continue
        start = time.perf_counter()
        plans = [search(players, seed=seed) for seed in range(1, args.seeds + 1)]
        plan = min(plans, key=repeat_meetings)
        repeats, elapsed = repeat_meetings(plan), time.perf_counter() - start
        print(f"{players} x {recipe.rounds}: {repeats} repeat meetings, {elapsed:.0f} s", end="")
        old = found.get(players)
        if old is not None and len(old) == recipe.rounds and repeat_meetings(old) <= repeats:
            print(f" (stored: {repeat_meetings(old)}, kept)")
            continue
        print(" (stored)")
        found[players] = tuple(plan)
    repeats_of = {players: repeat_meetings(plan) for players, plan in sorted(found.items())}
    body = (
        "# fmt: off\nFOUND: dict[int, Plan] = "
        + pprint.pformat(dict(sorted(found.items())), width=99, compact=True)
        + "\n# fmt: on\n\nREPEATS = "
        + pprint.pformat(repeats_of, width=99)
        + "\n"
    )
    args.output.write_text(HEADER + body)
    return 0


if __name__ == "__main__":
    sys.exit(main())
