"""The printing app's box on a round's page (``tournaments.round_page``): the printout buttons,
with the round's latest printouts (one query), and the warning when the links and QR codes they
print would point at this machine only."""

from django.template import Context

from printing import selectors
from tournaments import policies
from tournaments.models import Round, Tournament
from tournaments.permissions import roles_of
from tournaments.roles_history import plays_in
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
                # The seat slips carry every player's link: not for an organiser who plays.
                "slips_refusal": policies.may_print_every_link(
                    roles=roles_of(context["request"], tournament),
                    plays=plays_in(user_id=context["request"].user.pk, tournament_id=tournament.pk),
                ),
            },
        )
