"""The players' personal links (``/p/<key>/``): one per player for the whole tournament,
replaced when a phone or a card is lost."""

from dataclasses import dataclass

from django.contrib.auth.models import User
from django.db import transaction

from tournaments import policies, selectors
from tournaments.models import Entry, Registration, Round, new_link_key
from tournaments.services import players
from tournaments.services.common import tournament_lock


@transaction.atomic
def personal_link_replace(*, entry: Entry, by: User) -> Entry:
    """Give the player a new personal link; the old one opens nothing from now on (a lost
    phone). The seats' own links (the sheets' QR codes) are not touched: whoever holds one of
    those holds the seat, as before. ``policies.may_read_personal_links``."""
    policies.enforce(
        policies.may_read_personal_links(
            roles=selectors.user_roles(user=by, tournament=entry.tournament)
        )
    )
    entry = Entry.objects.select_for_update().get(pk=entry.pk)
    entry.link_key = new_link_key()
    entry.save(update_fields=["link_key"])
    # The registration the entry came from keeps its key for the waiting list only; kept equal,
    # so that no old key is left anywhere.
    Registration.objects.filter(entry=entry).update(key=entry.link_key)
    return entry


@dataclass(frozen=True)
class Withdrawn:
    """What a withdrawal through a personal link changed: the entry withdrawn (and who moved
    up from the waiting list into its place), or the registration taken off the waiting list."""

    entry: Entry | None = None
    registration: Registration | None = None
    moved_up: tuple[Registration, ...] = ()


@transaction.atomic
def personal_link_withdraw(*, found: Entry | Registration) -> Withdrawn:
    """The player withdraws through their personal link ("I cannot come"): an active player
    before the first draw (``policies.may_withdraw_oneself``), whose place goes to the waiting
    list (``entry_withdraw``); a waiting registration leaves the waiting list
    (``registration_cancel``). Whoever holds the link may do this: it is the player's."""
    if isinstance(found, Registration):
        return Withdrawn(registration=players.registration_cancel(registration=found))
    tournament = tournament_lock(found.tournament)
    entry = Entry.objects.select_for_update().get(pk=found.pk)
    policies.enforce(
        policies.may_withdraw_oneself(
            entry=entry, drawn=tournament.rounds.exclude(status=Round.Status.PLANNED).exists()
        )
    )
    change = players.entry_withdraw(entry=entry)
    return Withdrawn(entry=change.entry, moved_up=change.moved_up)
