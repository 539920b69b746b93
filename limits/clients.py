"""Whom a request counts for: its address, and the client id of a cookie this site signed.

The public endpoints that compute (the rules API): a venue puts hundreds of phones behind one
address, so the address alone must not decide who is slowed down. Each client that can be told
apart is counted on its own by the signed client cookie the API hands out with its first answer.
"""

import secrets

from django.conf import settings
from django.core import signing
from rest_framework.throttling import BaseThrottle

CLIENT_COOKIE = "doko_client"
# Kept from the module these cookies were first signed in, so that cookies handed out stay valid.
_SALT = "config.throttling.client"


def address_of(request) -> str:
    """The client's address as the API's throttles see it (``NUM_PROXIES``)."""
    return BaseThrottle().get_ident(request)


def client_id(request) -> str | None:
    """The client id from a cookie this site signed, or None."""
    value = request.COOKIES.get(CLIENT_COOKIE)
    if not value:
        return None
    try:
        return signing.Signer(salt=_SALT).unsign(value)
    except signing.BadSignature:
        return None


def client_cookie_set(request, response) -> None:
    """Hand a client without a valid cookie its own id, so it is counted on its own."""
    if client_id(request) is None:
        response.set_cookie(
            CLIENT_COOKIE,
            signing.Signer(salt=_SALT).sign(secrets.token_urlsafe(16)),
            max_age=365 * 24 * 3600,
            secure=settings.SESSION_COOKIE_SECURE,
            httponly=True,
            samesite="Lax",
        )
