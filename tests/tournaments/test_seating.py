"""Table sizes and the random draw (TSR 3.2, 8.3, 10.1)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournaments.seating import SeatingError, draw_random, table_sizes


@pytest.mark.parametrize(
    ("players", "fives", "expected"),
    [
        (4, True, [4]),
        (5, True, [5]),
        (9, True, [4, 5]),
        (32, False, [4] * 8),
        (148, True, [4] * 37),
        (35, True, [4] * 5 + [5] * 3),
    ],
)
def test_table_sizes_use_as_few_tables_of_five_as_possible(players, fives, expected):
    assert table_sizes(players, tables_of_five=fives) == expected


def test_players_not_divisible_by_four_need_tables_of_five():
    with pytest.raises(SeatingError) as error:
        table_sizes(37, tables_of_five=False)
    assert (error.value.missing, error.value.extra) == (3, 1)
    assert "3 more or 1 fewer" in str(error.value)


@pytest.mark.parametrize(
    ("players", "missing", "extra"), [(7, 1, 2), (6, 2, 1), (11, 1, 1), (3, 1, None)]
)
def test_impossible_sizes_with_tables_of_five_say_what_is_missing(players, missing, extra):
    with pytest.raises(SeatingError) as error:
        table_sizes(players, tables_of_five=True)
    assert (error.value.missing, error.value.extra) == (missing, extra)


def test_same_seed_same_plan():
    players = list(range(1, 41))
    assert draw_random(players, tables_of_five=False, seed=7) == draw_random(
        players, tables_of_five=False, seed=7
    )
    assert draw_random(players, tables_of_five=False, seed=7) != draw_random(
        players, tables_of_five=False, seed=8
    )


def test_plan_does_not_depend_on_the_order_players_are_given_in():
    players = list(range(1, 21))
    assert draw_random(players, tables_of_five=False, seed=3) == draw_random(
        players[::-1], tables_of_five=False, seed=3
    )


def test_a_player_given_twice_is_refused():
    with pytest.raises(ValueError, match="only once"):
        draw_random([1, 2, 3, 3], tables_of_five=False, seed=1)


@given(
    players=st.sets(st.integers(1, 10_000), min_size=4, max_size=300),
    fives=st.booleans(),
    seed=st.integers(0, 2**32 - 1),
)
def test_every_player_is_seated_exactly_once_at_a_legal_table(players, fives, seed):
    try:
        plan = draw_random(sorted(players), tables_of_five=fives, seed=seed)
    except SeatingError:
        assert len(players) % 4 if not fives else len(players) in {6, 7, 11}
        return
    assert sorted(plan.players) == sorted(players)
    assert all(len(table) in ((4, 5) if fives else (4,)) for table in plan.tables)
