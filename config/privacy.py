"""Someone's own pages are kept by no cache, neither the browser's nor one in between:
``Cache-Control: private, no-store`` on every answer to a request that came with a login or
through a key. On a device that several people share (the desk's laptop, a phone handed round
the table) the back button, the browser's cache and a proxy's then hold none of a staff page, a
scoresheet or a seat's link once the session has ended.

A request is private when it carries a session cookie (whoever is logged in; the cookie is
read, never the session, so that a page that answers without a query stays so), an API token
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

PRIVATE = "private, no-store"
# The parts of an address that are keys (``scoring.urls``, ``tournaments.urls``, config.urls).
KEY_PARTS = frozenset({"token", "key"})
KEY_HEADERS = ("Authorization", "X-Seat-Key", "X-Player-Key")


def private(request: HttpRequest, response: HttpResponse) -> bool:
    """Whether the answer to ``request`` is someone's own (see the module's docstring)."""
    if settings.SESSION_COOKIE_NAME in request.COOKIES:
        return True
    if any(header in request.headers for header in KEY_HEADERS):
        return True
    match = request.resolver_match
    if match is not None and KEY_PARTS & set(match.kwargs):
        return True
    return settings.SESSION_COOKIE_NAME in response.cookies


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
