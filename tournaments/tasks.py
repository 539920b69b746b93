"""Celery tasks: thin wrappers around the services they run. The rebuild of the standings has
its own beside its service (``services.standings``), imported here so that a worker knows it
(the ranking lists' is in ``rankings.tasks``, the personal links' mail in ``registration.tasks``); how a task reaches a worker is
``tournaments.workers``."""

from celery import shared_task

from tournaments.services.accounts import password_reset_mail

# The rebuild's task stands beside its service: imported so that a worker knows it.
from tournaments.services.standings import standings_rebuild_task  # noqa: F401


@shared_task(name="tournaments.password_reset_mail", acks_late=True, reject_on_worker_lost=True)
def password_reset_mail_task(email: str, language: str) -> None:
    """Mail the link to choose a new password, if ``email`` has an account."""
    password_reset_mail(email=email, language=language)
