"""Celery tasks: thin wrappers around services, and how a job gets to a worker."""

import logging

from celery import shared_task
from kombu.exceptions import OperationalError

from tournaments import services

logger = logging.getLogger(__name__)


@shared_task(name="tournaments.job_run", acks_late=True, reject_on_worker_lost=True)
def job_run_task(job_id: str) -> None:
    """Run a queued job (see ``services.job_run``); a redelivered task is harmless."""
    services.job_run(job_id=job_id)


def send_or_run(task, *args) -> None:
    """Send ``task`` to a worker; if the broker cannot be reached, run it here and now, so that
    what a write set off is never lost to a Redis outage (the settings give up sending after
    about a second)."""
    try:
        task.delay(*args)
    except OperationalError:
        logger.warning("Broker unreachable; running %s in-process.", task.name)
        task(*args)


def job_enqueue(job_id: str) -> None:
    """Hand a job to a worker, or run it here if the broker cannot be reached.

    Run here rather than left queued for ``services.jobs_recover``: someone is waiting for the
    printout (the table cards before a round), the recovery runs only as often as cron calls it
    and could not reach the broker either while it is down, and running in-process is what this
    project does without Redis anyway. The price, only while the broker is down, is a request
    that takes as long as the job. A job that fails here is marked failed with its error (its
    page says so); the request that queued it has committed and does not fail with it.
    """
    try:
        send_or_run(job_run_task, job_id)
    except Exception:
        logger.exception("Job %s could not be sent, and failed in-process.", job_id)


@shared_task(name="tournaments.standings_rebuild", acks_late=True, reject_on_worker_lost=True)
def standings_rebuild_task(tournament_id: int) -> None:
    """Rebuild a tournament's standings after a change; running it twice is harmless."""
    services.standings_rebuild(tournament_id=tournament_id)


@shared_task(name="tournaments.ranking_rebuild", acks_late=True, reject_on_worker_lost=True)
def ranking_rebuild_task() -> None:
    """Rebuild the ranking lists after a tournament finished."""
    services.rankings_rebuild()
