"""The fixed windows on the Redis a deployment has (limits/windows.py): one round trip per
event, counted as Django's cache reads it, and gone with its window."""

import pytest

from limits.windows import rate_count, rate_exceeded

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
    # Four events: each a MULTI, INCRBY, EXPIRE and EXEC sent together; no GET, SET or EXISTS.
    assert (calls.get("incrby"), calls.get("expire"), calls.get("exec")) == (4, 4, 4)
    assert not {"get", "set", "exists"} & set(calls)


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
