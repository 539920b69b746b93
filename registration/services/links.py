"""The players' personal links (``/p/<key>/``): one per player for the whole tournament,
replaced when a phone or a card is lost."""

import functools
from dataclasses import dataclass

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import formats, timezone
from django.utils.translation import gettext as _

from registration.models import Registration
from registration.policies import may_withdraw_oneself
from registration.selectors import link_handout
from registration.services.waiting import registration_cancel
from tournaments import policies, selectors, workers
from tournaments.models import Entry, Named, Round, Tournament, new_link_key
from tournaments.roles_history import tablemates
from tournaments.services.common import tournament_lock
from tournaments.services.players import entry_withdraw


@transaction.atomic
def personal_link_replace(*, entry: Entry, by: User) -> Entry:
    """Give the player a new personal link; the old one opens nothing from now on (a lost
    phone). The seats' own links (the sheets' QR codes) are not touched: whoever holds one of
    those holds the seat, as before. ``policies.may_read_personal_link``: not for one who
    plays with the player."""
    policies.enforce(
        policies.may_read_personal_link(
            entry=entry,
            roles=selectors.user_roles(user=by, tournament=entry.tournament),
            tablemates=tablemates(user_id=by.pk, tournament_id=entry.tournament_id),
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
    # Who moved up into its place (``tournaments.entered``: the waiting list).
    moved_up: tuple[Named, ...] = ()


@transaction.atomic
def personal_link_withdraw(*, found: Entry | Registration) -> Withdrawn:
    """The player withdraws through their personal link ("I cannot come"): an active player
    before the first draw (``may_withdraw_oneself``), whose place goes to the waiting
    list (``entry_withdraw``); a waiting registration leaves the waiting list
    (``registration_cancel``). Whoever holds the link may do this: it is the player's."""
    if isinstance(found, Registration):
        return Withdrawn(registration=registration_cancel(registration=found))
    tournament = tournament_lock(found.tournament)
    entry = Entry.objects.select_for_update().get(pk=found.pk)
    policies.enforce(
        may_withdraw_oneself(
            entry=entry, drawn=tournament.rounds.exclude(status=Round.Status.PLANNED).exists()
        )
    )
    change = entry_withdraw(entry=entry)
    return Withdrawn(entry=change.entry, moved_up=change.moved_up)


@dataclass(frozen=True)
class LinksMailing:
    """What ``personal_links_mail`` queued: a mail to each of ``entry_ids``; ``without_address``
    are the active players it does not reach."""

    entry_ids: list[int]
    without_address: list[Entry]


@transaction.atomic
def personal_links_mail(*, tournament: Tournament, by: User) -> LinksMailing:
    """Mail every active player who has an address their personal link (a Celery task, once
    this commits: ``personal_links_send``); once in ten minutes per tournament, so that a
    second click mails nobody twice. ``policies.may_read_personal_links``."""
    # Here, not above: the tasks module imports the services package, which imports this one.
    from registration.tasks import personal_links_mail_task

    policies.enforce(
        policies.may_read_personal_links(roles=selectors.user_roles(user=by, tournament=tournament))
    )
    tournament = tournament_lock(tournament)
    now = timezone.now()
    again = link_handout.personal_links_mail_again_at(tournament=tournament, now=now)
    if again is not None:
        assert tournament.personal_links_mailed_at is not None
        raise ValidationError(
            {
                "personal_links_mailed_at": _(
                    "The personal links were mailed at %(mailed)s; they can be mailed again "
                    "from %(again)s."
                )
                % {
                    "mailed": formats.time_format(
                        timezone.localtime(tournament.personal_links_mailed_at)
                    ),
                    "again": formats.time_format(timezone.localtime(again)),
                }
            }
        )
    reach = link_handout.personal_links_reach(tournament=tournament)
    entry_ids = list(
        link_handout.entries_to_mail(tournament=tournament).values_list("pk", flat=True)
    )
    if not entry_ids:
        raise ValidationError(
            {
                "email": _(
                    "No active player has an e-mail address. Give the players one on the "
                    "players page, or print the cards with the personal links."
                )
            }
        )
    tournament.personal_links_mailed_at = now
    tournament.save(update_fields=["personal_links_mailed_at"])
    transaction.on_commit(
        functools.partial(workers.send_or_run, personal_links_mail_task, tournament.pk, entry_ids)
    )
    return LinksMailing(entry_ids=entry_ids, without_address=reach.without_address)
