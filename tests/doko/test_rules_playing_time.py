"""When a table's playing time ends (TSR 8.5.1, 10.1.5): the arithmetic, as laws."""

import datetime

from hypothesis import given
from hypothesis import strategies as st

from doko.rules.playing_time import playing_time_end

START = datetime.datetime(2026, 5, 1, 10, 0, tzinfo=datetime.UTC)
minutes = st.integers(0, 400)


def end(*, announced=None, five, extra=0, length=None):
    return playing_time_end(
        started_at=START,
        announced_at=None if announced is None else START + datetime.timedelta(minutes=announced),
        minutes=length if length is not None else (125 if five else 100),
        five=five,
        extra_minutes=extra,
    )


def at(minutes):
    return START + datetime.timedelta(minutes=minutes)


def test_before_the_start_there_is_no_end():
    assert playing_time_end(started_at=None, announced_at=None, minutes=100, five=False) is None


def test_an_end_announced_late_gives_a_five_no_more_than_125_minutes():
    """TSR 10.1.5: „nach einer reinen Spielzeit von 125 Minuten zu beenden". The end announced
    at 110 minutes: the five ends at 125, not 25 minutes after the announcement."""
    assert end(announced=110, five=True) == at(125)
    assert end(announced=110, five=False) == at(110)


def test_an_end_announced_after_125_minutes_ends_the_five_then():
    assert end(announced=130, five=True) == at(130)


@given(announced=minutes, extra=st.integers(0, 60))
def test_a_four_ends_at_the_announcement_plus_its_extra_time(announced, extra):
    assert end(announced=announced, five=False, extra=extra) == at(announced + extra)


@given(announced=minutes, extra=st.integers(0, 60), length=st.integers(1, 300))
def test_a_five_ends_at_its_net_time_or_the_announcement_whichever_is_later(
    announced, extra, length
):
    five = end(announced=announced, five=True, extra=extra, length=length)
    assert five == at(max(length, announced) + extra)
    # Never before a four with the same extra time; never more net time than its minutes
    # unless the end was announced later than that.
    assert five >= end(announced=announced, five=False, extra=extra)
    assert five - datetime.timedelta(minutes=extra) - START <= datetime.timedelta(
        minutes=max(length, announced)
    )


@given(extra=st.integers(0, 60), five=st.booleans())
def test_before_the_announcement_the_clock_counts_to_the_minutes_plus_extra_time(extra, five):
    assert end(five=five, extra=extra) == at((125 if five else 100) + extra)
