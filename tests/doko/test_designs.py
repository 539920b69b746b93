"""The stored designs (doko.designs, doko/designs_found.py) and the search that finds them."""

import itertools
import math
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from doko import design_search, designs
from doko.positions import balanced_positions
from doko.seating import Method, draw

LONGEST = 12  # rounds of the longest tournaments the perfect plans are for


def check_plan(plan, players):
    for round_ in plan:
        assert all(len(table) == 4 for table in round_)
        assert sorted(p for table in round_ for p in table) == list(range(players))
    assert designs.repeat_meetings(plan) == 0


@pytest.mark.parametrize("players", sorted(designs.FOUND))
def test_every_stored_design_develops_into_a_plan_without_a_repeat_meeting(players):
    design = designs.stored(players)
    assert design.scheme.players == players
    plan = design.rounds()
    assert len(plan) == design.scheme.rounds
    check_plan(plan, players)


@pytest.mark.parametrize("players", range(16, 49, 4))
def test_a_design_is_stored_for_as_many_rounds_as_the_literature_knows(players):
    assert designs.perfect_rounds(players) >= min(designs.known_best(players), LONGEST)


@pytest.mark.parametrize("players", [44, 48])
def test_the_literatures_records_are_stored_in_full(players):
    # 44 players: 14 rounds, each missing exactly one other; 48: 15, each missing two others;
    # both (players - 1) // 3, the most any plan without a repeat meeting can have
    assert designs.perfect_rounds(players) == designs.known_best(players) == upper_bound(players)
    check_plan(designs.stored(players).rounds(), players)


def upper_bound(players: int) -> int:
    """No plan without a repeat meeting has more rounds than this (the counting bound of
    doko/designs.py's docstring): one round with fewer than four tables."""
    return 1 if players < 16 else (players - 1) // 3


@pytest.mark.parametrize("players", [4, 8, 12])
def test_fewer_than_four_tables_have_one_perfect_round(players):
    assert designs.known_best(players) == upper_bound(players) == 1
    assert designs.perfect_rounds(players) == 1


def test_known_best_never_exceeds_the_counting_bound():
    for players, rounds in designs.KNOWN_BEST.items():
        assert rounds <= upper_bound(players) == (players - 1) // 3


@pytest.mark.parametrize("players", [16, 24, 28, 32, 40, 44, 48])
def test_the_search_finds_the_design_again(players):
    design = design_search.search(design_search.RECIPES[players])
    check_plan(design.rounds(), players)
    assert design.scheme.rounds >= min(designs.known_best(players), LONGEST)


def test_the_command_rewrites_the_table_with_what_it_found(tmp_path):
    output = tmp_path / "found.py"
    assert design_search.main(["--players", "16", "--output", str(output)]) == 0
    namespace: dict = {}
    exec(output.read_text(), namespace)  # the file the command just wrote
    scheme_args, base = namespace["FOUND"][16]
    group, columns, fixed, bases, stabilisers = scheme_args
    scheme = designs.Scheme(
        group=group, columns=columns, fixed=fixed, bases=bases, stabilisers=stabilisers
    )
    check_plan(designs.Design(scheme=scheme, base=base).rounds(), 16)
    assert set(namespace["FOUND"]) == set(designs.FOUND)  # the other fields are kept


def test_the_command_writes_a_table_the_formatter_leaves_alone(tmp_path):
    output = tmp_path / "found.py"
    assert design_search.main(["--players", "16", "--output", str(output)]) == 0
    text = output.read_text()
    assert "# fmt: off\nFOUND" in text
    assert text.endswith("\n# fmt: on\n")


# Z_8 x Z_2 on two columns (32 players), the base rounds kept by subgroups of order 4, 4 and 8
KEPT = designs.Scheme(
    group=(8, 2), columns=2, fixed=0, bases=3, stabilisers=((10,), (4, 8), (2, 8))
)


def test_a_base_round_kept_by_a_subgroup_is_developed_once_per_coset():
    assert sorted(KEPT.subgroup(0)) == [0, 4, 10, 14]  # (2, 1) generates (4, 0) and (6, 1)
    assert KEPT.shifts(0) == KEPT.shifts(1) == [0, 1, 2, 3]
    assert KEPT.shifts(2) == [0, 1]
    assert KEPT.rounds == 10
    assert designs.Scheme(group=(8, 2), columns=2, fixed=0, bases=3).rounds == 48


def test_a_scheme_names_one_stabiliser_per_base_round():
    with pytest.raises(ValueError, match="one stabiliser per base round"):
        designs.Scheme(group=(5,), columns=4, fixed=0, bases=2, stabilisers=((),))


def test_a_pair_its_own_shift_keeps_meets_only_in_a_round_that_shift_keeps():
    # 0 and 8 of a column are (0, 1) apart, its own negative: adding (0, 1) swaps them
    assert KEPT.keeping(0, 8) == {0, 8}
    assert not KEPT.may_meet(0, 0, 8)  # <(2, 1)> lacks (0, 1): they would meet again
    assert KEPT.may_meet(1, 0, 8)  # <(4, 0), (0, 1)> has it
    assert KEPT.keeping(0, 2) == {0}  # (2, 0) apart: only 0 keeps the pair
    assert KEPT.may_meet(0, 0, 2)
    assert KEPT.keeping(0, 16) == {0}  # another column
    assert not designs.Scheme(group=(8, 2), columns=2, fixed=0).may_meet(0, 0, 8)
    assert designs.Scheme(group=(5,), columns=3, fixed=2).keeping(15, 16) == set(range(5))


def test_the_search_keeps_a_round_by_its_stabiliser():
    # 16 players as Z_2^4, every round kept by the whole group: the cosets of five subgroups of
    # order 4 that share only 0, the affine plane of order 4
    scheme = designs.Scheme(
        group=(2, 2, 2, 2), columns=1, fixed=0, bases=5, stabilisers=((1, 2, 4, 8),) * 5
    )
    design = design_search.search(design_search.Recipe(scheme))
    assert design is not None
    check_plan(design.rounds(), 16)
    for base in design.base:
        tables = {frozenset(table) for table in base}
        for shift in range(16):
            assert {frozenset(scheme.shifted(p, shift) for p in t) for t in base} == tables


@pytest.mark.parametrize("seed", range(3))
def test_a_perfect_plan_is_drawn_at_random(seed):
    first = designs.perfect_plan(28, 9, random.Random(seed))
    second = designs.perfect_plan(28, 9, random.Random(seed + 10))
    check_plan(first, 28)
    assert first != second


def test_no_perfect_plan_beyond_the_stored_rounds():
    assert designs.perfect_plan(16, 6, random.Random(1)) is None
    assert designs.perfect_plan(52, 2, random.Random(1)) is None


SOLVED = [
    (players, rounds)
    for players in range(16, 49, 4)
    for rounds in range(2, min(designs.perfect_rounds(players), LONGEST) + 1)
]


@pytest.mark.parametrize(("players", "rounds"), SOLVED)
def test_the_ddv_draw_is_perfect_where_a_perfect_plan_exists(players, rounds):
    result = draw(
        range(101, 101 + players), method=Method.DDV, seed=7, tables_of_five=True, rounds=rounds
    )
    assert result.quality.repeat_meetings == 0
    assert result.quality.most_in_one_position == math.ceil(rounds / 4)


@pytest.mark.parametrize(("players", "rounds"), [(16, 5), (32, 8), (32, 10), (44, 14), (48, 15)])
def test_the_issues_solved_instances_have_no_repeat(players, rounds):
    result = draw(
        range(1, players + 1), method=Method.DDV, seed=1, tables_of_five=False, rounds=rounds
    )
    assert result.quality.repeat_meetings == 0
    assert result.quality.most_in_one_position == math.ceil(rounds / 4)


@pytest.mark.parametrize("rounds", [6, 7, 8])
def test_beyond_the_perfect_rounds_the_draw_reaches_the_lower_bound(rounds):
    # 16 players: after the 5 rounds of the affine plane everybody has met everybody, so each
    # further table of four repeats its 6 pairs, and a perfect further plan does no more.
    result = draw(range(16), method=Method.DDV, seed=3, tables_of_five=False, rounds=rounds)
    assert result.quality.repeat_meetings == result.quality.best_possible == 24 * (rounds - 5)


def test_pairs_kept_apart_stay_apart_in_a_perfect_plan():
    apart = [(1, 2), (3, 4), (5, 6), (1, 7)]
    first = [(10, 11), (12, 13), (14, 15), (10, 16)]
    result = draw(
        range(1, 25),
        method=Method.DDV,
        seed=2,
        tables_of_five=False,
        rounds=7,
        apart=apart,
        apart_first_round=first,
    )
    assert result.quality.repeat_meetings == 0
    assert result.quality.apart_broken == 0
    tables = [set(table) for table in result.rounds[0].tables]
    assert not any({a, b} <= table for a, b in first for table in tables)


@settings(max_examples=60, deadline=None)
@given(
    tables=st.integers(min_value=1, max_value=30),
    rounds=st.integers(min_value=1, max_value=13),
    seed=st.integers(min_value=0, max_value=10**6),
)
def test_balanced_positions_give_each_player_each_position_at_most_rounds_over_four(
    tables, rounds, seed
):
    rng = random.Random(seed)
    players = list(range(4 * tables))
    drawn = []
    for _ in range(rounds):
        rng.shuffle(players)
        drawn.append([players[i : i + 4] for i in range(0, len(players), 4)])
    ordered = balanced_positions(drawn, random.Random(seed))
    counts = {p: [0] * 4 for p in players}
    for before, after in zip(drawn, ordered, strict=True):
        for table, seated in zip(before, after, strict=True):
            assert sorted(seated) == sorted(table)
            for position, p in enumerate(seated):
                counts[p][position] += 1
    assert max(itertools.chain.from_iterable(counts.values())) <= math.ceil(rounds / 4)
