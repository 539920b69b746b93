"""Who may do what with the online registration, its claims, the no-shows and a player's own
withdrawal through the personal link, answered once per action (``tournaments.policies`` says
how: None when allowed, else a ``Refusal`` with the reason). Who checks players in and who
reads the personal links stay with tournaments' policies: its players page and API show an
entry's arrival and link by them."""

from collections.abc import Collection

from django.utils.translation import gettext as _

from tournaments.models import Entry, Round, Tournament
from tournaments.policies import Refusal
from tournaments.roles import ORGANISER


def may_manage_registration(*, roles: Collection[str]) -> Refusal | None:
    """Open, change and close the online registration, and move players between the places
    and the waiting list: organisers, who decide who plays."""
    if set(roles) & ORGANISER:
        return None
    return Refusal(_("Only an organiser manages the registration and the waiting list."))


def may_decide_claim(*, tournament: Tournament, roles: Collection[str]) -> Refusal | None:
    """Confirm that a player registered online is the person on record the registration
    names (its DDV number, else its name and club), or set the claim aside (issue 44): an
    organiser, who compares the person with an ID at the desk; it gives the entry that
    person's record, history and ranking lists, so the desk's scorekeeper accounts, who tick
    arrivals off, do not. Until the tournament is finished."""
    if not set(roles) & ORGANISER:
        return Refusal(
            _(
                "Only an organiser confirms that a player is the person on record, after "
                "checking an ID: ask an organiser at the desk."
            )
        )
    if tournament.status == Tournament.Status.FINISHED:
        return Refusal(
            _("The tournament is finished; an administrator corrects a person now."), "status"
        )
    return None


def may_withdraw_no_shows(*, tournament: Tournament, roles: Collection[str]) -> Refusal | None:
    """Withdraw every player who has not checked in, in one action: organisers, and only
    before the first round is drawn (TSR 8.3: the draw seats the players present); after it a
    player is withdrawn one by one, which re-seats the drawn rounds."""
    if not set(roles) & ORGANISER:
        return Refusal(_("Only an organiser withdraws the players who did not come."))
    if tournament.rounds.exclude(status=Round.Status.PLANNED).exists():
        return Refusal(
            _(
                "A round is drawn already: withdraw a missing player one by one on the "
                "players page, which re-seats the drawn rounds (TSR 8.3)."
            ),
            "rounds",
        )
    return None


def may_withdraw_oneself(*, entry: Entry, drawn: bool) -> Refusal | None:
    """Withdraw through one's own personal link ("I cannot come"): an active player, before the
    first round is drawn, when the place still goes to the waiting list. Once a round is drawn
    the draw counts on them: the desk (the organiser) withdraws them and sees the re-seating."""
    if entry.status != Entry.Status.ACTIVE:
        return Refusal(
            _("You are no longer active in this tournament (%(status)s).")
            % {"status": entry.get_status_display()},
            field="status",
        )
    if drawn:
        return Refusal(
            _(
                "The first round has been drawn: to withdraw now, tell the desk (the "
                "organiser), who withdraws you."
            ),
            field="rounds",
        )
    return None
