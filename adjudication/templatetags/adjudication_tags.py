"""Template filters for what the adjudicators decided."""

from django import template

from adjudication.selectors import SheetAdjudication, initials

register = template.Library()


@register.filter
def hand_initials(adjudication: SheetAdjudication, number: int) -> str:
    """Who initialled the penalty points of hand ``number`` (TSR 8.2.2), as on paper."""
    return ", ".join(
        initials(decision.initialled_by)
        for decision in adjudication.counting
        if decision.hand_number == number
    )


@register.filter
def signed(value: int | None) -> str:
    """Points with their sign: +3, −12, and nothing for 0 or None."""
    if not value:
        return ""
    return f"+{value}" if value > 0 else f"−{-value}"


@register.filter
def get_points(points: dict[int, int], seat: int) -> int | None:
    """A seat's entry of a mapping of points by seat."""
    return points.get(seat)
