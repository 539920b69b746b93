"""Celery tasks of the registration: thin wrappers around the services they run; how a task
reaches a worker is ``tournaments.workers``."""

from celery import shared_task

from registration.services.link_mails import personal_links_send


# The name it had in the tournaments app, so that a mail queued before the move still goes.
@shared_task(name="tournaments.personal_links_mail", acks_late=True, reject_on_worker_lost=True)
def personal_links_mail_task(tournament_id: int, entry_ids: list[int]) -> None:
    """Mail the players their personal links (``services.link_mails.personal_links_send``)."""
    personal_links_send(tournament_id=tournament_id, entry_ids=entry_ids)
