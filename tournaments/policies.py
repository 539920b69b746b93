"""Who may do what with a round, answered once per action.

Each policy returns None when the action is allowed, otherwise the reason it is refused (a
translated message that cites the TSR). The services enforce it; the pages and the API ask the
same function whether to show the button. ``roles`` are the actor's roles in the tournament
(``selectors.user_roles``, or ``permissions.roles_of`` for a request, which looks them up once).
"""

from collections.abc import Collection

from django.utils.translation import gettext as _

from tournaments.models import Round
from tournaments.roles import CLOCK, ENDS_PLAYING_TIME, ORGANISER

Refusal = str


def may_end_playing_time(*, round: Round, roles: Collection[str]) -> Refusal | None:
    """Announce the end of a round's playing time (TSR 8.5.1): adjudicators and organisers."""
    if set(roles) & ENDS_PLAYING_TIME:
        return None
    return _("Only an adjudicator or an organiser ends the playing time (TSR 8.5.1).")


def may_allow_tables_of_five(*, roles: Collection[str]) -> Refusal | None:
    """Allow tables of five for the rest of a tournament (TSR 8.3.1, 10): organisers."""
    if set(roles) & ORGANISER:
        return None
    return _("Only an organiser decides whether tables of five are played (TSR 8.3.1, 10).")


def may_print(*, roles: Collection[str]) -> Refusal | None:
    """Start a printout of the tournament and read its jobs: organisers (the tournament's
    management prepares the lists, cards and sheets)."""
    if set(roles) & ORGANISER:
        return None
    return _("Only an organiser starts printouts and downloads them.")


def may_seat_round(*, round: Round, roles: Collection[str]) -> Refusal | None:
    """Draw (or draw again) a round's seating (TSR 8.3): organisers."""
    if set(roles) & ORGANISER:
        return None
    return _("Only an organiser draws the seating.")


def may_publish_seating(*, round: Round, roles: Collection[str]) -> Refusal | None:
    """Publish the seating, so that players find their tables: organisers."""
    if set(roles) & ORGANISER:
        return None
    return _("Only an organiser publishes the seating.")


def may_start_round(*, round: Round, roles: Collection[str]) -> Refusal | None:
    """Start a round's clock for all tables (TSR 8.5.1): adjudicators and organisers."""
    if set(roles) & CLOCK:
        return None
    return _("Only an adjudicator or an organiser starts the round (TSR 8.5.1).")


def may_close_round(*, round: Round, roles: Collection[str]) -> Refusal | None:
    """Close a round once every sheet is confirmed: organisers."""
    if set(roles) & ORGANISER:
        return None
    return _("Only an organiser closes a round.")
