"""The online registration's block on the tournament's page: "Register" for players while it is
open, its state and counts for the organiser with a link to manage it."""

from django import template
from django.utils import timezone

from tournaments.models import Tournament
from tournaments.selectors.registrations import registration_counts

register = template.Library()


@register.inclusion_tag("tournaments/partials/registration_box.html")
def registration_box(tournament: Tournament, is_organiser: bool) -> dict:
    return {
        "tournament": tournament,
        "is_organiser": is_organiser,
        "counts": registration_counts(tournament=tournament),
        "now": timezone.now(),
    }
