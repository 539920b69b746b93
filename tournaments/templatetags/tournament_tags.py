"""Template helpers for the round clock, the venue screen and the QR codes of links."""

from django import template
from django.utils.safestring import mark_safe

from tournaments import qr

register = template.Library()


@register.simple_tag
def qr_svg(url: str, size: int = 160) -> str:
    """A QR code of ``url`` as inline SVG, ``size`` pixels wide."""
    # Safe: the SVG holds only numbers made from the URL's bits, none of its text.
    return mark_safe(qr.svg(qr.qr_rows(url), int(size)))


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
