"""The mails of the online registration: each names the player's personal link (``/p/<key>/``),
made from ``SITE_URL`` only (``mails``), in the language the player registered in."""

from django.conf import settings
from django.urls import reverse

from tournaments.mails import mail_link, mail_send
from tournaments.models import Registration


def personal_link_url(key: str) -> str:
    """A player's personal link, as a mail names it."""
    return mail_link(reverse("personal-link", kwargs={"key": key}))


def moved_up_send(*, registration_ids: list[int]) -> None:
    """Tell each player who moved up from the waiting list that they have a place."""
    registrations = Registration.objects.filter(pk__in=registration_ids).select_related(
        "tournament", "entry"
    )
    for registration in registrations:
        if registration.entry is None:
            continue
        mail_send(
            to=registration.email,
            subject_template="tournaments/mails/moved_up_subject.txt",
            body_template="tournaments/mails/moved_up_body.txt",
            context={
                "name": registration.name,
                "tournament": registration.tournament.name,
                "start_number": registration.entry.start_number,
                "url": personal_link_url(registration.entry.link_key),
            },
            language=registration.language or settings.LANGUAGE_CODE,
        )


def registered_send(*, registration_id: int) -> None:
    """Confirm a registration on the public page: the place with its start number, or the place
    on the waiting list, and the personal link."""
    registration = (
        Registration.objects.filter(pk=registration_id)
        .select_related("tournament", "entry")
        .first()
    )
    if registration is None or registration.state == Registration.State.CANCELLED:
        return
    place = None
    if registration.state == Registration.State.WAITING:
        place = (
            registration.tournament.registrations.filter(
                state=Registration.State.WAITING,
                waiting_position__lt=registration.waiting_position,
            ).count()
            + 1
        )
    mail_send(
        to=registration.email,
        subject_template="tournaments/mails/registered_subject.txt",
        body_template="tournaments/mails/registered_body.txt",
        context={
            "name": registration.name,
            "tournament": registration.tournament.name,
            "starts_on": registration.tournament.starts_on,
            "venue": registration.tournament.venue,
            "start_number": registration.entry.start_number if registration.entry else None,
            "place": place,
            "url": personal_link_url(registration.key),
        },
        language=registration.language or settings.LANGUAGE_CODE,
    )
