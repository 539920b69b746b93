"""The mails of the online registration: each names the player's personal link (``/p/<key>/``),
made from ``SITE_URL`` only (``mails``), in the language the player registered in; and the mail
to the person a registration names, at her address on record, with the link that confirms the
claim (``claim_send``, issue 44)."""

from django.conf import settings
from django.urls import reverse

from registration.claim_links import CLAIM_LINK_DAYS, ClaimLink, claim_token
from registration.models import Registration
from registration.selectors.personal import waiting_place
from tournaments.mails import mail_link, mail_send
from tournaments.models import Entry, Player


def personal_link_url(key: str) -> str:
    """A player's personal link, as a mail names it."""
    return mail_link(reverse("registration:personal-link", kwargs={"key": key}))


def link_mail_send(
    *, kind: str, to: str, name: str, tournament: str, key: str, language: str, **context
) -> None:
    """One mail to a player that names their personal link: ``registration/mails/<kind>_subject
    .txt`` and ``…_body.txt``, in their language (none known: the site's)."""
    mail_send(
        to=to,
        subject_template=f"registration/mails/{kind}_subject.txt",
        body_template=f"registration/mails/{kind}_body.txt",
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


def claim_address(*, person: Player) -> str:
    """The person's address on record: that of her latest entry that has one (an entry is
    hers once the organiser registered her, or a claim was confirmed); blank: none."""
    return (
        Entry.objects.filter(player=person)
        .exclude(email="")
        .order_by("-created_at", "-pk")
        .values_list("email", flat=True)
        .first()
        or ""
    )


def claim_send(*, registration_id: int) -> None:
    """Ask the person an open claim names, at her address on record (never the address the
    registration gave), to confirm that the registration is hers, with the link that does it
    (``claim_links``); an unknown registrant learns nothing from it and can use nothing of it.
    Nothing where she has no address on record."""
    registration = (
        Registration.objects.filter(pk=registration_id, claim=Registration.Claim.OPEN)
        .select_related("tournament", "entry", "claimed_person")
        .first()
    )
    person = registration.claimed_person if registration is not None else None
    if registration is None or registration.entry is None or person is None:
        return
    to = claim_address(person=person)
    if not to:
        return
    token = claim_token(ClaimLink(registration.pk, person.pk, registration.ddv_number))
    mail_send(
        to=to,
        subject_template="registration/mails/claim_subject.txt",
        body_template="registration/mails/claim_body.txt",
        context={
            "name": person.name,
            "registered_as": registration.name,
            "ddv_number": registration.ddv_number,
            "tournament": registration.tournament.name,
            "starts_on": registration.tournament.starts_on,
            "start_number": registration.entry.start_number,
            "url": mail_link(reverse("registration:claim-confirm", kwargs={"token": token})),
            "days": CLAIM_LINK_DAYS,
        },
        language=registration.language or settings.LANGUAGE_CODE,
    )
