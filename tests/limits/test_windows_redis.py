"""The fixed windows on the Redis a deployment has (limits/windows.py): one round trip per
event, counted as Django's cache reads it, and gone with its window."""

import time

import pytest

from limits.windows import rate_count, rate_count_begin, rate_exceeded

pytestmark = [pytest.mark.services, pytest.mark.usefixtures("steady_clock")]


def _commands(cache_) -> dict[str, int]:
    """The commands Redis has run so far, by name."""
    info = cache_._cache.get_client(write=True).info("commandstats")
    return {name.removeprefix("cmdstat_"): stats["calls"] for name, stats in info.items()}


def test_an_event_is_counted_in_one_round_trip(redis_cache):
    redis_cache._cache.get_client(write=True).config_resetstat()
    assert [rate_count("seat:k", "3/min") for _ in range(3)] == [None, None, None]
    assert rate_count("seat:k", "3/min") == 59  # one second into the window (steady_clock)
    calls = _commands(redis_cache)
    # Four events: each one script (INCR and EXPIRE); no GET, SET or EXISTS.
    assert (calls.get("eval"), calls.get("incr"), calls.get("expire")) == (4, 4, 4)
    assert not {"get", "set", "exists", "multi"} & set(calls)


def _window_count(cache_, key: str) -> int | None:
    client = cache_._cache.get_client()
    windows = list(client.scan_iter(f"tests:*rate:{key}:*"))
    return int(client.get(windows[0])) if windows else None


def test_a_count_begun_is_counted_before_its_answer_is_read(redis_cache):
    """``rate_count_begin`` sends the event at once and reads its answer at ``end``: what the
    caller does in between (a seat's key looked up) is not waited for after it."""
    with rate_count_begin("seat:k", "1/min") as first:
        deadline = time.monotonic() + 5
        while _window_count(redis_cache, "seat:k") != 1 and time.monotonic() < deadline:
            time.sleep(0.01)
        assert _window_count(redis_cache, "seat:k") == 1  # counted, its answer not yet read
        assert first.end() is None
    with rate_count_begin("seat:k", "1/min") as second:
        assert second.end() == 59
    with pytest.raises(RuntimeError):
        second.end()


def test_a_count_left_unread_gives_its_connection_back(redis_cache):
    """A block left before ``end`` (the caller's own step failed) leaves no connection taken
    from the pool, and no answer on one for the next command."""
    pool = redis_cache._cache.get_client(write=True).connection_pool
    with pytest.raises(LookupError), rate_count_begin("seat:k", "5/min"):
        raise LookupError("the seat's lookup failed")
    assert not pool._in_use_connections
    assert redis_cache.get("anything") is None
    assert rate_count("seat:k", "5/min") is None
    assert _window_count(redis_cache, "seat:k") == 2


def test_a_count_is_within_the_rate_when_redis_does_not_answer(settings):
    """Redis away (nothing listens on the port): within the rate, as every limit fails open."""
    settings.CACHES = {
        "default": {
            "BACKEND": "config.redis_cache.RedisCache",
            "LOCATION": "redis://127.0.0.1:9/0",
            "OPTIONS": {"socket_connect_timeout": 0.5},
        }
    }
    with rate_count_begin("seat:k", "1/min") as counting:
        assert counting.end() is None
    assert rate_count("seat:k", "1/min") is None


def test_the_count_is_the_one_djangos_cache_reads(redis_cache, steady_clock):
    rate_count("seat:k", "2/min")
    assert rate_exceeded("seat:k", "2/min") is None
    rate_count("seat:k", "2/min")
    assert rate_exceeded("seat:k", "2/min") == 59
    window = next(iter(redis_cache._cache.get_client().scan_iter("tests:*rate:seat:k:*")))
    assert redis_cache.get(window.decode().split(":", 2)[2]) == 2
    # Its entry expires a second after its window: nothing is left behind.
    assert 0 < redis_cache._cache.get_client().ttl(window) <= 61
    steady_clock(60)
    assert rate_count("seat:k", "2/min") is None
