"""Celery tasks of the printouts: thin wrappers around ``printing.services``."""

import logging

from celery import shared_task

from printing import services
from tournaments.tasks import send_or_run

logger = logging.getLogger(__name__)


# The name is the one the task had in the tournaments app: tasks queued in Redis before a
# deploy still find it.
@shared_task(name="tournaments.job_run", acks_late=True, reject_on_worker_lost=True)
def job_run_task(job_id: str) -> None:
    """Run a queued job (see ``services.job_run``); a redelivered task is harmless."""
    services.job_run(job_id=job_id)


@shared_task(name="printing.recover", ignore_result=True)
def recover_task() -> None:
    """Queue again the print jobs and standings' rebuilds lost with a worker or a message
    (``services.work_recover``); Celery beat sends it every minute (RECOVER_EVERY_SECONDS)."""
    jobs, tournaments = services.work_recover()
    if jobs or tournaments:
        logger.warning(
            "Recovered lost work: jobs %s, standings of tournaments %s.", jobs, tournaments
        )


def job_enqueue(job_id: str) -> None:
    """Hand a job to a worker, or run it here if the broker cannot be reached.

    Run here rather than left queued for ``services.jobs_recover``: someone is waiting for the
    printout (the table cards before a round), the recovery runs only once a minute (beat)
    and could not reach the broker either while it is down, and running in-process is what this
    project does without Redis anyway. The price, only while the broker is down, is a request
    that takes as long as the job. A job that fails here is marked failed with its error (its
    page says so); the request that queued it has committed and does not fail with it.
    """
    try:
        send_or_run(job_run_task, job_id)
    except Exception:
        logger.exception("Job %s could not be sent, and failed in-process.", job_id)
