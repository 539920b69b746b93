"""Celery tasks: thin wrappers around the services they run. The rebuilds of the standings and
of the ranking lists have theirs beside their services (``services.standings``,
``services.ranking_lists``), imported here so that a worker knows them; how a task reaches a
worker is ``tournaments.workers``."""

from celery import shared_task

from tournaments.services.accounts import password_reset_mail
from tournaments.services.link_mails import personal_links_send

# The rebuilds' tasks stand beside their services: imported so that a worker knows them.
from tournaments.services.ranking_lists import ranking_rebuild_task  # noqa: F401
from tournaments.services.standings import standings_rebuild_task  # noqa: F401


@shared_task(name="tournaments.password_reset_mail", acks_late=True, reject_on_worker_lost=True)
def password_reset_mail_task(email: str, language: str) -> None:
    """Mail the link to choose a new password, if ``email`` has an account."""
    password_reset_mail(email=email, language=language)


@shared_task(name="tournaments.personal_links_mail", acks_late=True, reject_on_worker_lost=True)
def personal_links_mail_task(tournament_id: int, entry_ids: list[int]) -> None:
    """Mail the players their personal links (``services.link_mails.personal_links_send``)."""
    personal_links_send(tournament_id=tournament_id, entry_ids=entry_ids)
