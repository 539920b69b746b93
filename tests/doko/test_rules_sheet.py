"""The scoresheet check (TSR 3.3.1, 4.2, 4.3.1, 7.3.3, 8.5, 8.6, 10.1)."""

import random
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from doko.rules.contracts import Contract
from doko.rules.sheet import HandLine, check_sheet, dealt_out_of_turn, with_dealers
from doko.sample_sheets import full_match, normal, solo
from doko.simulation import simulate_match


def check(hands, *, size=4, hands_per_match=None, **kwargs):
    hands_per_match = hands_per_match or (24 if size == 4 else 30)
    return check_sheet(table_size=size, hands_per_match=hands_per_match, hands=hands, **kwargs)


def codes(result):
    return [(problem.hand, problem.code) for problem in result.problems]


def test_complete_match_of_four_has_no_problems():
    result = check(full_match(size=4))
    assert result.ok
    assert result.complete
    assert all(result.compulsory_played.values())
    assert sum(result.totals.values()) == 0


def test_complete_match_of_five_has_no_problems():
    result = check(full_match(size=5), size=5)
    assert result.ok
    assert result.complete


def test_checksum_problem_names_the_hand_and_the_sum():
    hands = full_match()
    hands[3] = replace(hands[3], points={1: 2, 2: -1, 3: 1, 4: -1})
    result = check(hands)
    assert (4, "checksum") in codes(result)
    problem = next(p for p in result.problems if p.code == "checksum")
    assert problem.rule == "TSR 7.3.3.1"
    assert "adds up to 1" in problem.message or "add up to 1" in problem.message


def test_mixed_parity_is_a_problem_at_a_table_of_four():
    hands = [replace(normal(1, (1, 3), 2), points={1: 3, 2: -2, 3: 1, 4: -2}, game_value=None)]
    assert (1, "parity") in codes(check(hands))


def test_parity_is_not_required_at_a_table_of_five():
    hands = [replace(normal(1, (2, 4), 2, size=5), points={1: 0, 2: 3, 3: -2, 4: 1, 5: -2})]
    result = check(hands, size=5)
    assert "parity" not in [code for _, code in codes(result)]


def test_a_hand_dealt_by_the_wrong_player_stands_with_a_warning():
    # TSR 3.3.10 (last sentence), 9.7.3: a wrong dealer is not an obvious irregularity; a breach
    # nobody complained of in time stands.
    hands = [normal(1, (1, 2), 1), normal(3, (1, 2), 1)]
    result = check(hands)
    assert result.ok
    warning = next(w for w in result.warnings if w.code == "dealer")
    assert warning.hand == 2
    assert warning.params["expected"] == 2
    assert warning.rule == "TSR 3.3.1, 9.7.3"


def test_the_deal_goes_on_from_the_player_who_dealt_out_of_turn():
    hands = [normal(1, (1, 2), 1), normal(3, (1, 2), 1), normal(4, (1, 2), 1)]
    result = check(hands)
    assert [w.hand for w in result.warnings] == [2]
    assert result.next.dealer == 1


def test_compulsory_solo_is_dealt_again_by_the_same_dealer():
    hands = [normal(1, (1, 2), 1), solo(2, 3, 2), normal(2, (1, 2), 1)]
    assert check(hands).ok


def test_dealer_moving_on_after_a_compulsory_solo_is_dealt_out_of_turn():
    hands = [normal(1, (1, 2), 1), solo(2, 3, 2), normal(3, (1, 2), 1)]
    result = check(hands)
    assert result.ok
    assert [(w.hand, w.params["expected"]) for w in result.warnings] == [(3, 2)]


def test_second_compulsory_solo_by_the_same_player_is_a_problem():
    hands = [solo(1, 3, 2), solo(1, 3, 1)]
    assert (2, "solo_order") in codes(check(hands))


def test_voluntary_solo_before_the_own_compulsory_solo_is_a_problem():
    hands = [solo(1, 2, 1, contract=Contract.VOLUNTARY_SOLO)]
    result = check(hands)
    assert (1, "solo_order") in codes(result)
    assert result.problems[0].rule == "TSR 4.3.1"


def test_voluntary_solo_after_the_own_compulsory_solo_is_fine():
    hands = [solo(1, 2, 1), solo(1, 2, 1, contract=Contract.VOLUNTARY_SOLO)]
    assert check(hands).ok


def _normal_games(count, *, size=4, first_dealer=1):
    dealer, lines = first_dealer, []
    for _ in range(count):
        lines.append(normal(dealer, (1, 2) if size == 4 or dealer > 2 else (3, 4), 1, size=size))
        dealer = dealer % size + 1
    return lines


def test_forced_solo_is_announced_when_solos_outstanding_equal_hands_remaining():
    result = check(_normal_games(20))
    assert result.ok
    assert result.next.must_be_forced_solo
    assert result.next.dealer == 1
    assert result.next.forced_soloist == 2  # first clockwise from the dealer's left
    assert result.next.hands_remaining == 4


def test_normal_game_when_a_forced_solo_was_due_is_a_problem():
    hands = [*_normal_games(20), normal(1, (1, 2), 1)]
    problem = next(p for p in check(hands).problems if p.code == "forced_solo")
    assert problem.hand == 21
    assert problem.params["seat"] == 2


def test_all_four_forced_solos_at_the_end_complete_the_match():
    hands = _normal_games(20)
    hands += [
        solo(1, 2, 1, contract=Contract.FORCED_SOLO),
        solo(2, 3, -1, contract=Contract.FORCED_SOLO),
        solo(3, 4, 2, contract=Contract.FORCED_SOLO),
        solo(4, 1, 1, contract=Contract.FORCED_SOLO),
    ]
    result = check(hands)
    assert result.ok, [p.message for p in result.problems]
    assert result.complete


def test_forced_solo_by_the_wrong_player_is_a_problem():
    hands = [*_normal_games(20), solo(1, 3, 1, contract=Contract.FORCED_SOLO)]
    problem = next(p for p in check(hands).problems if p.code == "forced_solo")
    assert problem.params == {"hand": 21, "seat": 2, "soloist": 3}


def test_forced_solo_that_was_not_due_is_a_problem():
    hands = [solo(1, 2, 1, contract=Contract.FORCED_SOLO)]
    assert (1, "forced_solo") in codes(check(hands))


def test_hand_beyond_the_match_is_a_problem():
    hands = full_match()
    dealer = hands[-1].dealer % 4 + 1
    result = check([*hands, normal(dealer, (1, 2), 1)])
    assert (len(hands) + 1, "hand_count") in codes(result)


def test_after_the_playing_time_only_forced_solos_are_played():
    hands = [solo(1, 1, 1), solo(1, 2, 1), solo(1, 3, 1), *_normal_games(10)]
    result = check(hands, time_over_after_hand=len(hands))
    assert result.next.must_be_forced_solo
    assert result.next.forced_soloist == 4
    assert not result.complete
    late = check([*hands, normal(3, (1, 2), 1)], time_over_after_hand=len(hands))
    assert (len(hands) + 1, "forced_solo") in codes(late)


def test_after_the_playing_time_with_all_solos_played_no_hand_follows():
    hands = [solo(1, 1, 1), solo(1, 2, 1), solo(1, 3, 1), solo(1, 4, 1), *_normal_games(10)]
    result = check(hands, time_over_after_hand=len(hands))
    assert result.complete
    late = check([*hands, normal(3, (1, 2), 1)], time_over_after_hand=len(hands))
    assert codes(late) == [(len(hands) + 1, "hand_count")]


def test_dealer_must_not_score_at_a_table_of_five():
    hands = [replace(normal(1, (2, 3), 1, size=5), points={1: 2, 2: 1, 3: -1, 4: -1, 5: -1})]
    assert (1, "dealer") in codes(check(hands, size=5))


def test_soloist_who_sits_out_is_a_problem():
    hands = [solo(1, 1, 1, size=5)]
    assert (1, "dealer") in codes(check(hands, size=5))


def test_points_not_following_the_game_value_are_a_problem():
    hands = [replace(normal(1, (1, 2), 2), game_value=3)]
    assert (1, "value") in codes(check(hands))


def test_every_problem_is_reported_not_only_the_first():
    hands = [normal(2, (1, 2), 1), replace(normal(3, (1, 2), 1), points={1: 1, 2: 1, 3: 1, 4: 1})]
    result = check(hands)
    assert [(w.hand, w.code) for w in result.warnings] == [(1, "dealer")]
    assert (2, "checksum") in codes(result)
    assert (2, "value") not in codes(result)  # no value is checked against a wrong sum


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), size=st.sampled_from([4, 5]))
def test_simulated_matches_pass_the_check(seed, size):
    hands_per_match = 24 if size == 4 else 30
    hands = simulate_match(
        rng=random.Random(seed), table_size=size, hands_per_match=hands_per_match
    )
    result = check(hands, size=size)
    assert result.ok, [p.message for p in result.problems]
    assert result.complete
    assert sum(result.totals.values()) == 0
    solos = [hand for hand in hands if hand.contract.counts_as_compulsory]
    assert sorted(hand.soloist for hand in solos) == list(range(1, size + 1))


@settings(max_examples=100, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), cut=st.integers(0, 27))
def test_an_unfinished_match_says_who_deals_next(seed, cut):
    hands = simulate_match(rng=random.Random(seed), table_size=4, hands_per_match=24)
    result = check(hands[:cut])
    assert result.ok
    if cut < len(hands):
        assert result.next.dealer == hands[cut].dealer
        if hands[cut].contract is Contract.FORCED_SOLO:
            assert result.next.forced_soloist == hands[cut].soloist


# Penalty points on the sheet (TSR 7.3.3, 9.3, 9.4) ------------------------------------------


def test_penalty_points_count_in_the_totals():
    hands = [replace(normal(1, (1, 2), 2), penalty={1: 1, 2: 1, 3: 1, 4: -3})]
    result = check(hands)
    assert result.ok
    assert result.totals == {1: 3, 2: 3, 3: -1, 4: -5}


def test_penalty_points_that_do_not_sum_to_zero_are_a_checksum_problem():
    hands = [replace(normal(1, (1, 2), 2), penalty={1: 1, 2: 1, 3: 1, 4: -2})]
    problem = next(p for p in check(hands).problems if p.code == "checksum")
    assert problem.params["checksum"] == 1
    assert "penalty" in problem.message


def test_penalty_credited_to_the_soloist_may_break_the_odd_even_rule():
    # TSR 7.3.3.2: (+3, 0, 0, -3), (+15, 0, 0, -15), (+21, 0, 0, -21).
    for credit in (3, 15, 21):
        hands = [replace(solo(1, 1, 2), penalty={1: credit, 2: 0, 3: -credit, 4: 0})]
        assert check(hands).ok


def test_the_same_penalty_pattern_in_a_normal_game_breaks_the_odd_even_rule():
    hands = [replace(normal(1, (1, 2), 2), penalty={1: 3, 2: 0, 3: -3, 4: 0})]
    assert (1, "parity") in codes(check(hands))


def test_penalty_debited_to_the_soloist_is_not_the_exception():
    hands = [replace(solo(1, 1, 2), penalty={1: -3, 2: 0, 3: 3, 4: 0})]
    assert (1, "parity") in codes(check(hands))


def test_sitting_out_dealer_gets_no_penalty_points():
    hands = [replace(normal(1, (2, 3), 1, size=5), penalty={1: -3, 2: 1, 3: 1, 4: 1})]
    assert (1, "dealer") in codes(check(hands, size=5))


def test_table_of_five_with_forced_solos_at_the_end():
    # 25 normal games: seats 2, 3, 4, 5 and 1 still owe their solos with five hands left.
    hands = _normal_games(25, size=5)
    result = check(hands, size=5)
    assert result.ok
    assert result.next.must_be_forced_solo
    assert result.next.dealer == 1
    assert result.next.forced_soloist == 2  # the dealer sits out; his left-hand neighbour
    for dealer, soloist in ((1, 2), (2, 3), (3, 4), (4, 5), (5, 1)):
        hands.append(solo(dealer, soloist, 1, contract=Contract.FORCED_SOLO, size=5))
    result = check(hands, size=5)
    assert result.ok, [p.message for p in result.problems]
    assert result.complete
    assert len(hands) == 30


# A hand stopped by a major breach (TSR 9.4.3) and points deducted (TSR 9.6.2) ----------------


def stopped(dealer, offender, *, size=4, announcements=0):
    """A normal game stopped by a major breach: no game points, the offender's penalty shared
    by the three others (TSR 9.4.3)."""
    penalty = 12 + 3 * announcements
    seats = [seat for seat in range(1, size + 1) if size == 4 or seat != dealer]
    return HandLine(
        contract=Contract.NORMAL,
        dealer=dealer,
        points=dict.fromkeys(range(1, size + 1), 0),
        game_value=0,
        penalty={seat: -penalty if seat == offender else penalty // 3 for seat in seats},
        not_played=True,
    )


def test_a_hand_not_played_is_dealt_again_by_the_same_dealer_and_does_not_count():
    hands = full_match()
    hands.insert(3, stopped(hands[3].dealer, offender=2))
    result = check(hands)
    assert result.ok, codes(result)
    assert result.complete
    full = check(full_match())
    assert result.totals == {
        seat: full.totals[seat] + (-12 if seat == 2 else 4) for seat in range(1, 5)
    }


def test_the_dealer_moving_on_after_a_hand_not_played_is_out_of_turn():
    hands = full_match()
    hands.insert(3, stopped(hands[3].dealer, offender=2))
    hands[4] = replace(hands[4], dealer=hands[4].dealer % 4 + 1)
    assert (5, "dealer") in [(w.hand, w.code) for w in check(hands).warnings]


def test_a_hand_not_played_has_no_game_points():
    line = replace(stopped(1, offender=3), points={1: 2, 2: 2, 3: -2, 4: -2})
    assert codes(check([line])) == [(1, "not_played")]


def test_a_compulsory_solo_not_played_is_still_owed():
    # The soloist's own major breach: TSR 9.4.4 refers to 9.4.3, the solo is not played.
    line = replace(
        stopped(1, offender=2),
        contract=Contract.COMPULSORY_SOLO,
        soloist=2,
        solo_type=solo(1, 2, 1).solo_type,
    )
    result = check([line])
    assert result.ok, codes(result)
    assert not result.compulsory_played[2]
    assert result.next.dealer == 1
    assert result.next.hands_remaining == 24


def test_a_hand_not_played_at_a_table_of_five():
    hands = full_match(size=5)
    hands.insert(0, stopped(1, offender=3, size=5, announcements=2))
    result = check(hands, size=5)
    assert result.ok, codes(result)
    assert result.complete


def test_deductions_count_in_the_totals_and_need_not_sum_to_zero():
    result = check(full_match(), deductions={3: -6})
    assert result.ok
    assert sum(result.totals.values()) == -6
    assert result.totals[3] == check(full_match()).totals[3] - 6


@settings(max_examples=30, deadline=None)
@given(st.integers(min_value=0, max_value=25), st.integers(min_value=1, max_value=4))
def test_a_stopped_hand_anywhere_keeps_a_correct_sheet_correct(position, offender):
    hands = full_match()
    position = min(position, len(hands) - 1)  # a complete round has no hand after its last
    hands.insert(position, stopped(hands[position].dealer, offender))
    result = check(hands)
    assert result.ok, codes(result)
    assert sum(result.totals.values()) == 0


# The round's count: 24 lines at four, 30 at five, compulsory solos included -----------------
# (TSR 8.5.1, 10.1.5; TSR 10.2.1 fixes the reading: 20 + 4 and 25 + 5)


def test_two_compulsory_solos_twenty_normal_hands_and_two_forced_solos_make_a_round():
    hands = [
        solo(1, 2, 1),
        normal(1, (1, 3), 2),
        solo(2, 4, -1),
        *_normal_games(19, first_dealer=2),
    ]
    assert len(hands) == 22
    result = check(hands)
    assert result.ok, [p.message for p in result.problems]
    assert result.next.must_be_forced_solo
    assert (result.next.dealer, result.next.forced_soloist) == (1, 3)  # first from 1's left
    hands += [
        solo(1, 3, 2, contract=Contract.FORCED_SOLO),
        solo(2, 1, 1, contract=Contract.FORCED_SOLO),  # the next player deals (TSR 4.2.5)
    ]
    result = check(hands)
    assert result.ok, [p.message for p in result.problems]
    assert result.complete
    assert result.next.hands_remaining == 0
    assert len(hands) == 24


def test_twenty_normal_hands_and_four_compulsory_solos_are_complete():
    hands = full_match()
    assert sum(1 for hand in hands if hand.contract is Contract.COMPULSORY_SOLO) == 4
    assert len(hands) == 24
    result = check(hands)
    assert result.ok
    assert result.complete
    assert result.next.hands_remaining == 0


def test_a_forced_solo_is_due_when_the_solos_owed_equal_the_lines_left():
    start = [solo(1, 2, 1), solo(1, 4, 1)]  # seats 1 and 3 still owe theirs
    before = check([*start, *_normal_games(19)])
    assert not before.next.must_be_forced_solo
    assert before.next.hands_remaining == 3
    after = check([*start, *_normal_games(20)])
    assert after.next.must_be_forced_solo
    assert after.next.hands_remaining == 2
    assert (after.next.dealer, after.next.forced_soloist) == (1, 3)


def test_hands_remaining_counts_every_line_still_to_play():
    result = check([solo(1, 3, 1), *_normal_games(9)])
    assert result.next.hands_remaining == 14


def test_after_the_playing_time_the_forced_solos_owed_remain():
    hands = [solo(1, 1, 1), *_normal_games(10)]
    result = check(hands, time_over_after_hand=len(hands))
    assert result.next.hands_remaining == 3
    assert result.next.must_be_forced_solo
    for _ in range(3):
        due = check(hands, time_over_after_hand=11).next
        hands.append(solo(due.dealer, due.forced_soloist, 1, contract=Contract.FORCED_SOLO))
    result = check(hands, time_over_after_hand=11)
    assert result.ok, [p.message for p in result.problems]
    assert result.complete
    assert result.next.hands_remaining == 0


def test_a_twenty_fifth_line_is_a_hand_count_problem():
    hands = full_match()
    result = check([*hands, solo(check(hands).next.dealer, 1, 1, contract=Contract.VOLUNTARY_SOLO)])
    problem = next(p for p in result.problems if p.code == "hand_count")
    assert problem.hand == 25
    assert problem.rule == "TSR 8.5.1"
    assert "24" in problem.message


def test_a_thirty_first_line_at_a_table_of_five_is_a_hand_count_problem():
    hands = full_match(size=5)
    dealer = check(hands, size=5).next.dealer
    result = check([*hands, normal(dealer, _two(dealer), 1, size=5)], size=5)
    assert (31, "hand_count") in codes(result)
    assert next(p for p in result.problems if p.code == "hand_count").rule == "TSR 10.1.5"


def _two(dealer):
    return tuple(seat for seat in range(1, 6) if seat != dealer)[:2]


def test_a_forced_solo_is_noted_with_the_compulsory_solos():
    assert Contract.FORCED_SOLO.section == Contract.COMPULSORY_SOLO.section == "compulsory_solo"
    assert Contract.VOLUNTARY_SOLO.section == "main"


# A table of five where only the dealer still owes his solo (TSR 4.2.3, 10.1.1) --------------


def _five_with_only_seat_1_owing():
    """Seats 2 to 5 played their compulsory solos early; after the 25 normal hands seat 1 is
    due to deal the last line, and he alone still owes his solo."""
    hands = [solo(1, seat, 1, size=5) for seat in (2, 3, 4, 5)]
    return hands + _normal_games(25, size=5)


def test_at_five_the_deal_passes_when_only_the_dealer_owes_the_forced_solo():
    result = check(_five_with_only_seat_1_owing(), size=5)
    assert result.ok, [p.message for p in result.problems]
    assert result.next.must_be_forced_solo
    assert (result.next.dealer, result.next.forced_soloist) == (2, 1)
    assert result.next.hands_remaining == 1


def test_at_five_the_last_forced_solo_completes_the_round():
    hands = [*_five_with_only_seat_1_owing(), solo(2, 1, 2, contract=Contract.FORCED_SOLO, size=5)]
    result = check(hands, size=5)
    assert result.ok, [p.message for p in result.problems]
    assert result.complete
    assert len(hands) == 30


def test_at_five_the_dealer_who_owes_the_forced_solo_cannot_deal_it():
    hands = [*_five_with_only_seat_1_owing(), normal(1, (2, 3), 1, size=5)]
    result = check(hands, size=5)
    problem = next(p for p in result.problems if p.code == "forced_solo")
    assert problem.params == {"hand": 30, "seat": 1, "dealer": 2}
    assert [(w.hand, w.params["expected"]) for w in result.warnings] == [(30, 2)]


def test_at_five_after_the_time_the_deal_passes_too():
    hands = [solo(1, seat, 1, size=5) for seat in (2, 3, 4, 5)] + _normal_games(10, size=5)
    result = check(hands, size=5, time_over_after_hand=len(hands))
    # 10 normal hands: seat 1 deals the 11th, and he alone owes his solo.
    assert (result.next.dealer, result.next.forced_soloist) == (2, 1)
    hands.append(solo(2, 1, 1, contract=Contract.FORCED_SOLO, size=5))
    result = check(hands, size=5, time_over_after_hand=len(hands) - 1)
    assert result.ok, [p.message for p in result.problems]
    assert result.complete


def test_dealers_pass_at_five_when_a_sheet_is_dealt_again():
    hands = [*_five_with_only_seat_1_owing(), solo(1, 1, 2, contract=Contract.FORCED_SOLO, size=5)]
    dealt = with_dealers(hands, table_size=5, hands_per_match=30)
    assert dealt[-1].dealer == 2
    assert dealt[:-1] == hands[:-1]


def test_dealing_again_keeps_the_hands_dealt_out_of_turn():
    hands = [normal(1, (1, 2), 1), normal(3, (1, 2), 1), normal(4, (1, 2), 1)]
    result = check(hands)
    kept = dealt_out_of_turn(result)
    assert kept == {2}
    dealt = with_dealers(hands, table_size=4, hands_per_match=24, kept=kept)
    assert dealt == hands
    again = with_dealers(hands, table_size=4, hands_per_match=24)
    assert [hand.dealer for hand in again] == [1, 2, 3]


# Plausible lines (TSR 7.2.2, 7.2.3, 7.2.4) ----------------------------------------------------


def test_a_normal_game_split_three_to_one_is_a_value_problem():
    line = replace(normal(1, (1, 2), 1), points={1: 1, 2: 1, 3: 1, 4: -3}, game_value=None)
    assert codes(check([line])) == [(1, "value")]


def test_a_normal_game_worth_a_thousand_is_refused():
    line = normal(1, (1, 2), 1000)
    result = check([line])
    problem = next(p for p in result.problems if p.code == "value")
    assert problem.params["most"] == 29
    assert problem.rule == "TSR 7.2.2, 7.2.3, 7.2.4"


@pytest.mark.parametrize(
    ("line", "ok"),
    [
        (normal(1, (1, 2), 29), True),
        (normal(1, (1, 2), 30), False),
        (solo(1, 2, 21), True),
        (solo(1, 2, -21), True),
        (solo(1, 2, 22), False),
    ],
)
def test_the_highest_game_value_of_each_kind(line, ok):
    assert check([line]).ok is ok


def test_a_solo_without_its_soloist_is_a_problem():
    line = replace(solo(1, 2, 1), soloist=None)
    assert (1, "soloist") in codes(check([line]))


def test_points_for_a_solo_are_three_times_the_value_to_the_soloist():
    line = replace(solo(1, 2, 2), points={1: -2, 2: 4, 3: -2, 4: 0})
    assert (1, "value") in codes(check([line]))


# Over many simulated rounds (TSR 8.5.1, 10.1.5, 10.2.1) ----------------------------------------


def round_participation(hands, *, size):
    """Per seat: the games played in, and the normal games (main section) led to the first
    trick as forehand, the player to the dealer's left (TSR 3.3.7, 4.3.1, 10.1.1)."""
    played = dict.fromkeys(range(1, size + 1), 0)
    led = dict.fromkeys(range(1, size + 1), 0)
    for hand in hands:
        for seat in range(1, size + 1):
            if size == 4 or seat != hand.dealer:
                played[seat] += 1
        if hand.contract.section == "main":
            led[hand.dealer % size + 1] += 1
    return played, led


def test_over_ten_thousand_simulated_rounds_the_count_holds():
    # At four every player plays all 24 lines; at five every player is in 21 to 25 games and
    # leads in exactly five normal games, so nobody plays more than 25 (TSR 10.2.1).
    rng = random.Random(18)
    for size, rounds in ((4, 5000), (5, 5000)):
        for _ in range(rounds):
            hands = simulate_match(
                rng=rng, table_size=size, hands_per_match=24 if size == 4 else 30
            )
            assert len(hands) == (24 if size == 4 else 30)
            played, led = round_participation(hands, size=size)
            if size == 4:
                assert set(played.values()) == {24}
            else:
                assert all(21 <= games <= 25 for games in played.values()), played
                assert set(led.values()) == {5}, led
            assert sum(1 for hand in hands if hand.contract.section == "compulsory_solo") == size


@settings(max_examples=100, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), size=st.sampled_from([4, 5]), over=st.integers(0, 29))
def test_simulated_rounds_cut_short_by_the_time_pass_the_check(seed, size, over):
    hands_per_match = 24 if size == 4 else 30
    hands = simulate_match(
        rng=random.Random(seed),
        table_size=size,
        hands_per_match=hands_per_match,
        time_over_after=over,
    )
    result = check(hands, size=size, time_over_after_hand=min(over, len(hands)))
    assert result.ok, [p.message for p in result.problems]
    assert result.complete
    assert len(hands) <= hands_per_match


# A stand-in dealer: the left neighbour deals for an absent dealer (TSR 3.3.2, 3.3.7) --------


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    size=st.sampled_from([4, 5]),
    stand_ins=st.sets(st.integers(0, 29), max_size=8),
)
def test_a_stand_in_dealer_moves_neither_the_rotation_nor_who_sits_out(seed, size, stand_ins):
    """Recorded as dealing *for* the seat whose turn it was, the neighbour's deals leave the
    sheet exactly as if the dealer had dealt: no warning, the same next dealer, the same seat
    sitting out at a table of five (TSR 3.3.2, 10.1.1)."""
    hands = simulate_match(
        rng=random.Random(seed), table_size=size, hands_per_match=24 if size == 4 else 30
    )
    marked = [
        replace(hand, dealt_by_neighbour=True) if number in stand_ins else hand
        for number, hand in enumerate(hands)
    ]
    plain, stood_in = check(hands, size=size), check(marked, size=size)
    assert stood_in.ok
    assert stood_in.complete
    assert not stood_in.warnings
    assert (stood_in.next, stood_in.totals) == (plain.next, plain.totals)
    assert with_dealers(marked, table_size=size, hands_per_match=len(hands)) == marked
    for number, hand in enumerate(marked):
        if number in stand_ins:
            assert hand.dealt_by(size) == hand.dealer % size + 1
            if size == 5:  # the absent dealer sits out, his neighbour plays
                assert hand.points[hand.dealer] == 0


@pytest.mark.parametrize("size", [4, 5])
def test_recording_the_neighbour_as_the_dealer_shifts_the_rotation(size):
    """What the stand-in flag is for: written as "dealt by seat 2", hand 1 is dealt out of
    turn, the deal goes on from seat 2, and at five seat 2 sits out instead of seat 1."""
    hands = simulate_match(
        rng=random.Random(7), table_size=size, hands_per_match=24 if size == 4 else 30
    )[:3]
    shifted = check([replace(hands[0], dealer=2), *hands[1:]], size=size)
    assert [w.hand for w in shifted.warnings if w.code == "dealer"]
    stood_in = check([replace(hands[0], dealt_by_neighbour=True), *hands[1:]], size=size)
    assert stood_in.ok
    assert not stood_in.warnings
