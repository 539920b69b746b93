"""A league's season plan: every match day splits the teams into groups of four, every pair of
teams meets as evenly as possible (exactly once for 16 teams over five match days, the affine
plane of order 4), the same seed gives the same plan (DDV league, not TSR)."""

import itertools
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from doko.season_plan import (
    MOST_MATCH_DAYS,
    SeasonPlanError,
    least_most,
    pair_meetings,
    season_plan,
)

teams_of_four = st.integers(min_value=1, max_value=8).flatmap(
    lambda groups: st.lists(
        st.integers(min_value=1, max_value=10**9),
        min_size=4 * groups,
        max_size=4 * groups,
        unique=True,
    )
)


@settings(max_examples=40, deadline=None)
@given(
    teams=teams_of_four,
    match_days=st.integers(min_value=1, max_value=8),
    seed=st.integers(min_value=0, max_value=2**32),
)
def test_every_match_day_splits_the_teams_into_groups_of_four(teams, match_days, seed):
    plan = season_plan(teams, match_days=match_days, seed=seed)
    assert len(plan.days) == match_days
    for day in plan.days:
        assert all(len(group) == 4 for group in day)
        assert sorted(team for group in day for team in group) == sorted(teams)


@settings(max_examples=25, deadline=None)
@given(
    teams=st.lists(
        st.integers(min_value=1, max_value=10**9), min_size=16, max_size=16, unique=True
    ),
    seed=st.integers(min_value=0, max_value=2**32),
)
def test_sixteen_teams_over_five_match_days_meet_every_other_exactly_once(teams, seed):
    plan = season_plan(teams, match_days=5, seed=seed)
    met = pair_meetings(plan.days)
    assert set(met) == set(itertools.combinations(sorted(teams), 2))
    assert set(met.values()) == {1}
    assert plan.perfect
    assert plan.most == 1 == plan.least_most


@pytest.mark.parametrize("match_days", [1, 3, 4, 7, 10, 12])
def test_sixteen_teams_go_round_the_plane_again_meeting_as_evenly_as_can_be(match_days):
    plan = season_plan(list(range(16)), match_days=match_days, seed=4)
    counts = pair_meetings(plan.days)
    every = [counts.get(pair, 0) for pair in itertools.combinations(range(16), 2)]
    assert max(every) - min(every) <= 1
    assert max(every) == -(-match_days // 5) == plan.least_most


@settings(max_examples=30, deadline=None)
@given(
    groups=st.integers(min_value=1, max_value=8),
    match_days=st.integers(min_value=1, max_value=9),
    seed=st.integers(min_value=0, max_value=2**32),
)
def test_no_pair_meets_more_than_one_time_above_the_lower_bound(groups, match_days, seed):
    plan = season_plan(list(range(4 * groups)), match_days=match_days, seed=seed)
    assert plan.least_most == least_most(4 * groups, match_days)
    assert plan.least_most <= plan.most <= plan.least_most + 1


# Measured over 15 seeds each: the search reaches the lower bound in these fields.
@pytest.mark.parametrize(
    ("teams", "match_days"),
    [(8, 2), (8, 3), (8, 5), (8, 7), (12, 2), (12, 9), (20, 4), (20, 5), (24, 5), (28, 6), (32, 7)],
)
def test_the_search_reaches_the_lower_bound_where_measured(teams, match_days):
    for seed in (1, 2, 3):
        plan = season_plan(list(range(teams)), match_days=match_days, seed=seed)
        assert plan.most == plan.least_most


def test_a_pair_that_cannot_avoid_repeats_is_not_counted_as_a_failure_of_the_bound():
    """Eight teams: any two match days share a pair (two groups of four cannot take four teams
    of four different groups), so the bound is 2 from the second match day on."""
    assert least_most(8, 1) == 1
    assert least_most(8, 2) == 2
    assert least_most(4, 3) == 3
    assert least_most(16, 5) == 1
    assert least_most(16, 6) == 2


@settings(max_examples=20, deadline=None)
@given(
    teams=teams_of_four,
    match_days=st.integers(min_value=1, max_value=6),
    seed=st.integers(min_value=0, max_value=2**32),
)
def test_the_same_seed_gives_the_same_plan_whatever_the_teams_order(teams, match_days, seed):
    shuffled = list(teams)
    random.Random(seed).shuffle(shuffled)
    first = season_plan(teams, match_days=match_days, seed=seed)
    again = season_plan(shuffled, match_days=match_days, seed=seed)
    assert first == again
    assert Counter(pair_meetings(first.days).values()) == Counter(
        pair_meetings(again.days).values()
    )


@pytest.mark.parametrize(
    ("teams", "match_days", "reason"),
    [
        ([1, 2, 3], 2, "too_few_teams"),
        (list(range(6)), 2, "not_groups_of_four"),
        (list(range(18)), 2, "not_groups_of_four"),
        ([1, 1, 2, 3], 2, "team_twice"),
        (list(range(8)), 0, "match_days"),
        (list(range(8)), MOST_MATCH_DAYS + 1, "match_days"),
    ],
)
def test_a_field_without_groups_of_four_is_refused_with_the_reason(teams, match_days, reason):
    with pytest.raises(SeasonPlanError) as refused:
        season_plan(teams, match_days=match_days, seed=1)
    assert refused.value.reason == reason
    assert str(refused.value)
