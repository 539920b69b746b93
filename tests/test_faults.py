"""Faults with real processes (the `--postgres` pass): the broker going down during a confirm,
a worker killed in the middle of a PDF job, and the cache going away under the pages.

These tests start a Redis and Celery workers of their own (not the session's `redis_server` and
`celery_worker`), because they stop and kill them.
"""

import contextlib
import datetime
import logging
import os
import signal
import sys
import time
from pathlib import Path

import pytest
from celery.signals import after_task_publish
from django.core.management import call_command
from django.db import connection, transaction

from config.celery import app as celery_app
from doko import sample_sheets
from printing import services as printing_services
from printing.models import Job
from scoring import services as scoring_services
from scoring.models import Scoresheet
from tests import factories
from tests.plugins.servers import REQUIRED_BECAUSE, SERVERS_REQUIRED
from tools import servers
from tournaments import services
from tournaments.models import Tournament

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

PROJECT_ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def broker():
    """A Redis of this module's own, which the tests stop and start again on the same port."""
    binary = servers.find_redis_server()
    if binary is None:
        reason = "redis-server not found (install it, e.g. apt-get install redis-server)"
        if SERVERS_REQUIRED:
            pytest.fail(f"{reason}, {REQUIRED_BECAUSE}: the tests that need it must run.")
        pytest.skip(reason)
    server = servers.RestartableRedisServer(binary)
    try:
        server.start()
    except (servers.ServerError, OSError) as error:
        server.stop()
        pytest.fail(f"Redis could not be started: {error}")
    yield server
    server.stop()


def _database_url() -> str:
    """The test database, for the workers (as the session's worker gets it in conftest)."""
    from urllib.parse import quote

    params = connection.settings_dict
    user = quote(params.get("USER") or "", safe="")
    host = params.get("HOST") or "localhost"
    port = f":{params['PORT']}" if params.get("PORT") else ""
    return f"postgres://{user}@{host}{port}/{quote(params['NAME'], safe='')}"


def _reset_celery_connections() -> None:
    from kombu import pools

    if celery_app._pool is not None:
        celery_app._pool.force_close_all()
    celery_app._pool = None
    if "amqp" in celery_app.__dict__:
        celery_app.amqp._producer_pool = None
    pools.reset()


@pytest.fixture
def workers(broker, settings, tmp_path):
    """Start real Celery workers on `broker` and the test database (``workers()``, as often as
    needed); this process sends its tasks to `broker` too. Every worker is stopped at the end and
    its log printed (shown on failure)."""
    if connection.vendor != "postgresql":
        pytest.fail("The Celery worker needs a database that another process can open.")
    if broker.process is None:
        broker.resume()  # a test stopped it and failed before starting it again
    media_root = tmp_path / "media"
    media_root.mkdir()
    settings.MEDIA_ROOT = media_root
    env = dict(os.environ)
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings",
        DATABASE_URL=_database_url(),
        REDIS_URL=broker.url,
        SECRET_KEY=settings.SECRET_KEY,
        MEDIA_ROOT=str(media_root),
        CONN_MAX_AGE="0",
        PYTHONUNBUFFERED="1",
    )
    started: list[servers.CeleryWorker] = []

    def start() -> servers.CeleryWorker:
        worker = servers.CeleryWorker(
            python=sys.executable,
            cwd=PROJECT_ROOT,
            env=env,
            logfile=tmp_path / f"worker-{len(started) + 1}.log",
            media_root=media_root,
        )
        started.append(worker)
        worker.start()
        return worker

    saved = {
        "broker_url": celery_app.conf.broker_url,
        "task_always_eager": celery_app.conf.task_always_eager,
    }
    celery_app.conf.update(broker_url=broker.url, task_always_eager=False)
    _reset_celery_connections()
    try:
        yield start
    finally:
        celery_app.conf.update(saved)
        _reset_celery_connections()
        for worker in started:
            worker.stop()
            print(f"--- Celery worker log ({worker.logfile}) ---\n{worker.log()}")


@contextlib.contextmanager
def _in_process():
    """Tasks run in this process meanwhile: setting up a big tournament queues a standings
    rebuild for every player, which would keep the worker busy before the job under test."""
    celery_app.conf.task_always_eager = True
    try:
        yield
    finally:
        celery_app.conf.task_always_eager = False


@contextlib.contextmanager
def _published(task_name: str):
    """The ids of the `task_name` tasks sent to the broker meanwhile."""
    ids: list[str] = []

    def remember(sender=None, headers=None, **kwargs):
        if sender == task_name:
            ids.append(headers["id"])

    after_task_publish.connect(remember, weak=False)
    try:
        yield ids
    finally:
        after_task_publish.disconnect(remember)


def _wait_for(job: Job, *, until, timeout: float = 30.0) -> Job:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        job.refresh_from_db()
        if until(job):
            return job
        time.sleep(0.02)
    return job


def _finished(job: Job) -> bool:
    return job.status in {Job.Status.DONE, Job.Status.FAILED}


# The broker down during a confirm ------------------------------------------------------------


def test_confirm_and_job_with_the_broker_down_then_back(broker, workers, caplog):
    worker = workers()
    tournament = factories.tournament(players=4)
    round_ = services.round_start(round=factories.seated_round(tournament))
    sheet = Scoresheet.objects.get(table__round=round_)
    sheet = scoring_services.scoresheet_hands_replace(
        scoresheet=sheet,
        hands=sample_sheets.full_match(),
        version=sheet.version,
        by=factories.keeper(sheet),
    )
    sheet = scoring_services.scoresheet_submit(
        scoresheet=sheet, version=sheet.version, by=factories.keeper(sheet)
    )
    before = Tournament.objects.get(pk=tournament.pk).standings_version

    broker.halt()
    caplog.set_level(logging.WARNING)
    with _published("tournaments.standings_rebuild") as sent:
        started = time.monotonic()
        scoring_services.scoresheet_confirm(
            scoresheet=sheet, version=sheet.version, by=factories.checker(sheet)
        )
        took = time.monotonic() - started
    print(f"confirm with Redis stopped: {took:.3f} s")

    # Saved, and the standings rebuilt here before the confirm returned: no worker could.
    assert Scoresheet.objects.get(pk=sheet.pk).status == Scoresheet.Status.CONFIRMED
    assert sent == []
    assert Tournament.objects.get(pk=tournament.pk).standings_version > before
    assert "running tournaments.standings_rebuild in-process" in caplog.text
    assert took < 2.0, f"the confirm waited {took:.1f} s for the broker"

    # A job falls back the same way: it is done when job_start's transaction has committed.
    started = time.monotonic()
    job = printing_services.job_start(tournament=tournament, kind=Job.Kind.ENTRY_LIST_PDF, by=None)
    print(
        f"job_start with Redis stopped (the job run in-process): {time.monotonic() - started:.3f} s"
    )
    job.refresh_from_db()
    assert job.status == Job.Status.DONE, job.error
    assert job.attempts == 1
    assert "running tournaments.job_run in-process" in caplog.text

    # Redis back: the next job goes through it to the worker, which has reconnected.
    broker.resume()
    log_start = len(worker.log())
    with _published("tournaments.job_run") as sent:
        job = printing_services.job_start(
            tournament=tournament, kind=Job.Kind.ENTRY_LIST_PDF, by=None
        )
    assert len(sent) == 1
    job = _wait_for(job, until=_finished)
    assert job.status == Job.Status.DONE, f"{job.status}: {job.error}\n{worker.log()}"
    succeeded = f"Task tournaments.job_run[{sent[0]}] succeeded"
    assert worker.logged(succeeded, since=log_start), worker.log()


# A worker killed in the middle of a PDF job --------------------------------------------------

# Enough tables that blank scoresheets are built in twenty steps, one progress update per table.
BIG_ROUND_PLAYERS = 80


@pytest.fixture
def big_round():
    with _in_process():
        tournament = factories.tournament(players=BIG_ROUND_PLAYERS)
        round_ = factories.seated_round(tournament)
    return tournament, round_


def _scoresheets_job(big_round) -> Job:
    tournament, round_ = big_round
    return printing_services.job_start(
        tournament=tournament,
        round=round_,
        kind=Job.Kind.SCORESHEETS_PDF,
        by=None,
        site_url="http://127.0.0.1:8000/",
    )


@contextlib.contextmanager
def _held_mid_run(job: Job, *, timeout: float = 30.0):
    """Lock the job's row as soon as a worker has started it (and before it finished): its next
    progress update then waits for the lock, so the job stays RUNNING, half built, until the
    block ends. The job takes a fraction of a second; without this the kill would race it.

    The query matches only a running job, so it does not get in the way of the worker's own
    lock at the start (PostgreSQL checks the condition again once that lock is released)."""
    deadline = time.monotonic() + timeout
    with transaction.atomic():
        while (
            held := Job.objects.select_for_update()
            .filter(pk=job.pk, status=Job.Status.RUNNING, progress__lt=100)
            .first()
        ) is None:
            if time.monotonic() > deadline:
                job.refresh_from_db()
                pytest.fail(f"the job was not seen running: {job.status} {job.progress}%")
            time.sleep(0.002)
        yield held


def test_job_survives_a_killed_pool_process(workers, big_round):
    """acks_late + reject_on_worker_lost: the worker's main process sees its pool process die,
    puts the message back (Redis: at once) and runs the job again in a new pool process."""
    worker = workers()
    job = _scoresheets_job(big_round)
    with _held_mid_run(job) as held:
        assert held.attempts == 1
        (child,) = servers.child_pids(worker.process.pid)
        os.kill(child, signal.SIGKILL)
        killed = time.monotonic()

    job = _wait_for(job, until=_finished)
    print(f"killed pool process -> job done: {time.monotonic() - killed:.2f} s")
    assert job.status == Job.Status.DONE, f"{job.status}: {job.error}\n{worker.log()}"
    assert job.attempts == 2
    assert Path(job.file.path).read_bytes().startswith(b"%PDF")
    assert "WorkerLostError" in worker.log()


def test_jobs_recover_after_the_whole_worker_died(workers, big_round):
    """The worker and its pool killed at once (the machine went down): the message stays with
    Redis, unacknowledged and hidden for the visibility timeout (an hour), so nothing runs the
    job again on its own; jobs_recover queues it again for a new worker."""
    worker = workers()
    job = _scoresheets_job(big_round)
    with _held_mid_run(job):
        os.killpg(worker.process.pid, signal.SIGKILL)
        killed = time.monotonic()
    worker.process.wait(10)
    worker.process = None

    workers()
    older_than = datetime.timedelta(seconds=0.5)
    assert (
        printing_services.jobs_recover(older_than=datetime.timedelta(minutes=5)) == []
    )  # it just moved
    time.sleep(older_than.total_seconds() + 0.2)
    job.refresh_from_db()
    assert (job.status, job.attempts) == (Job.Status.RUNNING, 1)  # no worker was handed it
    call_command("jobs_recover", older_than=older_than.total_seconds() / 60)

    job = _wait_for(job, until=_finished)
    took = time.monotonic() - killed
    print(f"killed worker -> job done (jobs_recover after {older_than}): {took:.2f} s")
    assert job.status == Job.Status.DONE, f"{job.status}: {job.error}"
    assert job.attempts == 2
    assert Path(job.file.path).read_bytes().startswith(b"%PDF")


def test_jobs_recover_queues_a_lost_message_and_leaves_live_jobs(workers):
    """A job queued but never taken (its message was lost, e.g. Redis restarted without saving)
    is queued again; running and fresh jobs are left alone."""
    workers()
    tournament = factories.tournament(players=4)
    lost = Job.objects.create(tournament=tournament, kind=Job.Kind.ENTRY_LIST_PDF, language="de")
    alive = Job.objects.create(
        tournament=tournament, kind=Job.Kind.STANDINGS_PDF, language="de", status="running"
    )
    an_hour_ago = datetime.datetime.now(datetime.UTC) - datetime.timedelta(hours=1)
    Job.objects.filter(pk=lost.pk).update(updated_at=an_hour_ago)

    assert printing_services.jobs_recover(older_than=datetime.timedelta(minutes=10)) == [
        str(lost.pk)
    ]
    # Queued again just now, so a second recovery right after does not send it twice.
    assert printing_services.jobs_recover(older_than=datetime.timedelta(minutes=10)) == []
    lost = _wait_for(lost, until=_finished)
    assert lost.status == Job.Status.DONE, lost.error
    assert lost.attempts == 1
    alive.refresh_from_db()
    assert (alive.status, alive.attempts) == (Job.Status.RUNNING, 0)


# Redis as the cache goes away ----------------------------------------------------------------


def test_pages_answer_from_the_database_while_the_cache_is_down(broker, settings, client):
    """The cache on the module's real Redis, as in production (with its short timeouts): the
    public pages, a seat's link and a login answer while it is stopped, and use it again once
    it is back."""
    from django.core.cache import cache, caches
    from django.urls import reverse

    from tests.tournaments.helpers import play

    if broker.process is None:
        broker.resume()
    settings.CACHES = {
        "default": {
            **settings.CACHES["default"],
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": broker.url,
            "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5},
        }
    }
    client.cookies["django_language"] = "en"
    tournament = factories.tournament(players=8)
    with _in_process():
        play(tournament, rounds=2)
    round_ = services.round_start(round=factories.seated_round(tournament))
    sheet = Scoresheet.objects.get(table__round=round_, table__number=1)
    entry = tournament.entries.select_related("player").first()
    factories.user(username="olga")
    pages = {
        "standings": reverse("tournaments:standings", args=[tournament.slug]),
        "standings table": reverse("tournaments:standings-table", args=[tournament.slug]),
        "standings API": reverse("api:standings", args=[tournament.slug]),
        "player": reverse("tournaments:player", args=[tournament.slug, entry.start_number]),
        "tournament": reverse("tournaments:tournament", args=[tournament.slug]),
        "round": reverse("tournaments:round", args=[tournament.slug, round_.number]),
        "scorekeeper's link": reverse(
            "scoring:sheet-link", args=[factories.keeper(sheet).seat.token]
        ),
    }
    for name, url in pages.items():
        assert client.get(url).status_code == 200, name
    assert type(caches["default"]).__name__ == "RedisCache"
    cache.set("doko-fault-probe", "up", 30)
    assert cache.get("doko-fault-probe") == "up"  # and it answers

    broker.halt()
    try:
        for name, url in pages.items():
            started = time.monotonic()
            response = client.get(url)
            took = time.monotonic() - started
            assert response.status_code == 200, f"{name}: {response.status_code}"
            assert took < 3.0, f"{name} waited {took:.1f} s for the cache"
            print(f"{name} with the cache down: {took:.3f} s")
        standings = client.get(pages["standings table"]).content.decode()
        assert entry.player.name in standings
        check = client.post(
            reverse("scoring:sheet-link-check", args=[factories.keeper(sheet).seat.token]),
            {
                "mode": "quick",
                "number": 1,
                "contract": "normal",
                "game_value": 3,
                "plus_seats": "13",
                "version": sheet.version,
            },
            HTTP_HX_REQUEST="true",
        )
        assert check.status_code == 200  # the link's limit fails open
        login = client.post(
            reverse("login"), {"username": "olga", "password": "a-long-test-password"}
        )
        assert login.status_code == 302  # so does the login's
    finally:
        broker.resume()

    cache.set("doko-fault-probe", "back", 30)
    assert cache.get("doko-fault-probe") == "back"
    assert client.get(pages["standings"]).status_code == 200
