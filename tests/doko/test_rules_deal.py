"""Dealer order, sitting out and the forced solo (TSR 3.3.1, 4.2.3, 4.2.5, 10.1.1)."""

import pytest

from doko.rules.contracts import Contract
from doko.rules.deal import (
    HANDS_PER_MATCH,
    MatchProgress,
    forced_deal,
    forced_solo_due,
    forced_soloist,
    main_section_lines,
    next_dealer,
    playing_seats,
    seats_clockwise_from,
)


@pytest.mark.parametrize(
    ("dealer", "size", "expected"), [(1, 4, 2), (4, 4, 1), (4, 5, 5), (5, 5, 1)]
)
def test_deal_passes_to_the_left(dealer, size, expected):
    assert next_dealer(dealer=dealer, contract=Contract.NORMAL, table_size=size) == expected


def test_same_dealer_deals_again_after_a_compulsory_solo():
    assert next_dealer(dealer=3, contract=Contract.COMPULSORY_SOLO, table_size=4) == 3


def test_next_dealer_deals_after_a_forced_solo():
    assert next_dealer(dealer=3, contract=Contract.FORCED_SOLO, table_size=4) == 4


@pytest.mark.parametrize(
    "contract", [Contract.VOLUNTARY_SOLO, Contract.WEDDING, Contract.SILENT_WEDDING]
)
def test_next_dealer_deals_after_solos_noted_in_the_main_section(contract):
    assert next_dealer(dealer=2, contract=contract, table_size=4) == 3


def test_dealer_sits_out_at_a_table_of_five():
    assert playing_seats(dealer=3, table_size=5) == (1, 2, 4, 5)


def test_everyone_plays_at_a_table_of_four():
    assert playing_seats(dealer=3, table_size=4) == (1, 2, 3, 4)


def test_a_table_of_three_is_refused():
    with pytest.raises(ValueError, match="4 to 7"):
        playing_seats(dealer=1, table_size=3)


def test_clockwise_order_wraps_around():
    assert seats_clockwise_from(3, 4) == [3, 4, 1, 2]


@pytest.mark.parametrize(
    ("remaining", "outstanding", "due"),
    [(4, 4, True), (5, 4, False), (1, 1, True), (0, 2, True), (3, 0, False), (0, 0, False)],
)
def test_forced_solo_is_due_when_solos_outstanding_reach_hands_remaining(
    remaining, outstanding, due
):
    assert forced_solo_due(hands_remaining=remaining, solos_outstanding=outstanding) is due


def test_forced_soloist_is_first_clockwise_from_the_dealers_left():
    assert forced_soloist(dealer=2, table_size=4, lacking={1, 4}) == 4


def test_dealer_himself_can_be_forced_at_a_table_of_four():
    assert forced_soloist(dealer=2, table_size=4, lacking={2}) == 2


def test_dealer_who_sits_out_is_not_forced_at_a_table_of_five():
    assert forced_soloist(dealer=2, table_size=5, lacking={2, 1}) == 1
    assert forced_soloist(dealer=2, table_size=5, lacking={2}) is None


def test_the_forced_solo_is_dealt_by_the_dealer_due_at_a_table_of_four():
    assert forced_deal(dealer=2, table_size=4, lacking={2}) == (2, 2)


def test_at_five_the_deal_passes_when_only_the_dealer_lacks_his_solo():
    # TSR 4.2.3 with 10.1.1: the dealer sits out and cannot play it; our reading: the next
    # seat deals and the dealer plays.
    assert forced_deal(dealer=2, table_size=5, lacking={2}) == (3, 2)
    assert forced_deal(dealer=2, table_size=5, lacking={2, 4}) == (2, 4)


def test_no_forced_deal_without_a_solo_owed():
    with pytest.raises(ValueError, match="nobody lacks"):
        forced_deal(dealer=1, table_size=4, lacking=set())


@pytest.mark.parametrize(("size", "main"), [(4, 20), (5, 25)])
def test_the_main_section_holds_the_round_less_the_compulsory_solos(size, main):
    assert main_section_lines(hands_per_match=HANDS_PER_MATCH[size], table_size=size) == main


def test_a_round_too_short_for_the_compulsory_solos_is_refused():
    with pytest.raises(ValueError, match="8 hands or more"):
        MatchProgress(table_size=4, hands_per_match=7)


def test_progress_counts_lines_and_skips_a_hand_not_played():
    progress = MatchProgress(table_size=4, hands_per_match=24)
    progress.record(dealer=1, contract=Contract.NORMAL, soloist=None)
    progress.record(dealer=2, contract=Contract.COMPULSORY_SOLO, soloist=3, not_played=True)
    assert (progress.played, progress.dealer, progress.lacking) == (1, 2, {1, 2, 3, 4})
    progress.record(dealer=2, contract=Contract.COMPULSORY_SOLO, soloist=3)
    assert (progress.played, progress.dealer, progress.lacking) == (2, 2, {1, 2, 4})
    assert progress.lines_remaining == 22
    assert progress.next_deal() == (2, None)
    assert progress.next_deal(time_over=True) == (2, 4)
