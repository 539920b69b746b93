"""The web server's settings (docker/gunicorn.conf.py) as gunicorn reads them."""

import gc
import runpy
import sys
from pathlib import Path

import pytest

CONF = Path(__file__).resolve().parent.parent / "docker" / "gunicorn.conf.py"


@pytest.fixture
def switch_interval():
    """The interpreter's switch interval, as it was after the test."""
    before = sys.getswitchinterval()
    yield
    sys.setswitchinterval(before)


@pytest.mark.parametrize(
    ("environ", "seconds"), [({}, 0.001), ({"SWITCH_INTERVAL_MS": "3"}, 0.003)]
)
def test_each_worker_hands_the_gil_on_within_the_switch_interval(
    monkeypatch, switch_interval, environ, seconds
):
    """A worker's threads wait for the GIL after every answer of the database: each forked
    worker sets Python's switch interval to 1 ms (5 by default), or what the environment says;
    the master, which only forks, keeps Python's."""
    monkeypatch.delenv("SWITCH_INTERVAL_MS", raising=False)
    for name, value in environ.items():
        monkeypatch.setenv(name, value)
    sys.setswitchinterval(0.005)
    conf = runpy.run_path(str(CONF))
    assert sys.getswitchinterval() == pytest.approx(0.005)
    conf["post_fork"](server=None, worker=None)
    assert sys.getswitchinterval() == pytest.approx(seconds)


def test_a_switch_interval_that_is_no_whole_number_of_milliseconds_is_refused(monkeypatch):
    monkeypatch.setenv("SWITCH_INTERVAL_MS", "fast")
    with pytest.raises(SystemExit, match="SWITCH_INTERVAL_MS must be a whole number"):
        runpy.run_path(str(CONF))


@pytest.fixture
def unfrozen():
    """The collector as it was: nothing frozen after the test, its thresholds as before."""
    thresholds = gc.get_threshold()
    yield
    gc.unfreeze()
    gc.set_threshold(*thresholds)


def test_each_worker_keeps_what_it_loaded_out_of_the_collectors_way(unfrozen):
    """Once a worker has loaded the application, its objects (Django, every view through the
    URL patterns) are frozen: a full collection no longer goes through them, holding the GIL
    from the worker's other threads for tens of milliseconds; what comes after is collected."""
    from django.urls import clear_url_caches, get_resolver

    conf = runpy.run_path(str(CONF))
    gc.unfreeze()
    clear_url_caches()  # the patterns not yet loaded, as in a new worker
    conf["post_worker_init"](worker=None)
    assert gc.get_freeze_count() > 10_000
    assert get_resolver().url_patterns  # loaded before the freeze
    frozen = gc.get_freeze_count()
    cycle: list = []
    cycle.append(cycle)
    assert gc.is_tracked(cycle)
    del cycle
    assert gc.collect() >= 1  # a cycle made after the freeze is still collected
    assert gc.get_freeze_count() == frozen


@pytest.mark.parametrize(("environ", "young"), [({}, 10_000), ({"GC_YOUNG": "2000"}, 2_000)])
def test_each_worker_collects_the_young_objects_in_larger_rounds(
    monkeypatch, unfrozen, environ, young
):
    """A request leaves cycles behind: at Python's 700 new objects a young collection, its
    survivors soon filled the oldest generation, whose full collections stopped the worker's
    threads for 40-67 ms. A worker collects every 10,000, or as the environment says; the
    older generations' thresholds stay Python's."""
    monkeypatch.delenv("GC_YOUNG", raising=False)
    for name, value in environ.items():
        monkeypatch.setenv(name, value)
    before = gc.get_threshold()
    conf = runpy.run_path(str(CONF))
    assert gc.get_threshold() == before  # the master, which only forks, keeps Python's
    conf["post_worker_init"](worker=None)
    assert gc.get_threshold() == (young, *before[1:])
