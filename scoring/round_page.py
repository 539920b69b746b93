"""The scoring app's box on a round's page (``tournaments.round_page``): the link to the desk,
every table's sheet at a glance, for whoever may read it once the round is drawn
(``policies.may_read_desk``)."""

from django.template import Context

from tournaments.models import Round, Tournament
from tournaments.round_page import render_box


class DeskLink:
    """The link to the round's desk, under the round's clock (``ScoringConfig.ready``)."""

    def render(self, *, context: Context, round: Round, tournament: Tournament) -> str:
        return render_box(
            context,
            "scoring/partials/desk_link.html",
            {"round": round, "tournament": tournament},
        )
