"""The shared cache on Redis: Django's own backend, with each connection pool's client made
once.

Django's ``RedisCacheClient.get_client`` makes a new ``redis.Redis`` for every cache call, and
each one fills its table of some 170 reply handlers first: about 0.2 ms of processor time per
call, in the web process's GIL. A table page's answer on a tournament day makes a dozen cache
calls, a hand's save several. A ``redis.Redis`` is safe to share between threads (each command
takes a connection from the pool), so one per pool serves every call; a pipeline is still made
per call. Everything else (serialization, keys, timeouts, the pools) is Django's.
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
