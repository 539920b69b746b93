"""The standings and the ranking list (issue 7), each against reading the rows it is built from,
in turn with it (bench.figures: the median of the pairs' ratios and their spread):

- what a confirm costs the standings of a 2,000-player tournament after 10 rounds (the table's
  results rewritten from its sheet, then the standings rebuilt; target under 200 ms), and the
  plain-Python standings alone;
- the ranking list over 50,000 player-rounds of 5 finished tournaments (target under 2 s), and
  the plain-Python ranking alone;
- the public standings (page, htmx fragment, 304 on the ETag, JSON API) of that tournament and
  of a German championship (148 players, 8 rounds) under 100 concurrent connections against the
  trivial view, served by gunicorn (2 workers × 4 threads) on loopback and loaded by wrk
  (target, issue 22: at least 0.8× the trivial view's requests per second, and a p99 latency
  within 1.5× of its p99), each phase in 6 pairs of 2 s with the trivial view; the trivial
  view's own drift across the pairs is printed above each phase.

The 2,000-player tournament is the run's shared one (bench.tournament). Runs in the run's
database (bench.backends): by default a throwaway PostgreSQL, with Redis as the cache, and the
server of the last part uses both as production does (DEBUG off, persistent connections, one
cache shared by its workers). With BENCH_DB=sqlite, the server reads the same SQLite file with
each worker's own in-memory cache, and every request opens its connection anew (the settings keep
none on SQLite), which a 304 feels. Needs wrk (Debian: apt-get install wrk).

Where the time went (issue 22, profiled in process: Django's WSGI handler with the server's
settings, PostgreSQL and Redis, the best of 9 × 200 requests; cProfile for the shares):

- A public request cost the trivial view's 170–230 µs plus 280–440 µs for a 200 and 50–160 µs for
  a 304, although every answer was cached. The page and the table spent it unpickling the
  tournament's row and a 64 KB page from Django's local-memory cache (12 % and 6 % of the
  request), building a Tournament and hashing its fields for the ETag, encoding the page again
  (5 %), and loading the session to learn that the reader was anonymous. The API also tried some
  90 URL patterns before its own (17 %) and let DRF validate the query (a serializer deep-copies
  its fields: 12 %), negotiate the content and authenticate (11 %) before the cache was asked.
  Now a request without a session cookie is answered from each process's own memory (the bytes
  and the tournament's head as they are, tournaments.caching.memory), the API before DRF parses
  it, and the polled routes come first: 30–40 µs over the trivial view, for every phase. Served
  by gunicorn, the trivial view costs 500–900 µs of CPU per request (its gthread worker, the
  sockets), so what is left is a few per cent of a request.
- What is left is mostly the answers' size. With one connection (the best median latency of
  6 runs), the trivial view took 453 µs, the 304s 53–67 µs more, the trivial view answering
  64 KB 60 µs more and 154 KB 82 µs more, the page and the table (64–68 KB) 116–120 µs more and
  the API (154 KB) 132 µs more. Under load on two cores shared by gunicorn, wrk and others'
  tests, the trivial view answering 154 KB (the "no target" lines) reached 0.5–0.8× of the empty
  one in the same runs, which is where the API phases are (0.5–0.9×).
- A confirm's rebuild took 205 ms: reading the 20,000 results 80 ms, half of it PostgreSQL
  sorting them by the model's default ordering, which the standings do not need, and a frozen
  dataclass per result (29 ms for the 20,000; a named tuple takes 7 ms); the ranking 28 ms (a
  second sort key and a dataclasses.replace per row); packing 42 ms (every result copied into a
  list, then JSON); and full collections of the cycle collector, set off by the 50,000 new
  objects, about a quarter of the whole. Now the results come unordered as named tuples, which
  JSON writes as they are, the ranking is one pass, and the collector waits: about 140 ms, of
  which the query 45 ms, the ranking 18 ms and the JSON 25 ms.
- Issue 45 (28 November 2026): the confirm 186 ms, of which the rebuild 155 ms: reading the
  20,000 results 45 ms (PostgreSQL, without statistics on the fresh tables, joined them to
  their tables one by one), the JSON 60 ms, the ranking 26 ms, the collector after it some
  15 ms. Now a confirm's want names its table, and the rebuild after it reads only that
  table's players' results, computes their rows again and writes only their JSON
  (``standings.updated``, ``Standings.pack``): the confirm 64 ms, the rebuild 47 ms; the
  rebuild from every result, for any other want, 131 ms.
"""

import datetime
import os
import random
import re
import secrets
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path
from unittest import mock

from django.db import transaction
from django.test.utils import setup_test_environment, teardown_test_environment
from django.utils import timezone

from bench.figures import Figure, drift, in_turn_with
from bench.tournament import (
    PLAYERS,
    ROUNDS,
    SEED,
    SLUG,
    Shared,
    closed_rounds,
    shared,
    tournament_row,
)
from bench.tournament import played as played_tournament

LARGE = SLUG  # the run's synthetic tournament (bench.tournament), of the confirm and the load
CHAMPIONSHIP, CHAMPIONSHIP_SIZE = "dm", (148, 8)  # a German championship, for the load only
RANKED, RANKED_PLAYERS = 5, 1000  # the ranking list: 5 × 1,000 players × 10 rounds
WORKERS, THREADS, CONNECTIONS, SECONDS = 2, 4, 100, 10  # the load of part 3
HEADERS = {"Accept-Language": "de"}  # a public reader: no cookies, no login


def figures() -> list[Figure]:
    from django.db import connection

    setup_test_environment(debug=False)  # DEBUG off, as in production: no query log
    directory = Path(tempfile.mkdtemp(prefix="doko-bench-standings-"))
    try:
        today = timezone.localdate()
        large = shared()
        results = [*_standings(large), *_ranking(large.pool, today)]
        players, rounds = CHAMPIONSHIP_SIZE
        played_tournament(
            large.pool, slug=CHAMPIONSHIP, players=players, rounds=rounds, seed=SEED + 2
        )
        connection.close()  # the server's workers have the database to themselves from here on
        return [*results, *_under_load(directory)]
    finally:
        teardown_test_environment()
        shutil.rmtree(directory, ignore_errors=True)


# 1. Standings after a confirm ----------------------------------------------------------------


def _standings(large: Shared) -> list[Figure]:
    from doko import standings
    from tournaments import selectors, services
    from tournaments.models import SeatResult, StandingsWanted

    tournament = large.tournament
    table = large.round_tables(6)[0]  # any one will do

    def confirm() -> None:
        services.results_refresh(tables=[table])
        services.standings_rebuild(tournament_id=tournament.pk)

    def rebuild() -> None:
        # What the worker finds after a confirm: the want of the table's players.
        StandingsWanted.objects.create(tournament=tournament, table_pk=table.pk)
        services.standings_rebuild(tournament_id=tournament.pk)

    def fetch() -> list:
        return list(
            SeatResult.objects.filter(round__tournament=tournament).values_list(
                "entry_id",
                "round__number",
                "table__number",
                "position",
                "points",
                "penalty",
                "deducted",
                "placing",
                "confirmed",
                "solos_played",
                "solos_won",
            )
        )

    entrants = selectors.standings_entrants(tournament=tournament)
    results = selectors.standings_results(tournament=tournament)
    tiebreaks = selectors.tiebreaks_of(tournament)
    assert len(results) == PLAYERS * ROUNDS

    # Called directly: the confirm writes its want (the table), but the rebuild it queues
    # after commit is left out, as the worker runs it apart from the confirm; the rebuild
    # that follows finds the want. Each in turn with reading the results. The rebuild that
    # reads every result (a want without a table: a player's name changed, a repair) apart.
    with mock.patch("tournaments.services.standings.workers.send_or_run", return_value=None):
        StandingsWanted.objects.filter(tournament=tournament).delete()
        services.standings_rebuild(tournament_id=tournament.pk)  # this process's, to start from
        whole, refresh, updated, full, core = _ms(
            in_turn_with(
                fetch,
                [
                    confirm,
                    lambda: services.results_refresh(tables=[table]),
                    rebuild,
                    lambda: services.standings_rebuild(tournament_id=tournament.pk),
                    lambda: standings.standings(
                        entrants=entrants, results=results, tiebreaks=tiebreaks
                    ),
                ],
                pairs=7,
                seconds=0.25,
                best_of=2,
            )
        )
        StandingsWanted.objects.filter(tournament=tournament).delete()
    baseline = f"reading the {len(results):,} results"
    size = f"{PLAYERS:,} players × {ROUNDS} rounds"
    return [
        Figure.paired(f"confirm → standings, {size} [< 200 ms]", whole, baseline, "ms"),
        Figure.paired("  of which results_refresh(1 table)", refresh, baseline, "ms"),
        Figure.paired(
            "  of which standings_rebuild (the table's players)", updated, baseline, "ms"
        ),
        Figure.paired("standings_rebuild from every result (no target)", full, baseline, "ms"),
        Figure.paired("standings.standings() alone (plain Python)", core, baseline, "ms"),
    ]


def _ms(measured: list[list[tuple[float, float]]]) -> list[list[tuple[float, float]]]:
    """Pairs of microseconds per call as milliseconds."""
    return [[(value / 1000, base / 1000) for value, base in pairs] for pairs in measured]


# 2. The ranking list -------------------------------------------------------------------------


@transaction.atomic
def _ranked_tournaments(pool, today: datetime.date) -> int:
    """5 finished tournaments of 1,000 players from the pool, 10 rounds each, within the last
    24 months, their results written directly (zero-sum points at each table of four)."""
    from doko import standings
    from tournaments.models import Entry, SeatResult, Table, Tournament

    rng = random.Random(SEED + 1)
    written = 0
    for number in range(RANKED):
        ends_on = today - datetime.timedelta(days=30 + 140 * number)
        tournament = tournament_row(
            slug=f"rangliste-{number + 1}", ends_on=ends_on, status=Tournament.Status.FINISHED
        )
        entries = Entry.objects.bulk_create(
            Entry(tournament=tournament, player=player, start_number=start)
            for start, player in enumerate(rng.sample(pool, RANKED_PLAYERS), start=1)
        )
        at = timezone.make_aware(datetime.datetime.combine(ends_on, datetime.time(10)))
        rounds = closed_rounds(tournament, at)
        per_round = RANKED_PLAYERS // 4
        tables = Table.objects.bulk_create(
            Table(round=round_, number=n) for round_ in rounds for n in range(1, per_round + 1)
        )
        results = []
        for round_ in rounds:
            order = entries[:]
            rng.shuffle(order)
            for index in range(per_round):
                table = tables[(round_.number - 1) * per_round + index]
                seated = order[4 * index : 4 * index + 4]
                a, b, c = (rng.randint(-60, 60) for _ in range(3))
                points = dict(enumerate((a, b, c, -(a + b + c)), start=1))
                placings = standings.table_placings(points)
                results += [
                    SeatResult(
                        table=table,
                        round=round_,
                        entry=entry,
                        position=position,
                        game_points=points[position],
                        points=points[position],
                        placing=placings[position],
                        confirmed=True,
                        hands=24,
                    )
                    for position, entry in enumerate(seated, start=1)
                ]
        written += len(SeatResult.objects.bulk_create(results))
    return written


def _ranking(pool, today: datetime.date) -> list[Figure]:
    from doko import standings
    from rankings.models import RankingAdmission, RankingList
    from rankings.selectors import ranking_rounds
    from rankings.services.lists import ranking_rebuild
    from tournaments.models import Tournament

    written = _ranked_tournaments(pool, today)
    # The DDV's: 24 months, ranked from 36 rounds on; its maintainers admitted every one.
    ranking_list = RankingList.objects.create(
        name="Rangliste (bench)", slug="bench-rangliste", months=24, min_rounds=36
    )
    RankingAdmission.objects.bulk_create(
        RankingAdmission(
            ranking_list=ranking_list,
            tournament=tournament,
            status=RankingAdmission.Status.ADMITTED,
            requested_at=timezone.now(),
            decided_at=timezone.now(),
        )
        for tournament in Tournament.objects.filter(slug__startswith="rangliste-")
    )
    since = standings.months_before(today, ranking_list.months)
    played = ranking_rounds(ranking_list=ranking_list, since=since, until=today)
    assert len(played) == written == RANKED * RANKED_PLAYERS * ROUNDS

    def fetch() -> list:
        return ranking_rounds(ranking_list=ranking_list, since=since, until=today)

    rebuild, core = _ms(
        in_turn_with(
            fetch,
            [
                lambda: ranking_rebuild(ranking_list=ranking_list, today=today),
                lambda: standings.ranking(played=played, today=today, months=24, min_rounds=36),
            ],
            pairs=5,
            seconds=0.25,
            best_of=1,
        )
    )
    baseline = f"ranking_rounds(): {written:,} rows"
    return [
        Figure.paired(
            f"ranking_rebuild, {written:,} player-rounds [< 2 s]", rebuild, baseline, "ms"
        ),
        Figure.paired("standings.ranking() alone (plain Python)", core, baseline, "ms"),
    ]


# 3. The public standings under load ----------------------------------------------------------

SERVER_SETTINGS = """import os

from config.settings import *  # noqa: F403

ROOT_URLCONF = "bench.urls"  # the site and the trivial view
# No Celery worker runs: a task runs in the request that sends it (bench.backends); unless the
# suite starts one, as production runs one (BENCH_WORKER, the day: bench.day).
CELERY_TASK_ALWAYS_EAGER = not os.environ.get("BENCH_WORKER")
# Pages name static files without collectstatic's manifest, which only a deployment builds.
STORAGES = {
    **STORAGES,  # noqa: F405
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
# The day's access log gives each request's own times (bench.server_clock).
if os.environ.get("BENCH_SERVER_CLOCK"):
    MIDDLEWARE = ["bench.server_clock.ThreadClock", *MIDDLEWARE]  # noqa: F405
"""


def server_env(directory: Path, **extra: str) -> dict[str, str]:
    """The environment of a bench's gunicorn: this process's, on the run's database and cache
    (DATABASE_URL, REDIS_URL: bench.backends), DEBUG off, the bench's settings module written
    to ``directory``; ``extra`` on top."""
    from django.conf import settings

    (directory / "bench_server_settings.py").write_text(SERVER_SETTINGS)
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in {"REDIS_URL", "CELERY_BROKER_URL", "DATABASE_URL", "DJANGO_SETTINGS_MODULE"}
    }
    env.update(
        PYTHONPATH=os.pathsep.join([str(directory), str(settings.BASE_DIR)]),
        DJANGO_SETTINGS_MODULE="bench_server_settings",
        DATABASE_URL=os.environ["DATABASE_URL"],
        DEBUG="false",
        SECRET_KEY=secrets.token_urlsafe(50),
        ALLOWED_HOSTS="127.0.0.1",
        SECURE_SSL_REDIRECT="false",
        SECURE_COOKIES="false",
        VAR_DIR=str(directory),
        **extra,
    )
    if redis_url := os.environ.get("REDIS_URL"):
        env["REDIS_URL"] = redis_url
    return env


def _server(directory: Path) -> tuple[subprocess.Popen, str]:
    """gunicorn on a free loopback port, as in production (DEBUG off), on the run's database and
    cache (DATABASE_URL, REDIS_URL: bench.backends)."""
    from django.conf import settings

    from tools.servers import START_TIMEOUT, ServerError, child_options, free_port, log_tail

    env = server_env(directory, LOG_LEVEL="WARNING")
    log = directory / "gunicorn.log"
    port = free_port()
    with log.open("ab") as output:
        process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "gunicorn",
                "config.wsgi:application",
                f"--bind=127.0.0.1:{port}",
                f"--workers={WORKERS}",
                f"--threads={THREADS}",
                "--log-level=warning",
                f"--chdir={settings.BASE_DIR}",
            ],
            env=env,
            stdout=output,
            **child_options(),
        )
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline and process.poll() is None:
        try:
            if _get(f"{base}/bench/empty/")[0] == 200:
                return process, base
        except OSError:
            pass
        time.sleep(0.1)
    process.kill()
    process.wait()
    raise ServerError(f"gunicorn did not start:\n{log_tail(log)}")


def _get(url: str, **headers: str) -> tuple[int, dict[str, str], bytes]:
    request = urllib.request.Request(url, headers={**HEADERS, **headers})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


_LATENCY_UNITS = {"us": 0.001, "ms": 1.0, "s": 1000.0, "m": 60_000.0}


def _wrk(url: str, *, seconds: int = SECONDS, connections: int = CONNECTIONS, **headers) -> dict:
    """Requests per second and the median and 99th percentile latency (ms) of one wrk run."""
    arguments = ["wrk", "-t1", f"-c{connections}", f"-d{seconds}s", "--latency", "--timeout=10s"]
    for name, value in {**HEADERS, **headers}.items():
        arguments += ["-H", f"{name}: {value}"]
    output = subprocess.run(
        [*arguments, url], capture_output=True, text=True, check=True, timeout=seconds + 30
    ).stdout
    p50 = re.search(r"^\s*50%\s+([\d.]+)(us|ms|s|m)\s*$", output, re.MULTILINE)
    p99 = re.search(r"^\s*99%\s+([\d.]+)(us|ms|s|m)\s*$", output, re.MULTILINE)
    rate = re.search(r"^Requests/sec:\s+([\d.]+)", output, re.MULTILINE)
    if p50 is None or p99 is None or rate is None:
        raise RuntimeError(f"Cannot read wrk's output:\n{output}")
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", output)
    sockets = re.search(r"Socket errors: (.*)", output)
    for problem in (errors, sockets):
        if problem:
            print(f"wrk {url}: {problem.group(0)}")
    return {
        "rate": float(rate.group(1)),
        "p50": float(p50.group(1)) * _LATENCY_UNITS[p50.group(2)],
        "p99": float(p99.group(1)) * _LATENCY_UNITS[p99.group(2)],
    }


def _under_load(directory: Path) -> list[Figure]:
    from tools.servers import stop_process

    if shutil.which("wrk") is None:
        raise RuntimeError("The load needs wrk (Debian: apt-get install wrk).")
    process, base = _server(directory)
    try:
        return _load(base)
    finally:
        stop_process(process)


def _phases(base: str) -> list[tuple[str, str, dict[str, str]]]:
    """What is loaded, in order, each checked once first: name, URL, headers."""
    phases = []
    for slug, players, rounds, whole in (
        (LARGE, PLAYERS, ROUNDS, True),
        (CHAMPIONSHIP, *CHAMPIONSHIP_SIZE, False),
    ):
        size = f"{players:,} × {rounds}"
        page = f"{base}/tournaments/{slug}/standings/"
        status, headers, body = _get(page)
        if status != 200:
            raise RuntimeError(f"GET {page}: {status} (no standings page yet?)")
        phases.append((f"standings page {size} ({len(body) / 1024:,.0f} KB)", page, {}))
        if whole:
            table = f"{page}table/"
            _status, table_headers, body = _get(table, **{"HX-Request": "true"})
            phases.append(
                (
                    f"standings table (htmx) {size} ({len(body) / 1024:,.0f} KB)",
                    table,
                    {"HX-Request": "true"},
                )
            )
            # What a phone's refresh is while nothing changed: the table revalidated, a 304.
            phases.append(
                (
                    f"standings table (htmx) {size}, 304 (If-None-Match)",
                    table,
                    {"HX-Request": "true", "If-None-Match": table_headers["ETag"]},
                )
            )
            etag = headers.get("ETag")
            if etag is None or _get(page, **{"If-None-Match": etag})[0] != 304:
                raise RuntimeError(f"GET {page} with If-None-Match {etag}: not a 304")
            phases.append(
                (f"standings page {size}, 304 (If-None-Match)", page, {"If-None-Match": etag})
            )
        api = f"{base}/api/v1/tournaments/{slug}/standings"
        status, _headers, body = _get(api)
        if status != 200:
            raise RuntimeError(f"GET {api}: {status} (no standings API yet?)")
        phases.append((f"standings API {size} ({len(body) / 1024:,.0f} KB)", api, {}))
    return phases


def _floors(base: str, phases: list[tuple[str, str, dict[str, str]]]) -> list[tuple]:
    """What the answers' size alone costs, measured like a phase but with no target: the trivial
    view answering as many bytes as the smallest and the largest answer above, and nothing else
    (bench.urls). On loopback with wrk on the same two cores the bytes are not free."""
    sizes = []
    for _name, url, headers in phases:
        status, _headers, body = _get(url, **headers)
        if status == 200:
            sizes.append(len(body))
    return [
        (f"trivial view answering {size / 1024:,.0f} KB, no target", f"{base}/bench/bytes/{size}/")
        for size in sorted({min(sizes), max(sizes)})
    ]


# Each phase: the trivial view and the page in turn, 6 times 2 s (as long as 4 times 3 s was).
PAIRS, PAIR_SECONDS = 6, 2


def _load(base: str) -> list[Figure]:
    trivial = f"{base}/bench/empty/"
    phases = _phases(base)
    # Warm up once: templates compiled, connections open, the standings in the cache (Redis,
    # shared by the workers; with BENCH_DB=sqlite each worker's own).
    for url, headers in [(trivial, {}), *((url, headers) for _name, url, headers in phases)]:
        _wrk(url, seconds=1, connections=8, **headers)
    # This machine's speed drifts by a factor of three within a minute (it is shared), so each
    # phase takes turns with the trivial view in short runs, and each pair gives a ratio.
    trivial_name = f"trivial view, {CONNECTIONS} connections"
    floors = [(name, url, {}) for name, url in _floors(base, phases)]
    figures = []
    for name, url, headers in [*phases, *floors]:
        pairs = []
        for _ in range(PAIRS):
            empty = _wrk(trivial, seconds=PAIR_SECONDS)
            pairs.append((_wrk(url, seconds=PAIR_SECONDS, **headers), empty))
        mark = "" if "no target" in name else "[≥ 0.8x]"
        figures += [
            drift(
                f"{trivial_name} (gunicorn {WORKERS} × {THREADS}), in turn with the next",
                [e["rate"] for _r, e in pairs],
                "/s",
            ),
            Figure.paired(
                f"{name}: requests {mark}".rstrip(),
                [(r["rate"], e["rate"]) for r, e in pairs],
                trivial_name,
                "/s",
            ),
            Figure.paired(
                f"{name}: p99" + ("" if "no target" in name else " [≤ 1.5x]"),
                [(r["p99"], e["p99"]) for r, e in pairs],
                trivial_name,
                "ms",
            ),
        ]
    return figures
