"""The cache, shared by pages, API and services: values that fail soft when the cache server
is down, and values under versioned keys kept in this process's memory too.

Values whose key names their version (the standings, and the pages and API answers rendered
from them) never go stale: a change makes a new version and so a new key. With a shared cache
(Redis), each process keeps them in its own memory too (CACHES["local"]), so that a phone's
request costs at most one round trip to Redis, for the tournament's head, and not another for a
64 KB page.
"""

import logging
import threading
import zlib
from collections import OrderedDict

from django.conf import settings
from django.core.cache import cache, caches
from django.utils import translation

from doko import standings
from tournaments.models import Tournament

logger = logging.getLogger(__name__)


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


def local_cache():
    return caches["local"] if "local" in settings.CACHES else None


def forget(key: str) -> None:
    """Forget a value in this process's memory and in the shared cache; an outage is logged
    (a value kept with a timeout expires anyway)."""
    if (local := local_cache()) is not None:
        local.delete(key)
    try:
        cache.delete(key)
    except Exception:  # any outage of the cache server
        logger.warning("Cache unreachable forgetting %s.", key, exc_info=True)


def versioned_get(key: str):
    """A value cached under a versioned key: from this process's memory, else from the shared
    cache (and then kept in memory); None if neither has it or the cache is down."""
    local = local_cache()
    if local is not None and (found := local.get(key)) is not None:
        return found
    found = cache_get(key)
    if found is not None and local is not None:
        local.set(key, found, settings.STANDINGS_CACHE_SECONDS)
    return found


def versioned_put(key: str, value) -> None:
    """Cache a value under a versioned key, in this process's memory and the shared cache."""
    local = local_cache()
    if local is not None:
        local.set(key, value, settings.STANDINGS_CACHE_SECONDS)
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
    if (local := local_cache()) is not None:
        local.clear()


def head_stamp(tournament: Tournament) -> int:
    """Changes with any of the tournament's own fields (its name, say), which the standings
    pages show but which do not make new standings."""
    fields = Tournament._meta.concrete_fields
    return zlib.crc32(repr([getattr(tournament, f.attname) for f in fields]).encode())


def standings_etag(*, tournament: Tournament, mode: str, part: str, page: int) -> str:
    """The ETag of a standings page: changes with every rebuild and every change to the
    tournament, and with the language, the page and what the reader may see (``mode``)."""
    language = translation.get_language()
    version = f"{tournament.standings_version}.{head_stamp(tournament):x}"
    return f'"{part}-{tournament.pk}-{version}-{language}-{mode}-{page}"'
