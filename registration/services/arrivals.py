"""Check-in at the door: who has arrived, and withdrawing in one action those who did not come
before the first draw (TSR 8.3: the draw seats the players present)."""

from dataclasses import dataclass

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from registration.models import Registration
from registration.policies import may_withdraw_no_shows
from registration.services.waiting import waiting_list_advance
from tournaments import policies, selectors
from tournaments.models import Entry, Tournament
from tournaments.services.common import tournament_lock
from tournaments.services.standings import standings_schedule


@dataclass(frozen=True)
class NoShows:
    """The players a no-show withdrawal withdrew, and who moved up into their places."""

    withdrawn: list[Entry]
    moved_up: list[Registration]


def _checking_in(*, entry: Entry, by: User) -> Entry:
    policies.enforce(
        policies.may_check_in(
            tournament=entry.tournament,
            roles=selectors.user_roles(user=by, tournament=entry.tournament),
        )
    )
    return Entry.objects.select_for_update().get(pk=entry.pk)


@transaction.atomic
def entry_check_in(*, entry: Entry, by: User) -> Entry:
    """Mark an active player as arrived; checking in again keeps the first time. A withdrawn or
    disqualified player is refused on ``status``: an organiser takes a withdrawn one back first."""
    entry = _checking_in(entry=entry, by=by)
    if entry.status != Entry.Status.ACTIVE:
        raise ValidationError(
            {
                "status": _(
                    "%(player)s is %(status)s: an organiser takes a withdrawn player back on "
                    "the players page first."
                )
                % {"player": entry.name, "status": entry.get_status_display()}
            }
        )
    if entry.arrived_at is None:
        entry.arrived_at = timezone.now()
        entry.save(update_fields=["arrived_at"])
    return entry


@transaction.atomic
def entry_check_in_undo(*, entry: Entry, by: User) -> Entry:
    """Take a check-in back (a name ticked by mistake)."""
    entry = _checking_in(entry=entry, by=by)
    if entry.arrived_at is not None:
        entry.arrived_at = None
        entry.save(update_fields=["arrived_at"])
    return entry


@transaction.atomic
def no_shows_withdraw(*, tournament: Tournament, by: User) -> NoShows:
    """Withdraw every active player who has not checked in, before the first draw
    (``may_withdraw_no_shows``); the places they free go to the waiting list, in order
    (``waiting_list_advance``): whoever moves up is then expected at the door too. Refused on
    ``entries`` when nobody has checked in yet (the desk has not started: withdrawing everyone
    is never meant)."""
    tournament = tournament_lock(tournament)
    policies.enforce(
        may_withdraw_no_shows(
            tournament=tournament, roles=selectors.user_roles(user=by, tournament=tournament)
        )
    )
    active = tournament.entries.select_for_update().filter(status=Entry.Status.ACTIVE)
    if not active.filter(arrived_at__isnull=False).exists():
        raise ValidationError(
            {
                "entries": _(
                    "Nobody has checked in yet: check the players in at the door first, then "
                    "withdraw those who did not come."
                )
            }
        )
    missing = list(active.filter(arrived_at__isnull=True).order_by("start_number"))
    Entry.objects.filter(pk__in=[entry.pk for entry in missing]).update(
        status=Entry.Status.WITHDRAWN
    )
    for entry in missing:
        entry.status = Entry.Status.WITHDRAWN
    moved_up = waiting_list_advance(tournament=tournament) if missing else []
    if missing:
        standings_schedule(tournament_id=tournament.pk)
    return NoShows(withdrawn=missing, moved_up=moved_up)
