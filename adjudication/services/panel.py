"""The arbitration panel's sitting, for an appeal against a decision or a sanction: who sits,
what it records, and the interruption given back to the table (TSR 8.2.1, 8.5.1)."""

from collections.abc import Collection

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from adjudication import policies
from adjudication.messages import said
from adjudication.models import (
    Appeal,
    Event,
)
from adjudication.services.common import log_event
from doko.rules.problems import ngettext_noop
from scoring.models import Scoresheet
from tournaments.models import Seat, Table
from tournaments.services import table_extra_time_give_back
from tournaments.services.common import save_validated


def require_members(
    table: Table, members: Collection[User], *, what=policies.APPEAL, appeal: Appeal | None = None
) -> None:
    policies.enforce(
        policies.may_sit_on_panel(table=table, members=members, what=what, appeal=appeal)
    )


def _interruption_extra_time(
    table: Table,
    *,
    minutes: int,
    members: Collection[User],
    reason: str,
    by: User,
) -> list[int]:
    """TSR 8.5.1: the table concerned and the tables where members of the panel play get the
    time the panel's decision took (the player any of a member's roles names, as in
    ``policies.players_at``). Tables whose sheet is confirmed have finished playing."""
    member_tables = Seat.objects.filter(
        table__round=table.round, entry__staff_roles__user__in=list(members)
    ).values_list("table_id", flat=True)
    tables = (
        Table.objects.filter(pk__in={table.pk, *member_tables})
        .exclude(scoresheet__status=Scoresheet.Status.CONFIRMED)
        .select_related("round")
        .order_by("number")
    )
    granted = []
    for each in tables:
        table_extra_time_give_back(table=each, minutes=minutes, reason=reason, by=by)
        granted.append(each.number)
    return granted


def panel_checks(
    appeal: Appeal,
    *,
    table: Table,
    outcome: Appeal.Outcome,
    members: Collection[User],
    reasons: str,
    interruption: int,
    by: User,
) -> Appeal.Outcome:
    """What every decision of the panel on an appeal needs (TSR 8.2.1): a member who does not
    play at the table nor decided in the first instance, not decided yet, its members named,
    its reasons, the interruption."""
    policies.enforce(policies.may_decide_as_panel(table=table, user=by, appeal=appeal))
    if appeal.outcome:
        raise ValidationError(
            {
                "outcome": _(
                    "The arbitration panel has decided already; its decision is final (TSR 8.2.1)."
                )
            }
        )
    outcome = Appeal.Outcome(outcome)
    require_members(table, members, appeal=appeal)
    if not reasons.strip():
        raise ValidationError(
            {"reasons": _("The arbitration panel's decision gives its reasons (TSR 8.2.1).")}
        )
    if interruption < 0:
        raise ValidationError(
            {"interruption": _("The interruption is a number of minutes, 0 or more.")}
        )
    return outcome


def panel_record(
    appeal: Appeal,
    *,
    outcome: Appeal.Outcome,
    members: Collection[User],
    reasons: str,
    interruption: int,
    by: User,
) -> None:
    appeal.outcome = outcome
    appeal.reasons = reasons.strip()
    appeal.interruption = interruption
    appeal.decided_by = by
    appeal.decided_at = timezone.now()
    save_validated(appeal)
    appeal.members.set(members)


def interruption_give_back(
    appeal: Appeal, table: Table, *, members: Collection[User], reason: str, by: User
) -> None:
    """TSR 8.5.1: the tables concerned get the time the panel's decision took, logged."""
    if not appeal.interruption:
        return
    granted = _interruption_extra_time(
        table, minutes=appeal.interruption, members=members, reason=reason, by=by
    )
    log_event(
        table.round.tournament,
        by=by,
        action=Event.Action.EXTRA_TIME,
        appeal=appeal,
        summary=said(
            gettext_noop("Round %(round)d: %(minutes)s for %(tables)s (TSR 8.5.1)"),
            round=table.round.number,
            minutes=said(
                ngettext_noop("%(count)d minute", "%(count)d minutes"), count=appeal.interruption
            ),
            tables=said(
                ngettext_noop("table %(tables)s", "tables %(tables)s", count="many"),
                many=len(granted),
                tables=", ".join(map(str, granted)),
            ),
        ),
        tables=granted,
        minutes=appeal.interruption,
    )
