"""The shared cache on Redis (config/redis_cache.py): Django's backend, each pool's client
made once and shared by every call and thread."""

import threading

import pytest

pytestmark = pytest.mark.services


def test_every_call_shares_one_client_and_the_cache_works_as_djangos(redis_cache):
    client = redis_cache._cache.get_client()
    assert redis_cache._cache.get_client("key", write=True) is client
    redis_cache.set("name", {"Jürgen": "Öztürk"}, timeout=60)
    assert redis_cache.get("name") == {"Jürgen": "Öztürk"}
    assert redis_cache.add("count", 1) is True
    assert redis_cache.add("count", 5) is False
    assert redis_cache.incr("count", 2) == 3
    assert redis_cache.get_many(["name", "count", "none"]) == {
        "name": {"Jürgen": "Öztürk"},
        "count": 3,
    }
    redis_cache.delete("name")
    assert redis_cache.get("name") is None
    assert redis_cache._cache.get_client() is client


def test_threads_share_the_client_safely(redis_cache):
    """A redis.Redis takes a connection from its pool for each command: threads that count at
    once through the one client lose no count."""
    redis_cache.set("count", 0, timeout=60)
    client = redis_cache._cache.get_client(write=True)
    name = redis_cache.make_and_validate_key("count")

    def count() -> None:
        for _ in range(200):
            client.incr(name)

    threads = [threading.Thread(target=count) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert redis_cache.get("count") == 1600
