"""Template helpers for the round clock and the venue screen."""

from django import template

register = template.Library()


@register.filter
def clock_format(seconds: int | None) -> str:
    """Seconds as the clock shows them: 1:05:09, or 05:09 under an hour."""
    if seconds is None:
        return "–"
    hours, rest = divmod(max(int(seconds), 0), 3600)
    minutes, seconds = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{seconds:02d}" if hours else f"{minutes:02d}:{seconds:02d}"


@register.filter
def paged(items, size: int) -> list:
    """``items`` in pages of ``size`` (the venue screen turns its pages)."""
    items = list(items)
    return [items[start : start + int(size)] for start in range(0, len(items), int(size))]
