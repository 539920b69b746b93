"""What a tournament started from an earlier one asks of the staff app: offer its staff their
roles again (TSR 8.2.1). The one door between ``services.tournament_copy`` and the offers.

Nobody holds a role he has not accepted. The offers, and the page where an account accepts or
declines them, are the adjudication app's (``RoleOffer``), which sits above tournaments; so this
module says what is asked (``StaffOffers``) and the adjudication app answers, registering its
answer when Django starts (``AdjudicationConfig.ready``), as the scoring app answers
``tournaments.play``. Without it nobody but the organiser himself is given a role.
"""

from typing import Protocol

from django.contrib.auth.models import User

from tournaments.models import Entry, Tournament


class StaffOffers(Protocol):
    """The question tournaments asks of the adjudication app."""

    def offer(
        self, *, tournament: Tournament, user: User, role: str, entry: Entry | None, by: User
    ) -> None:
        """Offer ``user`` the role in ``tournament``, as ``by``, its organiser, offers it."""


_offers: StaffOffers | None = None


def register(offers: StaffOffers) -> None:
    """The adjudication app's answer (registered once, at start-up)."""
    global _offers
    _offers = offers


def offer(*, tournament: Tournament, user: User, role: str, entry: Entry | None, by: User) -> bool:
    """Offer ``user`` a role in ``tournament``; False where no app keeps offers (then he is
    given nothing)."""
    if _offers is None:
        return False
    _offers.offer(tournament=tournament, user=user, role=role, entry=entry, by=by)
    return True
