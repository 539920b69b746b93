"""Template helpers of the registration's pages: the check-in from a player's personal page
(with a claim to decide), the open claim of a player on the desk's list, and the check-in's
counts for whoever checks players in (the box ``hooks.CheckInSummary``)."""

from django import template

from registration.policies import may_decide_claim
from registration.selectors.arrivals import check_in_counts
from registration.selectors.claims import OpenClaim, claims_open
from tournaments import policies
from tournaments.models import Entry, Tournament
from tournaments.permissions import roles_of

register = template.Library()


@register.filter
def claim_of(claims: dict[int, OpenClaim], entry_id: int) -> OpenClaim | None:
    """The open claim of a player registered online (``selectors.claims.claims_open``), by
    the entry's id; None: none."""
    return claims.get(entry_id) if claims else None


@register.inclusion_tag("registration/partials/check_in_button.html", takes_context=True)
def check_in_button(context: template.Context, entry: Entry | None) -> dict:
    """On a player's personal page, for whoever may check players in (the desk scanned the
    player's QR code at the door): a big "Check in" button, or the time and "Undo". Nothing
    for anyone else; the reason where the tournament stands in the way (it is finished)."""
    request = context.get("request")
    if entry is None or request is None or not request.user.is_authenticated:
        return {"show": False}
    roles = roles_of(request, entry.tournament)
    refusal = policies.may_check_in(tournament=entry.tournament, roles=roles)
    if refusal is not None and refusal.field is None:
        return {"show": False}
    return {
        "show": True,
        "entry": entry,
        "refusal": refusal,
        "request": request,
        # The desk that scanned the code decides a claim here too, as on its list.
        "tournament": entry.tournament,
        "claim": claims_open(tournament=entry.tournament).get(entry.pk),
        "claim_refusal": may_decide_claim(tournament=entry.tournament, roles=roles),
    }


def check_in_summary_data(context: template.Context, tournament: Tournament) -> dict:
    """For whoever checks players in (``policies.may_check_in``, or refused only for a field):
    "Check-in: 27 of 30 here", a link to the desk's list; ``show`` false for anyone else."""
    request = context.get("request")
    if request is None or not request.user.is_authenticated:
        return {"show": False}
    refusal = policies.may_check_in(tournament=tournament, roles=roles_of(request, tournament))
    if refusal is not None and refusal.field is None:
        return {"show": False}
    return {
        "show": True,
        "tournament": tournament,
        "counts": check_in_counts(tournament=tournament),
    }
