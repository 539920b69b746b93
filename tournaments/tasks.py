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


def job_enqueue(job_id: str) -> None:
    """Hand a job to a worker; if the broker cannot be reached, run it here and now.

    Run here rather than left queued for ``services.jobs_recover``: someone is waiting for the
    printout (the table cards before a round), the recovery runs only as often as cron calls it
    and could not reach the broker either while it is down, and running in-process is what this
    project does without Redis anyway. The price, only while the broker is down, is a request
    that takes as long as the job. A job that fails here is marked failed with its error (its
    page says so); the request that queued it has committed and does not fail with it.
    """
    try:
        job_run_task.delay(job_id)
    except OperationalError:
        logger.warning("Broker unreachable; running job %s in-process.", job_id)
        try:
            services.job_run(job_id=job_id)
        except Exception:
            logger.exception("Job %s failed in-process.", job_id)


@shared_task(name="tournaments.standings_rebuild", acks_late=True, reject_on_worker_lost=True)
def standings_rebuild_task(tournament_id: int) -> None:
    """Rebuild a tournament's standings after a change; running it twice is harmless."""
    services.standings_rebuild(tournament_id=tournament_id)


@shared_task(name="tournaments.ranking_rebuild", acks_late=True, reject_on_worker_lost=True)
def ranking_rebuild_task() -> None:
    """Rebuild the ranking lists after a tournament finished."""
    services.rankings_rebuild()
