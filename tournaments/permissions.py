"""A request's roles in a tournament, looked up once; the role sets are in ``roles.py``."""

from collections.abc import Set

from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest
from rest_framework.request import Request

from tournaments import policies, selectors
from tournaments.models import Round, Tournament
from tournaments.roles import STAFF


class AuthenticatedHttpRequest(HttpRequest):
    """The request a view behind ``login_required`` gets: its user has signed in. Only a type
    (as django-stubs suggests), for the views that act as that user."""

    user: User


def roles_of(request: HttpRequest | Request, tournament: Tournament) -> set[str]:
    """The user's roles in the tournament, looked up once per request."""
    cache = request.__dict__.setdefault("_tournament_roles", {})
    if tournament.pk not in cache:
        cache[tournament.pk] = selectors.user_roles(user=request.user, tournament=tournament)
    return cache[tournament.pk]


def roles_known(request: HttpRequest | Request, tournament_id: int, roles: set[str]) -> None:
    """The user's roles in the tournament, read with something else (a sheet, a round): what
    ``roles_of`` answers for the rest of the request."""
    request.__dict__.setdefault("_tournament_roles", {})[tournament_id] = roles


def round_and_roles(
    request: HttpRequest | Request, *, slug: str, number: int
) -> tuple[Round, set[str]]:
    """A round with its tournament (404 if there is none) and the user's roles in the
    tournament, in one query; the roles kept for the request as ``roles_of`` keeps them."""
    round_, roles = selectors.round_with_roles(slug=slug, number=number, user=request.user)
    roles_known(request, round_.tournament_id, roles)
    return round_, roles


def require(request: HttpRequest | Request, tournament: Tournament, roles: Set[str]) -> None:
    """Refuse (403) unless the user holds one of ``roles`` in the tournament."""
    if not roles_of(request, tournament) & roles:
        raise PermissionDenied


def standings_mode(request: HttpRequest | Request, tournament: Tournament) -> str:
    """What this reader gets of the standings and points: ``staff`` (everything, even when
    hidden), ``public`` (the standings are shown), or ``hidden`` (the organiser hid them)."""
    return standings_mode_of(tournament, roles=roles_of(request, tournament))


def standings_mode_of(tournament: Tournament, *, roles: Set[str]) -> str:
    """``standings_mode`` for a reader with these roles."""
    if roles & STAFF:
        return "staff"
    return "hidden" if policies.may_read_standings(tournament=tournament, roles=roles) else "public"
