"""Writes for persons (``Player``), whom every tournament of theirs shares: how a registration
finds or makes the person, and the corrections and merges that only the site's administrators
and the ranking lists' maintainers make (``policies.may_change_person``), each logged
(``PersonChange``) in its own transaction."""

import unicodedata
from typing import Any

from django.contrib.auth.models import AnonymousUser, User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import ProtectedError
from django.utils.translation import gettext as _

from doko.names import collapsed
from tournaments import caching, entered, ranked
from tournaments.models import Entry, PersonChange, Player, Seat, player_search_key
from tournaments.policies import enforce, may_change_person
from tournaments.services.common import name_lock, save_validated
from tournaments.services.standings import standings_schedule


def _who_corrects() -> str:
    """Who corrects a person, for the messages that send an organiser there."""
    return _(
        "Only the site's administrators or a ranking list's maintainers correct a person's name."
    )


@transaction.atomic
def player_create(
    *, first_name: str, last_name: str, club: str = "", ddv_number: str = ""
) -> Player:
    """Register a person who can enter tournaments."""
    return save_validated(
        Player(
            first_name=first_name.strip(),
            last_name=last_name.strip(),
            club=club.strip(),
            ddv_number=ddv_number.strip(),
        )
    )


def folded(text: str) -> str:
    """A name as compared in any case: "MÜLLER" is Müller, "Mueller" another."""
    return unicodedata.normalize("NFC", text).lower()


def person_name(first_name: str, last_name: str, ddv_number: str) -> str:
    """What a person is found by (``player_find_or_create``), as the name of their lock."""
    ddv_number = ddv_number.strip()
    if ddv_number:
        return f"ddv:{ddv_number}"
    return f"name:{player_search_key(first_name.strip(), last_name.strip())}"


def person_lock(*people: tuple[str, str, str]) -> None:
    """Lock each person (first name, last name, DDV number) as a registration finds them, all
    at once and so in one order."""
    name_lock("player", *(person_name(*person) for person in people))


def same_names(player: Player, first_name: str, last_name: str, *, same_person: bool) -> bool:
    """Whether a registration under these names is the person with the DDV number: the same
    names in any case; or, when the organiser says it is the same person, the same names
    however spelt (umlauts written out or left off, accents, ß: ``_collapsed``)."""
    if (folded(player.first_name), folded(player.last_name)) == (
        folded(first_name),
        folded(last_name),
    ):
        return True
    return same_person and _collapsed(player.first_name, player.last_name) == _collapsed(
        first_name, last_name
    )


def number_holder_named(player: Player, *, first_name: str, last_name: str) -> bool:
    """Whether a record under these names that gives ``player``'s DDV number is ``player``: the
    same names in any case, as a registration without the organiser's word tells it
    (``found_or_created``); a restored backup asks it too."""
    return same_names(player, first_name.strip(), last_name.strip(), same_person=False)


def _collapsed(first_name: str, last_name: str) -> str:
    """A name as it agrees however spelt: umlauts written out or left off, accents, ß and case
    aside ("Müller", "MUELLER", "Muller"; "Öztürk", "Ozturk": ``doko.names.collapsed``)."""
    return collapsed(" ".join(f"{first_name} {last_name}".split()))


def ddv_number_refusal(*, same_person: bool) -> str:
    """Why a DDV number is refused for a registration under another name, without the other
    person's name: they may play only in tournaments the organiser does not see."""
    if same_person:
        return " ".join(
            (
                _(
                    "This DDV membership number belongs to a person registered under a name "
                    "that differs by more than its spelling: check the number."
                ),
                _who_corrects(),
            )
        )
    return " ".join(
        (
            _(
                "This DDV membership number belongs to a person registered under a different "
                "name. Check the number; if it is the same person with the name spelt "
                "differently, confirm that it is the same person."
            ),
            _who_corrects(),
        )
    )


def found_or_created(
    *, first_name: str, last_name: str, club: str, ddv_number: str, same_person: bool = False
) -> Player:
    """``player_find_or_create`` with the person locked already."""
    first_name, last_name, club, ddv_number = (
        value.strip() for value in (first_name, last_name, club, ddv_number)
    )
    if ddv_number:
        known = Player.objects.filter(ddv_number=ddv_number).first()
        # The number is the person's: a registration under another name is someone else's
        # claim to it, refused unless it is the same name, or the same spelt differently and
        # the organiser says so (N1: otherwise the entry would be another's person).
        if known is not None and not same_names(
            known, first_name, last_name, same_person=same_person
        ):
            raise ValidationError(
                {"ddv_number": ddv_number_refusal(same_person=same_person)}, code="other_person"
            )
    else:
        # The indexed key narrows the search to the same name however spelt; the same name
        # is the same letters in any case, told here in Python so that SQLite (whose iexact
        # folds only ASCII) and PostgreSQL agree. "Mueller" and "Weiss" are other families,
        # as in the file's own check (``player_import``).
        same = (folded(first_name), folded(last_name), folded(club))
        known = next(
            (
                player
                for player in Player.objects.filter(
                    search_key=player_search_key(first_name, last_name), ddv_number=""
                ).order_by("pk")
                if (folded(player.first_name), folded(player.last_name), folded(player.club))
                == same
            ),
            None,
        )
    return known or player_create(
        first_name=first_name, last_name=last_name, club=club, ddv_number=ddv_number
    )


@transaction.atomic
def player_find_or_create(
    *,
    first_name: str,
    last_name: str,
    club: str = "",
    ddv_number: str = "",
    same_person: bool = False,
) -> Player:
    """The known player: by DDV number if one is given, else by name and club in any case
    ("MÜLLER" is Müller, "Mueller" another) without a DDV number; a new player otherwise.

    A DDV number belongs to one person: given with another name than theirs it is refused on
    ``ddv_number``, unless the names are the same in any case, or the same however spelt
    ("MUELLER" is Müller) and ``same_person`` says so.

    Two requests for the same new person at once make one player: the second waits for the
    first (a lock on what the person is found by, held to the end of the transaction) and
    then finds it."""
    person_lock((first_name, last_name, ddv_number))
    return found_or_created(
        first_name=first_name,
        last_name=last_name,
        club=club,
        ddv_number=ddv_number,
        same_person=same_person,
    )


def person_unused_delete(*, player: Player, by: User | AnonymousUser | None) -> bool:
    """Delete a record that no entry and no registration names any more (the record of its
    own a registration's entry had until its claim was confirmed, ``registration.services.claims``;
    a registration's claim holds the person through ``entered.person_held``), logged;
    one that something else still holds on to (a team's member) is kept. Whether it went."""
    if player.entries.exists() or entered.person_held(player=player):
        return False
    before = person_snapshot(player)
    try:
        with transaction.atomic():
            player.delete()
    except ProtectedError:
        return False
    person_log(player=None, kind=PersonChange.Kind.DELETED, by=by, before=before, after={})
    return True


def person_snapshot(player: Player) -> dict[str, Any]:
    """What the log keeps of a person."""
    return {
        "pk": player.pk,
        "first_name": player.first_name,
        "last_name": player.last_name,
        "club": player.club,
        "ddv_number": player.ddv_number,
    }


def person_log(
    *,
    player: Player | None,
    kind: str,
    by: User | AnonymousUser | None,
    before: dict[str, Any],
    after: dict[str, Any],
) -> PersonChange:
    """Write one change to a person into the log, in the transaction that made it."""
    return PersonChange.objects.create(
        player=player,
        kind=kind,
        by=by if by is not None and by.is_authenticated else None,
        before=before,
        after=after,
    )


def entries_follow(*, player: Player, before: dict[str, Any]) -> int:
    """The entries that registered the person as the person was (the same name and club)
    take the person's corrected name and club; entries registered otherwise keep theirs, a
    tournament's own record. Returns how many followed."""
    return (
        Entry.objects.filter(
            player=player,
            first_name=before["first_name"],
            last_name=before["last_name"],
            club=before["club"],
        )
        .exclude(first_name=player.first_name, last_name=player.last_name, club=player.club)
        .update(first_name=player.first_name, last_name=player.last_name, club=player.club)
    )


def person_shown_again(*, player: Player) -> None:
    """After a change to a person: every tournament of theirs builds its standings again, and
    the rounds they sit in are shown afresh."""
    for tournament_id in set(player.entries.values_list("tournament_id", flat=True)):
        standings_schedule(tournament_id=tournament_id)
    caching.round_changed(
        *Seat.objects.filter(entry__player=player).values_list("round_id", flat=True)
    )


@transaction.atomic
def person_update(
    *,
    player: Player,
    first_name: str,
    last_name: str,
    club: str = "",
    ddv_number: str = "",
    by: User | AnonymousUser,
) -> Player:
    """Correct a person: their name, club and DDV number, for every tournament and ranking
    list of theirs. The entries that registered them as they were follow; logged."""
    enforce(may_change_person(user=by))
    person_lock(
        (player.first_name, player.last_name, player.ddv_number),
        (first_name, last_name, ddv_number),
    )
    player = Player.objects.select_for_update().get(pk=player.pk)
    before = person_snapshot(player)
    player.first_name, player.last_name, player.club, player.ddv_number = (
        value.strip() for value in (first_name, last_name, club, ddv_number)
    )
    after = person_snapshot(player)
    if after == before:
        return player
    save_validated(player)
    entries_follow(player=player, before=before)
    person_log(player=player, kind=PersonChange.Kind.CORRECTED, by=by, before=before, after=after)
    person_shown_again(player=player)
    ranked.everything_changed()
    return player


@transaction.atomic
def persons_merge(*, keep: Player, other: Player, by: User | AnonymousUser) -> Player:
    """Merge another record of the same person into ``keep``: its entries become keep's, keep
    takes its DDV number if keep has none, and it is deleted; logged. Refused where both play
    in the same tournament (one person enters a tournament once)."""
    enforce(may_change_person(user=by))
    if keep.pk == other.pk:
        raise ValidationError({"other": _("A record cannot be merged into itself.")})
    person_lock(
        (keep.first_name, keep.last_name, keep.ddv_number),
        (other.first_name, other.last_name, other.ddv_number),
    )
    players = Player.objects.select_for_update().in_bulk([keep.pk, other.pk])
    if other.pk not in players or keep.pk not in players:
        raise ValidationError({"other": _("This record no longer exists.")})
    keep, other = players[keep.pk], players[other.pk]
    both = sorted(
        Entry.objects.filter(player=other, tournament__entries__player=keep)
        .values_list("tournament__name", flat=True)
        .distinct()
    )
    if both:
        raise ValidationError(
            {
                "other": _(
                    "Both records play in %(tournaments)s: one person enters a tournament "
                    "once. Withdraw or correct one of the entries there first."
                )
                % {"tournaments": ", ".join(both)}
            }
        )
    before = {"kept": person_snapshot(keep), "merged": person_snapshot(other)}
    Entry.objects.filter(player=other).update(player=keep)
    PersonChange.objects.filter(player=other).update(player=keep)
    ddv_number = other.ddv_number
    other.delete()
    if not keep.ddv_number and ddv_number:
        keep.ddv_number = ddv_number
        save_validated(keep)
    person_log(
        player=keep,
        kind=PersonChange.Kind.MERGED,
        by=by,
        before=before,
        after=person_snapshot(keep),
    )
    person_shown_again(player=keep)
    ranked.everything_changed()
    return keep
