"""Reads for handing the players their personal links: who can be mailed theirs, and when the
links were last mailed."""

import datetime
from dataclasses import dataclass

from django.db.models import QuerySet

from tournaments.models import Entry, Tournament

# The players are mailed their links at most once in this long (``services.personal_links_mail``).
MAIL_AGAIN_AFTER = datetime.timedelta(minutes=10)


@dataclass(frozen=True)
class LinkReach:
    """The active players a mail of the personal links reaches, and those it does not."""

    with_address: int
    without_address: list[Entry]


def entries_to_mail(*, tournament: Tournament) -> QuerySet[Entry]:
    """The active players with an e-mail address, by start number."""
    return (
        tournament.entries.filter(status=Entry.Status.ACTIVE)
        .exclude(email="")
        .order_by("start_number")
    )


def personal_links_reach(*, tournament: Tournament) -> LinkReach:
    """How many active players have an address, and who has none (two queries)."""
    without = list(
        tournament.entries.filter(status=Entry.Status.ACTIVE, email="").order_by("start_number")
    )
    return LinkReach(
        with_address=entries_to_mail(tournament=tournament).count(), without_address=without
    )


def personal_links_mail_again_at(
    *, tournament: Tournament, now: datetime.datetime
) -> datetime.datetime | None:
    """When the links may be mailed again; None when they may now."""
    mailed = tournament.personal_links_mailed_at
    if mailed is None or now - mailed >= MAIL_AGAIN_AFTER:
        return None
    return mailed + MAIL_AGAIN_AFTER
