"""Finding the base rounds of ``doko.designs`` with a SAT solver, and storing them.

``python -m doko.design_search`` searches a design for every field in ``RECIPES`` and rewrites
``doko/designs_found.py`` (about two minutes here, most of it for 36 players); ``--players N``
searches one field.

The encoding, for a ``Scheme`` with n points and n/4 tables per base round: a variable for each
point at each table of each base round; each point at exactly one table, each table exactly four
points, fixed point j at table j. For each pair of points a variable "together" implied by their
sharing any table; a pair that may not meet in a base round (``Scheme.may_meet``) is never
together there, and of the pairs of one orbit (over all base rounds) at most one is together. A
base round kept by a subgroup H has one "together" for all the pairs H maps onto each other,
and it holds exactly when they share a table, so that the round is H's to keep. Every solution
develops into a plan without a repeat meeting (``doko.designs``). A ``Recipe`` may add a
multiplier, an automorphism ``(x, column) -> (u * x, column + s)`` of a cyclic group that permutes
the tables in cycles (fixed tables stay, or follow their fixed points where it moves those): a
solution invariant under it is what the literature's constructions look for, and it shrinks the
search from minutes to a second (40 players: ``u = 3, s = 1`` in ``Z_13``, the classical
construction of the resolvable (40, 4, 1) design).

How 32 players' recipe was chosen (10 rounds, each player missing exactly one other): a subgroup
that keeps a round keeps each fixed point's table and moves the three others at it among
themselves, so with fixed points its order divides 3; the cyclic forms with fixed points tried
(``Z_10 x 3 + 2``, ``Z_5 x 6 + 2``, ``Z_15 x 2 + 2``) took minutes or had no solution. With no
fixed point the group may act on all 32 players: on one column, ``Z_32``, ``Z_16 x Z_2`` and
``Z_8 x Z_4`` have no solution for any choice of stabilisers (and ``Z_2^5`` cannot have one: its
rounds would be made of the cosets of 10 pairwise disjoint lines of PG(4, 2), which has at most
9), while ``Z_8 x Z_2`` on two columns, with base rounds kept by ``<(2, 1)>``,
``<(4, 0), (0, 1)>`` and ``<(2, 0), (0, 1)>`` (4 + 4 + 2 rounds), is solved in seconds.

How 44 players reach 14 rounds (each player missing exactly one other, a resolvable 4-GDD of
type 2^22): ``Z_14`` on three columns plus two fixed points has exactly the 66 pair orbits that
one base round of 11 tables needs, once the two fixed points (who never meet) and the pairs 7
apart in a column (whose orbit meets itself) are left out; so every other orbit is used exactly
once. The multiplier 9, of order 3 in ``Z_14``, rotating the columns, keeps the two fixed
points' tables and permutes the other nine in three cycles: the solver finds it in seconds
(stored before: 12 rounds, from ``Z_12`` on three columns plus 8 fixed points).

How 48 players reach 15 rounds (each player missing the two others of his group of three, a
resolvable 4-GDD of type 3^16, the form that gives 24 and 36 players their 7 and 11 rounds):
``Z_15`` on three columns plus three fixed points; the pairs 5 and 10 apart in a column and the
three fixed points are the groups, and the 72 pairs of a base round of 12 tables use every other
orbit exactly once. ``Z_15`` has no multiplier of order 3, and rotating the columns alone
(multiplier 1) would put the same difference at all three fixed points' tables; rotating the
fixed points with the columns (``fixed_images``) moves their three tables in a cycle as well,
and the solver finds a base round in seconds (the 12 rounds of ``Z_12`` on four columns were
stored before; the search without the rotation had no answer after 20 minutes on a busy
machine, 4 minutes of processor time).

Needs python-sat (a development dependency): drawing a seating never runs this module.
"""

import argparse
import pprint
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from pysat.card import CardEnc, EncType
from pysat.formula import IDPool
from pysat.solvers import Solver

from doko.designs import Design, Scheme, repeat_meetings


@dataclass(frozen=True)
class Recipe:
    scheme: Scheme
    # An automorphism (u, columns): (x, column) -> (u * x, columns[column]) that the base rounds
    # keep, permuting their tables (other than the fixed points') in cycles of ``cycle``.
    multiplier: tuple[int, tuple[int, ...]] | None = None
    cycle: int = 3
    # Where the automorphism moves each fixed point (and its table with it); None: each stays,
    # and so does its table.
    fixed_images: tuple[int, ...] | None = None


# Where we look for each field: the rounds are those the literature knows (doko.designs).
RECIPES = {
    16: Recipe(Scheme(group=(5,), columns=3, fixed=1)),
    20: Recipe(Scheme(group=(5,), columns=4, fixed=0)),
    24: Recipe(Scheme(group=(7,), columns=3, fixed=3)),
    28: Recipe(Scheme(group=(3, 3), columns=3, fixed=1)),
    32: Recipe(
        Scheme(group=(8, 2), columns=2, fixed=0, bases=3, stabilisers=((10,), (4, 8), (2, 8)))
    ),
    36: Recipe(Scheme(group=(11,), columns=3, fixed=3)),
    40: Recipe(Scheme(group=(13,), columns=3, fixed=1), multiplier=(3, (1, 2, 0))),
    44: Recipe(Scheme(group=(14,), columns=3, fixed=2), multiplier=(9, (1, 2, 0))),
    48: Recipe(
        Scheme(group=(15,), columns=3, fixed=3), multiplier=(1, (1, 2, 0)), fixed_images=(1, 2, 0)
    ),
}


def search(recipe: Recipe) -> Design | None:
    """Base rounds for ``recipe``, or None if there are none of its form."""
    scheme = recipe.scheme
    m, c, f, n = scheme.order, scheme.columns, scheme.fixed, scheme.players
    tables = n // 4
    pool = IDPool()

    def at(base: int, p: int, table: int) -> int:
        return int(pool.id(("at", base, p, table)))

    clauses: list[list[int]] = []
    for base in range(scheme.bases):
        for p in range(n):
            one = [at(base, p, t) for t in range(tables)]
            clauses += CardEnc.equals(one, 1, vpool=pool, encoding=EncType.pairwise).clauses
        for t in range(tables):
            four = [at(base, p, t) for p in range(n)]
            clauses += CardEnc.equals(four, 4, vpool=pool, encoding=EncType.seqcounter).clauses
        clauses += [[at(base, m * c + j, j)] for j in range(f)]
    if recipe.multiplier is not None:
        u, columns = recipe.multiplier

        fixed_images = recipe.fixed_images or tuple(range(f))

        def image(p: int) -> int:
            if p >= m * c:
                return m * c + fixed_images[p - m * c]
            column, x = divmod(p, m)
            return columns[column] * m + u * x % m

        def next_table(t: int) -> int:
            if t < f:
                return fixed_images[t]
            i, k = divmod(t - f, recipe.cycle)
            return f + i * recipe.cycle + (k + 1) % recipe.cycle

        for base in range(scheme.bases):
            for p in range(n):
                for t in range(tables):
                    clauses.append([-at(base, p, t), at(base, image(p), next_table(t))])
    elif f:
        clauses.append([at(0, 0, 0)])  # a shift brings a point of column 0 to fixed point 0
    orbits: dict[tuple[int, ...], set[int]] = {}
    for base in range(scheme.bases):
        subgroup = scheme.subgroup(base)
        for p in range(n):
            for q in range(p + 1, n):
                if not scheme.may_meet(base, p, q):
                    clauses += [[-at(base, p, t), -at(base, q, t)] for t in range(tables)]
                    continue
                # one variable for all the pairs the stabiliser maps (p, q) to
                shifted = ((scheme.shifted(p, h), scheme.shifted(q, h)) for h in subgroup)
                first = min((a, b) if a < b else (b, a) for a, b in shifted)
                pair = int(pool.id(("together", base, first)))
                clauses += [[-at(base, p, t), -at(base, q, t), pair] for t in range(tables)]
                if len(subgroup) > 1:  # together exactly when at one table
                    clauses += [[-pair, -at(base, p, t), at(base, q, t)] for t in range(tables)]
                orbits.setdefault(scheme.orbit(p, q), set()).add(pair)
    for pairs in orbits.values():
        clauses += CardEnc.atmost(sorted(pairs), 1, vpool=pool, encoding=EncType.seqcounter).clauses
    with Solver(name="cadical153", bootstrap_with=clauses) as solver:
        if not solver.solve():
            return None
        chosen = {literal for literal in solver.get_model() or () if literal > 0}
    found = tuple(
        tuple(tuple(p for p in range(n) if at(base, p, t) in chosen) for t in range(tables))
        for base in range(scheme.bases)
    )
    return Design(scheme=scheme, base=found)


HEADER = '''"""Base rounds of the designs of ``doko.designs``, found by ``doko.design_search``.

Generated by ``python -m doko.design_search``: do not edit. ``tests/doko/test_designs.py``
develops every entry and checks that nobody meets anybody twice.
"""

Found = tuple[
    tuple[tuple[int, ...], int, int, int, tuple[tuple[int, ...], ...]],
    tuple[tuple[tuple[int, ...], ...], ...],
]

'''


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, action="append", help="search this field again")
    parser.add_argument("--output", type=Path, default=Path(__file__).with_name("designs_found.py"))
    args = parser.parse_args(argv)
    found: dict[int, object] = {}
    if args.players:  # one field searched again: the others stay as they are
        from doko.designs_found import FOUND

        found.update(FOUND)
    for players, recipe in sorted(RECIPES.items()):
        if args.players and players not in args.players:
            continue
        start = time.perf_counter()
        design = search(recipe)
        elapsed = time.perf_counter() - start
        if design is None or repeat_meetings(design.rounds()):
            print(f"{players} players: no design of the form {recipe}", file=sys.stderr)
            return 1
        scheme = design.scheme
        found[players] = (
            (scheme.group, scheme.columns, scheme.fixed, scheme.bases, scheme.stabilisers),
            design.base,
        )
        print(f"{players} players: {scheme.rounds} rounds, {elapsed:.1f} s")
    table = pprint.pformat(found, width=99, compact=True)
    # pprint's layout, which the formatter would spread over a thousand lines, is left alone
    body = "# fmt: off\nFOUND: dict[int, Found] = " + table + "\n# fmt: on\n"
    args.output.write_text(HEADER + body)
    return 0


if __name__ == "__main__":
    sys.exit(main())
