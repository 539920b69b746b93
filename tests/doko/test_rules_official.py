"""The official tournament's round (TSR 8.1.1, 8.5.1, 10.1.5, 10.2.1)."""

import dataclasses

from hypothesis import given
from hypothesis import strategies as st

from doko import seating
from doko.rules.official import OFFICIAL, RoundSettings, official_problems


def test_the_official_round_is_24_hands_in_100_minutes_and_30_in_125():
    assert (
        RoundSettings(
            hands_per_match=24, match_minutes=100, hands_per_match_five=30, match_minutes_five=125
        )
        == OFFICIAL
    )
    assert official_problems(OFFICIAL) == []


def test_an_eight_hand_round_is_refused_on_its_field_by_tsr_8_5_1():
    (problem,) = official_problems(dataclasses.replace(OFFICIAL, hands_per_match=8))
    assert problem.field == "hands_per_match"
    assert problem.rule == "TSR 8.5.1"
    assert problem.params == {"needed": 24, "actual": 8}
    assert "24 hands" in problem.message
    assert "not 8" in problem.message


def test_every_setting_off_the_tsr_is_named_with_its_section():
    problems = official_problems(RoundSettings(8, 60, 10, 75))
    assert [(p.field, p.rule) for p in problems] == [
        ("hands_per_match", "TSR 8.5.1"),
        ("match_minutes", "TSR 8.5.1"),
        ("hands_per_match_five", "TSR 10.1.5"),
        ("match_minutes_five", "TSR 10.1.5"),
    ]


@given(st.integers(min_value=4, max_value=400))
def test_fives_are_seated_only_where_the_field_needs_them(players):
    """TSR 8.3.1, 10: with fives allowed the draw seats ``players mod 4`` of them, none when the
    players divide by four; the official tournament needs nothing more of the draw."""
    try:
        sizes = seating.table_sizes(players, tables_of_five=True)
    except seating.SeatingError:
        return  # too few players for the fives the remainder asks (7, 11)
    assert sizes.count(5) == players % 4
    assert sum(sizes) == players
