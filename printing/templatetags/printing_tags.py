"""Printing on pages: QR codes of links (the venue screen, a table's page), and a round's
printouts."""

from django import template
from django.utils.safestring import mark_safe

from printing import qr, selectors
from tournaments.site import site_warning

register = template.Library()


@register.simple_tag
def qr_svg(url: str, size: int = 160) -> str:
    """A QR code of ``url`` as inline SVG, ``size`` pixels wide."""
    # Safe: the SVG holds only numbers made from the URL's bits, none of its text.
    return mark_safe(qr.svg(qr.qr_rows(url), int(size)))


@register.inclusion_tag("printing/partials/round_printouts.html", takes_context=True)
def round_printouts(context, round, tournament) -> dict:
    """The printout buttons of a round's page, with its latest printouts (one query), and the
    warning when the links and QR codes they print would point at this machine only."""
    return {
        "round": round,
        "tournament": tournament,
        "jobs": selectors.round_jobs(round=round),
        "csrf_token": context.get("csrf_token"),
        "site_warning": site_warning(context["request"]),
    }
