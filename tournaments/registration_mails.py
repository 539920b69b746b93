"""The mails of the online registration: each names the player's personal link (``/p/<key>/``),
made from ``SITE_URL`` only (``mails``), in the language the player registered in."""

from django.conf import settings
from django.urls import reverse

from tournaments.mails import mail_link, mail_send
from tournaments.models import Registration
from tournaments.selectors.personal import waiting_place


def personal_link_url(key: str) -> str:
    """A player's personal link, as a mail names it."""
    return mail_link(reverse("personal-link", kwargs={"key": key}))


def link_mail_send(
    *, kind: str, to: str, name: str, tournament: str, key: str, language: str, **context
) -> None:
    """One mail to a player that names their personal link: ``tournaments/mails/<kind>_subject
    .txt`` and ``…_body.txt``, in their language (none known: the site's)."""
    mail_send(
        to=to,
        subject_template=f"tournaments/mails/{kind}_subject.txt",
        body_template=f"tournaments/mails/{kind}_body.txt",
        context={**context, "name": name, "tournament": tournament, "url": personal_link_url(key)},
        language=language or settings.LANGUAGE_CODE,
    )


def moved_up_send(*, registration_ids: list[int]) -> None:
    """Tell each player who moved up from the waiting list that they have a place."""
    registrations = Registration.objects.filter(pk__in=registration_ids).select_related(
        "tournament", "entry"
    )
    for registration in registrations:
        if registration.entry is None:
            continue
        link_mail_send(
            kind="moved_up",
            to=registration.email,
            name=registration.name,
            tournament=registration.tournament.name,
            key=registration.entry.link_key,
            language=registration.language,
            start_number=registration.entry.start_number,
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
    link_mail_send(
        kind="registered",
        to=registration.email,
        name=registration.name,
        tournament=registration.tournament.name,
        key=registration.key,
        language=registration.language,
        starts_on=registration.tournament.starts_on,
        venue=registration.tournament.venue,
        start_number=registration.entry.start_number if registration.entry else None,
        place=waiting_place(registration=registration),
    )
