"""Writes of the online registration (issue 33): a player registers on the public page (a place
while places are free, else the waiting list), and the organiser opens, changes and closes the
registration and orders the waiting list: a place given, up, down, removed, or a registered
player sent back to the front of the list before the first draw."""

from dataclasses import dataclass
from datetime import datetime

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Max
from django.utils import formats, timezone
from django.utils.translation import gettext as _

from registration import mails
from registration.models import OnlineRegistration, Registration, registration_person_key
from registration.policies import may_manage_registration
from registration.selectors.personal import waiting_place
from registration.services.claims import claim_names_check
from registration.services.waiting import (
    registration_admit,
    registration_cancel,
    registration_entry_make,
    tournament_drawn,
    waiting_list_advance,
)
from tournaments import policies, selectors
from tournaments.models import Entry, Tournament
from tournaments.services.common import save_validated, tournament_lock
from tournaments.services.persons import person_unused_delete


@dataclass(frozen=True)
class Registered:
    """What a registration on the public page came to: a place (``entry``, its start number) or
    a place on the waiting list (``place``, 1 for the first)."""

    registration: Registration
    entry: Entry | None
    place: int | None


@dataclass(frozen=True)
class SettingsSaved:
    """The registration's settings as saved, who moved up into places the change freed, and
    whether more players are registered than it has places (nobody is taken out for it)."""

    settings: OnlineRegistration
    moved_up: tuple[Registration, ...]
    over_capacity: int


def _manage(*, tournament: Tournament, by: User) -> None:
    policies.enforce(
        may_manage_registration(roles=selectors.user_roles(user=by, tournament=tournament))
    )


def _active(tournament: Tournament) -> int:
    return tournament.entries.filter(status=Entry.Status.ACTIVE).count()


def _when(moment: datetime) -> str:
    return formats.date_format(timezone.localtime(moment), "DATETIME_FORMAT")


def registration_closed_refusal(
    *, settings: OnlineRegistration | None, tournament: Tournament, now: datetime
) -> str | None:
    """Why nobody can register now on the public page, or None while it is open."""
    if settings is None:
        return _("This tournament takes no registrations online; ask its organiser.")
    if tournament.status == Tournament.Status.FINISHED or tournament_drawn(tournament):
        return _(
            "The registration is closed: the tournament has begun. Ask the organiser at the "
            "venue whether you can still enter."
        )
    if settings.closed_at is not None or now >= settings.closes_at:
        return _("The registration is closed. Ask the organiser whether you can still enter.")
    if now < settings.opens_at:
        return _("The registration opens on %(when)s.") % {"when": _when(settings.opens_at)}
    return None


def _duplicate_check(*, tournament: Tournament, key: str) -> None:
    """Refuse, on the first name, a second registration of the same person at the same
    address: the name in any spelling ("Jurgen MUELLER" is Jürgen Müller,
    ``doko.names.person_key``), the address in any case; among the registrations (which the
    database holds too, ``registration_person_once``) and the players the organiser added with
    an address. Another address is another registration, which the organiser sees."""
    duplicate = tournament.registrations.exclude(state=Registration.State.CANCELLED).filter(
        person_key=key
    ).exists() or any(
        registration_person_key(*entry) == key
        for entry in tournament.entries.filter(
            status=Entry.Status.ACTIVE, registration__isnull=True
        )
        .exclude(email="")
        .values_list("first_name", "last_name", "email")
    )
    if duplicate:
        raise ValidationError(
            {
                "first_name": _(
                    "This player is already registered for this tournament with this e-mail "
                    "address (the name in any spelling)."
                )
            },
            code="duplicate",
        )


@transaction.atomic
def registration_submit(
    *,
    tournament: Tournament,
    first_name: str,
    last_name: str,
    club: str = "",
    email: str,
    ddv_number: str = "",
    language: str = "",
    confirm_by_mail: bool = True,
) -> Registered:
    """Register a player on the public page while the registration is open: a place while
    active players fill fewer than its places (an entry for a record of its own, with the
    registration's key as the personal link: ``waiting.registration_entry_make``), else the
    end of the waiting list, or a refusal where there is none. The tournament is locked first,
    so two requests for the last place cannot both get it.

    A DDV number (or a name and club) of a person on record is a claim, never that person by
    itself (issue 44, ``services.claims``), and never refused because another registration
    named the same person: the organiser sees both. The same person at the same address in any
    spelling is refused. A confirmation mail follows on commit, unless ``confirm_by_mail`` is
    false (the demo's made-up players have no mailbox)."""
    first_name, last_name, club, email, ddv_number = (
        value.strip() for value in (first_name, last_name, club, email, ddv_number)
    )
    tournament = tournament_lock(tournament)
    settings = OnlineRegistration.objects.filter(tournament=tournament).first()
    if refusal := registration_closed_refusal(
        settings=settings, tournament=tournament, now=timezone.now()
    ):
        raise ValidationError(refusal, code="closed")
    assert settings is not None  # no refusal: it is open
    # The tournament's lock makes the same person sent twice at once one request after the
    # other, and the second is told it is a duplicate.
    _duplicate_check(
        tournament=tournament, key=registration_person_key(first_name, last_name, email)
    )
    claim_names_check(first_name=first_name, last_name=last_name, ddv_number=ddv_number)
    registration = Registration(
        tournament=tournament,
        first_name=first_name,
        last_name=last_name,
        club=club,
        email=email,
        ddv_number=ddv_number,
        language=language[:16],
    )
    full = settings.capacity is not None and _active(tournament) >= settings.capacity
    entry: Entry | None = None
    if not full:
        entry = registration_entry_make(registration=registration)
    elif settings.waiting_list:
        highest = tournament.registrations.aggregate(highest=Max("waiting_position"))["highest"]
        registration.state = Registration.State.WAITING
        registration.waiting_position = (highest or 0) + 1
        save_validated(registration)
    else:
        raise ValidationError(
            {"capacity": _("All places are taken, and this tournament keeps no waiting list.")},
            code="full",
        )
    pk = registration.pk
    if confirm_by_mail:
        transaction.on_commit(lambda: mails.registered_send(registration_id=pk))
    return Registered(
        registration=registration, entry=entry, place=waiting_place(registration=registration)
    )


@transaction.atomic
def registration_settings_save(
    *,
    tournament: Tournament,
    by: User,
    opens_at: datetime,
    closes_at: datetime,
    capacity: int | None,
    waiting_list: bool,
    note: str = "",
) -> SettingsSaved:
    """Open the online registration, or change it. More places move the waiting list up at
    once (before the first draw, ``waiting_list_advance``); fewer places than players
    registered are allowed: nobody is taken out, only nobody else gets a place."""
    tournament = tournament_lock(tournament)
    _manage(tournament=tournament, by=by)
    settings = OnlineRegistration.objects.filter(tournament=tournament).first() or (
        OnlineRegistration(tournament=tournament)
    )
    settings.opens_at, settings.closes_at = opens_at, closes_at
    settings.capacity, settings.waiting_list, settings.note = capacity, waiting_list, note.strip()
    save_validated(settings)
    moved_up = waiting_list_advance(tournament=tournament)
    over = max(0, _active(tournament) - capacity) if capacity is not None else 0
    return SettingsSaved(settings=settings, moved_up=tuple(moved_up), over_capacity=over)


def _settings_locked(*, tournament: Tournament, by: User) -> OnlineRegistration:
    tournament = tournament_lock(tournament)
    _manage(tournament=tournament, by=by)
    settings = OnlineRegistration.objects.select_for_update().filter(tournament=tournament).first()
    if settings is None:
        raise ValidationError(
            {"opens_at": _("The online registration is not set up yet: save its settings first.")}
        )
    return settings


@transaction.atomic
def registration_close(*, tournament: Tournament, by: User) -> OnlineRegistration:
    """Close the registration now, before its closing time."""
    settings = _settings_locked(tournament=tournament, by=by)
    if settings.closed_at is None:
        settings.closed_at = timezone.now()
        settings.save(update_fields=["closed_at"])
    return settings


@transaction.atomic
def registration_reopen(*, tournament: Tournament, by: User) -> OnlineRegistration:
    """Open a registration closed early again, until its closing time."""
    settings = _settings_locked(tournament=tournament, by=by)
    if timezone.now() >= settings.closes_at:
        raise ValidationError(
            {
                "closes_at": _(
                    "The closing time has passed: set a later closing time to open the "
                    "registration again."
                )
            }
        )
    if settings.closed_at is not None:
        settings.closed_at = None
        settings.save(update_fields=["closed_at"])
    return settings


def _waiting(tournament: Tournament) -> list[Registration]:
    return list(
        tournament.registrations.select_for_update()
        .filter(state=Registration.State.WAITING)
        .order_by("waiting_position", "created_at", "pk")
    )


def _renumber(waiting: list[Registration]) -> None:
    for position, registration in enumerate(waiting, start=1):
        if registration.waiting_position != position:
            registration.waiting_position = position
            registration.save(update_fields=["waiting_position"])


def _registration_locked(*, registration: Registration, by: User) -> Registration:
    tournament_lock(registration.tournament)
    _manage(tournament=registration.tournament, by=by)
    return Registration.objects.select_for_update().get(pk=registration.pk)


def not_waiting(registration: Registration) -> ValidationError:
    return ValidationError(
        {
            "state": _("%(player)s is not on the waiting list (%(state)s).")
            % {"player": registration.name, "state": registration.get_state_display()}
        }
    )


@transaction.atomic
def registration_move(*, registration: Registration, by: User, place: int) -> list[Registration]:
    """Put a waiting registration at ``place`` on the waiting list (1: the front; beyond the
    end: the end); returns the waiting list in its new order."""
    registration = _registration_locked(registration=registration, by=by)
    if registration.state != Registration.State.WAITING:
        raise not_waiting(registration)
    if place < 1:
        raise ValidationError({"place": _("A place on the waiting list is 1 or more.")})
    waiting = [other for other in _waiting(registration.tournament) if other.pk != registration.pk]
    waiting.insert(min(place, len(waiting) + 1) - 1, registration)
    _renumber(waiting)
    return waiting


@transaction.atomic
def registration_give_place(*, registration: Registration, by: User) -> Registration:
    """Give a waiting player a place, beyond the places if need be (the organiser decides);
    after the first draw a late entry (``late_entry_refusal``)."""
    registration = _registration_locked(registration=registration, by=by)
    registration = registration_admit(registration=registration)
    _renumber(_waiting(registration.tournament))
    return registration


@transaction.atomic
def registration_remove(*, registration: Registration, by: User) -> Registration:
    """Take a player off the waiting list (``registration_cancel``)."""
    registration = _registration_locked(registration=registration, by=by)
    registration = registration_cancel(registration=registration)
    _renumber(_waiting(registration.tournament))
    return registration


@transaction.atomic
def registration_to_waiting_list(*, registration: Registration, by: User) -> Registration:
    """Send a player registered online back to the front of the waiting list, before the first
    draw: their entry (no seat yet) is deleted, their personal link keeps working."""
    registration = _registration_locked(registration=registration, by=by)
    if registration.state != Registration.State.ADMITTED or registration.entry_id is None:
        raise ValidationError(
            {
                "state": _("%(player)s has no place to give back (%(state)s).")
                % {"player": registration.name, "state": registration.get_state_display()}
            }
        )
    if tournament_drawn(registration.tournament):
        raise ValidationError(
            {
                "state": _(
                    "A round is drawn already: withdraw the player on the players page instead."
                )
            }
        )
    entry = Entry.objects.select_for_update().get(pk=registration.entry_id)
    if entry.status != Entry.Status.ACTIVE:
        # A withdrawn player's place went to someone else; at the front of the waiting list
        # he would take the next free place back without having asked for it.
        raise ValidationError(
            {
                "state": _(
                    "%(player)s is %(status)s: an organiser takes a withdrawn player back on "
                    "the players page first."
                )
                % {"player": registration.name, "status": entry.get_status_display()}
            }
        )
    waiting = _waiting(registration.tournament)
    registration.state, registration.entry = Registration.State.WAITING, None
    registration.waiting_position = 1
    registration.save(update_fields=["state", "entry", "waiting_position"])
    player = entry.player
    entry.delete()
    # The record of its own the entry had goes with it; a person confirmed stays, and is the
    # player's again with the next place (``claims.registration_player``).
    person_unused_delete(player=player, by=by)
    _renumber([registration, *waiting])
    return registration
