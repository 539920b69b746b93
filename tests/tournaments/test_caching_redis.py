"""The versions on the Redis a deployment has (tournaments/caching.py): a change raises all of
its versions in one round trip, as Django's cache reads them, a forgotten one afresh."""

import pytest
from django.http import HttpResponse

from tournaments import caching

pytestmark = [pytest.mark.services, pytest.mark.django_db]


def _commands(cache_) -> dict[str, int]:
    """The commands Redis has run since the last reset, by name."""
    info = cache_._cache.get_client(write=True).info("commandstats")
    return {name.removeprefix("cmdstat_"): stats["calls"] for name, stats in info.items()}


def test_a_saved_hand_raises_its_versions_in_one_round_trip(
    redis_cache, django_capture_on_commit_callbacks
):
    tables, table = caching.table_version(7, 3)
    desk = caching.round_version(7)
    redis_cache._cache.get_client(write=True).config_resetstat()
    with django_capture_on_commit_callbacks(execute=True):
        caching.table_changed(round_id=7, number=3)
    calls = _commands(redis_cache)
    # The desk's round and the table page's: SET NX and INCR each, in one script.
    assert (calls.get("eval"), calls.get("set"), calls.get("incr")) == (1, 2, 2)
    assert not {"exists", "get", "incrby"} & set(calls)
    # This process forgot what it remembered; every process reads them as Django's cache does.
    assert caching.table_version(7, 3) == (tables, table + 1)
    assert caching.round_version(7) == desk + 1
    assert redis_cache.get("round-version:7") == desk + 1


def test_a_version_the_cache_forgot_starts_again_at_a_random_number(
    redis_cache, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        caching.round_changed(8)
    first = caching.round_version(8)
    redis_cache.clear()  # evicted, or Redis restarted empty
    caching.memory_clear()
    with django_capture_on_commit_callbacks(execute=True):
        caching.round_changed(8)
    again = caching.round_version(8)
    # Not 1, and not where it stood: no answer cached under an earlier version is served.
    assert first is not None
    assert again is not None
    assert again > 1
    assert again not in {first, first + 1}


def test_a_requests_raise_is_in_the_cache_before_its_answer_leaves(redis_cache):
    """In a request the raise is sent at the commit and its answer read once the page is made
    (``VersionsSettledMiddleware``): the version stands raised when the answer leaves, and
    what this process remembered of it in between is forgotten again."""
    caching.round_version(5)
    seen = {}

    def view(request):
        caching.round_version_raise([5])
        # A reader of this process in between may remember a version (here: one made up).
        caching.memory.put("round-version:5", -1, seconds=60, size=64)
        seen["pending"] = len(caching._unsettled.get())
        return HttpResponse("saved")

    answered = caching.VersionsSettledMiddleware(view)(object())
    assert answered.content == b"saved"
    assert seen["pending"] == 1
    assert caching.memory.get("round-version:5") is None
    assert caching.round_version(5) == redis_cache.get("round-version:5")
    assert caching._unsettled.get() is None


def test_a_request_that_fails_still_settles_its_raise(redis_cache):
    before = caching.round_version(6)

    def view(request):
        caching.round_version_raise([6])
        raise RuntimeError("the page could not be made")

    with pytest.raises(RuntimeError):
        caching.VersionsSettledMiddleware(view)(object())
    assert redis_cache.get("round-version:6") == before + 1
    pool = redis_cache._cache.get_client(write=True).connection_pool
    assert not pool._in_use_connections


def test_a_request_holds_one_raise_unread_at_most(redis_cache):
    """Each unread raise holds a connection: a request that raises many (a step over many
    tables) reads the one before as it sends the next."""
    pool = redis_cache._cache.get_client(write=True).connection_pool
    held = []

    def view(request):
        for round_id in range(20, 30):
            caching.round_version_raise([round_id])
            held.append(len(pool._in_use_connections))
        return HttpResponse("done")

    caching.VersionsSettledMiddleware(view)(object())
    assert max(held) == 1
    assert not pool._in_use_connections
    assert [redis_cache.get(f"round-version:{n}") is not None for n in range(20, 30)] == [True] * 10
