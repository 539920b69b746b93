"""Seating draws (issues 4 and 22): the figures the issues ask for, each against the baseline of a
plain shuffle-and-cut of the same players and rounds (a draw that avoids nothing), and the
comparison table of issue 22: for each case the shuffle's repeat meetings, ours (with the time
and the most times anybody sat in one seat position), and the best known. The best known is 0
where a plan without repeats is known to exist (doko.designs.known_best: the solved social golfer
instances up to 48 players, and any field large enough that the counting bound is 0 and our draw
reaches it), else the counting bound (Quality.best_possible), marked "≥". Each draw is timed
in turn with its shuffle, 3 to 7 times (bench.figures), in the thread's processor time.

The cases are drawn from scratch, in memory. Then round 11 of the run's synthetic
tournament (bench.tournament: 2,000 players, 10 rounds played, in the run's database) is drawn
with its real history: by the core alone, and as the organiser's click does it
(``services.round_seat``: the history read, the draw, 500 tables and their seats stored; rolled
back afterwards), both against shuffling the same players for round 11.
"""

import random
import time

from django.db import transaction

from bench.figures import PAIRS, Figure, alternate, timer
from bench.tournament import ROUNDS, shared
from doko import designs
from doko.seating import Method, Quality, SeatingPlan, draw, quality, table_sizes

CASES = [
    ("ranking tournament", 32, 3, False),
    ("German championship", 148, 8, True),
    ("finite geometry", 16, 5, False),
    ("hard small case", 24, 7, False),
    ("solved instance", 32, 8, False),
    ("Aguado's instance", 32, 10, False),
    ("12 rounds", 48, 12, False),
    ("the literature's record", 44, 14, False),
    ("the literature's record", 48, 15, False),
    ("tables of five", 26, 8, True),
    ("tables of five", 30, 8, True),
    ("tables of five", 35, 12, True),
    ("tables of five", 39, 12, True),
    ("large field", 2000, 10, True),
]


def best_known(players: int, rounds: int, q: Quality) -> str:
    """The fewest repeat meetings known for the case (see the module docstring)."""
    known = designs.known_best(players)
    bound = min(q.best_possible, field_bound(players, rounds))
    if (known is not None and rounds <= known) or bound == 0:
        return "0"
    return f"≥ {bound}"


def field_bound(players: int, rounds: int) -> int:
    """The counting bound of ``Quality.best_possible`` for any plan of the field: the tables of
    five spread as evenly as they can be (a plan's own bound is higher where they are not, as
    in the stored plans for fields of five, whose extra players sit at one every round)."""
    sizes = table_sizes(players, tables_of_five=True)
    seats = rounds * sum(size for size in sizes if size == 5)
    few, more = divmod(seats, players)  # ``more`` players sit at one table of five more
    faced = 3 * rounds
    excess = (players - more) * max(faced + few - (players - 1), 0) + more * max(
        faced + few + 1 - (players - 1), 0
    )
    return -(-excess // 2)


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


def in_turn_ms(function, baseline, took: float) -> list[tuple[float, float]]:
    """``function``, a draw in memory which took ``took`` seconds once, timed in turn with
    ``baseline`` (ms of the thread's processor time, which the rest of the machine does not
    disturb): a quick draw 7 times, each the best of 3 runs; one of a tenth of a second or more
    5 times, one call each, and one of a second or more 3 times, so that the suite takes a few
    times the draws' own time, not dozens."""
    pairs, best_of = (PAIRS, 3) if took < 0.1 else (5, 1) if took < 1 else (3, 1)
    measure = timer(function, best_of=best_of, number=None if took < 0.1 else 1, cpu=True)
    return [
        (value / 1000, base / 1000)
        for value, base in alternate(timer(baseline, cpu=True), [measure], pairs=pairs)[0]
    ]


def figures() -> list[Figure]:
    return [*cases(), *next_round()]


def cases() -> list[Figure]:
    results, rows = [], []
    for name, players, rounds, fives in CASES:

        def ours(p=players, r=rounds, f=fives):
            return draw(range(1, p + 1), method=Method.DDV, seed=1, tables_of_five=f, rounds=r)

        def theirs(p=players, r=rounds, f=fives):
            return shuffled(p, r, f, seed=1)

        elapsed, result = seconds(ours)
        timed = Figure.paired(
            f"{name}: {players} x {rounds}, time",
            in_turn_ms(ours, theirs, elapsed),
            "shuffle",
            "ms",
        )
        q, base_q = result.quality, quality(theirs())
        label = f"{name}: {players} x {rounds}"
        rows.append(
            (
                f"{players} × {rounds}",
                str(base_q.repeat_meetings),
                f"{q.repeat_meetings} / {timed.value / 1000:.2f} s / {q.most_in_one_position}",
                best_known(players, rounds, q),
                str(q.position_limit),
            )
        )
        results.append(timed)
        results.append(
            Figure(
                f"{label}, repeats (best known {best_known(players, rounds, q)})",
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
    print_comparison(rows)
    return results


def print_comparison(rows: list[tuple[str, ...]]) -> None:
    header = (
        "case",
        "shuffle: repeats",
        "ours: repeats / time / most in one position",
        "best known repeats",
        "ideal position",
    )
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header))]
    print("\nseating: our ddv draw against a plain shuffle and the best known")
    for row in [header, *rows]:
        print(" | ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)))


def next_round() -> list[Figure]:
    """Round 11 of the run's tournament, drawn with the history of its 10 rounds."""
    from tournaments import selectors, services
    from tournaments.models import Round

    large = shared()
    tournament = large.tournament
    number = ROUNDS + 1
    players = list(tournament.entries.values_list("pk", flat=True))
    history = selectors.seating_history(tournament=tournament, before=number)
    assert len(history) == ROUNDS
    elapsed, result = seconds(
        lambda: draw(
            players,
            method=Method.DDV,
            seed=1,
            tables_of_five=False,
            rounds=1,
            history=history,
        )
    )
    base = shuffled_from(players, seed=1)
    drawn = in_turn_ms(
        lambda: draw(
            players, method=Method.DDV, seed=1, tables_of_five=False, rounds=1, history=history
        ),
        lambda: shuffled_from(players, seed=1),
        elapsed,
    )
    q, base_q = result.quality, quality([base], history=history)
    before = quality(history).repeat_meetings  # the history's own (its rounds were shuffled)

    def seat() -> float:
        """Milliseconds of one organiser's click, in a transaction rolled back afterwards."""
        with transaction.atomic():
            round_ = Round.objects.create(tournament=tournament, number=number)
            took, _round = seconds(lambda: services.round_seat(round=round_, seed=1))
            seated = round_.seats.count()
            transaction.set_rollback(True)
        assert seated == len(players), seated
        return took * 1000

    # The click reads and writes the database: in wall time, and its baseline too.
    shuffle = timer(lambda: shuffled_from(players, seed=1))
    seat()  # once first, as the draw was
    seats = alternate(lambda: shuffle() / 1000, [seat], pairs=5)[0]
    label = f"round {number} of the run's tournament, {len(players):,} players"
    return [
        Figure.paired(f"{label} with {ROUNDS} rounds' history, time", drawn, "shuffle", "ms"),
        Figure.paired(f"{label}, services.round_seat (read, draw, store)", seats, "shuffle", "ms"),
        Figure(
            f"{label}, repeat meetings added (the {ROUNDS} rounds before had {before})",
            q.repeat_meetings - before,
            "shuffle",
            max(base_q.repeat_meetings - before, 1),
            "",
        ),
        Figure(
            f"{label}, most in one position (limit {q.position_limit})",
            q.most_in_one_position,
            "shuffle",
            base_q.most_in_one_position,
            "",
        ),
    ]


def shuffled_from(players: list[int], seed: int) -> SeatingPlan:
    """One round of a plain shuffle-and-cut of ``players``, at tables of four."""
    everyone = players[:]
    random.Random(seed).shuffle(everyone)
    sizes = table_sizes(len(everyone), tables_of_five=False)
    tables, start = [], 0
    for size in sizes:
        tables.append(tuple(everyone[start : start + size]))
        start += size
    return SeatingPlan(tables=tuple(tables))
