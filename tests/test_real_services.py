"""The suite's real servers: PostgreSQL, Redis and a Celery worker (the `--postgres` pass)."""

import datetime
import time
from pathlib import Path

import pytest
import redis
from celery.signals import after_task_publish
from django.contrib.auth import get_user_model
from django.core.cache import cache, caches
from django.db import connection, transaction

from config.celery import app as celery_app
from printing import services as printing_services
from printing.models import Job
from tournaments import services

pytestmark = pytest.mark.services


@pytest.mark.django_db
def test_database_is_postgresql_in_postgres_pass():
    assert connection.vendor == "postgresql"
    with connection.cursor() as cursor:
        cursor.execute("SELECT current_database()")
        assert cursor.fetchone()[0].startswith("test_")


def _wait_for(job: Job, *, timeout: float = 30.0) -> Job:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        job.refresh_from_db()
        if job.status in {Job.Status.DONE, Job.Status.FAILED}:
            return job
        time.sleep(0.05)
    return job


@pytest.mark.django_db(transaction=True)
def test_worker_builds_a_pdf_queued_through_redis(celery_worker):
    published = []

    def remember(sender=None, headers=None, **kwargs):
        # Registering players also queues rebuilds of the standings; only the job counts here.
        if sender == "tournaments.job_run":
            published.append((sender, headers["id"]))

    after_task_publish.connect(remember, weak=False)
    try:
        user = get_user_model().objects.create_user("organiser", password="not-used-here")
        tournament = services.tournament_create(
            name="Real Services Cup",
            starts_on=datetime.date(2025, 3, 1),
            venue="Loopback",
            organiser=user,
        )
        for first_name, last_name in [("Anna", "Alt"), ("Bernd", "Bock"), ("Clara", "Dulle")]:
            player = services.player_create(first_name=first_name, last_name=last_name)
            services.entry_create(tournament=tournament, player=player)
        assert celery_app.conf.task_always_eager is False
        with transaction.atomic():
            job = printing_services.job_start(
                tournament=tournament, kind=Job.Kind.ENTRY_LIST_PDF, by=user
            )
            assert published == []  # queued only on commit
    finally:
        after_task_publish.disconnect(remember)

    # Sent to the broker (an eager run publishes nothing), then run by the worker process.
    assert len(published) == 1
    task_name, task_id = published[0]
    assert task_name == "tournaments.job_run"
    job = _wait_for(job)
    assert job.status == Job.Status.DONE, f"{job.status}: {job.error}\n{celery_worker.log()}"
    assert job.progress == 100
    assert job.attempts == 1
    assert job.started_at is not None
    assert job.finished_at is not None
    path = Path(job.file.path)
    assert path.is_relative_to(celery_worker.media_root)
    assert path.read_bytes().startswith(b"%PDF")
    succeeded = f"Task tournaments.job_run[{task_id}] succeeded"
    assert celery_worker.logged(succeeded), celery_worker.log()


def test_redis_cache_backend_against_a_real_server(redis_server, settings):
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": redis_server,
            "KEY_PREFIX": "doko",
        }
    }
    try:
        assert type(caches["default"]).__name__ == "RedisCache"
        cache.set("answer", {"points": 42}, timeout=60)
        assert cache.get("answer") == {"points": 42}
        assert cache.add("answer", "other") is False
        cache.set("counter", 1)
        assert cache.incr("counter", 2) == 3
        assert cache.get_many(["answer", "counter", "missing"]) == {
            "answer": {"points": 42},
            "counter": 3,
        }
        # The values are in the Redis server, under the configured prefix.
        client = redis.Redis.from_url(redis_server)
        try:
            assert client.exists("doko:1:answer") == 1
            assert 0 < client.ttl("doko:1:answer") <= 60
        finally:
            client.close()
        assert cache.delete("answer") is True
        assert cache.get("answer") is None
    finally:
        cache.clear()
        caches["default"].close()


def test_worker_prints_the_table_cards_scoresheets_and_seat_slips_of_a_round(celery_worker):
    user = get_user_model().objects.create_user("printer", password="not-used-here")
    tournament = services.tournament_create(
        name="Tischkarten-Pokal",
        starts_on=datetime.date(2025, 3, 1),
        organiser=user,
        allow_tables_of_five=True,  # nine players: a table of five and one of four (TSR 10.1)
    )
    for number in range(9):
        player = services.player_create(first_name=f"Vorname{number}", last_name="Müller")
        services.entry_create(tournament=tournament, player=player)
    round_ = services.round_seat(round=services.round_create(tournament=tournament), seed=1)
    for kind, ending in [
        (Job.Kind.TABLE_CARDS_PDF, "-1-table-cards.pdf"),
        (Job.Kind.SCORESHEETS_PDF, "-1-scoresheets.pdf"),
        (Job.Kind.SEAT_SLIPS_PDF, "-1-seat-slips.pdf"),
    ]:
        job = printing_services.job_start(
            tournament=tournament,
            round=round_,
            kind=kind,
            by=user,
            site_url="http://127.0.0.1:8000/",
        )
        job = _wait_for(job)
        assert job.status == Job.Status.DONE, f"{job.status}: {job.error}\n{celery_worker.log()}"
        assert Path(job.file.path).read_bytes().startswith(b"%PDF")
        assert job.file.name.endswith(ending)


def test_worker_rebuilds_the_standings_after_a_confirm(celery_worker):
    """On PostgreSQL with the real worker: the confirm commits, the worker rebuilds the standings
    and a reader then finds the confirmed points."""
    from doko import sample_sheets
    from scoring.models import Scoresheet
    from tests import factories
    from tournaments import selectors
    from tournaments.models import Tournament

    tournament = factories.tournament(players=4)
    round_ = services.round_start(round=factories.seated_round(tournament))
    sheet = Scoresheet.objects.get(table__round=round_)
    before = Tournament.objects.get(pk=tournament.pk).standings_version
    factories.sheet_confirmed(sheet, sample_sheets.full_match())
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        tournament = Tournament.objects.get(pk=tournament.pk)
        table = selectors.standings_read(tournament=tournament)
        if table is not None and tournament.standings_version > before and table.rows[0].points:
            break
        time.sleep(0.1)
    else:
        pytest.fail(f"the standings were not rebuilt\n{celery_worker.log()}")
    assert sum(row.points for row in table.rows) == 0
    assert "Task tournaments.standings_rebuild" in celery_worker.log()
