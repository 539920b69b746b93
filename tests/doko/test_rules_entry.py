"""Points from the game value and the plus seats, or from the end of play (TSR 7.2, 7.3.3.3)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from doko.rules.contracts import Contract, SoloType
from doko.rules.entry import (
    points_from_plus_seats,
    points_from_result,
    re_tricks_for,
    tricks_matter,
)
from doko.rules.problems import InvalidInput
from doko.rules.value import (
    TRICKS,
    Announcement,
    Game,
    HandResult,
    card_points_bounds,
    hand_value,
)


def test_normal_game_two_winners_receive_the_value():
    entered = points_from_plus_seats(
        table_size=4, dealer=1, contract=Contract.NORMAL, game_value=3, plus_seats={1, 3}
    )
    assert entered.points == {1: 3, 2: -3, 3: 3, 4: -3}
    assert entered.soloist is None


def test_solo_won_by_the_one_plus_seat_gives_three_times_the_value():
    entered = points_from_plus_seats(
        table_size=4, dealer=2, contract=Contract.COMPULSORY_SOLO, game_value=2, plus_seats={4}
    )
    assert entered.points == {1: -2, 2: -2, 3: -2, 4: 6}
    assert entered.soloist == 4


def test_solo_lost_the_soloist_is_the_seat_that_did_not_score_plus():
    entered = points_from_plus_seats(
        table_size=4, dealer=1, contract=Contract.VOLUNTARY_SOLO, game_value=4, plus_seats={1, 2, 4}
    )
    assert entered.points == {1: 4, 2: 4, 3: -12, 4: 4}
    assert entered.soloist == 3


def test_a_named_soloist_must_agree_with_the_plus_seats():
    with pytest.raises(InvalidInput) as error:
        points_from_plus_seats(
            table_size=4,
            dealer=1,
            contract=Contract.FORCED_SOLO,
            game_value=2,
            plus_seats={2},
            soloist=3,
        )
    assert error.value.errors[0].field == "soloist"


def test_at_a_table_of_five_the_dealer_scores_nothing_and_cannot_score_plus():
    entered = points_from_plus_seats(
        table_size=5, dealer=3, contract=Contract.NORMAL, game_value=1, plus_seats={1, 5}
    )
    assert entered.points == {1: 1, 2: -1, 3: 0, 4: -1, 5: 1}
    with pytest.raises(InvalidInput) as error:
        points_from_plus_seats(
            table_size=5, dealer=3, contract=Contract.NORMAL, game_value=1, plus_seats={3, 5}
        )
    assert error.value.errors[0].field == "plus_seats"
    assert "10.1.2" in error.value.errors[0].rule


def test_a_wedding_with_one_plus_seat_was_settled_as_a_solo():
    entered = points_from_plus_seats(
        table_size=4, dealer=1, contract=Contract.WEDDING, game_value=3, plus_seats={2}
    )
    assert entered.points == {1: -3, 2: 9, 3: -3, 4: -3}
    assert entered.soloist == 2


@pytest.mark.parametrize("plus", [set(), {1}, {1, 2, 3}])
def test_a_normal_game_needs_two_plus_seats(plus):
    with pytest.raises(InvalidInput, match="two seats"):
        points_from_plus_seats(
            table_size=4, dealer=1, contract=Contract.NORMAL, game_value=2, plus_seats=plus
        )


def test_value_zero_nobody_scores():
    entered = points_from_plus_seats(
        table_size=4, dealer=1, contract=Contract.NORMAL, game_value=0, plus_seats=set()
    )
    assert set(entered.points.values()) == {0}
    with pytest.raises(InvalidInput):
        points_from_plus_seats(
            table_size=4, dealer=1, contract=Contract.NORMAL, game_value=0, plus_seats={1, 2}
        )


@given(
    value=st.integers(1, 30),
    dealer=st.integers(1, 5),
    size=st.sampled_from([4, 5]),
    data=st.data(),
)
def test_quick_entry_always_sums_to_zero_and_keeps_parity(value, dealer, size, data):
    dealer = min(dealer, size)
    players = [seat for seat in range(1, size + 1) if size == 4 or seat != dealer]
    contract = data.draw(st.sampled_from(list(Contract)))
    count = 2 if not contract.names_soloist else data.draw(st.sampled_from([1, 3]))
    if contract is Contract.WEDDING:
        count = data.draw(st.sampled_from([1, 2, 3]))
    plus = set(data.draw(st.permutations(players))[:count])
    entered = points_from_plus_seats(
        table_size=size, dealer=dealer, contract=contract, game_value=value, plus_seats=plus
    )
    assert sum(entered.points.values()) == 0
    assert len({entered.points[seat] % 2 for seat in players}) == 1
    assert {seat for seat in players if entered.points[seat] > 0} == plus


def test_calculator_normal_game_won_by_re_with_announcement():
    result = HandResult(
        game=Game.NORMAL, re_card_points=151, re_tricks=8, re_announcement=Announcement.TEAM
    )
    entered = points_from_result(table_size=4, dealer=1, re_seats={2, 3}, result=result)
    # Won 1 + Re announced 2 + Contra under 90 1 = 4 (TSR 7.2.2)
    assert entered.points == {1: -4, 2: 4, 3: 4, 4: -4}
    assert entered.game_value == 4
    assert entered.value.breakdown


def test_calculator_solo_lost():
    result = HandResult(game=Game.SOLO, re_card_points=100, re_tricks=4, solo_type=SoloType.HEARTS)
    entered = points_from_result(table_size=4, dealer=1, re_seats={1}, result=result)
    assert entered.soloist == 1
    assert entered.points[1] == -3 * entered.game_value
    assert sum(entered.points.values()) == 0


def test_calculator_needs_two_re_players_in_a_normal_game():
    result = HandResult(game=Game.NORMAL, re_card_points=130, re_tricks=6)
    with pytest.raises(InvalidInput) as error:
        points_from_result(table_size=4, dealer=1, re_seats={1}, result=result)
    assert error.value.errors[0].field == "re_seats"


# The trick count: only where a team took no card points (issue 32) ---------------------------


@given(points=st.integers(min_value=1, max_value=239))
def test_left_out_tricks_fit_the_card_points_and_change_nothing(points):
    """Between 1 and 239 card points each team took a trick: any count that holds the card
    points gives the same value, and the one filled in holds them (TSR 2.2.2, 7.2.2 a)."""
    assert not tricks_matter(points)
    tricks = re_tricks_for(re_card_points=points, re_tricks=None)
    least, most = card_points_bounds(tricks)
    assert least <= points <= most
    values = {
        hand_value(
            HandResult(
                game=Game.NORMAL,
                re_card_points=points,
                re_tricks=count,
                re_announcement=Announcement.SCHWARZ,
                contra_announcement=Announcement.NO_30,
            )
        ).re_value
        for count in range(1, TRICKS)
        if card_points_bounds(count)[0] <= points <= card_points_bounds(count)[1]
    }
    assert len(values) == 1


@pytest.mark.parametrize("points", [0, 240])
def test_tricks_are_asked_for_where_a_team_took_no_card_points(points):
    with pytest.raises(InvalidInput) as raised:
        re_tricks_for(re_card_points=points, re_tricks=None)
    assert [error.field for error in raised.value.errors] == ["re_tricks"]
    assert re_tricks_for(re_card_points=points, re_tricks=0 if points == 0 else 12) in (0, 12)
