"""Rate limits: counting requests (or failures) per fixed window in the default cache.

Every limit here is a fixed window: a count per key and window in the cache, one ``add`` or
``incr`` per event however high the rate (DRF's own throttles keep every time stamp of the
window in one cache entry, which grows with the rate). Rates come from settings (``"240/min"``,
``"10/15min"``) and are counted in the default cache: Redis when REDIS_URL is set (shared by all
web workers), else each process's memory. When the cache does not answer, nothing is limited
(fail open): on tournament day a scorekeeper must never be locked out by an outage.

The public endpoints that compute (the rules API): a venue puts hundreds of phones behind one
address, so the address alone must not decide who is slowed down. Each client that can be told
apart is counted on its own: by user when it authenticates (token), else by the signed client
cookie the API hands out with its first answer. One generous limit per address, counting every
request, stops a single machine from flooding the server; it is the only limit for a client
that sends no cookie (``PUBLIC_API_RATE_CLIENT``, ``PUBLIC_API_RATE_ADDRESS``).

Clients over a limit get HTTP 429 with Retry-After for the rest of that window; nobody is
locked out for longer.
"""

import logging
import re
import secrets
import time

from django.conf import settings
from django.core import signing
from django.core.cache import cache
from rest_framework.throttling import BaseThrottle

logger = logging.getLogger(__name__)

CLIENT_COOKIE = "doko_client"
_SALT = "config.throttling.client"
_UNITS = {"s": 1, "sec": 1, "m": 60, "min": 60, "h": 3600, "hour": 3600, "d": 86400, "day": 86400}


def parse_rate(rate: str) -> tuple[int, int]:
    """``"10/15min"`` → (10, 900); ``"50/h"`` → (50, 3600); ``"240/min"`` → (240, 60)."""
    number, period = rate.split("/")
    match = re.fullmatch(r"(\d*)\s*([a-z]+)", period.strip().lower())
    if not match or match.group(2) not in _UNITS:
        raise ValueError(f"Not a rate: {rate!r}")
    return int(number), int(match.group(1) or 1) * _UNITS[match.group(2)]


def _window(key: str, rate: str) -> tuple[str, int, int, float]:
    """The cache key of ``key``'s current window, the limit, the period, and the seconds
    left in the window."""
    limit, period = parse_rate(rate)
    now = time.time()
    return f"rate:{key}:{int(now // period)}", limit, period, period - now % period


def rate_count(key: str, rate: str) -> float | None:
    """Count one event for ``key``. None while within ``rate``; once over it, the seconds until
    the window ends (for Retry-After)."""
    window, limit, period, left = _window(key, rate)
    try:
        if cache.add(window, 1, timeout=period + 1):
            count = 1
        else:
            try:
                count = cache.incr(window)
            except ValueError:  # the window's entry expired in between: this is its first event
                cache.add(window, 1, timeout=period + 1)
                count = 1
    except Exception:  # the cache is down: answer rather than fail (fail open)
        logger.warning("rate limit not counted: the cache did not answer", exc_info=True)
        return None
    return left if count > limit else None


def rate_exceeded(key: str, rate: str) -> float | None:
    """Whether ``key`` has used up ``rate`` in this window, without counting: the seconds until
    the window ends, or None."""
    window, limit, _period, left = _window(key, rate)
    try:
        count = cache.get(window) or 0
    except Exception:
        logger.warning("rate limit not checked: the cache did not answer", exc_info=True)
        return None
    return left if count >= limit else None


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


class FixedWindowThrottle(BaseThrottle):
    """A DRF throttle counting each request with ``rate_count`` under ``scope`` and whom the
    request counts for, at the rate of the setting named ``setting``."""

    scope: str
    setting: str

    def get_ident_key(self, request) -> str | None:
        """Whom the request counts for; None: not counted by this limit. By address here."""
        return self.get_ident(request)

    def allow_request(self, request, view) -> bool:
        ident = self.get_ident_key(request)
        if ident is None:
            return True
        self.retry_after = rate_count(f"{self.scope}:{ident}", getattr(settings, self.setting))
        return self.retry_after is None

    def wait(self) -> float | None:
        return self.retry_after


class PublicClientThrottle(FixedWindowThrottle):
    scope = "public_client"
    setting = "PUBLIC_API_RATE_CLIENT"

    def get_ident_key(self, request) -> str | None:
        if request.user and request.user.is_authenticated:
            return f"user-{request.user.pk}"
        if cid := client_id(request):
            return f"client-{cid}"
        return None  # a first request, or a client that keeps no cookies: address only


class PublicAddressThrottle(FixedWindowThrottle):
    scope = "public_address"
    setting = "PUBLIC_API_RATE_ADDRESS"
