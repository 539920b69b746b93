"""Celery tasks of the printouts: thin wrappers around ``printing.services``. The task that runs a
job stands beside its service (``printing.jobs.job_run_task``), imported here so that a worker
knows it."""

import logging

from celery import shared_task

from printing import services
from printing.jobs import job_run_task  # noqa: F401

logger = logging.getLogger(__name__)


@shared_task(name="printing.recover", ignore_result=True)
def recover_task() -> None:
    """Queue again the print jobs and standings' rebuilds lost with a worker or a message
    (``services.work_recover``); Celery beat sends it every minute (RECOVER_EVERY_SECONDS)."""
    jobs, tournaments = services.work_recover()
    if jobs or tournaments:
        logger.warning(
            "Recovered lost work: jobs %s, standings of tournaments %s.", jobs, tournaments
        )
