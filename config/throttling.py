"""Rate limits for the public endpoints that compute (the rules API).

A venue puts hundreds of phones behind one address, so the address alone must not decide who is
slowed down. Each client that can be told apart is counted on its own: by user when it
authenticates (token), else by the signed client cookie the API hands out with its first answer.
One generous limit per address, counting every request, stops a single machine from flooding
the server; it is the only limit for a client that sends no cookie. Clients over a limit get
HTTP 429 with Retry-After for the rest of that window; nobody is locked out.

Rates come from settings (``PUBLIC_API_RATE_CLIENT``, ``PUBLIC_API_RATE_ADDRESS``) and are
counted in the default cache: Redis when REDIS_URL is set (shared by all web workers), else each
process's memory.
"""

import secrets

from django.conf import settings
from django.core import signing
from rest_framework.throttling import SimpleRateThrottle

CLIENT_COOKIE = "doko_client"
_SALT = "config.throttling.client"


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


class _SettingsRateThrottle(SimpleRateThrottle):
    setting: str

    def get_rate(self) -> str:
        # Read at request time, so a deployment (or a test) can change it.
        return getattr(settings, self.setting)


class PublicClientThrottle(_SettingsRateThrottle):
    scope = "public_client"
    setting = "PUBLIC_API_RATE_CLIENT"

    def get_cache_key(self, request, view) -> str | None:
        if request.user and request.user.is_authenticated:
            ident = f"user-{request.user.pk}"
        elif cid := client_id(request):
            ident = f"client-{cid}"
        else:
            return None  # a first request, or a client that keeps no cookies: address only
        return self.cache_format % {"scope": self.scope, "ident": ident}


class PublicAddressThrottle(_SettingsRateThrottle):
    scope = "public_address"
    setting = "PUBLIC_API_RATE_ADDRESS"

    def get_cache_key(self, request, view) -> str:
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}
