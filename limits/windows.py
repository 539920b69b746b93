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
    with rate_count_begin(key, rate) as counting:
        return counting.end()


# One event in a window's entry, made to expire a second after the window: INCR and EXPIRE in
# one command. The entry is the one Django's cache reads (``rate_exceeded``): its Redis
# serializer stores an int as the number itself.
_COUNT_SCRIPT = (
    "local count = redis.call('INCR', KEYS[1]) redis.call('EXPIRE', KEYS[1], ARGV[1]) return count"
)


class Counting:
    """One event being counted (``rate_count_begin``): on Redis the count is sent at once and
    its answer read by ``end``, so that the caller's own round trip in between (a seat's key
    looked up) and this one are waited for together (``script_sent`` of the site's Redis
    backend, config/redis_cache.py). Used as a context manager, which hands the connection
    back however the block ends. Fails open: when the cache does not answer, ``end`` says the
    event is within the rate."""

    def __init__(self, key: str, rate: str) -> None:
        self.window, self.limit, self.period, self.left = _window(key, rate)
        self._ended = False
        self._sent = None
        self._send = getattr(caches["default"], "script_sent", None)
        if self._send is None:
            return
        try:
            self._sent = self._send(_COUNT_SCRIPT, [self.window], [self.period + 1])
        except Exception:  # the cache is down: ``end`` answers within the rate
            logger.warning("rate limit not counted: the cache did not answer", exc_info=True)

    def end(self) -> float | None:
        """None while within the rate; once over it, the seconds until the window ends."""
        if self._ended:
            raise RuntimeError("This event's count was read already.")
        self._ended = True
        if self._send is not None and self._sent is None:
            return None  # not sent: the cache did not answer
        try:
            count = int(self._sent.answer()) if self._sent is not None else self._counted()
        except Exception:  # the cache is down: answer rather than fail (fail open)
            logger.warning("rate limit not counted: the cache did not answer", exc_info=True)
            return None
        return self.left if count > self.limit else None

    def _counted(self) -> int:
        """Another cache (each process's memory, without Redis): add, then count up."""
        if cache.add(self.window, 1, timeout=self.period + 1):
            return 1
        try:
            return cache.incr(self.window)
        except ValueError:  # the window's entry expired in between: this is its first event
            cache.add(self.window, 1, timeout=self.period + 1)
            return 1

    def __enter__(self) -> "Counting":
        return self

    def __exit__(self, *exc_info: object) -> None:
        if self._sent is not None:  # left before ``end``: its answer is not read
            self._sent.close()


def rate_count_begin(key: str, rate: str) -> Counting:
    """``rate_count`` in two steps: the event sent now, its answer read by ``Counting.end``."""
    return Counting(key, rate)


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
