"""What each request cost the day's gunicorn itself (bench.day): its wall time and its processor
time, in the access log, and summed up by kind after each phase.

A ratio the client measures (the save's p50 against the trivial view's) says how much longer one
took, not why: the client's own share, the server's processor time, or waiting in the server (for
PostgreSQL, Redis, the GIL, a core). ``ThreadClock`` (first in the bench server's middleware,
``BENCH_SERVER_CLOCK``) puts the request's processor time (``time.thread_time``) and wall time
into its WSGI environ, which gunicorn's access log reads (``ACCESS_LOG_FORMAT``); ``by_kind`` sums
the lines a phase added to each log.

And the time off the processor spent in the waits for PostgreSQL's and Redis's answers
(``db``): each call of psycopg's ``Connection.wait`` and of redis-py's ``read_response``, timed
on the wall and on the thread's clock. It holds the answer's coming and the thread's getting its
worker's GIL back after it; the rest of the wall time beyond the processor is the thread
waiting for a core or the GIL elsewhere (``make bench SUITES=mix``: beside 200 trivial requests
a second a save's wait grew from 1.8 to 6.1 ms, 4.0 of them in these waits).
"""

import math
import re
import statistics
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

# gunicorn's format (docker/gunicorn.conf.py) with the two times from the environ, in µs.
ACCESS_LOG_FORMAT = (
    '%(h)s %(l)s %(u)s %(t)s "%(r)s" %(s)s %(b)s "%(f)s" "%(a)s" %(M)sms '
    "wall=%({bench.wall_us}e)s cpu=%({bench.cpu_us}e)s db=%({bench.db_us}e)s"
)

# The client's kinds (bench.day), by the path asked.
KINDS = (
    ("hand write", re.compile(r"^POST /s/[^/]+/save/")),
    ("live check", re.compile(r"^POST /s/[^/]+/check/")),
    ("hand in", re.compile(r"^POST /s/[^/]+/submit/")),
    ("confirm", re.compile(r"^POST /s/[^/]+/confirm/")),
    ("entry page", re.compile(r"^GET /s/[^/]+/")),
    ("table page", re.compile(r"^GET /tournaments/[^/]+/rounds/\d+/tables/\d+/live/")),
    ("standings", re.compile(r"^GET /tournaments/[^/]+/standings/table/")),
    ("clock", re.compile(r"^GET /tournaments/[^/]+/rounds/\d+/clock/")),
    ("trivial view", re.compile(r"^GET /healthz/")),
)
_LINE = re.compile(
    r'"(?P<request>[A-Z]+ \S+)[^"]*" \d+ .* wall=(?P<wall>\d+) cpu=(?P<cpu>\d+)'
    r"(?: db=(?P<db>\d+))?$"
)

_waited = threading.local()  # this thread's request: seconds off the processor in the waits


def _timed(wait: Callable) -> Callable:
    """``wait`` (a method that waits for a server's answer), adding to its thread's request
    the wall time it took less the processor time it spent (reading the answer)."""

    def timed(*args, **kwargs):
        wall, cpu = time.perf_counter(), time.thread_time()
        try:
            return wait(*args, **kwargs)
        finally:
            off = (time.perf_counter() - wall) - (time.thread_time() - cpu)
            _waited.seconds = getattr(_waited, "seconds", 0.0) + off

    timed.__wrapped__ = wait  # type: ignore[attr-defined]
    return timed


def _waits_timed() -> None:
    """Time the waits for PostgreSQL (psycopg) and Redis (redis-py) in this process, once."""
    import psycopg
    from redis.connection import AbstractConnection

    for owner, name in ((psycopg.Connection, "wait"), (AbstractConnection, "read_response")):
        method = getattr(owner, name)
        if not hasattr(method, "__wrapped__"):
            setattr(owner, name, _timed(method))


class ThreadClock:
    """The request's wall and processor time and its waits for the database and the cache
    (µs) in its environ, for the access log."""

    def __init__(self, get_response: Callable) -> None:
        self.get_response = get_response
        _waits_timed()

    def __call__(self, request):
        _waited.seconds = 0.0
        wall, cpu = time.perf_counter(), time.thread_time()
        response = self.get_response(request)
        request.META["bench.cpu_us"] = str(round((time.thread_time() - cpu) * 1e6))
        request.META["bench.wall_us"] = str(round((time.perf_counter() - wall) * 1e6))
        request.META["bench.db_us"] = str(round(_waited.seconds * 1e6))
        return response


@dataclass(frozen=True)
class KindTimes:
    kind: str
    requests: int
    wall_p50: float  # ms
    cpu_p50: float  # ms
    cpu_total: float  # s
    wall_p99: float = 0.0  # ms: whether a kind's slowest answers were slow in the server
    cpu_p99: float = 0.0  # ms
    # ms: wall less processor time, request by request (waiting on the network, for the
    # processor and for the GIL; bench.mix)
    wait_p50: float = 0.0
    # ms: off the processor waiting for PostgreSQL's and Redis's answers, request by request
    db_p50: float = 0.0


def marks(logs: list[Path]) -> list[int]:
    """Where each log ends now: a phase's lines are those after it."""
    return [log.stat().st_size for log in logs]


def by_kind(logs: list[Path], since: list[int]) -> list[KindTimes]:
    """The server's times for each kind, from the lines written to ``logs`` after ``since``."""
    times: dict[str, list[tuple[int, int, int]]] = {}
    for log, start in zip(logs, since, strict=True):
        with log.open("rb") as file:
            file.seek(start)
            text = file.read().decode(errors="replace")
        for line in text.splitlines():
            found = _LINE.search(line)
            if found is None:
                continue
            kind = next((k for k, path in KINDS if path.match(found["request"])), None)
            if kind is not None:
                waits = (int(found["wall"]), int(found["cpu"]), int(found["db"] or 0))
                times.setdefault(kind, []).append(waits)
    return [
        KindTimes(
            kind=kind,
            requests=len(each),
            wall_p50=statistics.median(w for w, _c, _d in each) / 1000,
            cpu_p50=statistics.median(c for _w, c, _d in each) / 1000,
            cpu_total=sum(c for _w, c, _d in each) / 1e6,
            wall_p99=_p99([w for w, _c, _d in each]) / 1000,
            cpu_p99=_p99([c for _w, c, _d in each]) / 1000,
            wait_p50=statistics.median(w - c for w, c, _d in each) / 1000,
            db_p50=statistics.median(d for _w, _c, d in each) / 1000,
        )
        for kind, _path in KINDS
        if (each := times.get(kind))
    ]


def _p99(values: list[int]) -> float:
    """The nearest-rank p99, as bench.day's client figures are."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(0.99 * len(ordered)) - 1)]


def report(times: list[KindTimes]) -> str:
    """The kinds as a table: each one's wall and processor time in the server, its p50 against
    the trivial view's, its share of the server's processor time, and its wait off the
    processor for the database and the cache."""
    if not times:
        return "  the server's own times: none logged"
    trivial = next((t for t in times if t.kind == "trivial view"), None)
    spent = sum(t.cpu_total for t in times) or 1.0
    lines = [
        "  the server's own times (gunicorn, per request; p50 against the trivial view's):",
        f"  {'':14} {'requests':>8} {'wall p50':>9} {'ratio':>6} {'cpu p50':>8} {'ratio':>6}"
        f" {'cpu share':>9} {'wall p99':>9} {'cpu p99':>8} {'db p50':>7}",
    ]
    for t in times:
        wall = f"{t.wall_p50 / trivial.wall_p50:.1f}x" if trivial and trivial.wall_p50 else "-"
        cpu = f"{t.cpu_p50 / trivial.cpu_p50:.1f}x" if trivial and trivial.cpu_p50 else "-"
        lines.append(
            f"  {t.kind:14} {t.requests:8} {t.wall_p50:6.1f} ms {wall:>6} {t.cpu_p50:5.1f} ms"
            f" {cpu:>6} {t.cpu_total / spent:8.0%} {t.wall_p99:6.1f} ms {t.cpu_p99:5.1f} ms"
            f" {t.db_p50:4.1f} ms"
        )
    return "\n".join(lines)
