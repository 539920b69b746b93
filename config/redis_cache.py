"""The shared cache on Redis: Django's own backend, with each connection pool's client made
once.

Django's ``RedisCacheClient.get_client`` makes a new ``redis.Redis`` for every cache call, and
each one fills its table of some 170 reply handlers first: about 0.2 ms of processor time per
call, in the web process's GIL. A table page's answer on a tournament day makes a dozen cache
calls, a hand's save several. A ``redis.Redis`` is safe to share between threads (each command
takes a connection from the pool), so one per pool serves every call; a pipeline is still made
per call. Everything else (serialization, keys, timeouts, the pools) is Django's.

``script_sent`` sends a Lua script and leaves its answer to be read later: a request that
counts an event or raises a version does its own round trips meanwhile, and waits once.
"""

from typing import Any

from django.core.cache.backends import redis as django_redis


class RedisCacheClient(django_redis.RedisCacheClient):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._clients: dict[int, Any] = {}

    def get_client(self, key: Any = None, *, write: bool = False) -> Any:
        pool = self._get_connection_pool(write)  # type: ignore[attr-defined]  # not in the stubs
        client = self._clients.get(id(pool))
        if client is None:  # two threads at once make two; either serves
            make = self._client  # type: ignore[attr-defined]  # redis.Redis; not in the stubs
            client = self._clients[id(pool)] = make(connection_pool=pool)
        return client


class RedisCache(django_redis.RedisCache):
    """``CACHES["default"]["BACKEND"]`` when REDIS_URL is set (config/settings.py)."""

    def __init__(self, server: str, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = RedisCacheClient

    def script_sent(self, script: str, keys: list[str], args: list[Any]) -> "SentScript":
        """``script`` sent on one of the cache's connections (``keys``: the cache's, made into
        its own as its commands make them), its answer to be read by ``SentScript.answer``.
        The callers find it on the cache (``getattr``): another backend has none."""
        names = [self.make_and_validate_key(key) for key in keys]
        pool = self._cache.get_client(names[0], write=True).connection_pool
        connection = pool.get_connection()
        try:
            connection.send_command("EVAL", script, len(names), *names, *args)
        except BaseException:
            connection.disconnect()
            pool.release(connection)
            raise
        return SentScript(pool, connection)


class SentScript:
    """A script sent on a connection of the pool (``RedisCache.script_sent``), its answer not
    yet read. ``answer`` reads it and gives the connection back; ``close`` gives it back
    unread (dropped: its answer may still arrive). As a context manager it is closed however
    the block ends."""

    def __init__(self, pool: Any, connection: Any) -> None:
        self._pool, self._connection = pool, connection

    def answer(self) -> Any:
        if self._connection is None:
            raise RuntimeError("This script's answer was read already.")
        try:
            answer = self._connection.read_response()
        except BaseException:
            self.close()
            raise
        self._pool.release(self._connection)
        self._connection = None
        return answer

    def close(self) -> None:
        if self._connection is not None:
            self._connection.disconnect()
            self._pool.release(self._connection)
            self._connection = None

    def __enter__(self) -> "SentScript":
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()
