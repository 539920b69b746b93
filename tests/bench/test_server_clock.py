"""The day's own server times (bench/server_clock.py): gunicorn's access log, with the bench's
format, carries each request's wall and processor time and its wait for the database and the
cache, and a phase's lines are summed by kind."""

import datetime
import logging
import time
from types import SimpleNamespace

import psycopg
import pytest
from django.http import HttpResponse
from django.test import RequestFactory
from redis.connection import AbstractConnection

from bench import server_clock
from tests.test_logs import KEY, gunicorn_logger


def _logged(caplog, method: str, path: str, wall_us: int, cpu_us: int, db_us: int = 0) -> str:
    """One access-log line as the day's gunicorn writes it (its logger, the bench's format)."""
    logger = gunicorn_logger()
    logger.cfg.set("access_log_format", server_clock.ACCESS_LOG_FORMAT)
    logger.access_log.addHandler(caplog.handler)
    caplog.set_level(logging.INFO, logger="gunicorn.access")
    environ = {
        "REQUEST_METHOD": method,
        "RAW_URI": path,
        "PATH_INFO": path,
        "QUERY_STRING": "",
        "SERVER_PROTOCOL": "HTTP/1.1",
        "REMOTE_ADDR": "127.0.0.1",
        "bench.wall_us": str(wall_us),
        "bench.cpu_us": str(cpu_us),
        "bench.db_us": str(db_us),
    }
    response = SimpleNamespace(status="200 OK", sent=512, headers=[])
    logger.access(response, SimpleNamespace(headers=[]), environ, datetime.timedelta(0))
    logger.access_log.removeHandler(caplog.handler)
    return caplog.records[-1].getMessage()


@pytest.fixture
def timed_waits(monkeypatch):
    """The waits psycopg and redis-py have as the clock finds them, and again after the test:
    the clock times them in its process for good."""
    monkeypatch.setattr(psycopg.Connection, "wait", psycopg.Connection.wait)
    monkeypatch.setattr(AbstractConnection, "read_response", AbstractConnection.read_response)


def test_the_middleware_puts_the_times_into_the_environ(timed_waits):
    request = RequestFactory().get("/healthz/")
    answer = server_clock.ThreadClock(lambda request: HttpResponse("ok"))(request)
    assert answer.content == b"ok"
    assert int(request.META["bench.wall_us"]) >= int(request.META["bench.cpu_us"]) >= 0
    assert request.META["bench.db_us"] == "0"  # nothing asked of a server


def test_the_waits_for_the_servers_are_timed_off_the_processor(timed_waits):
    clock = server_clock.ThreadClock(lambda request: HttpResponse("ok"))
    assert psycopg.Connection.wait.__wrapped__  # type: ignore[attr-defined]
    assert AbstractConnection.read_response.__wrapped__  # type: ignore[attr-defined]
    server_clock.ThreadClock(clock.get_response)  # a second clock times nothing twice
    assert not hasattr(psycopg.Connection.wait.__wrapped__, "__wrapped__")  # type: ignore[attr-defined]

    def view(request):
        server_clock._timed(time.sleep)(0.02)  # an answer 20 ms away
        return HttpResponse("ok")

    first, second = RequestFactory().get("/healthz/"), RequestFactory().get("/healthz/")
    server_clock.ThreadClock(view)(first)
    clock(second)  # the next request counts its own waits only
    assert 20_000 <= int(first.META["bench.db_us"]) <= int(first.META["bench.wall_us"])
    assert second.META["bench.db_us"] == "0"


def test_a_phases_lines_are_summed_by_kind(tmp_path, caplog):
    log = tmp_path / "gunicorn-1.log"
    log.write_text(_logged(caplog, "GET", "/healthz/", 3000, 1000) + "\n")
    since = server_clock.marks([log])
    lines = [
        _logged(caplog, "POST", f"/s/{KEY}/save/", 15000, 9000, 2000),
        _logged(caplog, "POST", f"/s/{KEY}/save/", 17000, 7000, 4000),
        _logged(caplog, "POST", f"/s/{KEY}/save/", 19000, 8000, 3000),
        _logged(caplog, "GET", "/healthz/", 2000, 2000),
        _logged(caplog, "GET", "/tournaments/dm/rounds/4/tables/12/live/", 4000, 1000),
        "[INFO] Booting worker with pid: 42",
    ]
    assert f"/s/{KEY}/" not in lines[0]  # the key masked, the kind still told
    with log.open("a") as file:
        file.write("\n".join(lines) + "\n")
    times = {t.kind: t for t in server_clock.by_kind([log], since)}
    assert set(times) == {"hand write", "trivial view", "table page"}
    save = times["hand write"]
    assert (save.requests, save.wall_p50, save.cpu_p50, save.cpu_total) == (3, 17.0, 8.0, 0.024)
    assert (save.wall_p99, save.cpu_p99) == (19.0, 9.0)  # of three, the slowest
    assert save.wait_p50 == 10.0  # 6, 10 and 11 ms: each request's own, not 17 less 8
    assert save.db_p50 == 3.0
    assert times["trivial view"].requests == 1  # the line before the mark is not the phase's
    table = server_clock.report(list(times.values()))
    [save_line] = [line for line in table.splitlines() if "hand write" in line]
    # Wall 17 against 2 ms, processor 8 against 2 ms, 24 of the 27 ms of processor time; the
    # slowest save's wall and processor time; the waits for the database.
    assert save_line.split()[-11:] == [
        "8.5x", "8.0", "ms", "4.0x", "89%", "19.0", "ms", "9.0", "ms", "3.0", "ms",
    ]  # fmt: skip
