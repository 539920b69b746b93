"""Someone's own pages are kept by no cache, neither the browser's nor one in between:
``Cache-Control: private, no-store`` on every answer to a request that came with a login or
through a key. On a device that several people share (the desk's laptop, a phone handed round
the table) the back button, the browser's cache and a proxy's then hold none of a staff page, a
scoresheet or a seat's link once the session has ended.

A request is private when it comes from someone logged in (a session cookie, unless the view
found nobody logged in with it; the session is never read here, so that a page that answers
without a query stays so, and is then taken as logged in), carries an API token
(``Authorization``) or a seat's or player's key (``X-Seat-Key``, ``X-Player-Key``), when its
route is reached through a key (a ``token`` or ``key`` in the address: the seats' links
``/s/<token>/``, the personal links ``/p/<key>/``, the invitations and new passwords), or when
its answer starts a session (a login). The rest, the public pages the players' phones refresh
(the standings, a table, the clock), keep their ``no-cache`` and ETags, and their 304s.

The service worker's copies of the entry pages (static/js/sw.js) are no cache of the browser's:
the worker keeps them itself, for a reload while offline, and forgets them when a session ends.
"""

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils.functional import SimpleLazyObject, empty

PRIVATE = "private, no-store"
# The parts of an address that are keys (``scoring.urls``, ``tournaments.urls``, config.urls).
KEY_PARTS = frozenset({"token", "key"})
KEY_HEADERS = ("Authorization", "X-Seat-Key", "X-Player-Key")


def logged_in(request: HttpRequest) -> bool:
    """Whether the request comes from someone logged in, as far as the view asked: a session
    cookie whose user the view found logged in, or did not ask for (no query is made here)."""
    if settings.SESSION_COOKIE_NAME not in request.COOKIES:
        return False
    user = getattr(request, "user", None)
    if isinstance(user, SimpleLazyObject) and user._wrapped is empty:
        return True  # not asked: whoever it is, the answer is kept from every cache
    return user is None or bool(user.is_authenticated)


def private(request: HttpRequest, response: HttpResponse) -> bool:
    """Whether the answer to ``request`` is someone's own (see the module's docstring)."""
    if logged_in(request):
        return True
    if any(header in request.headers for header in KEY_HEADERS):
        return True
    match = request.resolver_match
    if match is not None and KEY_PARTS & set(match.kwargs):
        return True
    started = response.cookies.get(settings.SESSION_COOKIE_NAME)
    return started is not None and bool(started.value)  # not a deleted session's cookie


class PrivatePagesMiddleware:
    """``Cache-Control: private, no-store`` on the answers that are someone's own
    (``private``), whatever the view set: no-store wins over ``no-cache`` and an ETag."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if private(request, response):
            response["Cache-Control"] = PRIVATE
        return response
