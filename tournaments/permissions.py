"""A request's roles in a tournament, looked up once; the role sets are in ``roles.py``."""

from collections.abc import Set

from django.core.exceptions import PermissionDenied

from tournaments import policies, selectors
from tournaments.models import Tournament
from tournaments.roles import STAFF


def roles_of(request, tournament: Tournament) -> set[str]:
    """The user's roles in the tournament, looked up once per request."""
    cache = request.__dict__.setdefault("_tournament_roles", {})
    if tournament.pk not in cache:
        cache[tournament.pk] = selectors.user_roles(user=request.user, tournament=tournament)
    return cache[tournament.pk]


def require(request, tournament: Tournament, roles: Set[str]) -> None:
    """Refuse (403) unless the user holds one of ``roles`` in the tournament."""
    if not roles_of(request, tournament) & roles:
        raise PermissionDenied


def standings_mode(request, tournament: Tournament) -> str:
    """What this reader gets of the standings and points: ``staff`` (everything, even when
    hidden), ``public`` (the standings are shown), or ``hidden`` (the organiser hid them)."""
    roles = roles_of(request, tournament)
    if roles & STAFF:
        return "staff"
    return "hidden" if policies.may_read_standings(tournament=tournament, roles=roles) else "public"
