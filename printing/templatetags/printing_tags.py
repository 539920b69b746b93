"""Printing on pages: a round's printouts."""

from django import template

from printing import selectors
from tournaments.site import site_warning

register = template.Library()


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
