"""Penalty points for breaches of the rules (TSR 9.2-9.4), case by case."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from doko.rules.penalty import Breach, Severity, check_breach, penalty_points
from doko.rules.problems import InvalidInput


def test_insignificant_breach_costs_nothing():
    penalty = penalty_points(Breach(severity=Severity.INSIGNIFICANT, offender=2))
    assert penalty.points == {1: 0, 2: 0, 3: 0, 4: 0}
    assert penalty.rule == "TSR 9.2.3"
    assert not penalty.hand_not_played


def test_minor_breach_in_a_normal_game():
    penalty = penalty_points(Breach(severity=Severity.MINOR, offender=3))
    assert penalty.points == {1: 1, 2: 1, 3: -3, 4: 1}
    assert penalty.rule == "TSR 9.3.2"
    assert not penalty.hand_not_played


def test_minor_breach_by_the_soloist():
    penalty = penalty_points(Breach(severity=Severity.MINOR, offender=1, solo=True, soloist=1))
    assert penalty.points == {1: -3, 2: 1, 3: 1, 4: 1}
    assert penalty.rule == "TSR 9.3.3 (a)"


def test_minor_breach_against_the_soloist_that_may_disadvantage_him():
    penalty = penalty_points(
        Breach(
            severity=Severity.MINOR,
            offender=4,
            solo=True,
            soloist=2,
            disadvantages_soloist=True,
        )
    )
    assert penalty.points == {1: 0, 2: 3, 3: 0, 4: -3}
    assert penalty.rule == "TSR 9.3.3 (b1)"


def test_minor_breach_against_the_soloist_without_disadvantage():
    penalty = penalty_points(Breach(severity=Severity.MINOR, offender=4, solo=True, soloist=2))
    assert penalty.points == {1: 1, 2: 1, 3: 1, 4: -3}
    assert penalty.rule == "TSR 9.3.3 (b2)"


@pytest.mark.parametrize(
    ("announcements", "offender_loses", "others_win"),
    # "Re"/"Contra" alone does not raise it; each point announcement does, by 3 (TSR-de 9.4.3:
    # "je 3 Punkte für jede Absage"), up to 24 and 8.
    [(0, 12, 4), (1, 12, 4), (2, 15, 5), (3, 18, 6), (4, 21, 7), (5, 24, 8)],
)
def test_major_breach_in_a_normal_game(announcements, offender_loses, others_win):
    penalty = penalty_points(
        Breach(severity=Severity.MAJOR, offender=1, announcements=announcements)
    )
    assert penalty.points == {1: -offender_loses, 2: others_win, 3: others_win, 4: others_win}
    assert penalty.hand_not_played
    assert penalty.rule == "TSR 9.4.3"


def test_major_breach_by_the_soloist_is_judged_as_in_a_normal_game():
    penalty = penalty_points(
        Breach(severity=Severity.MAJOR, offender=3, solo=True, soloist=3, announcements=2)
    )
    assert penalty.points == {1: 5, 2: 5, 3: -15, 4: 5}
    assert penalty.hand_not_played
    assert penalty.rule == "TSR 9.4.4, 9.4.3"


@pytest.mark.parametrize(
    ("announcements", "points"), [(0, 12), (1, 12), (2, 15), (3, 18), (4, 21), (5, 24)]
)
def test_major_breach_by_an_opponent_credits_the_soloist(announcements, points):
    penalty = penalty_points(
        Breach(
            severity=Severity.MAJOR,
            offender=2,
            solo=True,
            soloist=4,
            announcements=announcements,
        )
    )
    assert penalty.points == {1: 0, 2: -points, 3: 0, 4: points}
    assert not penalty.hand_not_played  # the solo counts as played
    assert penalty.played_without_game_points  # ... and only the penalty points count
    assert penalty.rule == "TSR 9.4.4"


def test_table_of_five_scores_only_the_four_playing_seats():
    penalty = penalty_points(Breach(severity=Severity.MINOR, offender=5, seats=(1, 2, 4, 5)))
    assert penalty.points == {1: 1, 2: 1, 4: 1, 5: -3}


@pytest.mark.parametrize(
    ("breach", "field"),
    [
        (Breach(severity=Severity.MINOR, offender=5), "offender"),
        (Breach(severity=Severity.MINOR, offender=1, seats=(1, 2, 3)), "seats"),
        (Breach(severity=Severity.MINOR, offender=1, seats=(1, 1, 2, 3)), "seats"),
        (Breach(severity=Severity.MINOR, offender=1, seats=(0, 1, 2, 3)), "seats"),
        (Breach(severity=Severity.MINOR, offender=1, solo=True), "soloist"),
        (Breach(severity=Severity.MINOR, offender=1, solo=True, soloist=5), "soloist"),
        (Breach(severity=Severity.MINOR, offender=1, soloist=2), "soloist"),
        (
            Breach(severity=Severity.MINOR, offender=1, disadvantages_soloist=True),
            "disadvantages_soloist",
        ),
        (
            Breach(
                severity=Severity.MINOR,
                offender=2,
                solo=True,
                soloist=2,
                disadvantages_soloist=True,
            ),
            "disadvantages_soloist",
        ),
        (Breach(severity=Severity.MAJOR, offender=1, announcements=6), "announcements"),
        (Breach(severity=Severity.MAJOR, offender=1, announcements=-1), "announcements"),
    ],
)
def test_inconsistent_breach_names_the_field(breach, field):
    assert field in {error.field for error in check_breach(breach)}
    with pytest.raises(InvalidInput):
        penalty_points(breach)


breaches = st.builds(
    lambda severity, seats, offender, soloist, solo, disadvantage, announcements: Breach(
        severity=severity,
        seats=tuple(seats),
        offender=seats[offender],
        solo=solo,
        soloist=seats[soloist] if solo else None,
        disadvantages_soloist=solo and disadvantage and offender != soloist,
        announcements=announcements,
    ),
    st.sampled_from(list(Severity)),
    st.permutations([1, 2, 3, 4, 5]).map(lambda seats: sorted(seats[:4])),
    st.integers(0, 3),
    st.integers(0, 3),
    st.booleans(),
    st.booleans(),
    st.integers(0, 5),
)


@given(breaches)
def test_penalties_sum_to_zero_and_hit_the_offender(breach):
    penalty = penalty_points(breach)
    assert sum(penalty.points.values()) == 0
    assert set(penalty.points) == set(breach.seats)
    if breach.severity is not Severity.INSIGNIFICANT:
        assert penalty.points[breach.offender] < 0
        assert all(
            points >= 0 for seat, points in penalty.points.items() if seat != breach.offender
        )


@given(breaches)
def test_penalties_keep_parity_unless_they_credit_the_soloist(breach):
    # TSR 7.3.3.2: the odd-even rule holds except for penalties in favour of the soloist.
    penalty = penalty_points(breach)
    mixed = len({points % 2 for points in penalty.points.values()}) > 1
    if mixed:
        assert breach.solo
        assert penalty.points[breach.soloist] > 0
        assert sorted(penalty.points.values())[1:3] == [0, 0]


def test_major_breach_in_a_game_already_won_is_punished_as_a_minor_one():
    # TSR 9.5.1: the game ends, the remaining tricks go to the opponents, a minor penalty.
    penalty = penalty_points(
        Breach(severity=Severity.MAJOR, offender=2, announcements=3, decided=True)
    )
    assert penalty.points == {1: 1, 2: -3, 3: 1, 4: 1}
    assert penalty.rule == "TSR 9.5.1, TSR 9.3.2"
    assert not penalty.hand_not_played


def test_major_breach_against_the_soloist_in_a_game_already_won():
    penalty = penalty_points(
        Breach(
            severity=Severity.MAJOR,
            offender=3,
            solo=True,
            soloist=1,
            disadvantages_soloist=True,
            decided=True,
        )
    )
    assert penalty.points == {1: 3, 2: 0, 3: -3, 4: 0}
    assert penalty.rule == "TSR 9.5.1, TSR 9.3.3 (b1)"


def test_a_game_already_won_is_only_for_a_major_breach():
    errors = check_breach(Breach(severity=Severity.MINOR, offender=1, decided=True))
    assert [error.field for error in errors] == ["decided"]


# Weddings (TSR 4.4.3 b, 4.4.5): a normal game until the wedding turns into a solo, then a solo
# with the holder of both Queens of Clubs as the soloist; callers say which by ``solo``.


def test_a_breach_in_a_wedding_before_it_turns_into_a_solo_is_a_normal_games():
    """Up to and including the clarification trick (the German "bis einschließlich
    Klärungsstich"), or until the second Queen of Clubs of a silent wedding is played."""
    minor = penalty_points(Breach(severity=Severity.MINOR, offender=2))
    assert (minor.points, minor.rule) == ({1: 1, 2: -3, 3: 1, 4: 1}, "TSR 9.3.2")
    holders = penalty_points(Breach(severity=Severity.MAJOR, offender=3, announcements=2))
    assert holders.points == {1: 5, 2: 5, 3: -15, 4: 5}
    assert holders.hand_not_played


def test_a_breach_against_the_holder_of_a_wedding_played_alone_is_a_solos():
    """After the clarification trick the holder of both Queens of Clubs is the soloist:
    TSR 9.3.3 (b1) credits him alone, 9.4.4 counts the solo played."""
    b1 = penalty_points(
        Breach(
            severity=Severity.MINOR,
            offender=2,
            solo=True,
            soloist=3,
            disadvantages_soloist=True,
        )
    )
    assert (b1.points, b1.rule) == ({1: 0, 2: -3, 3: 3, 4: 0}, "TSR 9.3.3 (b1)")
    major = penalty_points(Breach(severity=Severity.MAJOR, offender=2, solo=True, soloist=3))
    assert (major.points, major.rule) == ({1: 0, 2: -12, 3: 12, 4: 0}, "TSR 9.4.4")
    assert not major.hand_not_played


def test_the_holders_own_major_breach_in_a_wedding_played_alone_stops_it():
    """TSR 9.4.4 sends the soloist's own major breach to 9.4.3: the hand is not played."""
    penalty = penalty_points(Breach(severity=Severity.MAJOR, offender=3, solo=True, soloist=3))
    assert penalty.points == {1: 4, 2: 4, 3: -12, 4: 4}
    assert penalty.hand_not_played
    assert penalty.rule == "TSR 9.4.4, 9.4.3"


@given(breaches)
def test_only_an_opponents_major_breach_in_a_solo_voids_the_game_points(breach):
    """TSR 9.4.4 alone counts a hand as played without game points; a game already decided is
    scored (TSR 9.5.1), and a stopped one is not played at all (TSR 9.4.3)."""
    penalty = penalty_points(breach)
    by_opponent = breach.solo and breach.offender != breach.soloist
    assert penalty.played_without_game_points == (
        breach.severity is Severity.MAJOR and by_opponent and not breach.decided
    )
    assert not (penalty.played_without_game_points and penalty.hand_not_played)
