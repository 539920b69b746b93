"""Who may do what in a tournament; the pages and the API ask here."""

from django.core.exceptions import PermissionDenied

from tournaments import selectors
from tournaments.models import Tournament, TournamentRole

Role = TournamentRole.Role
ORGANISER = {Role.ORGANISER}
# Who sees a round's seating before it is published.
STAFF = {Role.ORGANISER, Role.ADJUDICATOR, Role.DEPUTY, Role.PANEL}
# Who runs the clock: TSR 8.5.1, the adjudicator starts the match, announces its end and
# grants extra time; the organiser (tournament manager) may do it for them.
CLOCK = {Role.ORGANISER, Role.ADJUDICATOR}
# TSR 8.2.1: the adjudicator decides complaints in the first instance and initials penalty
# points, and so does a deputy appointed for it (a panel member only as deputy); appeals and
# unsporting conduct are the panel's. Who may do what exactly: ``adjudication/policies.py``.
ADJUDICATE = {Role.ADJUDICATOR, Role.DEPUTY}
PANEL = {Role.PANEL}


def roles_of(request, tournament: Tournament) -> set[str]:
    """The user's roles in the tournament, looked up once per request."""
    cache = request.__dict__.setdefault("_tournament_roles", {})
    if tournament.pk not in cache:
        cache[tournament.pk] = selectors.user_roles(user=request.user, tournament=tournament)
    return cache[tournament.pk]


def require(request, tournament: Tournament, roles: set[str]) -> None:
    """Refuse (403) unless the user holds one of ``roles`` in the tournament."""
    if not roles_of(request, tournament) & roles:
        raise PermissionDenied


def standings_mode(request, tournament: Tournament) -> str:
    """What this reader gets of the standings and points: ``staff`` (everything, even when
    hidden), ``public`` (the standings are shown), or ``hidden`` (the organiser hid them)."""
    if roles_of(request, tournament) & STAFF:
        return "staff"
    return "public" if tournament.standings_public else "hidden"
