"""The cache, shared by pages, API and services: values that fail soft when the cache server
is down, and values under versioned keys kept in this process's memory too.

Values whose key names their version (the standings, and the pages and API answers rendered
from them) never go stale: a change makes a new version and so a new key. Each process keeps
them in its own memory too (``memory``), as they are: a phone's request costs at most one round
trip to Redis, for the tournament's head, and not another for a 64 KB page, and the page's
bytes go into the response without being copied or unpickled.
"""

import functools
import logging
import secrets
import threading
import time
import zlib
from collections import OrderedDict
from collections.abc import Callable, Iterable
from contextvars import ContextVar
from typing import Any

from django.conf import settings
from django.core.cache import cache, caches
from django.db import transaction
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

    def put(self, key: str, value: Any, *, seconds: float, size: int | None = None) -> None:
        """Keep ``value`` for ``seconds``; ``size``: what it takes, if not bytes or text (else
        counted as 1 KB)."""
        if size is None:
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


def cache_get_many(keys: list[str]) -> dict[str, Any]:
    """The cached values found, in one round trip; nothing when the cache cannot be reached."""
    try:
        return cache.get_many(keys)
    except Exception:  # any outage of the cache server
        logger.warning("Cache unreachable reading %s.", keys, exc_info=True)
        return {}


def generation_start(key: str) -> int | None:
    """The generation under ``key`` (``generation_renew``), started at a random number if the
    cache has none; None when the cache cannot be reached."""
    return _round_version_read(key)


def generation_renew(key: str) -> None:
    """Give ``key`` a new generation, a random one: whatever was cached under an older one is
    no longer read, also what a reader caches after this from a read made before the change."""
    try:
        cache.set(key, _fresh_version(), timeout=None)
    except Exception:  # an outage: what was cached expires by its timeout
        logger.warning("Cache unreachable renewing %s.", key, exc_info=True)


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


# With the standings a rebuild made, each row's JSON as ``Standings.pack`` wrote it: the next
# rebuild in this process, after a confirm, writes only the rows that changed.
Written = dict[int, tuple[standings.Row, str]]


_decoded: OrderedDict[int, tuple[int, standings.Standings, Written | None]] = OrderedDict()


_decoded_lock = threading.Lock()


def decoded_get(tournament_id: int, version: int) -> standings.Standings | None:
    with _decoded_lock:
        found = _decoded.get(tournament_id)
        if found is None or found[0] != version:
            return None
        _decoded.move_to_end(tournament_id)
        return found[1]


def decoded_written(tournament_id: int, version: int) -> Written | None:
    """The rows' JSON of the standings of this version, if this process packed them (a
    rebuild; a reader unpacks them); the caller may change it, and put it back with the next."""
    with _decoded_lock:
        found = _decoded.get(tournament_id)
        if found is None or found[0] != version:
            return None
        return found[2]


def decoded_put(
    tournament_id: int,
    version: int,
    value: standings.Standings,
    written: Written | None = None,
) -> None:
    with _decoded_lock:
        if tournament_id in _decoded and _decoded[tournament_id][0] > version:
            return  # a newer version is here already
        _decoded[tournament_id] = (version, value, written)
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


# A round's tables as the desk sees them (scoring's desk page): a version in the cache, raised
# after every committed change to a sheet of the round, its second entry or its complaints, and
# to its tables' players and extra time. A counter in the cache, not a column of the round: a
# row lock on the round would make every table's save wait for the others'. Answers cached
# under a version never go stale; a counter the cache forgot (evicted, restarted) starts again
# at a random number, never at one an earlier answer was cached under.


def _round_key(round_id: int) -> str:
    return f"round-version:{round_id}"


def _fresh_version() -> int:
    return secrets.randbits(62)


def _tables_key(round_id: int) -> str:
    """What every table page of the round shows apart from its own sheet: the seating, the
    players' names, the playing time."""
    return f"round-tables-version:{round_id}"


def _table_key(round_id: int, number: int) -> str:
    """A table's sheet as its page shows it: the hands, the sheet's state, the decisions."""
    return f"table-version:{round_id}:{number}"


def round_version(round_id: int) -> int | None:
    """The round's version as the desk sees it: one round trip to the cache, at most once per
    ``DESK_READER_SECONDS`` in each process (the process that raises it forgets it at once);
    None when the cache cannot be reached (the caller then reads the database and caches
    nothing)."""
    return _version(_round_key(round_id))


def table_version(round_id: int, number: int) -> tuple[int, int] | None:
    """A table page's version (``round_changed`` raises it for every table of the round,
    ``table_changed`` for one), read as ``round_version`` is; None when the cache cannot be
    reached."""
    versions = (tables_version(round_id), _version(_table_key(round_id, number)))
    if versions[0] is None or versions[1] is None:
        return None
    return versions[0], versions[1]


def tables_version(round_id: int) -> int | None:
    """What every table page of the round shows apart from its own sheet (``round_changed``
    raises it: the seating, the players, the extra time), read as ``round_version`` is; None
    when the cache cannot be reached."""
    return _version(_tables_key(round_id))


def _version(key: str) -> int | None:
    remembered = memory.get(key)
    if remembered is not None:
        return remembered
    version = _round_version_read(key)
    if version is not None and settings.DESK_READER_SECONDS > 0:
        memory.put(key, version, seconds=settings.DESK_READER_SECONDS, size=64)
    return version


def _round_version_read(key: str) -> int | None:
    try:
        version = cache.get(key)
        if version is None:
            cache.add(key, _fresh_version(), timeout=None)
            version = cache.get(key)
    except Exception:  # any outage of the cache server
        logger.warning("Cache unreachable reading %s.", key, exc_info=True)
        return None
    return version


def round_version_raise(round_ids: Iterable[int]) -> None:
    """Raise the rounds' versions now (``round_changed`` calls it once the change commits)."""
    _raise([_round_key(round_id) for round_id in set(round_ids)])


def _raise(keys: Iterable[str]) -> None:
    keys = list(keys)
    send = getattr(caches["default"], "script_sent", None)  # Redis (config/redis_cache.py)
    try:
        if send is not None:
            _settled(send(_RAISE_SCRIPT, keys, [_fresh_version() for _ in keys]), keys)
        else:
            for key in keys:
                try:
                    cache.incr(key)
                except ValueError:  # not in the cache (yet, or any more): a fresh start
                    if not cache.add(key, _fresh_version(), timeout=None):
                        cache.incr(key)  # another process started it in between
    except Exception:  # an outage: what was cached expires (DESK_CACHE_SECONDS)
        logger.warning("Cache unreachable raising %s.", ", ".join(keys), exc_info=True)
    _forget(keys)


def _forget(keys: list[str]) -> None:
    for key in keys:
        memory.delete(key)  # this process shows the change at once


# All the versions raised in one command, each started at a fresh random number where the cache
# has none (SET NX) and then counted up (INCR): Django's ``incr`` takes two round trips a key (it
# asks EXISTS first), and a hand's save raises two (the desk's round and the table page's). The
# values are as Django's cache reads them: its Redis serializer stores an int as the number.
_RAISE_SCRIPT = (
    "for i, key in ipairs(KEYS) do redis.call('SET', key, ARGV[i], 'NX') "
    "redis.call('INCR', key) end return #KEYS"
)

# The raises a request's commits sent, whose answers are read just before its answer leaves
# (``VersionsSettledMiddleware``): the page after a save is made meanwhile.
_unsettled: ContextVar[list[tuple[Any, list[str]]] | None] = ContextVar(
    "unsettled_versions", default=None
)


def _settled(sent: Any, keys: list[str]) -> None:
    """The raise ``sent`` settled: at once outside a request (a Celery task, a command), else
    just before the request's answer leaves. A request holds one raise unread at most (each
    holds a connection): one sent before is read now."""
    pending = _unsettled.get()
    if pending is None:
        _settle(sent, keys)
        return
    while pending:
        _settle(*pending.pop(0))
    pending.append((sent, keys))


def _settle(sent: Any, keys: list[str]) -> None:
    try:
        sent.answer()
    except Exception:  # an outage: what was cached expires (DESK_CACHE_SECONDS)
        logger.warning("Cache unreachable raising %s.", ", ".join(keys), exc_info=True)
    # A reader of this process may have remembered the old version meanwhile: forgotten again.
    _forget(keys)


class VersionsSettledMiddleware:
    """The versions a request raised are in the cache before its answer leaves: a save's
    commit sends its raise, and its answer is read here, after the page is made, so that the
    request waits for one round trip fewer; a phone told the hand is saved then never reads
    the table's page older than the hand."""

    def __init__(self, get_response: Callable[[Any], Any]) -> None:
        self.get_response = get_response

    def __call__(self, request: Any) -> Any:
        pending: list[tuple[Any, list[str]]] = []
        token = _unsettled.set(pending)
        try:
            return self.get_response(request)
        finally:
            _unsettled.reset(token)
            for sent, keys in pending:
                _settle(sent, keys)


def round_changed(*round_ids: int) -> None:
    """What the desk sees of these rounds changed, and what every table page of them shows:
    their versions are raised once the transaction commits (at once outside one), so that no
    reader caches the state before the change under the new version, and a change rolled back
    raises nothing."""
    ids = {round_id for round_id in round_ids if round_id is not None}
    if ids:
        keys = [key for round_id in ids for key in (_round_key(round_id), _tables_key(round_id))]
        transaction.on_commit(functools.partial(_raise, keys))


def table_changed(*, round_id: int, number: int) -> None:
    """A table's sheet changed (its hands, its state, a complaint, a decision, a deduction):
    the desk's version of the round and the table page's own are raised once the transaction
    commits, not the other table pages of the round."""
    keys = [_round_key(round_id), _table_key(round_id, number)]
    transaction.on_commit(functools.partial(_raise, keys))
