"""The versions on the Redis a deployment has (tournaments/caching.py): a change raises all of
its versions in one round trip, as Django's cache reads them, a forgotten one afresh."""

import pytest

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
    # The desk's round and the table page's: SET NX and INCRBY each, in one MULTI ... EXEC.
    assert (calls.get("exec"), calls.get("set"), calls.get("incrby")) == (1, 2, 2)
    assert not {"exists", "get"} & set(calls)
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
