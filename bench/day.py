"""A tournament day's load (issue 36): every table's scorekeeper and every player's phones at
once, against the trivial view (/healthz/) measured in the same seconds.

The site is served as in production: gunicorn with docker/gunicorn.conf.py (2 workers × 4
threads here, its ``max_requests``, its access log), DEBUG off, on the run's PostgreSQL with
Redis as the cache (bench.backends), and a Celery worker beside them as production runs one
(on the run's Redis as its broker): the standings are rebuilt there after a sheet is handed in
or confirmed, not in the request (the other suites run a task in the request that queues it).
The load comes from a client in this process (threads and ``requests``; each request's latency
recorded), which shares the machine's cores with the server and the worker:

- every table's scorekeeper types a hand every 5-8 s through the entry page's own requests
  (through the seat's private link, ``/s/<key>/``): the live check (``check/``, htmx) and a
  second later the save (``save/``, htmx, naming the sheet's version); after the last hand he
  hands the sheet in (``submit/``) and another player of the table opens it and confirms it
  (``confirm/``);
- two phones per player follow the table page, the standings and the round clock at the rates
  the pages poll (read off the pages' ``hx-trigger="every …"``), revalidating with the ETag the
  last answer gave (as a browser's cache does); a page that does not refresh itself is reloaded
  by hand every ``RELOAD_SECONDS``;
- the trivial view, ``PROBE_PER_SECOND`` times a second all through the load, through the same
  client threads: every ratio is a p99 against the trivial view's p99 over the same seconds.
  The run is cut into windows of ``WINDOW_SECONDS`` too, and the ratio of each window given, so
  a ratio that swings with the machine says so.

Two sizes: the German championship (148 players, 37 tables, round 4 of 8), held to the targets,
and a field of 2,000 players (500 tables), whose active tables are stepped up (``STEPS``) until
a target breaks: the figure is how many tables this machine holds within the targets. A step
lasts ``STEP_SECONDS``, or as long as its tables take to send ``P99_FROM`` saves: a p99 of
fewer requests is the slowest of them (nearest rank), and one stall broke the step. The field
runs at its first step's size for ``WARM_SECONDS`` before it is measured, as the championship's
phones first read their pages: what each web process makes once for a round is not a step's
load.

Targets (issues 36 and 45): every kind's p50 within 3× the trivial view's p50 in the same
seconds; the writes' p99 (the hand's save, the live check, handing in, confirming) within 3× the
trivial view's p99, the reads' (table page, standings, clock) within 2×; the machine not
saturated: the trivial view's p99 under the load within 3× its p99 with no load, measured in the
same run just before the load (``NO_LOAD_SECONDS``, the same client at the same rate); no hand
lost or doubled (afterwards, in the database: every hand the client was answered a 2xx for is
stored exactly once with the points it was sent with, and no other); every confirmed sheet in
the standings within 5 s of the last confirmation (the public standings API polled after it);
no table page staler than a save acknowledged before it was asked (``Staleness``: more than
``DESK_READER_SECONDS`` before, each web process's memory of the table's version). The field
"holds" a step only when all of them are met. A kind with fewer than ``JUDGED_FROM`` requests in
a phase (in a field's step, the first tables' hand-ins and confirmations as their 24 hands run
out) is shown but its p50 and p99 are not held to the targets: they are those few requests. A
kind's p99 is held from ``P99_FROM`` requests: of fewer, the p99 (nearest rank) is the slowest
request, and the slowest of n exceeds the kind's own p99 in 1 - 0.99^n of runs however fast the
kind is (31 % for the championship's 37 hand-ins and 37 confirmations, one per table). Such a
p99 is shown as the slowest of n, and its p50 is held.

Two servers as one (issue 45): the suite ``day2`` (``bench/day2.py``) serves the same day from two
gunicorn instances (each as above, on its own loopback port) behind HAProxy from the
distribution's packages (round robin), sharing the run's PostgreSQL and Redis; the client goes
through the proxy, so a table's save and the next request about it mostly meet different
servers. It checks the same targets, and that the servers share the sessions (a desk login made
through one is let in by the other), the cache (the same table and standings versions from
both), the rate limits (a client's API limit counted once across both) and the scans (one
attached through one server is read through the other: Django's storage API).

After each phase the server's own times follow the client's (``bench.server_clock``): each
kind's wall and processor time in gunicorn, from its access log, and its share of the server's
processor time; what the client measured beyond them is its own share and the network's.

``BENCH_DAY_QUICK=1`` runs a short day (a few hands a table, short steps) to try the suite;
``BENCH_DAY_HANDS``, ``BENCH_DAY_STEP_SECONDS`` and ``BENCH_DAY_STEPS`` (comma-separated table
counts) set the run's length; ``BENCH_DAY_WORKERS`` and ``BENCH_DAY_THREADS`` the gunicorn
workers and threads (2 × 4).
"""

import gc
import heapq
import math
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import requests
from django.test.utils import setup_test_environment, teardown_test_environment
from requests.adapters import HTTPAdapter
from urllib3.util.retry import Retry

from bench import server_clock
from bench.figures import Figure
from bench.standings import server_env
from bench.tournament import played as played_tournament
from bench.tournament import players as player_pool

QUICK = os.environ.get("BENCH_DAY_QUICK", "").strip().lower() in {"1", "true", "yes"}


def _env_int(name: str, default: int) -> int:
    value = os.environ.get(name, "").strip()
    return int(value) if value else default


CHAMPIONSHIP = ("tag-dm", 148, 3)  # slug, players, rounds played before the day's round
FIELD = ("tag-gross", 2000, 1)
# Hands typed per table through the site; the match's earlier hands are on the sheet already.
HANDS = _env_int("BENCH_DAY_HANDS", 4 if QUICK else 24)
STEP_SECONDS = _env_int("BENCH_DAY_STEP_SECONDS", 12 if QUICK else 30)
STEPS = [
    int(n)
    for n in (
        os.environ.get("BENCH_DAY_STEPS")
        or ("50,150" if QUICK else "10,20,30,40,50,100,200,350,500")
    )
    .replace(" ", "")
    .split(",")
]
HAND_SECONDS = (5.0, 8.0)  # a scorekeeper types a hand every 5-8 s
CHECK_BEFORE_SAVE = 1.0  # the live check answers while he types; he saves a second later
PHONES_PER_PLAYER = 2
RELOAD_SECONDS = 30  # a page that does not refresh itself: reloaded by hand this often
PROBE_PER_SECOND = 10
WINDOW_SECONDS = 30
CLIENT_THREADS = 48
STANDINGS_WITHIN = 5.0  # seconds after the last confirm
WRITE_TARGET, READ_TARGET = 3.0, 2.0  # p99 against the trivial view's p99
P50_TARGET = 3.0  # every kind's p50 against the trivial view's p50 in the same seconds
SATURATION_TARGET = 3.0  # the trivial view's p99 under the load against its p99 with no load
FIELD_TARGET = 100  # tables of the 2,000-player field held within the targets (issue 45)
NO_LOAD_SECONDS = _env_int("BENCH_DAY_NO_LOAD_SECONDS", 10 if QUICK else 20)
WARM_SECONDS = 4 if QUICK else 10  # the field's load before its first step, not measured
LAG_LIMIT = 1.0  # a step whose requests went out later than this (p99) was not delivered
# Fewer requests of a kind than this in a phase (a field's step as its first tables hand in): its
# p50 and p99 are those few requests themselves, shown but not held to the targets; whether
# they failed still counts. The same least number as a window's (``Line.windows``).
JUDGED_FROM = 20
# The least number of requests whose p99 (nearest rank) is not simply the slowest of them: from
# 100, one request in a hundred may be slow, as a p99 says. A kind's p99 is held to its target
# from this many (``Line.p99_judged``), and a field's step is made long enough for its tables to
# send as many saves (``step_seconds``).
P99_FROM = 100
WORKERS = _env_int("BENCH_DAY_WORKERS", 2)
THREADS = _env_int("BENCH_DAY_THREADS", 4)
SERVER_START_SECONDS = 120  # a shared machine can be slow to load Django twice
HEADERS = {"Accept-Language": "de"}

WRITES = ("hand write", "live check", "hand in", "confirm")
READS = ("table page", "standings", "clock")
TRIVIAL = "trivial view"


def figures(servers: int = 1) -> list[Figure]:
    """The day on one gunicorn, or on ``servers`` of them behind HAProxy (``bench.day2``)."""
    from django.db import connection

    setup_test_environment(debug=False)
    directory = Path(tempfile.mkdtemp(prefix="doko-bench-day-"))
    try:
        print(
            f"day: {HANDS} hands a table, steps of {STEP_SECONDS} s over {STEPS} tables"
            + (" (quick)" if QUICK else "")
            + (f", {servers} servers behind HAProxy" if servers > 1 else ", one server"),
            flush=True,
        )
        start = time.perf_counter()
        championship = _day_tournament(*CHAMPIONSHIP, seed=36)
        large = _day_tournament(*FIELD, seed=3636)
        if servers > 1:
            _desk_member(championship)
        print(f"day: tournaments built in {time.perf_counter() - start:.0f} s", flush=True)
        connection.close()  # the server's workers have the database to themselves
        site = _site(directory, servers)
        try:
            result = [*_championship_day(site.base, championship, site.logs)]
            if servers > 1:
                result += _shared(site, championship)
            result += _field_day(site.base, large, site.logs)
        finally:
            site.stop()
        for number, log in enumerate(site.logs, 1):
            restarts = _restarts(log)
            name = "gunicorn" if servers == 1 else f"server {number} (gunicorn)"
            print(
                f"day: {name} answered {_answered(log):,} requests and restarted a worker "
                f"{restarts} times during the run",
                flush=True,
            )
        return result
    finally:
        teardown_test_environment()
        shutil.rmtree(directory, ignore_errors=True)


# The tournaments --------------------------------------------------------------------------------


@dataclass
class Table:
    number: int
    size: int
    tokens: dict[int, str]  # seat position → the seat's private key
    lines: list  # the match's HandLine, all of it
    typed_from: int  # the first hand typed through the site (the earlier ones are stored)
    # Across the steps of a run: the next hand to type, the hands answered 2xx (number,
    # points), and where the sheet is ("typing", "confirmed", or what went wrong).
    next_hand: int = 0
    acknowledged: list = field(default_factory=list)
    # When each hand was acknowledged (monotonic, hand number), for the staleness check.
    acknowledged_at: list[tuple[float, int]] = field(default_factory=list)
    state: str = "typing"

    def __post_init__(self) -> None:
        self.next_hand = self.typed_from


@dataclass
class DayTournament:
    slug: str
    round_number: int
    tables: list[Table]
    pk: int
    desk: tuple[str, str] | None = None  # a member of its desk (user name, password): day2


def _day_tournament(slug: str, players: int, before: int, *, seed: int) -> DayTournament:
    """A running tournament: ``before`` rounds played and confirmed, the next drawn, published
    and started, every table's match simulated and its first hands on the sheet already."""
    from doko.simulation import simulate_match
    from scoring import services as scoring_services
    from scoring.models import Scoresheet
    from tournaments import selectors, services
    from tournaments.models import Tournament

    rng = random.Random(seed)
    pool = player_pool(players)
    tournament, _tables = played_tournament(
        pool, slug=slug, players=players, rounds=before, seed=seed
    )
    Tournament.objects.filter(pk=tournament.pk).update(planned_rounds=before + 5)
    tournament.refresh_from_db()
    round_ = services.round_create(tournament=tournament)
    services.round_seat(round=round_, seed=seed)
    services.tournament_seating_publish(tournament=tournament)
    round_ = services.round_start(round=round_)
    tables = []
    sheets = Scoresheet.objects.filter(table__round=round_).select_related("table")
    for sheet in sheets.order_by("table__number"):
        tokens = selectors.seat_tokens(table=sheet.table)
        size = len(tokens)
        while True:  # a match the entry row can type: no replays, penalties or stand-ins
            lines = simulate_match(
                rng=rng, table_size=size, hands_per_match=tournament.hands_at(size)
            )
            if not any(
                line.not_played or line.penalty or line.dealt_by_neighbour for line in lines
            ):
                break
        typed_from = max(0, len(lines) - HANDS)
        if typed_from:
            scoring_services.scoresheet_hands_replace(
                scoresheet=sheet,
                hands=lines[:typed_from],
                version=sheet.version,
                by=_keeper(sheet, size),
            )
        tables.append(Table(sheet.table.number, size, tokens, lines, typed_from))
    return DayTournament(slug, round_.number, tables, tournament.pk)


def _keeper(sheet, size: int):
    from doko.rules.deal import scorekeeper
    from scoring.services import Actor

    return Actor(seat=sheet.table.seats.get(position=scorekeeper(size)))


# The server ----------------------------------------------------------------------------------


@dataclass
class Site:
    """The site as the client sees it (``base``), and the gunicorn servers behind it."""

    base: str
    servers: list[str]  # each gunicorn's own address
    logs: list[Path]
    processes: list[subprocess.Popen]

    def stop(self) -> None:
        from tools.servers import stop_process

        for process in reversed(self.processes):
            stop_process(process, group=True)  # each leads a session: its workers with it


def _site(directory: Path, servers: int) -> Site:
    """One gunicorn, or ``servers`` of them behind HAProxy: one environment for all (the same
    secret key, database, cache and media directory), each on its own loopback port."""
    from django.conf import settings

    from tools.servers import CeleryWorker

    extra = {"NUM_PROXIES": "1"} if servers > 1 else {}
    env = server_env(
        directory,
        LOG_LEVEL="INFO",
        WEB_CONCURRENCY=str(WORKERS),
        GUNICORN_THREADS=str(THREADS),
        BENCH_WORKER="1",
        BENCH_SERVER_CLOCK="1",
        **extra,
    )
    site = Site(base="", servers=[], logs=[], processes=[])
    try:
        # The Celery worker production runs beside the web servers (docker-compose.yml): the
        # standings are rebuilt there after a sheet is handed in or confirmed, not in the request.
        worker = CeleryWorker(
            python=sys.executable,
            cwd=Path(settings.BASE_DIR),
            env=env,
            logfile=directory / "celery-worker.log",
        )
        worker.start()
        assert worker.process is not None
        site.processes.append(worker.process)
        for number in range(1, servers + 1):
            process, base, log = _server(directory, env, name=f"gunicorn-{number}")
            site.processes.append(process)
            site.servers.append(base)
            site.logs.append(log)
        if servers == 1:
            site.base = site.servers[0]
        else:
            process, site.base = _proxy(directory, site.servers)
            site.processes.append(process)
    except BaseException:
        site.stop()
        raise
    return site


def proxy_config(port: int, servers: list[str]) -> str:
    """HAProxy's configuration for the bench: round robin over ``servers`` (http://host:port),
    as docker/haproxy.cfg does over the web containers, listening on ``port`` (loopback)."""
    lines = [
        "global",
        "    maxconn 4096",
        "defaults",
        "    mode http",
        "    option forwardfor",
        "    timeout connect 5s",
        "    timeout client 60s",
        "    timeout server 40s",
        "    timeout http-request 30s",
        "    timeout http-keep-alive 4s",
        "    timeout queue 30s",
        "frontend site",
        f"    bind 127.0.0.1:{port}",
        "    default_backend web",
        "backend web",
        "    balance roundrobin",
    ]
    for number, server in enumerate(servers, 1):
        lines.append(f"    server web{number} {server.removeprefix('http://')} check inter 2s")
    return "\n".join(lines) + "\n"


def _haproxy() -> str:
    from tools.servers import ServerError

    for candidate in (shutil.which("haproxy"), "/usr/sbin/haproxy"):
        if candidate and os.access(candidate, os.X_OK):
            return candidate
    raise ServerError(
        "The two-server day needs HAProxy: apt-get install -y haproxy (`make bench "
        "SUITES=day2` installs it)."
    )


def _proxy(directory: Path, servers: list[str]) -> tuple[subprocess.Popen, str]:
    """HAProxy in the foreground on a free loopback port, in front of ``servers``."""
    from tools.servers import ServerError, child_options, free_port, log_tail

    port = free_port()
    config = directory / "haproxy.cfg"
    config.write_text(proxy_config(port, servers))
    log = directory / "haproxy.log"
    with log.open("ab") as output:
        process = subprocess.Popen(
            [_haproxy(), "-db", "-f", str(config)],
            stdout=output,
            **child_options(),  # its stderr into the log too
        )
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and process.poll() is None:
        try:
            if requests.get(f"{base}/healthz/", timeout=5).status_code == 200:
                return process, base
        except requests.RequestException:
            pass
        time.sleep(0.1)
    process.kill()
    process.wait()
    raise ServerError(f"HAProxy did not start:\n{log_tail(log)}")


def _server(
    directory: Path, env: dict[str, str], *, name: str
) -> tuple[subprocess.Popen, str, Path]:
    """gunicorn with docker/gunicorn.conf.py on a free loopback port (DEBUG off), on the run's
    database and cache; its log (access log included, at info: the worker restarts) in a file."""
    from django.conf import settings

    from tools.servers import ServerError, child_options, free_port, log_tail

    log = directory / f"{name}.log"
    port = free_port()
    config = Path(settings.BASE_DIR) / "docker" / "gunicorn.conf.py"
    with log.open("ab") as output:
        process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "gunicorn",
                f"--config={config}",
                f"--bind=127.0.0.1:{port}",
                f"--chdir={settings.BASE_DIR}",
                f"--access-logformat={server_clock.ACCESS_LOG_FORMAT}",
            ],
            env=env,
            stdout=output,
            **child_options(),  # its stderr into the log too
        )
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + SERVER_START_SECONDS
    last = "no answer"
    while time.monotonic() < deadline and process.poll() is None:
        try:
            answer = requests.get(f"{base}/healthz/", timeout=5)
            if answer.status_code == 200:
                return process, base, log
            last = f"{answer.status_code} {answer.text[:200]}"
        except requests.RequestException as error:
            last = repr(error)
        time.sleep(0.1)
    process.kill()
    process.wait()
    raise ServerError(f"gunicorn did not start ({last}):\n{log_tail(log)}")


def _answered(log: Path) -> int:
    """Requests in a gunicorn's access log."""
    return len(re.findall(r'"(?:GET|POST|HEAD) ', log.read_text(errors="replace")))


def _restarts(log: Path) -> int:
    """Workers booted after the first ones: gunicorn's restarts (max_requests, a timeout)."""
    booted = len(re.findall(r"Booting worker with pid", log.read_text(errors="replace")))
    return max(0, booted - WORKERS)


# The client ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Sample:
    kind: str
    at: float  # when it was sent (monotonic)
    seconds: float
    status: int
    lag: float  # how much later than planned it was sent


class Load:
    """A schedule of requests, sent by a pool of threads at their times; each one's latency
    and status recorded."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.samples: list[Sample] = []
        self._due: list[tuple[float, int, Callable[[], None]]] = []
        self._count = 0
        self._lock = threading.Condition()
        self._stopping = False
        self._local = threading.local()
        self._threads: list[threading.Thread] = []

    def at(self, when: float, action: Callable[[], None]) -> None:
        with self._lock:
            self._count += 1
            heapq.heappush(self._due, (when, self._count, action))
            self._lock.notify()

    def start(self) -> None:
        # The client's own full collections out of the measured seconds: what it made before
        # the load (the tournaments' data, Django, earlier phases' samples: 190,000-360,000
        # objects) is frozen, so that a full collection during the load goes through the load's
        # own objects only. Each went through all of them in 85-135 ms, holding every client
        # thread, and added its time to whichever requests were in flight (issue 45).
        gc.collect()
        gc.freeze()
        for _ in range(CLIENT_THREADS):
            thread = threading.Thread(target=self._work, daemon=True)
            thread.start()
            self._threads.append(thread)

    def stop(self) -> None:
        with self._lock:
            self._stopping = True
            self._due.clear()
            self._lock.notify_all()
        for thread in self._threads:
            thread.join(timeout=30)
        self._threads.clear()
        self._stopping = False
        gc.unfreeze()

    def _work(self) -> None:
        while True:
            with self._lock:
                while not self._stopping:
                    if self._due and self._due[0][0] <= time.monotonic():
                        break
                    timeout = self._due[0][0] - time.monotonic() if self._due else None
                    self._lock.wait(timeout)
                if self._stopping:
                    return
                when, _count, action = heapq.heappop(self._due)
            self._local.planned = when
            try:
                action()
            except Exception as error:  # counted as a failed request; go on
                self.record("client error", time.monotonic(), 0.0, 0)
                print(f"day: client error: {error!r}", flush=True)

    @property
    def session(self) -> requests.Session:
        """This thread's connection, for the requests of anonymous readers."""
        session = getattr(self._local, "session", None)
        if session is None:
            session = self._local.session = _session()
        return session

    def record(self, kind: str, sent: float, seconds: float, status: int) -> None:
        planned = getattr(self._local, "planned", sent)
        sample = Sample(kind, sent, seconds, status, max(0.0, sent - planned))
        with self._lock:
            self.samples.append(sample)
        self._local.planned = time.monotonic()  # a second request of one action: not late

    def request(
        self, kind: str, method: str, path: str, *, session: requests.Session | None = None, **kw
    ) -> requests.Response | None:
        session = session or self.session
        sent = time.monotonic()
        try:
            response = session.request(method, self.base + path, timeout=30, **kw)
        except requests.RequestException as error:
            self.record(kind, sent, time.monotonic() - sent, 0)
            print(f"day: {kind} {method} failed: {error!r}", flush=True)
            return None
        self.record(kind, sent, time.monotonic() - sent, response.status_code)
        return response


def _session() -> requests.Session:
    """A browser's connection: kept open between requests (gunicorn closes it after 5 s idle,
    docker/gunicorn.conf.py), and a request on one the server has just closed sent again once,
    as a browser does; the time of both is the request's."""
    session = requests.Session()
    retry = Retry(total=1, connect=1, read=1, status=0, allowed_methods=None, raise_on_status=False)
    session.mount("http://", HTTPAdapter(max_retries=retry))
    session.headers.update(HEADERS)
    return session


def _version(html: str) -> int | None:
    found = re.search(r'name="version" value="(\d+)"', html)
    return int(found.group(1)) if found else None


def _plain(html: str) -> str:
    """The entry row's ``plain`` field: whether the page around it is the sheet alone."""
    found = re.search(r'name="plain" value="(\d)"', html)
    return found.group(1) if found else ""


def _hand_fields(line) -> dict[str, str]:
    from scoring.forms import initial_for

    fields = {}
    for name, value in initial_for(line, mode="raw").items():
        if value is None or value is False or value == "":
            continue
        fields[name] = "on" if value is True else str(value)
    return fields


@dataclass
class Keeper:
    """A table's scorekeeper (typing, then handing in) and the player who confirms."""

    load: Load
    day: DayTournament
    table: Table
    until: float  # no hand is begun after this
    keeper: requests.Session = field(default_factory=_session)
    checker: requests.Session = field(default_factory=_session)
    version: int | None = None
    plain: str = ""  # the entry row's "plain" field, as the page sends it (scoring/views/saved.py)
    confirmed_at: float | None = None
    stopped: bool = False  # this run's time is up

    def __post_init__(self) -> None:
        from doko.rules.deal import scorekeeper

        self.keeper_path = f"/s/{self.table.tokens[scorekeeper(self.table.size)]}/"
        self.checker_path = f"/s/{self.table.tokens[1]}/"

    def _post(self, kind: str, session, path: str, data: dict) -> requests.Response | None:
        token = session.cookies.get("csrftoken", "")
        headers = {"HX-Request": "true", "X-CSRFToken": token}
        return self.load.request(kind, "POST", path, session=session, data=data, headers=headers)

    @property
    def busy(self) -> bool:
        return self.table.state == "typing" and not self.stopped

    def begin(self, start: float) -> None:
        if self.table.state == "typing":
            self.load.at(start, self.open)

    def open(self) -> None:
        response = self.load.request("entry page", "GET", self.keeper_path, session=self.keeper)
        if response is not None and response.ok:
            self.version, self.plain = _version(response.text), _plain(response.text)
        self._later(random.uniform(*HAND_SECONDS), self.check)

    def _later(self, seconds: float, action: Callable[[], None]) -> None:
        self.load.at(time.monotonic() + seconds, action)

    def check(self) -> None:
        table = self.table
        if table.next_hand >= len(table.lines):
            self._later(random.uniform(1, 3), self.submit)
            return
        if time.monotonic() > self.until:
            self.stopped = True
            return
        fields = _hand_fields(table.lines[table.next_hand])
        data = {**fields, "number": str(table.next_hand + 1), "version": str(self.version)}
        self._post("live check", self.keeper, self.keeper_path + "check/", data)
        self._later(CHECK_BEFORE_SAVE, self.save)

    def save(self) -> None:
        table = self.table
        line = table.lines[table.next_hand]
        number = table.next_hand + 1
        data = {
            **_hand_fields(line),
            "number": str(number),
            "version": str(self.version),
            "plain": self.plain,
        }
        response = self._post("hand write", self.keeper, self.keeper_path + "save/", data)
        if response is not None and response.ok:
            table.acknowledged.append((number, dict(line.points)))
            table.acknowledged_at.append((time.monotonic(), number))
            self.version, self.plain = _version(response.text), _plain(response.text)
            table.next_hand += 1
        else:
            # A stale version or an error: the page read again, the hand typed again.
            print(f"day: table {self.table.number} hand {number}: {_status(response)}", flush=True)
            again = self.load.request("entry page", "GET", self.keeper_path, session=self.keeper)
            if again is not None and again.ok:
                self.version, self.plain = _version(again.text), _plain(again.text)
        self._later(random.uniform(*HAND_SECONDS) - CHECK_BEFORE_SAVE, self.check)

    def submit(self) -> None:
        # "Hand in" asks once (``?step=submit``), the sheet's totals beside the button.
        page = self.load.request(
            "entry page",
            "GET",
            self.keeper_path + "?step=submit",
            session=self.keeper,
            headers={"HX-Request": "true"},
        )
        version = _version(page.text) if page is not None and page.ok else None
        data = {"version": str(version)}
        response = self._post("hand in", self.keeper, self.keeper_path + "submit/", data)
        if response is None or not response.ok:
            print(f"day: table {self.table.number} hand in: {_status(response)}", flush=True)
            self.table.state = "not handed in"
            return
        self._later(random.uniform(2, 5), self.confirm)

    def confirm(self) -> None:
        page = self.load.request(
            "entry page", "GET", self.checker_path + "?step=confirm", session=self.checker
        )
        version = _version(page.text) if page is not None and page.ok else None
        data = {"version": str(version)}
        response = self._post("confirm", self.checker, self.checker_path + "confirm/", data)
        if response is None or not response.ok:
            print(f"day: table {self.table.number} confirm: {_status(response)}", flush=True)
            self.table.state = "not confirmed"
            return
        self.confirmed_at = time.monotonic()
        self.table.state = "confirmed"


def _status(response: requests.Response | None) -> str:
    """The answer's status, and what its page says is wrong."""
    if response is None:
        return "no answer"
    said = re.findall(r'role="alert"[^>]*>(.*?)<', response.text, re.DOTALL)
    words = "; ".join(" ".join(text.split()) for text in said if text.strip())
    return f"{response.status_code} {words[:300]}".strip()


_EVERY = re.compile(r'hx-get="([^"]+)"[^>]*hx-trigger="every (\d+)s"')


def _polled(html: str) -> tuple[str, int] | None:
    """What a page refreshes itself with: the path and every how many seconds."""
    found = _EVERY.search(html)
    if found is None:
        return None
    return found.group(1).replace("&amp;", "&"), int(found.group(2))


_HAND_ROW = re.compile(r'<tr>\s*<td class="num">(\d+)</td>')


def hands_shown(html: str) -> int | None:
    """The last hand a table page's sheet shows (its rows' first cells; 0: none yet), None
    where it shows none for a reason (the standings hidden, a first entry checked blind)."""
    if 'class="alert alert-info small" role="status"' in html:
        return None
    return max((int(number) for number in _HAND_ROW.findall(html)), default=0)


class Staleness:
    """Table pages answered older than a save the keeper was acknowledged before they were
    asked. A web process remembers a table's version for ``DESK_READER_SECONDS``
    (``tournaments.caching.table_version``: the process that raised it forgets it at once), so
    another process, or another server, may show the table as it was that much longer: an
    answer older than a save acknowledged more than that before the request is stale; one
    within it is counted apart, as the documented lag."""

    def __init__(self, bound: float) -> None:
        self.bound = bound
        self.checked = self.stale = self.within = self.unreadable = 0
        self._lock = threading.Lock()

    def see(self, table: Table, sent: float, shown: int | None) -> None:
        acknowledged = list(table.acknowledged_at)
        before = max((n for at, n in acknowledged if at <= sent), default=0)
        settled = max((n for at, n in acknowledged if at <= sent - self.bound), default=0)
        with self._lock:
            if shown is None:
                self.unreadable += 1
                return
            self.checked += 1
            if shown < settled:
                self.stale += 1
            elif shown < before:
                self.within += 1

    def __str__(self) -> str:
        return (
            f"{self.stale} stale of {self.checked:,} table pages checked against the saves "
            f"acknowledged before them ({self.within} older than a save acknowledged within "
            f"the {self.bound:g} s a process keeps a table's version"
            + (f", {self.unreadable} showing no hand for a reason" if self.unreadable else "")
            + ")"
        )


@dataclass
class Phone:
    """A player's phone following a page: revalidating with the last ETag, as its cache does."""

    load: Load
    kind: str
    path: str
    seconds: int
    htmx: bool
    until: float
    etag: str | None = None
    next_at: float = 0.0
    table: Table | None = None  # a table page's table, checked for staleness
    staleness: Staleness | None = None
    shown: int | None = None  # the last hand the page it holds shows

    def begin(self, start: float) -> None:
        self.next_at = start + random.uniform(0, self.seconds)
        self.load.at(self.next_at, self.poll)

    def poll(self) -> None:
        # On the page's schedule (htmx sets the next refresh going as it sends this one), not
        # after this one's answer: a client that falls behind sends them late, not fewer.
        self.next_at += self.seconds
        if self.next_at <= self.until:
            self.load.at(self.next_at, self.poll)
        headers = {"HX-Request": "true"} if self.htmx else {}
        if self.etag:
            headers["If-None-Match"] = self.etag
        sent = time.monotonic()
        response = self.load.request(self.kind, "GET", self.path, headers=headers)
        if response is not None and response.status_code == 200:
            self.etag = response.headers.get("ETag")
            if self.table is not None:
                self.shown = hands_shown(response.text)
        if (
            self.table is not None
            and self.staleness is not None
            and response is not None
            and response.status_code in (200, 304)
        ):
            self.staleness.see(self.table, sent, self.shown)


@dataclass
class Probe:
    """The trivial view, on a fixed schedule all through the load: whatever the other requests
    meet (a client behind, a server behind), it meets in the same seconds."""

    load: Load
    until: float
    next_at: float = 0.0

    def begin(self, start: float) -> None:
        self.next_at = start
        self.load.at(start, self.poll)

    def poll(self) -> None:
        self.next_at += 1 / PROBE_PER_SECOND
        if self.next_at <= self.until:
            self.load.at(self.next_at, self.poll)
        self.load.request(TRIVIAL, "GET", "/healthz/")


def _pages(base: str, day: DayTournament) -> dict[str, tuple[str, int, bool]]:
    """What each phone polls, read off the pages: kind → (path, seconds, htmx)."""
    prefix = f"/tournaments/{day.slug}"
    table_page = f"{prefix}/rounds/{day.round_number}/tables/1/"
    pages = {
        "table page": requests.get(base + table_page, headers=HEADERS, timeout=30),
        "standings": requests.get(f"{base}{prefix}/standings/", headers=HEADERS, timeout=30),
        "clock": requests.get(f"{base}{prefix}/rounds/{day.round_number}/", timeout=30),
    }
    polled = {}
    for kind, response in pages.items():
        if response.status_code != 200:
            raise RuntimeError(f"GET {response.url}: {response.status_code}")
        found = _polled(response.text) if kind != "clock" else _clock_polled(response.text)
        if found is None:
            path = response.url.removeprefix(base)
            polled[kind] = (path, RELOAD_SECONDS, False)  # reloaded by hand
        else:
            polled[kind] = (found[0], found[1], True)
    return polled


def _clock_polled(html: str) -> tuple[str, int] | None:
    section = re.search(r'<section id="clock"[^>]*>', html, re.DOTALL)
    if section is None:
        raise RuntimeError("The round page shows no clock: is the round running?")
    return _polled(section.group(0))


def _phones(
    load: Load,
    pages: dict[str, tuple[str, int, bool]],
    day: DayTournament,
    tables: list[Table],
    until: float,
    staleness: Staleness,
) -> list[Phone]:
    table_path = pages["table page"][0]
    phones = []
    for table in tables:
        for _player in range(table.size):
            for _phone in range(PHONES_PER_PLAYER):
                for kind, (path, seconds, htmx) in pages.items():
                    phone = Phone(load, kind, path, seconds, htmx, until)
                    if kind == "table page":  # its own table's
                        phone.path = table_path.replace("/tables/1/", f"/tables/{table.number}/", 1)
                        phone.table, phone.staleness = table, staleness
                    phones.append(phone)
    return phones


# Figures -----------------------------------------------------------------------------------


def _quantile(values: list[float], q: float) -> float:
    """The nearest-rank quantile (q in 0..1)."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(q * len(ordered)) - 1)]


@dataclass(frozen=True)
class Line:
    kind: str
    count: int
    p50: float
    p95: float
    p99: float
    base_p50: float
    base_p95: float
    base_p99: float
    windows: list[tuple[float, float]]  # each window with enough of both: (its p99, trivial's)
    errors: int

    @property
    def ratio(self) -> float:
        return self.p99 / self.base_p99

    @property
    def p50_ratio(self) -> float:
        return self.p50 / self.base_p50

    @property
    def target(self) -> float:
        return WRITE_TARGET if self.kind in WRITES else READ_TARGET

    @property
    def judged(self) -> bool:
        """Whether the kind had enough requests for its p50 to be held to its target
        (``JUDGED_FROM``)."""
        return self.count >= JUDGED_FROM

    @property
    def p99_judged(self) -> bool:
        """Whether the kind had enough requests for its p99 to be held to its target
        (``P99_FROM``): with fewer, the p99 (nearest rank) is the slowest of them."""
        return self.count >= P99_FROM

    @property
    def p50_met(self) -> bool:
        return not self.judged or self.p50_ratio <= P50_TARGET  # NaN: never met

    @property
    def p99_met(self) -> bool:
        return not self.p99_judged or self.ratio <= self.target

    def verdict(self, met: bool, *, p99: bool = False) -> str:
        """A target's word in the phase's table (``p99``: the p99's, else the p50's)."""
        if not (self.p99_judged if p99 else self.judged):
            return "too few to judge"
        return "met" if met else "MISSED"

    def figure_verdict(self, met: bool, *, p99: bool = False) -> str:
        """A target's words in the figures."""
        if not self.judged:
            return f"({self.count} requests: too few to judge)"
        if p99 and not self.p99_judged:
            return f"(the slowest of {self.count} requests: a p99 is judged from {P99_FROM})"
        return _verdict(met)

    @property
    def met(self) -> bool:
        return self.p50_met and self.p99_met and not self.errors

    def paired(self, name: str) -> Figure | None:
        """The p99 window by window, each against the trivial view's in the same window: the
        median ratio and its spread (``Figure.paired``), None with fewer than two windows."""
        if len(self.windows) < 2:
            return None
        pairs = [(p99 * 1000, base * 1000) for p99, base in self.windows]
        return Figure.paired(name, pairs, "trivial view, same window", "ms")

    def spread(self) -> str:
        figure = self.paired(self.kind)
        if figure is None:
            return "one window"
        return f"{len(self.windows)} windows of {WINDOW_SECONDS} s: {figure.reading}"


@dataclass(frozen=True)
class Saturation:
    """The trivial view under the load against the trivial view with no load, in the same run:
    how far the load saturated the machine (every request queues alike)."""

    quiet_p50: float  # ms, with no load (just before it)
    quiet_p99: float
    loaded_p50: float  # ms, all through the load
    loaded_p99: float

    @property
    def ratio(self) -> float:
        return self.loaded_p99 / self.quiet_p99

    @property
    def met(self) -> bool:
        return self.ratio <= SATURATION_TARGET  # NaN: never met

    def __str__(self) -> str:
        return (
            f"trivial view with no load p50 {self.quiet_p50:.1f} ms, p99 {self.quiet_p99:.1f} ms; "
            f"under the load p50 {self.loaded_p50:.1f} ms, p99 {self.loaded_p99:.1f} ms: "
            f"p99 {self.ratio:.2f}x [≤ {SATURATION_TARGET:.0f}x] {_verdict(self.met)}"
        )


def saturation(quiet: list[float], samples: list[Sample]) -> Saturation:
    """``quiet``: the trivial view's seconds with no load; ``samples``: the load's."""
    loaded = [s.seconds for s in samples if s.kind == TRIVIAL and 200 <= s.status < 300]
    quiet_ms = [seconds * 1000 for seconds in quiet] or [math.nan]
    loaded_ms = [seconds * 1000 for seconds in loaded] or [math.nan]
    return Saturation(
        _quantile(quiet_ms, 0.5),
        _quantile(quiet_ms, 0.99),
        _quantile(loaded_ms, 0.5),
        _quantile(loaded_ms, 0.99),
    )


def _verdict(met: bool) -> str:
    return "target met" if met else "target MISSED"


def _lines(samples: list[Sample]) -> list[Line]:
    """Each kind's latencies against the trivial view's over the same seconds (from its first
    request to its last), and window by window."""
    probe = [s for s in samples if s.kind == TRIVIAL and 200 <= s.status < 300]
    lines = []
    for kind in (*WRITES, *READS):
        mine = [s for s in samples if s.kind == kind]
        good = [s for s in mine if 200 <= s.status < 400]
        if not good:
            continue
        first, last = min(s.at for s in good), max(s.at for s in good)
        base = [s.seconds for s in probe if first - 1 <= s.at <= last + 1]
        if len(base) < 20:  # a few confirms in a second: the seconds around them
            middle = (first + last) / 2
            base = [s.seconds for s in probe if abs(s.at - middle) <= WINDOW_SECONDS / 2]
        if not base:  # the trivial view not answered in those seconds: against the whole run
            base = [s.seconds for s in probe] or [math.nan]
        seconds = [s.seconds for s in good]
        windows = []
        start = first
        while start < last:
            inside = [s.seconds for s in good if start <= s.at < start + WINDOW_SECONDS]
            around = [s.seconds for s in probe if start <= s.at < start + WINDOW_SECONDS]
            if len(inside) >= 20 and len(around) >= 20:
                windows.append((_quantile(inside, 0.99), _quantile(around, 0.99)))
            start += WINDOW_SECONDS
        lines.append(
            Line(
                kind=kind,
                count=len(mine),
                p50=_quantile(seconds, 0.5) * 1000,
                p95=_quantile(seconds, 0.95) * 1000,
                p99=_quantile(seconds, 0.99) * 1000,
                base_p50=_quantile(base, 0.5) * 1000,
                base_p95=_quantile(base, 0.95) * 1000,
                base_p99=_quantile(base, 0.99) * 1000,
                windows=windows,
                errors=len(mine) - len(good),
            )
        )
    return lines


def _print(title: str, lines: list[Line], samples: list[Sample]) -> None:
    probe = [s.seconds * 1000 for s in samples if s.kind == TRIVIAL]
    print(f"\n{title}", flush=True)
    print(
        f"  {'':<12} {'requests':>8} {'p50 ms':>8} {'p95 ms':>8} {'p99 ms':>8}"
        f" {'trivial p50':>11} {'trivial p99':>11} {'p50':>6} {'p99':>6}  targets"
    )
    if probe:
        print(
            f"  {TRIVIAL:<12} {len(probe):>8} {_quantile(probe, 0.5):>8.1f}"
            f" {_quantile(probe, 0.95):>8.1f} {_quantile(probe, 0.99):>8.1f}"
        )
    for line in lines:
        errors = f", {line.errors} failed" if line.errors else ""
        print(
            f"  {line.kind:<12} {line.count:>8} {line.p50:>8.1f} {line.p95:>8.1f} {line.p99:>8.1f}"
            f" {line.base_p50:>11.1f} {line.base_p99:>11.1f} {line.p50_ratio:>5.2f}x"
            f" {line.ratio:>5.2f}x  p50 ≤ {P50_TARGET:.0f}x {line.verdict(line.p50_met)},"
            f" p99 ≤ {line.target:.0f}x {line.verdict(line.p99_met, p99=True)}"
            f" ({line.spread()}{errors})"
        )


def _figures(prefix: str, lines: list[Line]) -> list[Figure]:
    result = []
    for line in lines:
        base = "trivial view, same seconds"
        result += [
            Figure(
                f"{prefix} {line.kind}: p50 [≤ {P50_TARGET:.0f}x] {line.figure_verdict(line.p50_met)}",
                line.p50,
                base,
                line.base_p50,
                "ms",
            ),
            Figure(f"{prefix} {line.kind}: p95", line.p95, base, line.base_p95, "ms"),
            Figure(
                f"{prefix} {line.kind}: p99 [≤ {line.target:.0f}x] {line.figure_verdict(line.p99_met, p99=True)}",
                line.p99,
                base,
                line.base_p99,
                "ms",
            ),
        ]
        if windows := line.paired(f"{prefix} {line.kind}: p99, window by window"):
            result.append(windows)
    return result


def _saturation_figures(prefix: str, saturated: Saturation) -> list[Figure]:
    base = "trivial view with no load, same run"
    return [
        Figure(
            f"{prefix} trivial view under the load: p50",
            saturated.loaded_p50,
            base,
            saturated.quiet_p50,
            "ms",
        ),
        Figure(
            f"{prefix} trivial view under the load: p99 [≤ {SATURATION_TARGET:.0f}x] "
            + _verdict(saturated.met),
            saturated.loaded_p99,
            base,
            saturated.quiet_p99,
            "ms",
        ),
    ]


@dataclass(frozen=True)
class Stored:
    acknowledged: int
    stored: int
    lost: int
    doubled: int
    unacknowledged: int
    wrong: int

    @property
    def met(self) -> bool:
        return not (self.lost or self.doubled or self.unacknowledged or self.wrong)

    def __str__(self) -> str:
        return (
            f"{self.stored:,} hands stored for {self.acknowledged:,} acknowledged: "
            f"{self.lost} lost, {self.doubled} doubled, {self.unacknowledged} stored without "
            f"an answer, {self.wrong} with other points"
        )


def _verify(day: DayTournament, tables: list[Table]) -> Stored:
    """Every hand the client was answered a 2xx for is stored exactly once, with the points it
    was sent with; no hand is stored that the client typed without being answered."""
    from django.db import connection

    from scoring.models import Hand

    connection.close()
    counts = {"acknowledged": 0, "stored": 0, "lost": 0, "doubled": 0, "unack": 0, "wrong": 0}
    for table in tables:
        rows = Hand.objects.filter(
            scoresheet__table__round__tournament_id=day.pk,
            scoresheet__table__round__number=day.round_number,
            scoresheet__table__number=table.number,
            number__gt=table.typed_from,
        )
        stored: dict[int, list] = {}
        for hand in rows:
            stored.setdefault(hand.number, []).append(hand)
        counts["acknowledged"] += len(table.acknowledged)
        counts["stored"] += sum(len(hands) for hands in stored.values())
        answered = dict(table.acknowledged)
        for number, points in answered.items():
            hands = stored.get(number, [])
            if not hands:
                counts["lost"] += 1
            elif len(hands) > 1:
                counts["doubled"] += len(hands) - 1
            elif hands[0].points != points:
                counts["wrong"] += 1
        counts["unack"] += len(set(stored) - set(answered))
    connection.close()
    return Stored(
        counts["acknowledged"],
        counts["stored"],
        counts["lost"],
        counts["doubled"],
        counts["unack"],
        counts["wrong"],
    )


def _standings_current(base: str, day: DayTournament, keepers: list[Keeper]) -> float | None:
    """Seconds from the last confirmation until the public standings API shows every confirmed
    sheet's players with a confirmed result of the round; None: not within 30 s."""
    confirmed = {k.table.number for k in keepers if k.confirmed_at is not None}
    if not confirmed:
        return None
    last = max(k.confirmed_at for k in keepers if k.confirmed_at is not None)
    want = sum(k.table.size for k in keepers if k.table.number in confirmed)
    session = _session()
    while time.monotonic() - last < 30:
        seen, offset = 0, 0
        while True:
            response = session.get(
                f"{base}/api/v1/tournaments/{day.slug}/standings",
                params={"offset": offset, "limit": 200},
                timeout=30,
            )
            response.raise_for_status()
            data = response.json()
            at = (
                data["rounds"].index(day.round_number)
                if day.round_number in data["rounds"]
                else None
            )
            for row in data["rows"]:
                result = row["results"][at] if at is not None else None
                if result and result["confirmed"] and result["table"] in confirmed:
                    seen += 1
            offset += len(data["rows"])
            if not data["rows"] or offset >= data["count"]:
                break
        if seen >= want:
            return max(0.0, time.monotonic() - last)
        time.sleep(0.2)
    return None


# The championship ----------------------------------------------------------------------------


def _run(base: str, day: DayTournament, tables: list[Table], seconds: float, *, whole: bool):
    """The load of ``tables`` (their keepers and their players' phones) and the probe, for at
    most ``seconds``; its samples, keepers and the table pages' staleness."""
    from django.conf import settings

    load = Load(base)
    staleness = Staleness(settings.DESK_READER_SECONDS)
    # What the phones poll is read off the pages before the schedule starts: those three first
    # answers (the field's round page is about 1 MB) are not the client's lag.
    pages = _pages(base, day)
    now = time.monotonic()
    until = now + seconds
    phones = _phones(load, pages, day, tables, until, staleness)
    keepers = [Keeper(load, day, table, until) for table in tables]
    probe = Probe(load, until)
    probe.begin(now)
    for keeper in keepers:
        keeper.begin(now + random.uniform(0, HAND_SECONDS[1]))
    for phone in phones:
        phone.begin(now)
    load.start()
    try:
        # Until every keeper is done (his sheet confirmed, or his time up); a step also
        # until its time is up.
        while any(k.busy for k in keepers) or (not whole and time.monotonic() < until):
            if time.monotonic() > until + 60:
                break
            time.sleep(0.5)
    finally:
        load.stop()
    return load.samples, keepers, staleness


def _quiet(base: str) -> list[float]:
    """The trivial view with no load, just before it: the same client (its threads and
    connections), at the same rate, for ``NO_LOAD_SECONDS``; each answer's seconds."""
    load = Load(base)
    now = time.monotonic()
    until = now + NO_LOAD_SECONDS
    Probe(load, until).begin(now)
    load.start()
    try:
        while time.monotonic() < until + 1:
            time.sleep(0.2)
    finally:
        load.stop()
    return [s.seconds for s in load.samples if s.kind == TRIVIAL and 200 <= s.status < 300]


def _targets(rows: list[tuple[str, bool]]) -> bool:
    """Print each target met or missed; whether all were met."""
    print("  targets:")
    for name, met in rows:
        print(f"    {'met   ' if met else 'MISSED'}  {name}")
    missed = sum(not met for _name, met in rows)
    print(
        "  every target met" if not missed else f"  {missed} of {len(rows)} targets missed",
        flush=True,
    )
    return not missed


def _judged_text(line: Line, ratio: float, *, p99: bool = False) -> str:
    if not line.judged:
        return f"{line.kind} {ratio:.2f}x ({line.count} requests: too few to judge)"
    if p99 and not line.p99_judged:
        return f"{line.kind} {ratio:.2f}x (the slowest of {line.count}: not judged)"
    return f"{line.kind} {ratio:.2f}x"


def _line_targets(lines: list[Line]) -> list[tuple[str, bool]]:
    return [
        (
            f"p50 within {P50_TARGET:.0f}x the trivial view's, same seconds: "
            + ", ".join(_judged_text(line, line.p50_ratio) for line in lines),
            bool(lines) and all(line.p50_met for line in lines),
        ),
        (
            f"p99 within {WRITE_TARGET:.0f}x (writes) / {READ_TARGET:.0f}x (reads) the trivial "
            f"view's, from {P99_FROM} requests: "
            + ", ".join(_judged_text(line, line.ratio, p99=True) for line in lines),
            bool(lines) and all(line.p99_met for line in lines),
        ),
        (
            "no request failed: "
            + (", ".join(f"{line.kind} {line.errors}" for line in lines if line.errors) or "none"),
            not any(line.errors for line in lines),
        ),
    ]


def _championship_day(base: str, day: DayTournament, logs: list[Path]) -> list[Figure]:
    _slug, players, _before = CHAMPIONSHIP
    hands_seconds = HANDS * sum(HAND_SECONDS) / 2 + 30
    pages = _pages(base, day)
    print(
        f"\nday: the championship, {players} players at {len(day.tables)} tables, round "
        f"{day.round_number}: {HANDS} hands a table, {PHONES_PER_PLAYER} phones a player "
        "polling " + ", ".join(f"{kind} every {s} s" for kind, (_p, s, _h) in pages.items()),
        flush=True,
    )
    random.seed(36)
    quiet = _quiet(base)
    since = server_clock.marks(logs)
    # A table's match ends when its last hand is typed; the run ends when every sheet is
    # confirmed (or two minutes after the expected end).
    samples, keepers, staleness = _run(base, day, day.tables, hands_seconds + 120, whole=True)
    stored = _verify(day, day.tables)
    confirmed = sum(k.table.state == "confirmed" for k in keepers)
    current = _standings_current(base, day, keepers)
    lines = _lines(samples)
    saturated = saturation(quiet, samples)
    title = f"day: championship {players} players, {len(day.tables)} tables"
    _print(title, lines, samples)
    print(server_clock.report(server_clock.by_kind(logs, since)))
    print(f"  {saturated}")
    print(f"  hands: {stored} - {_verdict(stored.met)}")
    print(f"  table pages: {staleness} - {_verdict(not staleness.stale)}")
    print(f"  sheets confirmed: {confirmed} of {len(keepers)}")
    lag = _quantile([s.lag for s in samples], 0.99) if samples else 0.0
    planned = sum(len(table.lines) - table.typed_from for table in day.tables)
    print(
        f"  hands typed {stored.acknowledged} of {planned}; the client's lag p99 {lag * 1000:.0f} ms"
        + ("" if lag <= LAG_LIMIT else " - the load was not delivered in time (saturated)"),
        flush=True,
    )
    current_met = current is not None and current <= STANDINGS_WITHIN and confirmed == len(keepers)
    current_text = "not within 30 s" if current is None else f"{current:.1f} s"
    print(
        f"  standings current after the last confirm: {current_text} [≤ {STANDINGS_WITHIN:.0f} s]"
        f" - {_verdict(current_met)}",
        flush=True,
    )
    _targets(
        [
            *_line_targets(lines),
            (
                f"trivial view's p99 under the load within {SATURATION_TARGET:.0f}x its p99 with "
                f"no load: {saturated.ratio:.2f}x ({saturated.loaded_p99:.0f} against "
                f"{saturated.quiet_p99:.0f} ms)",
                saturated.met,
            ),
            (f"no hand lost or doubled: {stored}", stored.met),
            (
                f"standings current within {STANDINGS_WITHIN:.0f} s, every sheet confirmed: "
                f"{current_text}, {confirmed} of {len(keepers)}",
                current_met,
            ),
            (f"no table page stale: {staleness.stale}", not staleness.stale),
        ]
    )
    prefix = f"championship ({len(day.tables)} tables)"
    return [
        *_saturation_figures(prefix, saturated),
        *_figures(prefix, lines),
        Figure(
            f"{prefix} hands stored exactly once ({stored}) {_verdict(stored.met)}",
            stored.stored,
            "hands acknowledged",
            max(1, stored.acknowledged),
            "",
        ),
        Figure(
            f"{prefix} table pages stale [0] {_verdict(not staleness.stale)}",
            staleness.stale,
            "table pages checked",
            max(1, staleness.checked),
            "",
        ),
        Figure(
            f"{prefix} sheets confirmed ({confirmed} of {len(keepers)})",
            confirmed,
            "sheets",
            len(keepers),
            "",
        ),
        Figure(
            f"{prefix} standings current after the last confirm [≤ 5 s] " + _verdict(current_met),
            current if current is not None else 30.0,
            "the target",
            STANDINGS_WITHIN,
            "s",
        ),
    ]


# The 2,000-player field ------------------------------------------------------------------------


def step_seconds(tables: int) -> int:
    """How long a field's step runs at ``tables`` tables: ``STEP_SECONDS``, or as long as its
    scorekeepers take to send ``P99_FROM`` saves between them. At 10 tables 30 s gave some 33
    saves, and a save's p99 was the slowest of them: one stall broke the step. Each keeper's
    first save comes up to ``HAND_SECONDS[1]`` after the step begins, plus a hand's time and the
    live check's second; then one every hand's time."""
    hand = sum(HAND_SECONDS) / 2
    first = HAND_SECONDS[1] + hand + CHECK_BEFORE_SAVE
    return max(STEP_SECONDS, math.ceil(first + hand * P99_FROM / tables))


def _field_day(base: str, day: DayTournament, logs: list[Path]) -> list[Figure]:
    _slug, players, _before = FIELD
    print(
        f"\nday: the field of {players:,} players ({len(day.tables)} tables), active tables "
        f"stepped up {STEPS}, {STEP_SECONDS} s each or as long as {P99_FROM} saves take; a "
        "step is held when every target is met",
        flush=True,
    )
    random.seed(3636)
    quiet = _quiet(base)
    # Unmeasured: the field's first requests in each web process make what it then keeps for
    # the round (its tables' sizes and extra time for the clock, its head, the round's row), a
    # cost once per process and round, not of a step's load; with a few dozen samples a kind
    # in the first step, its slowest was one of them.
    _run(base, day, day.tables[: min(STEPS[0], len(day.tables))], WARM_SECONDS, whole=False)
    print(f"day: the field warmed up at {STEPS[0]} tables for {WARM_SECONDS} s (not measured)")
    held, figures_ = 0, []
    for count in STEPS:
        tables = day.tables[: min(count, len(day.tables))]
        since = server_clock.marks(logs)
        seconds = step_seconds(len(tables))
        samples, _keepers, staleness = _run(base, day, tables, seconds, whole=False)
        lines = _lines(samples)
        saturated = saturation(quiet, samples)
        stored = _verify(day, tables)
        lag = _quantile([s.lag for s in samples], 0.99) if samples else 0.0
        delivered = lag <= LAG_LIMIT
        _print(f"day: field, {len(tables)} tables active for {seconds} s", lines, samples)
        print(server_clock.report(server_clock.by_kind(logs, since)))
        print(f"  {saturated}")
        print(f"  hands: {stored}", flush=True)
        print(f"  table pages: {staleness}", flush=True)
        print(
            f"  the client's lag p99 {lag * 1000:.0f} ms"
            + ("" if delivered else " - the load was not delivered in time"),
            flush=True,
        )
        met = _targets(
            [
                *_line_targets(lines),
                (
                    f"trivial view's p99 under the load within {SATURATION_TARGET:.0f}x its p99 "
                    f"with no load: {saturated.ratio:.2f}x",
                    saturated.met,
                ),
                (f"no hand lost or doubled: {stored}", stored.met),
                (f"no table page stale: {staleness.stale}", not staleness.stale),
                (f"the load delivered: the client's lag p99 ≤ {LAG_LIMIT:.0f} s", delivered),
            ]
        )
        if lines:
            judged = [line for line in lines if line.p99_judged] or lines
            worst = max(judged, key=lambda line: line.ratio / line.target)
            figures_.append(
                Figure(
                    f"field, {len(tables)} tables: worst p99 ({worst.kind}) "
                    + ("within the targets" if met else "beyond the targets"),
                    worst.p99,
                    "trivial view, same seconds",
                    worst.base_p99,
                    "ms",
                )
            )
            figures_.append(
                Figure(
                    f"field, {len(tables)} tables: trivial view under the load: p99 "
                    f"[≤ {SATURATION_TARGET:.0f}x] {_verdict(saturated.met)}",
                    saturated.loaded_p99,
                    "trivial view with no load, same run",
                    saturated.quiet_p99,
                    "ms",
                )
            )
        if not met:
            break
        held = len(tables)
    figures_.append(
        Figure(
            f"field of {players:,}: tables held within the targets ({held} of {len(day.tables)})"
            f" [≥ {FIELD_TARGET}] {_verdict(held >= FIELD_TARGET)}",
            held,
            "tables",
            len(day.tables),
            "",
        )
    )
    print(
        f"\nday: this machine holds {held} of {len(day.tables)} tables within the targets "
        f"[≥ {FIELD_TARGET}] - {_verdict(held >= FIELD_TARGET)}"
    )
    return figures_


# Two servers as one ------------------------------------------------------------------------------


DESK_USER = ("bench-day-desk", "day-desk-bench-password-2026")


def _desk_member(day: DayTournament) -> None:
    """An organiser of ``day``'s tournament, to log in at its desk through one server and be
    let in by the other."""
    from django.contrib.auth import get_user_model

    from tournaments.models import TournamentRole

    username, password = DESK_USER
    user = get_user_model().objects.create_user(
        username=username, password=password, first_name="Dora", last_name="Desk"
    )
    TournamentRole.objects.create(
        tournament_id=day.pk, user=user, role=TournamentRole.Role.ORGANISER
    )
    day.desk = DESK_USER


def _shared(site: Site, day: DayTournament) -> list[Figure]:
    """What the servers must share, checked through each of them directly: the sessions, the
    cache, the rate limits and the scans."""
    first, second = site.servers[:2]
    print("\nday: what the two servers share (each asked directly)", flush=True)
    checks = {
        "sessions": _sessions_shared(first, second, day),
        "cache": _cache_shared(first, second, day),
        "rate limits": _limits_shared(first, second),
        "scans": _scans_shared(first, second, day),
    }
    _targets([(f"{name}: {detail}", ok) for name, (ok, detail) in checks.items()])
    return [
        Figure(f"two servers share the {name} {_verdict(ok)}", int(ok), "shared", 1, "")
        for name, (ok, _detail) in checks.items()
    ]


def _csrf(session: requests.Session, page: requests.Response) -> str:
    found = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.text)
    return found.group(1) if found else session.cookies.get("csrftoken", "")


def _sessions_shared(first: str, second: str, day: DayTournament) -> tuple[bool, str]:
    """A desk login made through the first server is let in by the second (sessions in the
    database, signed with the one secret key), and a logout through the second reaches the
    first within ``DESK_READER_SECONDS`` (its memory of who may read the desk)."""
    from django.conf import settings

    assert day.desk is not None
    username, password = day.desk
    session = _session()
    login = "/accounts/login/"
    page = session.get(first + login, timeout=30)
    session.post(
        first + login,
        data={
            "csrfmiddlewaretoken": _csrf(session, page),
            "username": username,
            "password": password,
        },
        headers={"Referer": first + login},
        timeout=30,
        allow_redirects=False,
    )
    if "sessionid" not in session.cookies:
        return False, "no session after logging in through server 1"
    desk = f"/tournaments/{day.slug}/rounds/{day.round_number}/desk/"
    here = session.get(first + desk, timeout=30, allow_redirects=False).status_code
    there = session.get(second + desk, timeout=30, allow_redirects=False).status_code
    page = session.get(second + desk, timeout=30, allow_redirects=False)
    session.post(
        second + "/accounts/logout/",
        data={"csrfmiddlewaretoken": _csrf(session, page)},
        headers={"Referer": second + desk},
        timeout=30,
        allow_redirects=False,
    )
    time.sleep(settings.DESK_READER_SECONDS + 0.5)
    after = session.get(first + desk, timeout=30, allow_redirects=False).status_code
    ok = here == 200 and there == 200 and after in (302, 403)
    return ok, (
        f"the desk page after logging in through server 1: {here} from server 1, {there} from "
        f"server 2; after logging out through server 2: {after} from server 1"
    )


def _cache_shared(first: str, second: str, day: DayTournament) -> tuple[bool, str]:
    """Both servers answer a table page's refresh and the standings with the same ETag: the
    versions they are made of are in the one Redis."""
    pages = _pages(first, day)
    same = []
    for kind in ("table page", "standings"):
        path, _seconds, htmx = pages[kind]
        headers = {**HEADERS, **({"HX-Request": "true"} if htmx else {})}
        etags = [
            requests.get(server + path, headers=headers, timeout=30).headers.get("ETag")
            for server in (first, second)
        ]
        same.append(etags[0] is not None and etags[0] == etags[1])
    return all(same), (
        f"table page's ETag {'the same' if same[0] else 'differs'} from both, standings' "
        f"{'the same' if same[1] else 'differs'}"
    )


def _limits_shared(first: str, second: str) -> tuple[bool, str]:
    """One client's public API limit (``PUBLIC_API_RATE_CLIENT``) counted once across both
    servers: asked in turn through each, it is refused after the limit, not after twice it."""
    from django.conf import settings

    from limits.windows import parse_rate

    limit, period = parse_rate(settings.PUBLIC_API_RATE_CLIENT)
    left = period - time.time() % period
    if left < 20:  # all of it in one window
        time.sleep(left + 0.5)
    session = _session()
    allowed = 0
    for number in range(3 * limit + 5):
        server = (first, second)[number % 2]
        answer = session.post(f"{server}/api/v1/rules/penalty", json={}, timeout=30)
        if answer.status_code == 429:
            break
        allowed += 1
    # The first request, without the client's cookie yet, is counted by its address only.
    ok = allowed == limit + 1
    return ok, (
        f"{allowed} requests let through in turn by both before the first 429; the limit is "
        f"{limit} a client (+1 before its cookie)"
    )


def _png() -> bytes:
    import io

    from PIL import Image

    output = io.BytesIO()
    Image.new("RGB", (320, 240), (250, 250, 240)).save(output, format="PNG")
    return output.getvalue()


def _scans_shared(first: str, second: str, day: DayTournament) -> tuple[bool, str]:
    """A photo of a signed sheet attached through the first server is read, byte for byte the
    same, through the second (Django's storage API; here both servers' MEDIA_ROOT is one
    directory, on two machines a shared volume or an object store)."""
    from doko.rules.deal import scorekeeper

    table = day.tables[0]
    path = f"/s/{table.tokens[scorekeeper(table.size)]}/"
    session = _session()
    page = session.get(first + path, timeout=30)
    attached = session.post(
        first + path + "scan/",
        files={"file": ("scan.png", _png(), "image/png")},
        data={"csrfmiddlewaretoken": _csrf(session, page)},
        headers={"Referer": first + path},
        timeout=30,
        allow_redirects=False,
    )
    if attached.status_code not in (302, 303):
        return False, f"attaching through server 1: {_status(attached)}"
    here = session.get(first + path + "scan/", timeout=30)
    there = session.get(second + path + "scan/", timeout=30)
    ok = here.status_code == there.status_code == 200 and here.content == there.content
    return ok, (
        f"attached through server 1; read through server 1: {here.status_code} "
        f"({len(here.content):,} bytes), through server 2: {there.status_code} "
        f"({len(there.content):,} bytes{', the same' if here.content == there.content else ', different'})"
    )
