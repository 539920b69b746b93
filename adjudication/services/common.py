"""What the adjudication services share: the log, the checks of a seat and of a round under
way. (Validated saving is ``tournaments.services.common.save_validated``.)"""

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from adjudication.messages import Said, words
from adjudication.models import (
    Appeal,
    Decision,
    Event,
    Sanction,
)
from scoring.models import Scoresheet
from tournaments.models import Round, Tournament, TournamentRole

Role = TournamentRole.Role


def log_event(
    tournament: Tournament,
    *,
    by: User,
    action: str,
    summary: str | Said,
    decision: Decision | None = None,
    appeal: Appeal | None = None,
    sanction: Sanction | None = None,
    **details,
) -> Event:
    """Append to the log. ``summary`` is best a message kept untranslated
    (``adjudication.messages.said``), which every reader then reads in his language; text is
    kept as written."""
    message = summary if isinstance(summary, dict) else None
    return Event.objects.create(
        tournament=tournament,
        by=by,
        action=action,
        summary=words(summary),
        message=message,
        decision=decision,
        appeal=appeal,
        sanction=sanction,
        details=details,
    )


def require_match_open(sheet: Scoresheet) -> None:
    """Complaints are made while the match is played or checked: from the start of the round
    until the sheet is confirmed (TSR 8.5.1, 8.5.2)."""
    round_ = sheet.table.round
    if round_.status not in {Round.Status.RUNNING, Round.Status.FINISHED}:
        raise ValidationError(
            _(
                "Round %(round)d is %(status)s: complaints are decided while its matches are "
                "played (TSR 8.5.1)."
            )
            % {"round": round_.number, "status": round_.get_status_display()}
        )
    if sheet.status == Scoresheet.Status.CONFIRMED:
        raise ValidationError(
            _(
                "The scoresheet of table %(table)d is confirmed: its match is over (TSR 8.5.2). "
                "An organiser reopens it first."
            )
            % {"table": sheet.table.number}
        )
