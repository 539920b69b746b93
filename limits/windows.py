"""Counting requests (or failures) per fixed window in the default cache.

Every limit is a fixed window: a count per key and window in the cache, one increment per event
however high the rate (DRF's own throttles keep every time stamp of the window in one
cache entry, which grows with the rate). Rates come from settings (``"240/min"``,
``"10/15min"``) and are counted in the default cache: Redis when REDIS_URL is set (shared by all
web workers), else each process's memory. When the cache does not answer, nothing is limited
(fail open): on tournament day a scorekeeper must never be locked out by an outage.

Clients over a limit get HTTP 429 with Retry-After for the rest of that window; nobody is
locked out for longer.
"""

import hashlib
import logging
import re
import time

from django.core.cache import cache, caches
from django.core.cache.backends.redis import RedisCache

logger = logging.getLogger(__name__)

_UNITS = {"s": 1, "sec": 1, "m": 60, "min": 60, "h": 3600, "hour": 3600, "d": 86400, "day": 86400}


def parse_rate(rate: str) -> tuple[int, int]:
    """``"10/15min"`` → (10, 900); ``"50/h"`` → (50, 3600); ``"240/min"`` → (240, 60)."""
    number, period = rate.split("/")
    match = re.fullmatch(r"(\d*)\s*([a-z]+)", period.strip().lower())
    if not match or match.group(2) not in _UNITS:
        raise ValueError(f"Not a rate: {rate!r}")
    return int(number), int(match.group(1) or 1) * _UNITS[match.group(2)]


def folded(text: str) -> str:
    """A key part for a user name or an e-mail address, in whatever case and with whatever spaces
    around it was typed: hashed, so that the cache holds no names."""
    return hashlib.sha256(text.strip().casefold().encode("utf-8", "surrogatepass")).hexdigest()


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
        count = _counted(window, timeout=period + 1)
    except Exception:  # the cache is down: answer rather than fail (fail open)
        logger.warning("rate limit not counted: the cache did not answer", exc_info=True)
        return None
    return left if count > limit else None


def _counted(window: str, *, timeout: int) -> int:
    """One more event in ``window``'s entry (made for ``timeout`` seconds by its first); the
    count. On Redis one round trip, INCR and EXPIRE in one transaction: Django's ``add`` then
    ``incr`` take three (``incr`` asks EXISTS first), and every seat's request counts one
    (``scoring.views.access``). The entry is the one Django's cache reads (``rate_exceeded``):
    its Redis serializer stores an int as the number itself."""
    backend = caches["default"]
    if isinstance(backend, RedisCache):
        name = backend.make_and_validate_key(window)
        client = backend._cache.get_client(name, write=True)  # Django's own Redis connection
        with client.pipeline(transaction=True) as pipe:
            pipe.incr(name)
            pipe.expire(name, timeout)
            count, _expires = pipe.execute()
        return int(count)
    if cache.add(window, 1, timeout=timeout):
        return 1
    try:
        return cache.incr(window)
    except ValueError:  # the window's entry expired in between: this is its first event
        cache.add(window, 1, timeout=timeout)
        return 1


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
