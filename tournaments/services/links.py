"""The players' personal links (``/p/<key>/``): one per player for the whole tournament,
replaced when a phone or a card is lost."""

from django.contrib.auth.models import User
from django.db import transaction

from tournaments import policies, selectors
from tournaments.models import Entry, Registration, new_link_key


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
