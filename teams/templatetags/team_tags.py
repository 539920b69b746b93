"""Match points on the pages: a half as "½" (2½, ½), as the season tables print them."""

from fractions import Fraction

from django import template

from teams.display import match_points_text

register = template.Library()


@register.filter
def match_points(value: Fraction | int | None) -> str:
    """2½ for Fraction(5, 2), 3 for 3, "–" for None (no sheet confirmed yet)."""
    return match_points_text(value)
