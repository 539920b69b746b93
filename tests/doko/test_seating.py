"""Table sizes and the random draw (TSR 3.2, 8.3, 10.1)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from doko.seating import SeatingError, draw_random, table_sizes


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


# Methods, repeats, positions, tables of five, pairs kept apart ------------------------------

import itertools  # noqa: E402
from collections import Counter  # noqa: E402

from hypothesis import settings  # noqa: E402

from doko.seating import Method, SeatingPlan, draw, quality  # noqa: E402


def meetings(plans):
    counts = Counter()
    for plan in plans:
        for table in plan.tables:
            counts.update(itertools.combinations(sorted(table), 2))
    return counts


def test_german_championship_148_players_8_rounds_no_repeats_positions_balanced():
    result = draw(range(1, 149), method=Method.DDV, seed=1, tables_of_five=False, rounds=8)
    assert max(meetings(result.rounds).values()) == 1
    assert result.quality.repeat_meetings == 0
    assert result.quality.most_in_one_position <= 2  # at most ceil(8 / 4) times in a position


def test_ranking_tournament_32_players_3_rounds_no_repeats_each_position_once():
    result = draw(range(1, 33), method=Method.DDV, seed=5, tables_of_five=False, rounds=3)
    assert result.quality.repeat_meetings == 0
    assert result.quality.most_in_one_position == 1


@pytest.mark.parametrize("seed", range(3))
def test_16_players_5_rounds_every_pair_meets_exactly_once(seed):
    # The affine plane of order 4: the perfect plan exists and the tabu search finds it.
    result = draw(range(1, 17), method=Method.DDV, seed=seed, tables_of_five=False, rounds=5)
    assert len(meetings(result.rounds)) == 120
    assert result.quality.repeat_meetings == 0


def test_round_at_a_time_avoids_earlier_meetings():
    history = []
    for number in range(6):
        result = draw(
            range(1, 41), method=Method.RANDOM, seed=number, tables_of_five=False, history=history
        )
        history.append(result.rounds[0])
    assert max(meetings(history).values()) == 1
    assert result.quality.rounds == 6


def test_tables_of_five_are_spread_over_the_players():
    result = draw(range(1, 84), method=Method.DDV, seed=2, tables_of_five=True, rounds=7)
    assert [len(table) for table in result.rounds[0].tables] == [4] * 17 + [5] * 3
    # 15 seats at tables of five in each of 7 rounds, 83 players: one or two each.
    assert (result.quality.fives_least, result.quality.fives_most) == (1, 2)


@pytest.mark.parametrize(("players", "rounds", "reached"), [(26, 8, 41), (30, 8, 22)])
def test_fields_with_tables_of_five_keep_the_repeats_the_draw_reached(players, rounds, reached):
    # Issue 36's fields against counting bounds of 27 and 0: a simulated annealing of two
    # million swaps over the whole plan and cyclic plans from one base round stopped at 40-45
    # and 24-30 (docs/benchmarks.md), so these are what the draw must not lose.
    result = draw(
        range(1, players + 1), method=Method.DDV, seed=1, tables_of_five=True, rounds=rounds
    )
    assert result.quality.repeat_meetings <= reached
    assert result.quality.most_in_one_position == result.quality.position_limit


def test_standings_seats_by_rank_and_moves_only_to_avoid_repeats():
    ranking = list(range(1, 17))
    first = draw(ranking, method=Method.STANDINGS, seed=1, tables_of_five=False, ranking=ranking)
    assert [sorted(table) for table in first.rounds[0].tables] == [
        [1, 2, 3, 4],
        [5, 6, 7, 8],
        [9, 10, 11, 12],
        [13, 14, 15, 16],
    ]
    second = draw(
        ranking,
        method=Method.STANDINGS,
        seed=1,
        tables_of_five=False,
        ranking=ranking,
        history=first.rounds,
    )
    assert second.quality.repeat_meetings < 12  # the ranked tables alone would repeat all 24
    for number, table in enumerate(second.rounds[0].tables):
        assert all(abs((player - 1) // 4 - number) <= 1 for player in table)


def test_pairs_kept_apart():
    family = [(1, 2), (3, 4), (1, 3)]
    for seed in range(5):
        result = draw(
            range(1, 13), method=Method.RANDOM, seed=seed, tables_of_five=False, apart=family
        )
        assert result.quality.apart_broken == 0
        for table in result.rounds[0].tables:
            assert not any(set(pair) <= set(table) for pair in family)


def test_club_members_apart_only_in_the_first_round():
    club = [(a, b) for a, b in itertools.combinations(range(1, 5), 2)]
    first = draw(
        range(1, 17), method=Method.RANDOM, seed=1, tables_of_five=False, apart_first_round=club
    )
    assert all(len(set(table) & {1, 2, 3, 4}) == 1 for table in first.rounds[0].tables)


def test_quality_reports_repeats_and_the_best_possible():
    plan = SeatingPlan(tables=((1, 2, 3, 4), (5, 6, 7, 8)))
    report = quality([plan], history=[plan])
    assert report.repeat_meetings == 12
    assert report.most_meetings == 2
    # Each of 8 players faces 6 opponents of 7: no repeat is forced.
    assert report.best_possible == 0
    assert quality([plan] * 3).best_possible == 8  # 9 opponents each, only 7 exist


def test_quality_lower_bound_for_too_many_rounds():
    result = draw(range(1, 17), method=Method.DDV, seed=1, tables_of_five=False, rounds=6)
    assert result.quality.best_possible == 24  # 18 opponents each, 15 exist: 16 x 3 / 2
    assert result.quality.repeat_meetings >= 24


@settings(max_examples=40, deadline=None)
@given(
    players=st.sets(st.integers(1, 10_000), min_size=4, max_size=120),
    rounds=st.integers(1, 4),
    method=st.sampled_from(list(Method)),
    fives=st.booleans(),
    seed=st.integers(0, 2**32 - 1),
)
def test_every_method_seats_every_player_once_per_round_at_legal_tables(
    players, rounds, method, fives, seed
):
    players = sorted(players)
    try:
        sizes = table_sizes(len(players), tables_of_five=fives)
    except SeatingError:
        return
    arguments = {
        "method": method,
        "seed": seed,
        "tables_of_five": fives,
        "rounds": rounds,
        "ranking": players[::-1],
    }
    result = draw(players, **arguments)
    assert len(result.rounds) == rounds
    for plan in result.rounds:
        assert sorted(plan.players) == players
        assert [len(table) for table in plan.tables] == sizes
    assert draw(players, **arguments) == result  # same seed, same plan
