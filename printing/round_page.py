"""The printing app's box on a round's page (``tournaments.round_page``): the printout buttons,
with the round's latest printouts (one query), and the warning when the links and QR codes they
print would point at this machine only."""

from django.template import Context

from printing import selectors
from tournaments.models import Round, Tournament
from tournaments.round_page import render_box
from tournaments.site import site_warning


class RoundPrintouts:
    """The box of printouts, in the organiser's part of the page (``PrintingConfig.ready``)."""

    def render(self, *, context: Context, round: Round, tournament: Tournament) -> str:
        return render_box(
            context,
            "printing/partials/round_printouts.html",
            {
                "round": round,
                "tournament": tournament,
                "jobs": selectors.round_jobs(round=round),
                "site_warning": site_warning(context["request"]),
            },
        )
