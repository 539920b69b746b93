"""Fixed windows in the cache (limits/windows.py): a count per key and window, a wait once over
the rate, a fresh count in the next window, and nothing limited while the cache is down."""

import pytest
from django.core.cache import cache

from limits.windows import parse_rate, rate_count, rate_exceeded

pytestmark = pytest.mark.usefixtures("steady_clock")


def test_rates_are_read_with_seconds_minutes_and_hours():
    assert parse_rate("10/15min") == (10, 900)
    assert parse_rate("50/h") == (50, 3600)
    assert parse_rate("6000/min") == (6000, 60)
    assert parse_rate("1/30s") == (1, 30)
    with pytest.raises(ValueError, match="Not a rate"):
        parse_rate("10/fortnight")


def test_a_count_over_the_rate_answers_the_seconds_left_in_the_window():
    assert [rate_count("k", "3/min") for _ in range(3)] == [None, None, None]
    assert rate_count("k", "3/min") == 59  # one second into the window (steady_clock)
    assert rate_count("other", "3/min") is None


def test_asking_does_not_count():
    for _ in range(5):
        assert rate_exceeded("k", "2/min") is None
    rate_count("k", "2/min")
    assert rate_exceeded("k", "2/min") is None
    rate_count("k", "2/min")
    assert rate_exceeded("k", "2/min") == 59


def test_the_next_window_counts_afresh(steady_clock):
    rate_count("k", "1/min")
    assert rate_count("k", "1/min") is not None
    steady_clock(60)
    assert rate_count("k", "1/min") is None


def test_nothing_is_limited_while_the_cache_is_down(monkeypatch):
    def broken(*args, **kwargs):
        raise ConnectionError("Redis is down")

    for name in ("add", "incr", "get"):
        monkeypatch.setattr(cache, name, broken)
    for _ in range(3):
        assert rate_count("k", "1/min") is None
        assert rate_exceeded("k", "1/min") is None
