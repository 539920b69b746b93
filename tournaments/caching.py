"""The cache, shared by pages, API and services: values that fail soft when the cache server
is down, and values under versioned keys kept in this process's memory too.

Values whose key names their version (the standings, and the pages and API answers rendered
from them) never go stale: a change makes a new version and so a new key. Each process keeps
them in its own memory too (``memory``), as they are: a phone's request costs at most one round
trip to Redis, for the tournament's head, and not another for a 64 KB page, and the page's
bytes go into the response without being copied or unpickled.
"""

import logging
import threading
import time
import zlib
from collections import OrderedDict
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.utils import translation

from doko import standings
from tournaments.models import Tournament

logger = logging.getLogger(__name__)


class Memory:
    """This process's own memory in front of the shared cache: values kept as they are (not
    pickled, as Django's local-memory cache does), each for a given time, the least recently
    used forgotten once they take more than ``LOCAL_CACHE_BYTES``. Safe across threads."""

    def __init__(self) -> None:
        self._items: OrderedDict[str, tuple[float, int, Any]] = OrderedDict()
        self._size = 0
        self._lock = threading.Lock()

    def get(self, key: str) -> Any:
        """The value, or None if it is not here or has expired."""
        with self._lock:
            item = self._items.get(key)
            if item is None:
                return None
            if item[0] < time.monotonic():
                self._drop(key)
                return None
            self._items.move_to_end(key)
            return item[2]

    def put(self, key: str, value: Any, *, seconds: float) -> None:
        size = len(value) if isinstance(value, bytes | str) else 1024
        with self._lock:
            if key in self._items:
                self._drop(key)
            self._items[key] = (time.monotonic() + seconds, size, value)
            self._size += size
            while self._size > settings.LOCAL_CACHE_BYTES and len(self._items) > 1:
                self._drop(next(iter(self._items)))

    def delete(self, key: str) -> None:
        with self._lock:
            if key in self._items:
                self._drop(key)

    def clear(self) -> None:
        with self._lock:
            self._items.clear()
            self._size = 0

    def _drop(self, key: str) -> None:
        self._size -= self._items.pop(key)[1]


memory = Memory()


def cache_get(key: str):
    """The cached value, or None also when the cache cannot be reached: readers then fall back
    to the database instead of failing."""
    try:
        return cache.get(key)
    except Exception:  # any outage of the cache server
        logger.warning("Cache unreachable reading %s; using the database.", key, exc_info=True)
        return None


def cache_put(key: str, value, timeout: int | None = None) -> None:
    try:
        cache.set(key, value, timeout if timeout is not None else settings.STANDINGS_CACHE_SECONDS)
    except Exception:  # the next reader falls back to the database
        logger.warning("Cache unreachable writing %s.", key, exc_info=True)


def forget(key: str) -> None:
    """Forget a value in this process's memory and in the shared cache; an outage is logged
    (a value kept with a timeout expires anyway)."""
    memory.delete(key)
    try:
        cache.delete(key)
    except Exception:  # any outage of the cache server
        logger.warning("Cache unreachable forgetting %s.", key, exc_info=True)


def versioned_get(key: str) -> Any:
    """A value cached under a versioned key: from this process's memory, else from the shared
    cache (and then kept in memory); None if neither has it or the cache is down."""
    found = memory.get(key)
    if found is None:
        found = cache_get(key)
        if found is not None:
            memory.put(key, found, seconds=settings.STANDINGS_CACHE_SECONDS)
    return found


def versioned_put(key: str, value: Any) -> None:
    """Cache a value under a versioned key, in this process's memory and the shared cache."""
    memory.put(key, value, seconds=settings.STANDINGS_CACHE_SECONDS)
    cache_put(key, value)


# The standings themselves are cached packed (Standings.pack, 240 KB for 2,000 players) and
# decoded in each process once per version: the last few tournaments' are kept decoded here.
_DECODED_TOURNAMENTS = 4


_decoded: OrderedDict[int, tuple[int, standings.Standings]] = OrderedDict()


_decoded_lock = threading.Lock()


def decoded_get(tournament_id: int, version: int) -> standings.Standings | None:
    with _decoded_lock:
        found = _decoded.get(tournament_id)
        if found is None or found[0] != version:
            return None
        _decoded.move_to_end(tournament_id)
        return found[1]


def decoded_put(tournament_id: int, version: int, value: standings.Standings) -> None:
    with _decoded_lock:
        if tournament_id in _decoded and _decoded[tournament_id][0] > version:
            return  # a newer version is here already
        _decoded[tournament_id] = (version, value)
        _decoded.move_to_end(tournament_id)
        while len(_decoded) > _DECODED_TOURNAMENTS:
            _decoded.popitem(last=False)


def memory_clear() -> None:
    """Forget what this process keeps in memory (the tests, between tests)."""
    with _decoded_lock:
        _decoded.clear()
    memory.clear()


def head_stamp(tournament: Tournament) -> int:
    """Changes with any of the tournament's own fields (its name, say), which the standings
    pages show but which do not make new standings."""
    fields = Tournament._meta.concrete_fields
    return zlib.crc32(repr([getattr(tournament, f.attname) for f in fields]).encode())


def head_version(tournament: Tournament) -> str:
    """What the standings pages show of the tournament, as a version: the standings' own and
    a stamp of the tournament's fields. It names the cached pages and their ETags."""
    return f"{tournament.standings_version}.{head_stamp(tournament):x}"


def standings_etag(*, tournament_id: int, version: str, mode: str, part: str, page: int) -> str:
    """The ETag of a standings page: changes with every rebuild and every change to the
    tournament (``version``: ``head_version``), and with the language, the page and what the
    reader may see (``mode``)."""
    language = translation.get_language()
    return f'"{part}-{tournament_id}-{version}-{language}-{mode}-{page}"'
