"""Who asks the scoresheet API, and which sheet they may open: staff through their account
(token or session) or a player of the table through their seat's private link key, sent as
``X-Seat-Key`` (TSR 3.1.1, 7.3). What each may change is for the services to say."""

from django.conf import settings
from django.contrib.auth import get_user
from django.contrib.auth.models import AnonymousUser, User
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext, gettext_lazy
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework import exceptions
from rest_framework.authentication import BaseAuthentication
from rest_framework.permissions import SAFE_METHODS, BasePermission

from scoring import links
from scoring.models import Scoresheet
from scoring.services import Actor
from tournaments import policies as tournament_policies
from tournaments import selectors as tournament_selectors
from tournaments.models import Seat
from tournaments.permissions import roles_of
from tournaments.roles import SHEET_READERS

SEAT_KEY_HEADER = "X-Seat-Key"
# Who reads a sheet through their account: those who see the seating before it is published,
# and the scorekeeper accounts who type sheets in, once it is (``may_read_seating``).
READERS = SHEET_READERS


class SeatKeyAuthentication(BaseAuthentication):
    """A player of the table through their seat's private link key (``/s/<key>/``, the QR code
    on the printed sheet), sent as ``X-Seat-Key``. No account: ``request.auth`` is the seat, and
    the key opens that table's sheet only. An unknown key is refused (403)."""

    def authenticate(self, request):
        key = request.headers.get(SEAT_KEY_HEADER)
        if key is None:
            return None
        try:
            seat = links.seat_for_key(request, key.strip())
        except links.LinkLimited as limited:
            raise exceptions.Throttled(
                wait=limited.wait,
                detail=gettext(
                    "Too many requests through this link. Please wait a minute and try again."
                ),
            ) from None
        if seat is None:
            raise exceptions.PermissionDenied(gettext("This link does not open this scoresheet."))
        return AnonymousUser(), seat


class SeatKeyScheme(OpenApiAuthenticationExtension):
    target_class = SeatKeyAuthentication
    name = "seatKey"

    def get_security_definition(self, auto_schema):
        return {
            "type": "apiKey",
            "in": "header",
            "name": SEAT_KEY_HEADER,
            "description": "A seat's private link key (the `<key>` of `/s/<key>/`): a player "
            "of the table, without an account. The scorekeeper's key (seat 4, at a table of "
            "five seat 5, or the seat the sheet was handed over to) enters and hands in the "
            "sheet; another seat's key confirms it.",
        }


class AccountOnly(BasePermission):
    """An account (token or session); a seat's key opens its own table's sheet only."""

    message = gettext_lazy("A seat's key opens its own scoresheet only.")

    def has_permission(self, request, view):
        return request.user.is_authenticated


class SheetAccess(BasePermission):
    """A seat's key, or an account; which sheet each may open is decided in the view."""

    def has_permission(self, request, view):
        return isinstance(request.auth, Seat) or request.user.is_authenticated


def sheets():
    """The sheets with what every answer about one reads."""
    return Scoresheet.objects.select_related(
        "table__round__tournament", "submitted_by", "confirmed_by", "scan"
    )


def sheet_get(*, table_id: int) -> Scoresheet:
    """The sheet of a table, or 404."""
    return get_object_or_404(sheets(), table_id=table_id)


def logged_in(request) -> User | None:
    """The account whose session a write through a seat's key also carries: staff who play at
    the table confirm nothing with another seat's key (``policies.may_confirm_sheet``). DRF
    took the key for the request's user, so the session is read here, and only for a write
    with a session cookie."""
    if request.method in SAFE_METHODS or settings.SESSION_COOKIE_NAME not in request.COOKIES:
        return None
    user = get_user(request._request)
    return user if isinstance(user, User) and user.is_authenticated else None


def sheet_opened(request, *, slug: str, number: int, table: int) -> tuple[Scoresheet, Actor]:
    """The sheet at the address and who asks for it.

    A seat's key opens its own table's sheet only; an account needs a staff role to open it at
    all, so that a refused write shows nothing (409) to whom a read would not. What each may
    change is for the services to say.
    """
    seat = request.auth if isinstance(request.auth, Seat) else None
    if seat is not None:
        round_ = seat.table.round
        if (round_.tournament.slug, round_.number, seat.table.number) != (slug, number, table):
            raise PermissionDenied(gettext("This link does not open this scoresheet."))
        actor = Actor(seat=seat, account=logged_in(request))
        request.sheet_actor = actor  # whom the answers show the sheet to (``sheet_data``)
        # Read with the seat (``seat_by_token``), with its table, round, tournament and scan.
        try:
            return seat.table.scoresheet, actor
        except Scoresheet.DoesNotExist as error:  # a table of a round not yet started
            raise Http404 from error
    tournament = tournament_selectors.tournament_get(slug=slug, user=request.user)
    if not roles_of(request, tournament) & READERS:
        raise PermissionDenied(
            gettext("You may not see this scoresheet.")
            if request.method in SAFE_METHODS
            else gettext("You may not change this scoresheet.")
        )
    sheet = get_object_or_404(
        sheets(),
        table__round__tournament=tournament,
        table__round__number=number,
        table__number=table,
    )
    # As on the pages: a sheet names the seating, not shown before it is published but to
    # the staff (a scorekeeper account is not).
    tournament_policies.enforce(
        tournament_policies.may_read_seating(
            round=sheet.table.round, roles=roles_of(request, tournament)
        )
    )
    actor = Actor(user=request.user)
    request.sheet_actor = actor  # whom the answers show the sheet to (``sheet_data``)
    return sheet, actor
