"""The stored plans at tables of four and five (doko/five_plans_found.py, issue 36), the search
that finds them (doko.five_search), and the draw that serves them."""

import itertools
import random
from collections import Counter

import pytest

from doko import designs, five_search
from doko.five_plans_found import FOUND, REPEATS
from doko.seating import Method, SeatingPlan, draw, quality, table_sizes

# What the draw found for these fields before the plans were stored (seed 1, docs/benchmarks.md),
# and issue 36's target: 20 % above the counting bound (0 for 30 players).
DRAWN_BEFORE = {26: 41, 30: 22, 39: 86}
TARGET = {26: 32, 30: 0, 39: 61}
ROUNDS = {26: 8, 30: 8, 39: 12}


def meetings(plan):
    """How often each pair met, as a sorted list of counts (the same for a relabelled plan)."""
    count = Counter(
        frozenset(pair)
        for round_ in plan
        for table in round_
        for pair in itertools.combinations(table, 2)
    )
    return sorted(count.values())


def test_a_plan_is_stored_for_each_field_of_the_issue():
    assert sorted(FOUND) == sorted(ROUNDS)
    assert {players: len(plan) for players, plan in FOUND.items()} == ROUNDS


@pytest.mark.parametrize("players", sorted(FOUND))
def test_every_stored_plan_seats_everybody_once_a_round_at_legal_tables(players):
    sizes = table_sizes(players, tables_of_five=True)
    for round_ in FOUND[players]:
        assert [len(table) for table in round_] == sizes
        assert sorted(p for table in round_ for p in table) == list(range(players))


@pytest.mark.parametrize("players", sorted(FOUND))
def test_every_stored_plan_has_the_repeats_it_claims_and_beats_the_old_draw(players):
    repeats = designs.repeat_meetings(FOUND[players])
    assert repeats == REPEATS[players]
    assert repeats < DRAWN_BEFORE[players]


@pytest.mark.parametrize("players", [26])
def test_the_stored_plan_is_near_the_issues_target_where_it_misses_it(players):
    # 26 x 8 misses issue 36's 32 by two (see doko.five_search); 30 x 8 and 39 x 12 miss it
    # further, and the test above holds them to beating the old draw.
    assert REPEATS[players] <= TARGET[players] + 2


@pytest.mark.parametrize("players", sorted(FOUND))
def test_the_ddv_draw_of_the_field_serves_the_stored_plan_relabelled(players):
    rounds = ROUNDS[players]
    ids = range(101, 101 + players)
    result = draw(ids, method=Method.DDV, seed=5, tables_of_five=True, rounds=rounds)
    plan = [plan.tables for plan in result.rounds]
    assert result.quality.repeat_meetings == REPEATS[players]
    assert result.quality == quality(result.rounds)
    assert meetings(plan) == meetings(FOUND[players])
    for seated in result.rounds:
        assert sorted(seated.players) == list(ids)
        assert [len(table) for table in seated.tables] == table_sizes(players, tables_of_five=True)
    assert result.quality.most_in_one_position == result.quality.position_limit


def test_the_draw_relabels_the_stored_plan_at_random():
    first = draw(range(30), method=Method.DDV, seed=1, tables_of_five=True, rounds=8)
    second = draw(range(30), method=Method.DDV, seed=2, tables_of_five=True, rounds=8)
    assert first.rounds != second.rounds
    assert first.quality.repeat_meetings == second.quality.repeat_meetings == REPEATS[30]


def test_the_stored_plan_is_served_only_for_its_own_rounds():
    assert designs.five_plan(30, 8, random.Random(1)) is not None
    assert designs.five_plan(30, 7, random.Random(1)) is None
    assert designs.five_plan(31, 8, random.Random(1)) is None


def test_a_draw_with_history_does_not_take_the_stored_plan():
    history = [SeatingPlan(tables=tuple(tuple(t) for t in FOUND[30][0]))]
    result = draw(
        range(30), method=Method.DDV, seed=1, tables_of_five=True, rounds=7, history=history
    )
    assert len(result.rounds) == 7


def test_pairs_kept_apart_stay_apart_in_a_stored_plan():
    apart = [(1, 2), (3, 4), (5, 6)]
    result = draw(range(30), method=Method.DDV, seed=3, tables_of_five=True, rounds=8, apart=apart)
    assert result.quality.apart_broken == 0


def test_the_search_builds_a_legal_plan_from_a_stored_design():
    plan = five_search.search(30, seed=1, steps=200)
    assert len(plan) == 8
    for round_ in plan:
        assert [len(table) for table in round_] == table_sizes(30, tables_of_five=True)
        assert sorted(p for table in round_ for p in table) == list(range(30))
    # the design's rounds keep every pair of its 28 players apart but once: only the two
    # extra players, meeting 32 others of 28 each, repeat
    assert designs.repeat_meetings(plan) >= 8
