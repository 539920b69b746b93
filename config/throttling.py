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

import logging
import secrets
import time

from django.conf import settings
from django.core import signing
from django.core.cache import cache
from rest_framework.throttling import BaseThrottle

logger = logging.getLogger(__name__)

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


class _FixedWindowThrottle(BaseThrottle):
    """Counts requests per fixed window in the cache: one ``add``/``incr`` per request, however
    high the rate (DRF's own throttles keep every time stamp of the window in one cache entry,
    which grows with the rate)."""

    scope: str
    setting: str

    def get_ident_key(self, request) -> str | None:
        """Whom the request counts for; None: not counted by this limit. By address here."""
        return self.get_ident(request)

    def allow_request(self, request, view) -> bool:
        ident = self.get_ident_key(request)
        if ident is None:
            return True
        limit, period = _parse_rate(getattr(settings, self.setting))
        now = time.time()
        window = int(now // period)
        key = f"throttle:{self.scope}:{ident}:{window}"
        self.retry_after = period - now % period
        try:
            if cache.add(key, 1, timeout=period + 1):
                return True
            return cache.incr(key) <= limit
        except ValueError:  # the window's entry expired in between: this is its first request
            return True
        except Exception:  # the cache is down: answer rather than fail (fail open)
            logger.warning("rate limit not counted: the cache did not answer", exc_info=True)
            return True

    def wait(self) -> float:
        return self.retry_after


def _parse_rate(rate: str) -> tuple[int, int]:
    """``"240/min"`` → (240, 60); periods s, min, h, d as DRF spells them."""
    number, period = rate.split("/")
    return int(number), {"s": 1, "m": 60, "h": 3600, "d": 86400}[period[0]]


class PublicClientThrottle(_FixedWindowThrottle):
    scope = "public_client"
    setting = "PUBLIC_API_RATE_CLIENT"

    def get_ident_key(self, request) -> str | None:
        if request.user and request.user.is_authenticated:
            return f"user-{request.user.pk}"
        if cid := client_id(request):
            return f"client-{cid}"
        return None  # a first request, or a client that keeps no cookies: address only


class PublicAddressThrottle(_FixedWindowThrottle):
    scope = "public_address"
    setting = "PUBLIC_API_RATE_ADDRESS"
