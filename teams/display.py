"""Team numbers as people read them: match points are ``Fraction``s (two teams tied for second
share 2½ each, ``doko.team_scoring``), shown with a ½ on pages, screens and printouts."""

from fractions import Fraction


def match_points_text(value: Fraction | int | None) -> str:
    """``value`` as printed: "4", "2½", "½"; a dash for None (no sheet confirmed yet). Only
    halves occur with 4, 3, 2, 1 points (three teams level share a whole number); any other
    fraction is shown as a decimal."""
    if value is None:
        return "–"
    value = Fraction(value)
    whole, rest = divmod(value.numerator, value.denominator)
    if rest == 0:
        return str(whole)
    if value.denominator == 2:
        # divmod rounds down: -½ is -1 + ½, written "-½".
        if value < 0:
            whole = -value.numerator // value.denominator
            return f"-{whole or ''}½"
        return f"{whole or ''}½"
    return f"{float(value):.2f}"
