"""Celery tasks: thin wrappers around services, and how a task reaches a worker."""

import logging

from celery import shared_task
from kombu.exceptions import OperationalError

from tournaments import services
from tournaments.services.links import personal_links_send

logger = logging.getLogger(__name__)


def send_or_run(task, *args) -> None:
    """Send ``task`` to a worker; if the broker cannot be reached, run it here and now, so that
    what a write set off is never lost to a Redis outage (the settings give up sending after
    about a second)."""
    try:
        task.delay(*args)
    except OperationalError:
        logger.warning("Broker unreachable; running %s in-process.", task.name)
        task(*args)


@shared_task(name="tournaments.standings_rebuild", acks_late=True, reject_on_worker_lost=True)
def standings_rebuild_task(tournament_id: int) -> None:
    """Rebuild a tournament's standings after a change; running it twice is harmless."""
    services.standings_rebuild(tournament_id=tournament_id)


@shared_task(name="tournaments.ranking_rebuild", acks_late=True, reject_on_worker_lost=True)
def ranking_rebuild_task() -> None:
    """Rebuild the ranking lists after a tournament finished."""
    services.rankings_rebuild()


@shared_task(name="tournaments.password_reset_mail", acks_late=True, reject_on_worker_lost=True)
def password_reset_mail_task(email: str, language: str) -> None:
    """Mail the link to choose a new password, if ``email`` has an account."""
    services.password_reset_mail(email=email, language=language)


@shared_task(name="tournaments.personal_links_mail", acks_late=True, reject_on_worker_lost=True)
def personal_links_mail_task(tournament_id: int, entry_ids: list[int]) -> None:
    """Mail the players their personal links (``services.links.personal_links_send``)."""
    personal_links_send(tournament_id=tournament_id, entry_ids=entry_ids)
