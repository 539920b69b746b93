"""Celery tasks: thin wrappers around services."""

from celery import shared_task

from tournaments import services


@shared_task(name="tournaments.job_run", acks_late=True, reject_on_worker_lost=True)
def job_run_task(job_id: str) -> None:
    """Run a queued job (see ``services.job_run``); a redelivered task is harmless."""
    services.job_run(job_id=job_id)
