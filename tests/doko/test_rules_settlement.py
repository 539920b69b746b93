"""Points per seat from the game value (TSR 7.2.2, 7.2.4)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from doko.rules.settlement import seat_points


def test_normal_game_winners_receive_the_value_and_losers_lose_it():
    points = seat_points(seats=[1, 2, 3, 4], re_seats=[1, 3], re_value=4, settled_as_solo=False)
    assert points == {1: 4, 2: -4, 3: 4, 4: -4}


def test_soloist_receives_three_times_the_value():
    points = seat_points(seats=[1, 2, 3, 4], re_seats=[2], re_value=3, settled_as_solo=True)
    assert points == {1: -3, 2: 9, 3: -3, 4: -3}


def test_lost_solo_costs_the_soloist_three_times_the_value():
    points = seat_points(seats=[1, 2, 4, 5], re_seats=[5], re_value=-2, settled_as_solo=True)
    assert points == {1: 2, 2: 2, 4: 2, 5: -6}


def test_solo_with_two_soloists_is_refused():
    with pytest.raises(ValueError, match="one soloist"):
        seat_points(seats=[1, 2, 3, 4], re_seats=[1, 2], re_value=1, settled_as_solo=True)


def test_normal_game_needs_two_re_players():
    with pytest.raises(ValueError, match="two players"):
        seat_points(seats=[1, 2, 3, 4], re_seats=[1], re_value=1, settled_as_solo=False)


seats = st.sampled_from([(1, 2, 3, 4), (1, 2, 3, 5), (2, 3, 4, 5), (1, 3, 4, 5), (1, 2, 4, 5)])


@given(seats=seats, value=st.integers(-30, 30), solo=st.booleans(), data=st.data())
def test_every_settled_hand_sums_to_zero_and_swapping_teams_flips_the_signs(
    seats, value, solo, data
):
    re_team = data.draw(
        st.sets(st.sampled_from(seats), min_size=1 if solo else 2, max_size=1 if solo else 2)
    )
    points = seat_points(seats=seats, re_seats=re_team, re_value=value, settled_as_solo=solo)
    assert sum(points.values()) == 0
    assert len({p % 2 for p in points.values()}) == 1  # TSR 7.3.3.2: all even or all odd
    if not solo:
        contra = set(seats) - re_team
        swapped = seat_points(seats=seats, re_seats=contra, re_value=value, settled_as_solo=False)
        assert swapped == {seat: -p for seat, p in points.items()}
