"""Celery tasks: thin wrappers around services."""

from celery import shared_task

from tournaments import services


@shared_task(name="tournaments.job_run", acks_late=True, reject_on_worker_lost=True)
def job_run_task(job_id: str) -> None:
    """Run a queued job (see ``services.job_run``); a redelivered task is harmless."""
    services.job_run(job_id=job_id)


@shared_task(name="tournaments.standings_rebuild", acks_late=True, reject_on_worker_lost=True)
def standings_rebuild_task(tournament_id: int) -> None:
    """Rebuild a tournament's standings after a change; running it twice is harmless."""
    services.standings_rebuild(tournament_id=tournament_id)


@shared_task(name="tournaments.ranking_rebuild", acks_late=True, reject_on_worker_lost=True)
def ranking_rebuild_task() -> None:
    """Rebuild the ranking lists after a tournament finished."""
    services.rankings_rebuild()
