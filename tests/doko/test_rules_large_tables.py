"""Tables of six and seven (TSR 10), as ``doko.rules.deal`` reads them: the dealer and the
players to his left sit out, 36 and 42 hands, one compulsory solo each, the last seat keeps the
sheet, the odd-even rule for the four who play."""

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from doko import seating
from doko.rules.contracts import Contract
from doko.rules.deal import (
    HANDS_PER_MATCH,
    MatchProgress,
    forced_deal,
    hands_at_table,
    main_section_lines,
    playing_seats,
    scorekeeper,
    sitting_out,
)
from doko.rules.sheet import HandLine, check_sheet
from doko.simulation import simulate_match
from doko.standings import RoundResult, springer_result

LARGE = st.sampled_from([6, 7])


@pytest.mark.parametrize(
    ("size", "dealer", "out"),
    [(5, 3, (3,)), (6, 1, (1, 2)), (6, 6, (6, 1)), (7, 2, (2, 3, 4)), (7, 6, (6, 7, 1))],
)
def test_the_dealer_and_the_players_to_his_left_sit_out(size, dealer, out):
    assert sitting_out(dealer=dealer, table_size=size) == out
    assert len(playing_seats(dealer=dealer, table_size=size)) == 4


def test_nobody_sits_out_at_a_table_of_four():
    assert sitting_out(dealer=2, table_size=4) == ()


@pytest.mark.parametrize(("size", "hands", "main"), [(6, 36, 30), (7, 42, 35)])
def test_a_round_is_six_hands_a_player(size, hands, main):
    assert HANDS_PER_MATCH[size] == hands
    assert hands_at_table(hands_at_four=24, table_size=size) == hands
    assert main_section_lines(hands_per_match=hands, table_size=size) == main


@pytest.mark.parametrize(("four", "five", "six", "seven"), [(24, 30, 36, 42), (8, 10, 12, 14)])
def test_shorter_rounds_scale_with_the_table(four, five, six, seven):
    assert [hands_at_table(hands_at_four=four, table_size=n) for n in (5, 6, 7)] == [
        five,
        six,
        seven,
    ]


@pytest.mark.parametrize("size", [6, 7])
def test_the_last_seat_keeps_the_sheet(size):
    assert scorekeeper(size) == size


def test_a_forced_solo_owed_by_a_player_sitting_out_moves_the_deal_on():
    # At six seats 3 and 4 sit out when seat 3 deals; seat 4 alone owes the solo.
    dealer, soloist = forced_deal(dealer=3, table_size=6, lacking={4})
    assert soloist == 4
    assert soloist in playing_seats(dealer=dealer, table_size=6)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), size=LARGE)
def test_simulated_rounds_at_six_and_seven_pass_the_check(seed, size):
    hands = simulate_match(
        rng=random.Random(seed), table_size=size, hands_per_match=HANDS_PER_MATCH[size]
    )
    check = check_sheet(table_size=size, hands_per_match=HANDS_PER_MATCH[size], hands=hands)
    assert check.ok, [problem.message for problem in check.problems]
    assert check.complete
    assert len(hands) == HANDS_PER_MATCH[size]
    assert all(check.compulsory_played.values())
    assert sum(check.totals.values()) == 0


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), size=LARGE)
def test_every_hand_sums_to_zero_and_those_sitting_out_score_nothing(seed, size):
    hands = simulate_match(
        rng=random.Random(seed), table_size=size, hands_per_match=HANDS_PER_MATCH[size]
    )
    for line in hands:
        assert sum(line.points.values()) == 0
        out = sitting_out(dealer=line.dealer, table_size=size)
        assert len(out) == size - 4
        assert all(line.points[seat] == 0 for seat in out)
        if line.soloist is not None:
            assert line.soloist not in out


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), size=LARGE)
def test_every_player_deals_five_normal_games_and_plays_one_compulsory_solo(seed, size):
    hands = simulate_match(
        rng=random.Random(seed), table_size=size, hands_per_match=HANDS_PER_MATCH[size]
    )
    solos = [line for line in hands if line.contract.counts_as_compulsory]
    assert sorted(line.soloist for line in solos) == list(range(1, size + 1))
    # A compulsory solo is dealt again by the same dealer (TSR 4.2.5), so the normal hands
    # are dealt round the table in turn: five each, and each sits out equally often.
    normal = [line for line in hands if not line.contract.counts_as_compulsory]
    assert Counter(line.dealer for line in normal) == dict.fromkeys(range(1, size + 1), 5)
    out = Counter(
        seat for line in normal for seat in sitting_out(dealer=line.dealer, table_size=size)
    )
    assert out == dict.fromkeys(range(1, size + 1), 5 * (size - 4))
    # Every player plays in exactly 20 normal games and leads in five (TSR 10.2.1).
    playing = Counter(
        seat for line in normal for seat in playing_seats(dealer=line.dealer, table_size=size)
    )
    assert playing == dict.fromkeys(range(1, size + 1), 20)


def test_a_player_sitting_out_who_scores_is_a_problem():
    points = dict.fromkeys(range(1, 7), 0)
    points.update({2: 2, 3: 2, 4: -2, 5: -2})  # seat 2 sits out when seat 1 deals
    check = check_sheet(
        table_size=6,
        hands_per_match=36,
        hands=[HandLine(Contract.NORMAL, dealer=1, points=points, game_value=2)],
    )
    assert [(p.code, p.rule) for p in check.problems][:1] == [("dealer", "TSR 10, 10.1.2")]


def test_the_odd_even_rule_holds_for_the_four_playing_at_six():
    points = dict.fromkeys(range(1, 7), 0)
    points.update({3: 3, 4: 1, 5: -2, 6: -2})
    check = check_sheet(
        table_size=6,
        hands_per_match=36,
        hands=[HandLine(Contract.NORMAL, dealer=1, points=points, game_value=2)],
    )
    assert "parity" in {problem.code for problem in check.problems}


def test_progress_at_seven_needs_two_hands_a_player():
    with pytest.raises(ValueError, match="14 hands or more"):
        MatchProgress(table_size=7, hands_per_match=13)


@pytest.mark.parametrize(
    ("players", "fives", "sizes"),
    [
        (6, True, [6]),
        (7, True, [7]),
        (7, False, [7]),
        (11, True, [4, 7]),
        (10, False, [4, 6]),
        (10, True, [5, 5]),
        (13, False, [6, 7]),
        (12, False, [4, 4, 4]),
    ],
)
def test_tables_of_six_and_seven_only_where_fours_and_fives_cannot_seat(players, fives, sizes):
    assert seating.table_sizes(players, tables_of_five=fives, large_tables=True) == sizes


@pytest.mark.parametrize("players", [6, 7, 11])
def test_without_tables_of_six_and_seven_small_odd_fields_cannot_sit(players):
    with pytest.raises(seating.SeatingError):
        seating.table_sizes(players, tables_of_five=True)


@settings(max_examples=30, deadline=None)
@given(
    players=st.sampled_from([6, 7, 10, 11, 13, 15, 22, 23]),
    seed=st.integers(0, 2**32 - 1),
    method=st.sampled_from(list(seating.Method)),
    rounds=st.integers(1, 4),
)
def test_a_field_with_a_table_of_six_or_seven_is_seated_once_each_round(
    players, seed, method, rounds
):
    field = list(range(100, 100 + players))
    drawn = seating.draw(
        field,
        method=method,
        seed=seed,
        tables_of_five=True,
        large_tables=True,
        rounds=rounds,
        ranking=field,
    )
    assert len(drawn.rounds) == rounds
    for plan in drawn.rounds:
        assert sorted(plan.players) == field
        assert sorted(map(len, plan.tables)) == seating.table_sizes(
            players, tables_of_five=True, large_tables=True
        )


def test_seven_players_over_seven_rounds_sit_in_every_position_once():
    field = list(range(1, 8))
    drawn = seating.draw(
        field,
        method=seating.Method.RANDOM,
        seed=3,
        tables_of_five=True,
        large_tables=True,
        rounds=7,
    )
    for player in field:
        seats = [plan.tables[0].index(player) for plan in drawn.rounds]
        assert sorted(seats) == list(range(7))


def test_reseating_seven_after_a_late_entry_makes_two_tables_of_four():
    plan = seating.SeatingPlan(tables=((1, 2, 3, 4, 5, 6, 7),))
    result = seating.reseat(
        plan, [1, 2, 3, 4, 5, 6, 7, 8], seed=1, tables_of_five=True, large_tables=True
    )
    assert sorted(map(len, result.plan.tables)) == [4, 4]
    assert result.plan.tables[0] == (1, 2, 3, 4)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), size=LARGE, cut=st.integers(0, 30))
def test_rounds_cut_by_the_playing_time_end_with_the_forced_solos_owed(seed, size, cut):
    """After the time only the forced solos still owed follow (TSR 8.5.3, 8.6.1), also where
    only players sitting out owe one: the deal moves on until they play."""
    hands = simulate_match(
        rng=random.Random(seed),
        table_size=size,
        hands_per_match=HANDS_PER_MATCH[size],
        time_over_after=cut,
    )
    check = check_sheet(
        table_size=size,
        hands_per_match=HANDS_PER_MATCH[size],
        hands=hands,
        time_over_after_hand=cut,
    )
    assert check.ok, [problem.message for problem in check.problems]
    assert check.complete
    assert all(check.compulsory_played.values())
    for line in hands:
        assert sum(line.points.values()) == 0
        assert all(
            line.points[seat] == 0 for seat in sitting_out(dealer=line.dealer, table_size=size)
        )


@given(
    first=st.integers(-300, 300),
    second=st.integers(-300, 300),
    placings=st.tuples(st.integers(1, 4), st.integers(1, 4)),
)
def test_a_springers_round_is_the_mean_of_his_two_tables_a_half_against_him(
    first, second, placings
):
    one = RoundResult(entry_id=5, round=2, table=1, position=2, points=first, placing=placings[0])
    two = RoundResult(entry_id=5, round=2, table=2, position=2, points=second, placing=placings[1])
    merged = springer_result(one, two)
    assert merged.points <= (first + second) / 2 < merged.points + 1
    assert merged.placing - 1 < sum(placings) / 2 <= merged.placing
    assert (merged.table, merged.position) == (1, 2)
    assert springer_result(one, two._replace(confirmed=False)).confirmed is False


def test_a_springers_results_are_one_players_in_one_round():
    one = RoundResult(entry_id=5, round=2, table=1, position=2, points=3)
    with pytest.raises(ValueError, match="one player's in one round"):
        springer_result(one, one._replace(round=3))


@pytest.mark.parametrize("players", [7, 11])
@pytest.mark.parametrize("method", list(seating.Method))
def test_with_a_springer_a_table_of_seven_is_two_tables_of_four_sharing_him(players, method):
    field = list(range(1, players + 1))
    drawn = seating.draw(
        field,
        method=method,
        seed=players,
        rounds=3,
        tables_of_five=True,
        large_tables=True,
        springer=True,
        ranking=field,
    )
    for plan in drawn.rounds:
        assert {len(table) for table in plan.tables} == {4}
        (jumper,) = seating.springers(plan)
        # He takes seat 1 at both tables, which are the last two; everyone else sits once.
        assert [table[0] for table in plan.tables[-2:]] == [jumper, jumper]
        assert Counter(plan.players) == Counter([*field, jumper])


def test_the_springer_passes_to_whoever_jumped_least():
    field, history = list(range(1, 8)), []
    for seed in range(7):
        (plan,) = seating.draw(
            field,
            method=seating.Method.RANDOM,
            seed=seed,
            tables_of_five=False,
            large_tables=True,
            springer=True,
            history=history,
        ).rounds
        history.append(plan)
    assert sorted(p for plan in history for p in seating.springers(plan)) == field


def test_reseating_with_a_springer_keeps_him_and_mends_the_field():
    field = list(range(1, 8))
    plan = seating.draw_random(
        field, tables_of_five=False, seed=3, large_tables=True, springer=True
    )
    (jumper,) = seating.springers(plan)
    late = seating.reseat(
        plan, [*field, 8], seed=1, tables_of_five=False, large_tables=True, springer=True
    )
    assert not seating.springers(late.plan)
    assert sorted(late.plan.players) == [*field, 8]
    gone = next(p for p in field if p != jumper)
    less = seating.reseat(
        plan,
        [p for p in field if p != gone],
        seed=1,
        tables_of_five=False,
        large_tables=True,
        springer=True,
    )
    assert [len(table) for table in less.plan.tables] == [6]
    back = seating.reseat(
        less.plan, field, seed=1, tables_of_five=False, large_tables=True, springer=True
    )
    assert len(seating.springers(back.plan)) == 1
