"""Helpers shared by the pages of several sub-domains: whether the user organises the
tournament, why its active players cannot be seated (TSR 8.3.1, 10.1), which published rounds a
change had to re-seat."""

from django.contrib import messages
from django.http import HttpRequest
from django.utils.translation import ngettext

from tournaments import policies, selectors, services
from tournaments.messages import fives_would_seat, seating_error_message
from tournaments.models import Tournament
from tournaments.permissions import roles_of
from tournaments.roles import Role


def organises(request: HttpRequest, tournament) -> bool:
    """Whether the user is an organiser of the tournament."""
    return Role.ORGANISER in roles_of(request, tournament)


def shortfall(tournament: Tournament, roles: set[str]) -> dict | None:
    """For the organiser: why the active players cannot be drawn as the tournament stands
    (TSR 8.3.1, 10.1), with the numbers, and whether allowing tables of five would seat them."""
    if Role.ORGANISER not in roles or tournament.status == Tournament.Status.FINISHED:
        return None
    error = selectors.seating_shortfall(tournament=tournament)
    if error is None:
        return None
    return {
        "message": seating_error_message(error, official=tournament.official),
        "offer_fives": not tournament.allow_tables_of_five
        and fives_would_seat(error.players)
        and policies.may_allow_tables_of_five(roles=roles) is None,
    }


def report_moves(request: HttpRequest, reseating: services.Reseating) -> None:
    """Tell the organiser which published rounds the change just made had to re-seat."""
    for number, moved in sorted(reseating.moved.items()):
        messages.warning(
            request,
            ngettext(
                "The published seating of round %(number)d changed for %(count)d player; "
                "the change is marked in the seating.",
                "The published seating of round %(number)d changed for %(count)d players; "
                "the changes are marked in the seating.",
                moved,
            )
            % {"number": number, "count": moved},
        )
