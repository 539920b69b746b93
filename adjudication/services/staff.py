"""Appointing and dismissing the tournament's staff (TSR 8.2.1)."""

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from adjudication import policies
from adjudication.models import (
    Event,
)
from adjudication.services.common import Role, log_event
from tournaments.models import Entry, Tournament, TournamentRole


def _role_name(grant: TournamentRole) -> str:
    user = grant.user
    return _("%(user)s as %(role)s") % {
        "user": user.get_full_name() or user.get_username(),
        "role": grant.get_role_display(),
    }


@transaction.atomic
def role_grant(
    *,
    tournament: Tournament,
    user: User,
    role: TournamentRole.Role,
    entry: Entry | None = None,
    by: User,
) -> TournamentRole:
    """The organiser appoints staff (TSR 8.2.1): adjudicators, members of the arbitration panel
    (usually three), scorekeepers at the desk, other organisers. ``entry``: the player they are
    in this tournament, if they play (their table gets the panel's interruption back, 8.5.1)."""
    policies.enforce(policies.may_appoint_staff(tournament=tournament, user=by))
    if entry is not None and entry.tournament_id != tournament.pk:
        raise ValidationError({"entry": _("The player is not registered in this tournament.")})
    grant, created = TournamentRole.objects.select_for_update().get_or_create(
        tournament=tournament, user=user, role=role, defaults={"entry": entry}
    )
    if not created:
        grant.entry = entry
        grant.save(update_fields=["entry"])
    log_event(
        tournament,
        by=by,
        action=Event.Action.ROLE,
        summary=_("Appointed: %(grant)s") % {"grant": _role_name(grant)}
        + (_(", plays as %(player)s") % {"player": entry.player} if entry else ""),
        user=user.get_username(),
        role=role,
    )
    return grant


@transaction.atomic
def role_revoke(*, grant: TournamentRole, by: User) -> None:
    """Take a role back; a tournament keeps at least one organiser."""
    grant = (
        TournamentRole.objects.select_for_update()
        .select_related("user", "tournament")
        .get(pk=grant.pk)
    )
    tournament = grant.tournament
    policies.enforce(policies.may_appoint_staff(tournament=tournament, user=by))
    if (
        grant.role == Role.ORGANISER
        and not tournament.roles.filter(role=Role.ORGANISER).exclude(pk=grant.pk).exists()
    ):
        raise ValidationError({"role": _("The tournament keeps at least one organiser.")})
    log_event(
        tournament,
        by=by,
        action=Event.Action.ROLE,
        summary=_("No longer: %(grant)s") % {"grant": _role_name(grant)},
        user=grant.user.get_username(),
        role=grant.role,
    )
    grant.delete()
