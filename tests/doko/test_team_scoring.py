"""Match points, the season table and knock-out ties of team competitions (DDV, not TSR)."""

import itertools
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from doko.team_scoring import knockout_winner, match_points, season_table

group_points = st.dictionaries(st.integers(1, 50), st.integers(-300, 300), min_size=4, max_size=4)


def test_a_group_of_four_scores_4_3_2_1_by_summed_game_points():
    assert match_points({7: 120, 8: -40, 9: 300, 10: 0}) == {9: 4, 7: 3, 10: 2, 8: 1}


def test_tied_teams_share_the_points_of_their_places():
    assert match_points({1: 50, 2: 50, 3: 10, 4: 0}) == {
        1: Fraction(7, 2),
        2: Fraction(7, 2),
        3: 2,
        4: 1,
    }
    assert match_points({1: 5, 2: 5, 3: 5, 4: 9}) == {4: 4, 1: 2, 2: 2, 3: 2}


def test_tied_teams_can_each_get_the_higher_place():
    assert match_points({1: 50, 2: 50, 3: 10, 4: 0}, ties="higher") == {1: 4, 2: 4, 3: 2, 4: 1}


def test_other_points_and_smaller_groups():
    assert match_points({1: 3, 2: 2, 3: 1}, points=(5, 3, 1, 0)) == {1: 5, 2: 3, 3: 1}


def test_unknown_tie_rule_and_too_many_teams_are_refused():
    with pytest.raises(ValueError, match="ties"):
        match_points({1: 0}, ties="lower")
    with pytest.raises(ValueError, match="5 teams"):
        match_points(dict.fromkeys(range(5), 0))


@given(group_points)
def test_without_ties_a_group_shares_out_10_points_once_each(points):
    if len(set(points.values())) < 4:
        return
    assert sorted(match_points(points).values()) == [1, 2, 3, 4]


@given(group_points)
def test_shared_ties_keep_the_sum_and_the_order(points):
    result = match_points(points)
    assert sum(result.values()) == 10
    for a in points:
        for b in points:
            if points[a] > points[b]:
                assert result[a] > result[b]
            if points[a] == points[b]:
                assert result[a] == result[b]


@given(group_points)
def test_higher_ties_give_no_team_less_than_shared(points):
    shared, higher = match_points(points), match_points(points, ties="higher")
    assert all(higher[team] >= shared[team] for team in points)


def test_season_table_sums_match_points_then_game_points():
    days = [
        {1: (4, 100), 2: (3, 50), 3: (2, 0), 4: (1, -150)},
        {1: (1, -90), 2: (2, 20), 3: (4, 60), 4: (3, 10)},
    ]
    rows = season_table(days)
    assert [(row.team, row.match_points, row.game_points, row.rank) for row in rows] == [
        (3, 6, 60, 1),
        (2, 5, 70, 2),  # 5 match points like team 1, more game points
        (1, 5, 10, 3),
        (4, 4, -140, 4),
    ]
    assert not any(row.shared for row in rows)


def test_direct_comparison_breaks_a_tie_of_match_and_game_points():
    days = [
        {1: (4, 50), 2: (3, 40), 3: (2, 0), 4: (1, -90)},  # 1 ahead of 2 where they met
        {1: (2, 10), 5: (4, 40), 6: (3, 20), 7: (1, -70)},
        {2: (3, 20), 5: (1, -40), 6: (2, 0), 8: (4, 20)},
    ]
    rows = {row.team: row for row in season_table(days)}
    assert (rows[1].match_points, rows[1].game_points) == (
        rows[2].match_points,
        rows[2].game_points,
    )
    assert rows[1].rank < rows[2].rank
    swapped = {row.team: row for row in season_table(days, tiebreaks=())}
    assert swapped[1].rank == swapped[2].rank
    assert swapped[1].shared


def test_tie_breaks_apply_in_the_order_given():
    days = [
        {1: (4, 10), 2: (3, 5), 3: (2, 0), 4: (1, -15)},
        {1: (4, 10), 2: (3, 5), 3: (2, 0), 4: (1, -15)},
        {1: (4, 10), 2: (3, 5), 3: (2, 0), 4: (1, -15)},
        {1: (1, -100), 2: (4, 155), 3: (3, 0), 4: (2, -55)},
    ]
    by_points = season_table(days, tiebreaks=("game_points", "direct"))
    by_direct = season_table(days, tiebreaks=("direct", "game_points"))
    assert [row.team for row in by_points][:2] == [2, 1]  # 13 match points each; 170 > -70
    assert [row.team for row in by_direct][:2] == [1, 2]  # 1 ahead of 2 in three meetings


def test_full_ties_share_a_rank_and_the_next_rank_is_skipped():
    days = [{1: (3, 10), 2: (3, 10), 3: (3, 10), 4: (1, -30)}]
    rows = season_table(days)
    assert [(row.rank, row.shared) for row in rows] == [(1, True)] * 3 + [(4, False)]


def test_an_unknown_tie_break_is_refused():
    with pytest.raises(ValueError, match="tie-break"):
        season_table([], tiebreaks=("goals",))


meetings = st.lists(
    st.dictionaries(
        st.integers(1, 8),
        st.tuples(st.integers(1, 4), st.integers(-100, 100)),
        min_size=2,
        max_size=4,
    ),
    max_size=8,
)


@given(meetings, st.sampled_from([("game_points", "direct"), ("direct", "game_points"), ()]))
def test_season_table_order_follows_match_points_then_the_tie_breaks(days, tiebreaks):
    rows = season_table(days, tiebreaks=tiebreaks)
    assert sorted(row.team for row in rows) == sorted({team for day in days for team in day})
    for before, after in itertools.pairwise(rows):
        assert before.match_points >= after.match_points
        assert before.rank <= after.rank
        if before.rank == after.rank:
            assert before.match_points == after.match_points
            assert before.game_points == after.game_points or "game_points" not in tiebreaks
        if tiebreaks[:1] == ("game_points",) and before.match_points == after.match_points:
            assert before.game_points >= after.game_points
    for number, row in enumerate(rows, start=1):
        assert row.rank == number or row.shared


def test_knockout_goes_to_the_most_points_over_the_rounds_of_the_tie():
    assert knockout_winner({3: 120, 5: 80}) == 3
    assert knockout_winner({3: 40, 5: 80, 6: -10}) == 5


def test_a_knockout_tie_with_equal_points_is_left_to_the_caller():
    assert knockout_winner({3: 80, 5: 80}) is None
    assert knockout_winner({3: 80, 5: 80, 6: 100}) == 6
