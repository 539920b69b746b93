"""Writes of the online registration's places: a registration given its entry (a place), the
waiting list moving up into the places free under the registration's capacity, and a player
taken off the waiting list. Tournaments asks for the moving up when a withdrawal frees a place
(``tournaments.entered``, answered in ``registration.hooks``)."""

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from registration import mails
from registration.models import OnlineRegistration, Registration
from registration.services.claims import claim_mail_queue, registration_player
from tournaments.models import Entry, Round, Tournament
from tournaments.services.common import save_validated, tournament_lock
from tournaments.services.players import entry_add


def tournament_drawn(tournament: Tournament) -> bool:
    """Whether a round of the tournament has been drawn: from then on players join only as late
    entries, the organiser's decision (``late_entry_refusal``)."""
    return tournament.rounds.exclude(status=Round.Status.PLANNED).exists()


@transaction.atomic
def registration_entry_make(*, registration: Registration) -> Entry:
    """Give a registration its place: an entry under the name, club and address it gave, with
    the registration's key as its personal link (the link the player was sent keeps working),
    for a record of its own until its claim to be a person on record is confirmed
    (``claims.registration_player``: never that person by itself, issue 44). Saves the
    registration admitted, and mails the person it names, at the address on record, the link
    that confirms it (``claims.claim_mail_queue``). After the first draw a late entry, seated
    in the drawn rounds."""
    tournament = tournament_lock(registration.tournament)
    entry = entry_add(
        tournament=tournament,
        player=registration_player(registration=registration),
        start_number=None,
        first_name=registration.first_name,
        last_name=registration.last_name,
        club=registration.club,
        email=registration.email,
    ).entry
    entry.link_key = registration.key
    entry.save(update_fields=["link_key"])
    registration.state, registration.waiting_position = Registration.State.ADMITTED, None
    registration.entry = entry
    save_validated(registration)
    claim_mail_queue(registration=registration)
    return entry


@transaction.atomic
def registration_admit(*, registration: Registration) -> Registration:
    """Give a registration from the waiting list a place (``registration_entry_make``). After
    the first draw it is a late entry (``late_entry_refusal``)."""
    tournament_lock(registration.tournament)
    registration = Registration.objects.select_for_update().get(pk=registration.pk)
    if registration.state != Registration.State.WAITING:
        raise ValidationError(
            {
                "state": _("%(player)s is not on the waiting list (%(state)s).")
                % {"player": registration.name, "state": registration.get_state_display()}
            }
        )
    registration_entry_make(registration=registration)
    return registration


def waiting_list_advance(*, tournament: Tournament) -> list[Registration]:
    """Fill the places free under the online registration's capacity from its waiting list, in
    order, and tell each player by mail (when the site sends mail). Only before the first draw:
    afterwards a player joins only as a late entry, which the organiser decides. Runs inside
    the caller's transaction, the tournament locked. Returns who moved up."""
    settings = OnlineRegistration.objects.filter(tournament=tournament).first()
    if settings is None or settings.capacity is None or tournament_drawn(tournament):
        return []
    active = tournament.entries.filter(status=Entry.Status.ACTIVE).count()
    free = settings.capacity - active
    if free <= 0:
        return []
    waiting = list(
        tournament.registrations.filter(state=Registration.State.WAITING).order_by(
            "waiting_position", "created_at", "pk"
        )[:free]
    )
    moved_up = [registration_admit(registration=registration) for registration in waiting]
    if moved_up:
        ids = [registration.pk for registration in moved_up]
        transaction.on_commit(lambda: mails.moved_up_send(registration_ids=ids))
    return moved_up


@transaction.atomic
def registration_cancel(*, registration: Registration) -> Registration:
    """Take a registration off the waiting list (the player cancelled, or the organiser removed
    it); those behind move up one place. An admitted player is withdrawn instead
    (``entry_withdraw``), which gives the place to the waiting list."""
    registration = Registration.objects.select_for_update().get(pk=registration.pk)
    if registration.state != Registration.State.WAITING:
        raise ValidationError(
            {
                "state": _("%(player)s is not on the waiting list (%(state)s).")
                % {"player": registration.name, "state": registration.get_state_display()}
            }
        )
    registration.state, registration.waiting_position = Registration.State.CANCELLED, None
    registration.save(update_fields=["state", "waiting_position"])
    return registration
