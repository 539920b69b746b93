"""Writes of a registration's claim to be a person on record (issue 44).

A registration on the public page names a person: by the DDV membership number it gives (any
list of players shows those), else by the same name and club. Anyone can type both, so the
registration never becomes that person by itself: its entry is made for a record of its own
(``registration_player``), which the tournament's pages, standings and ranking lists count as
a person of its own, and the claim stays open. It becomes the person's (the entry moves to the
person's record, with her history and ranking lists) only when

- an organiser confirms it at the desk, having compared the player with an ID
  (``registration_claim_confirm``, ``may_decide_claim``), or
- the person confirms it from the address on record (the address of her latest entry), through
  the link mailed there where the site sends mail (``registration_claim_confirm_by_mail``).

Two registrations may name the same person: the person's own is never refused because someone
else named her first; both show to the organiser as a conflict, and only one is confirmed
(``Entry``: one person enters a tournament once; ``Registration``: one confirmed per number).
"""

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from registration import claim_links, mails
from registration.models import Registration
from registration.policies import may_decide_claim
from registration.selectors.claims import claim_link_find
from tournaments import caching, policies, ranked, selectors
from tournaments.mails import mail_leaves_the_server
from tournaments.models import Entry, PersonChange, Player, player_search_key
from tournaments.services.common import save_validated, tournament_lock
from tournaments.services.persons import (
    folded,
    person_log,
    person_snapshot,
    person_unused_delete,
    player_create,
    same_names,
)
from tournaments.services.standings import standings_schedule


def claimed_person_find(
    *, first_name: str, last_name: str, club: str, ddv_number: str
) -> Player | None:
    """The person on record a registration names: the one with its DDV number; without a
    number, one without a number of the same name and club in any case (as a registration by
    the organiser finds them, ``persons.found_or_created``). None: nobody."""
    if ddv_number:
        return Player.objects.filter(ddv_number=ddv_number).first()
    same = (folded(first_name), folded(last_name), folded(club))
    return next(
        (
            player
            for player in Player.objects.filter(
                search_key=player_search_key(first_name, last_name), ddv_number=""
            ).order_by("pk")
            if (folded(player.first_name), folded(player.last_name), folded(player.club)) == same
        ),
        None,
    )


def claim_names_check(*, first_name: str, last_name: str, ddv_number: str) -> None:
    """Refuse, on ``ddv_number``, a number whose person has another name than the one typed,
    however spelt (a typo in the number, most likely); without naming the person."""
    known = Player.objects.filter(ddv_number=ddv_number).first() if ddv_number else None
    if known is not None and not same_names(known, first_name, last_name, same_person=True):
        raise ValidationError(
            {
                "ddv_number": _(
                    "This DDV membership number belongs to a player registered under a "
                    "different name. Check the number, or register without it and tell "
                    "the organiser."
                )
            },
            code="other_person",
        )


def registration_player(*, registration: Registration) -> Player:
    """The record a registration's entry is made for: the person it names once the claim is
    confirmed (a registration given a place again, ``registration_to_waiting_list``); else a
    record of its own, under the name and club it gave and without a DDV number, and the claim
    open when it names anyone (a DDV number, or a person on record by name and club), or still
    set aside where the organiser set it aside. Sets the registration's claim; the caller
    saves it."""
    person = registration.claimed_person
    if (
        registration.claim == Registration.Claim.CONFIRMED
        and person is not None
        and (not registration.ddv_number or person.ddv_number == registration.ddv_number)
        and not person.entries.filter(tournament_id=registration.tournament_id).exists()
    ):
        return person
    # The organiser's decision that it is not that person stands; else who it names now,
    # found before its own record is made (which would have its name and club too).
    if registration.claim != Registration.Claim.SET_ASIDE:
        named = claimed_person_find(
            first_name=registration.first_name,
            last_name=registration.last_name,
            club=registration.club,
            ddv_number=registration.ddv_number,
        )
        registration.claimed_person = named
        if registration.ddv_number or named is not None:
            registration.claim = Registration.Claim.OPEN
        else:
            registration.claim = Registration.Claim.NONE
        registration.claim_decided_at = registration.claim_decided_by = None
    return player_create(
        first_name=registration.first_name,
        last_name=registration.last_name,
        club=registration.club,
    )


def claim_mail_queue(*, registration: Registration) -> None:
    """Mail the person an open claim names, at the address on record, the link that confirms
    it, once the registration is committed; only where the site sends mail."""
    if (
        registration.claim == Registration.Claim.OPEN
        and registration.claimed_person_id is not None
        and mail_leaves_the_server()
    ):
        pk = registration.pk
        transaction.on_commit(lambda: mails.claim_send(registration_id=pk))


def _decider(*, entry: Entry, by: User) -> Registration:
    """The online registration of the entry, locked, for whoever may decide its claim."""
    tournament = tournament_lock(entry.tournament)
    policies.enforce(
        may_decide_claim(
            tournament=tournament, roles=selectors.user_roles(user=by, tournament=tournament)
        )
    )
    registration = (
        # Only its own row: PostgreSQL locks no row of a nullable join (the person named).
        Registration.objects.select_for_update(of=("self",))
        .select_related("tournament", "claimed_person")
        .filter(entry_id=entry.pk)
        .first()
    )
    if registration is None:
        raise ValidationError(
            {
                "claim": _(
                    "%(player)s was registered by the organiser, not online: there is no claim "
                    "to decide. Correct the player on the players page."
                )
                % {"player": entry.name}
            }
        )
    return registration


def _no_entry(registration: Registration) -> ValidationError:
    return ValidationError(
        {
            "claim": _(
                "%(player)s has no place yet: a claim is decided once the player is registered "
                "with a start number."
            )
            % {"player": registration.name}
        }
    )


def _shown_again(entry: Entry) -> None:
    """The entry's person changed: its standings, its rounds and the ranking lists that count
    the tournament follow."""
    standings_schedule(tournament_id=entry.tournament_id)
    caching.round_changed(*entry.seats.values_list("round_id", flat=True))
    ranked.tournament_changed(tournament=entry.tournament)


def _bind(
    *, registration: Registration, by: User | None, person_id: int | None = None
) -> Registration:
    """Make the registration's entry the person it names, and its claim confirmed; the entry's
    record of its own is deleted once nothing refers to it. ``person_id``: only if the person
    named is still this one (a mailed link's). Runs in the caller's transaction, the
    tournament and the registration locked."""
    if registration.entry_id is None:
        raise _no_entry(registration)
    entry = Entry.objects.select_for_update().select_related("player").get(pk=registration.entry_id)
    own = entry.player
    if registration.ddv_number:
        person = (
            Player.objects.select_for_update().filter(ddv_number=registration.ddv_number).first()
        )
    elif registration.claimed_person_id is not None:
        person = Player.objects.select_for_update().get(pk=registration.claimed_person_id)
    else:
        raise ValidationError(
            {
                "claim": _(
                    "This registration names nobody on record (any more): there is nothing to "
                    "confirm."
                )
            }
        )
    if person_id is not None and (person is None or person.pk != person_id):
        raise ValidationError(
            {"claim": _("This link confirms nothing any more: ask the organiser.")}
        )
    if person is None:
        # Nobody has the number yet: the player's own record takes it, as a registration by
        # the organiser would have given it.
        before = person_snapshot(own)
        own.ddv_number = registration.ddv_number
        save_validated(own)
        person_log(
            player=own,
            kind=PersonChange.Kind.CORRECTED,
            by=by,
            before=before,
            after=person_snapshot(own),
        )
        person = own
    elif person.pk != own.pk:
        there = person.entries.filter(tournament_id=entry.tournament_id).first()
        if there is not None:
            raise ValidationError(
                {
                    "claim": _(
                        "The person named plays in this tournament already, as start number "
                        "%(number)d (%(name)s): only one of them is that person. Set that "
                        "claim aside, or correct that player on the players page, first."
                    )
                    % {"number": there.start_number, "name": there.name}
                }
            )
        entry.player = person
        entry.save(update_fields=["player"])
    registration.claim, registration.claimed_person = Registration.Claim.CONFIRMED, person
    registration.claim_decided_at, registration.claim_decided_by = timezone.now(), by
    save_validated(registration)
    if own.pk != person.pk:
        person_unused_delete(player=own, by=by)
    _shown_again(entry)
    return registration


@transaction.atomic
def registration_claim_confirm(*, entry: Entry, by: User) -> Registration:
    """The organiser confirms at the desk that the player (the entry of a registration made
    online) is the person the registration names (``may_decide_claim``): the entry
    becomes that person's; a claim set aside before may be confirmed too. Refused on
    ``claim`` while the person plays in the tournament under another start number (a
    conflict: one of the two is set aside first)."""
    registration = _decider(entry=entry, by=by)
    if registration.claim not in (Registration.Claim.OPEN, Registration.Claim.SET_ASIDE):
        raise ValidationError(
            {
                "claim": _("%(player)s has no claim to confirm (%(claim)s).")
                % {"player": registration.name, "claim": registration.get_claim_display()}
            }
        )
    return _bind(registration=registration, by=by)


@transaction.atomic
def registration_claim_set_aside(*, entry: Entry, by: User) -> Registration:
    """The organiser decides at the desk that the player is not the person the registration
    names: the entry keeps (or, confirmed before, gets again) a record of its own, and the
    claim no longer shows as open or as a conflict."""
    registration = _decider(entry=entry, by=by)
    if registration.claim not in (Registration.Claim.OPEN, Registration.Claim.CONFIRMED):
        raise ValidationError(
            {
                "claim": _("%(player)s has no claim to set aside (%(claim)s).")
                % {"player": registration.name, "claim": registration.get_claim_display()}
            }
        )
    entry = Entry.objects.select_for_update().get(pk=entry.pk)
    if registration.claim == Registration.Claim.CONFIRMED:
        entry.player = player_create(
            first_name=entry.first_name, last_name=entry.last_name, club=entry.club
        )
        entry.save(update_fields=["player"])
        _shown_again(entry)
    registration.claim = Registration.Claim.SET_ASIDE
    registration.claim_decided_at, registration.claim_decided_by = timezone.now(), by
    save_validated(registration)
    return registration


@transaction.atomic
def registration_claim_confirm_by_mail(*, link: claim_links.ClaimLink) -> Registration:
    """The person confirms, through the link mailed to her address on record, that the
    registration naming her is hers (``claim_links``): the entry becomes hers, as at the desk.
    Only an open claim; a decided one is the organiser's."""
    found = claim_link_find(link=link)
    if found is None:
        raise ValidationError(
            {"claim": _("This link confirms nothing any more: ask the organiser.")}
        )
    tournament_lock(found.tournament)
    registration = (
        # Only its own row: PostgreSQL locks no row of a nullable join (the person named).
        Registration.objects.select_for_update(of=("self",))
        .select_related("tournament", "claimed_person")
        .get(pk=found.pk)
    )
    if registration.claim != Registration.Claim.OPEN:
        raise ValidationError(
            {
                "claim": _(
                    "The organiser has decided this registration already (%(claim)s); ask the "
                    "organiser if that is wrong."
                )
                % {"claim": registration.get_claim_display()}
            }
        )
    return _bind(registration=registration, by=None, person_id=link.person_id)


def claim_follow_entry(*, entry: Entry, by: User | None) -> None:
    """The organiser corrected a player's person by hand (``players.entry_update``): an open
    claim of its registration that the entry now is (the person named) counts as confirmed by
    him, a confirmed one that it no longer is as set aside, so that the desk shows no claim
    the players page already decided. Runs in the caller's transaction."""
    registration = (
        Registration.objects.select_for_update()
        .filter(entry=entry)
        .exclude(claim=Registration.Claim.NONE)
        .first()
    )
    if registration is None:
        return
    player = Player.objects.get(pk=entry.player_id)
    if registration.ddv_number:
        named = player.ddv_number == registration.ddv_number
    else:
        named = player.pk == registration.claimed_person_id
    if named and registration.claim != Registration.Claim.CONFIRMED:
        registration.claim, registration.claimed_person = Registration.Claim.CONFIRMED, player
    elif not named and registration.claim == Registration.Claim.CONFIRMED:
        registration.claim = Registration.Claim.SET_ASIDE
    else:
        return
    registration.claim_decided_at, registration.claim_decided_by = timezone.now(), by
    save_validated(registration)
