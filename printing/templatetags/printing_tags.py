"""Printing on pages: QR codes of links (the venue screen, a table's page), and a round's
printouts."""

from django import template

from printing import selectors
from tournaments.site import site_warning
from tournaments.templatetags.tournament_tags import qr_svg

register = template.Library()


# The QR code of a link, as the tournaments' own pages draw it.
register.simple_tag(qr_svg, name="qr_svg")


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
