"""Match points as people read them: halves with ½."""

from fractions import Fraction

import pytest

from teams.display import match_points_text


@pytest.mark.parametrize(
    ("value", "shown"),
    [
        (Fraction(4), "4"),
        (Fraction(5, 2), "2½"),
        (Fraction(1, 2), "½"),
        (Fraction(21, 2), "10½"),
        (0, "0"),
        (None, "–"),
        (Fraction(10, 3), "3.33"),
    ],
)
def test_match_points_are_shown_with_halves(value, shown):
    assert match_points_text(value) == shown
