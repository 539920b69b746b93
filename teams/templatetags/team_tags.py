"""Match points on the pages: a half as "½" (2½, ½), as the season tables print them."""

from fractions import Fraction

from django import template

register = template.Library()


@register.filter
def match_points(value: Fraction | int | None) -> str:
    """2½ for Fraction(5, 2), 3 for 3, "–" for None (no sheet confirmed yet)."""
    if value is None:
        return "–"
    value = Fraction(value)
    whole, rest = divmod(value.numerator, value.denominator)
    if rest == 0:
        return str(whole)
    if value.denominator == 2:
        # divmod rounds down: -½ is -1 + ½, written "-½".
        if value < 0:
            whole, rest = divmod(-value.numerator, value.denominator)
            return f"-{whole or ''}½"
        return f"{whole or ''}½"
    return f"{float(value):.2f}"
