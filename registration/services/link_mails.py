"""The mails of the players' personal links, sent by a Celery worker (``registration.tasks``)
after ``services.links.personal_links_mail`` committed: here, apart from the service that queues
them, so that the task and it do not import each other."""

import logging

from registration.mails import link_mail_send
from tournaments.models import Entry

logger = logging.getLogger(__name__)


def personal_links_send(*, tournament_id: int, entry_ids: list[int]) -> int:
    """Send each of the entries, still active and with an address, their personal link as it
    is now, in their registration's language, else the site's; a mail that fails is logged
    and the others go on. Returns how many were sent. (The Celery task's work: each mail is
    sent once its turn comes, nothing is recorded per mail.)"""
    entries = (
        Entry.objects.filter(
            pk__in=entry_ids, tournament_id=tournament_id, status=Entry.Status.ACTIVE
        )
        .exclude(email="")
        .select_related("tournament", "registration")
        .order_by("start_number")
    )
    sent = 0
    for entry in entries:
        registration = getattr(entry, "registration", None)
        language = registration.language if registration is not None else ""
        try:
            link_mail_send(
                kind="personal_link",
                to=entry.email,
                name=entry.name,
                tournament=entry.tournament.name,
                key=entry.link_key,
                language=language,
                start_number=entry.start_number,
            )
        except Exception:
            logger.exception(
                "The personal link of entry %s (tournament %s) was not mailed.",
                entry.pk,
                tournament_id,
            )
            continue
        sent += 1
    return sent
